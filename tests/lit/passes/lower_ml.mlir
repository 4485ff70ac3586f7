// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that a tree ensemble becomes one kernel.ml_tree_ensemble that keeps
// its node arrays (now weights) and attributes.
// CHECK-LABEL: func @trees
func.func @trees(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %nodes = onnx.constant dense<[[0, 1, 1, 2, 0, 0], [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 2]]> : tensor<3x6xi32>
  %thr = onnx.constant dense<[0.5, 0.0, 0.0]> : tensor<3xf32>
  %mem = onnx.constant dense<0.0> : tensor<1xf32>
  %roots = onnx.constant dense<0> : tensor<1xi32>
  %tgt = onnx.constant dense<[0, 1]> : tensor<2xi32>
  %w = onnx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %base = onnx.constant dense<[0.0, 0.5]> : tensor<2xf32>
  // CHECK-DAG: %[[NODES:.+]] = kernel.weight dense<{{.*}}> : tensor<3x6xi32>
  // CHECK: kernel.ml_tree_ensemble %{{.*}}, %[[NODES]], {{.*}} {aggregate = 1 : i64, binary = false, depth = 1 : i64, max_feature = 0 : i64, n_targets = 2 : i64, post_transform = 2 : i64} : (tensor<3x2xf32>, tensor<3x6xi32>, tensor<3xf32>, tensor<1xf32>, tensor<1xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %s = onnx.ml_tree_ensemble %x, %nodes, %thr, %mem, %roots, %tgt, %w, %base {aggregate = 1 : i64, binary = false, depth = 1 : i64, max_feature = 0 : i64, n_targets = 2 : i64, post_transform = 2 : i64} : (tensor<3x2xf32>, tensor<3x6xi32>, tensor<3xf32>, tensor<1xf32>, tensor<1xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// -----

// Tests that ArrayFeatureExtractor on a 1-D table becomes a view of the
// indices, a run-time gather on the last axis and a view to [1, K].
// CHECK-LABEL: func @afe_vector
func.func @afe_vector(%t: tensor<3xi64>, %i: tensor<2x1xi64>) -> tensor<1x2xi64> {
  // CHECK: %[[FLAT:.+]] = kernel.view %{{.*}} : (tensor<2x1xi64>) -> tensor<2xi64>
  // CHECK: %[[G:.+]] = kernel.gather %{{.*}}, %[[FLAT]] {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  // CHECK: kernel.view %[[G]] : (tensor<2xi64>) -> tensor<1x2xi64>
  %z = onnx.ml_array_feature_extractor %t, %i : (tensor<3xi64>, tensor<2x1xi64>) -> tensor<1x2xi64>
  return %z : tensor<1x2xi64>
}

// -----

// Tests that ArrayFeatureExtractor on a matrix gathers along its last axis
// with no views.
// CHECK-LABEL: func @afe_matrix
func.func @afe_matrix(%x: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<4x2xf32> {
  // CHECK-NOT: kernel.view
  // CHECK: kernel.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  %z = onnx.ml_array_feature_extractor %x, %i : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %z : tensor<4x2xf32>
}

// -----

// Tests that an SVM classifier becomes one kernel with both results, its
// support vectors transposed to one row per feature.
// CHECK-LABEL: func @svm
func.func @svm(%x: tensor<3x2xf32>) -> (tensor<3xi64>, tensor<3x2xf32>) {
  %sv = onnx.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  // CHECK: %[[SVT:.+]] = kernel.weight dense<{{\[}}[0.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>
  %c = onnx.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %rho = onnx.constant dense<0.5> : tensor<1xf32>
  %st = onnx.constant dense<[0, 1, 2]> : tensor<3xi32>
  %p = onnx.constant dense<0.0> : tensor<1xf32>
  %lab = onnx.constant dense<[3, 7]> : tensor<2xi64>
  // CHECK: %[[L:.+]], %[[S:.+]] = kernel.ml_svm_classifier %{{.*}}, %[[SVT]], {{.*}} {classes = 2 : i64, {{.*}}kernel = 2 : i64, {{.*}}vectors = 2 : i64} : {{.*}} -> (tensor<3xi64>, tensor<3x2xf32>)
  // CHECK: return %[[L]], %[[S]]
  %l, %s = onnx.ml_svm_classifier %x, %sv, %c, %rho, %st, %p, %p, %lab {classes = 2 : i64, vectors = 2 : i64, coef0 = 0.0 : f32, columns = 2 : i64, degree = 0 : i64, gamma = 0.5 : f32, kernel = 2 : i64, label_mode = 0 : i64, n_scores = 1 : i64, post_transform = 0 : i64, proba = false, score_mode = 1 : i64} : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<3xi32>, tensor<1xf32>, tensor<1xf32>, tensor<2xi64>) -> (tensor<3xi64>, tensor<3x2xf32>)
  return %l, %s : tensor<3xi64>, tensor<3x2xf32>
}

// -----

// Tests that the kernel op refuses trees that read a feature X lacks.
func.func @bad_feature(%x: tensor<3x2xf32>, %n: tensor<1x6xi32>, %t: tensor<1xf32>, %r: tensor<1xi32>, %b: tensor<1xf32>) -> tensor<3x1xf32> {
  // expected-error @+1 {{'kernel.ml_tree_ensemble' op reads feature 2 of 2}}
  %s = kernel.ml_tree_ensemble %x, %n, %t, %t, %r, %r, %t, %b {aggregate = 0 : i64, binary = false, depth = 0 : i64, max_feature = 2 : i64, n_targets = 1 : i64, post_transform = 0 : i64} : (tensor<3x2xf32>, tensor<1x6xi32>, tensor<1xf32>, tensor<1xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x1xf32>
  return %s : tensor<3x1xf32>
}

// -----

// Tests that the type rule refuses an ensemble reading a feature X lacks.
func.func @bad_feature_onnx(%x: tensor<3x2xf32>, %n: tensor<1x6xi32>, %t: tensor<1xf32>, %r: tensor<1xi32>, %b: tensor<1xf32>) -> tensor<3x1xf32> {
  // expected-error @+2 {{X has 2 features, the trees read feature 5}}
  // expected-error @+1 {{failed to infer returned types}}
  %s = onnx.ml_tree_ensemble %x, %n, %t, %t, %r, %r, %t, %b {aggregate = 0 : i64, binary = false, depth = 0 : i64, max_feature = 5 : i64, n_targets = 1 : i64, post_transform = 0 : i64} : (tensor<3x2xf32>, tensor<1x6xi32>, tensor<1xf32>, tensor<1xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x1xf32>
  return %s : tensor<3x1xf32>
}
