// RUN: onnxcc-opt %s --split-input-file --onnxcc-fold-constants | FileCheck %s

// Tests that arithmetic on constants is evaluated at compile time.
// CHECK-LABEL: func @fold_add
func.func @fold_add() -> tensor<3xf32> {
  %a = onnx.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = onnx.constant dense<0.5> : tensor<f32>
  // CHECK: %[[C:.+]] = onnx.constant dense<[1.500000e+00, 2.500000e+00, 3.500000e+00]> : tensor<3xf32>
  // CHECK-NOT: onnx.add
  // CHECK: return %[[C]]
  %c = onnx.add %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

// Tests that a Cast of a constant folds and dead constants disappear.
// CHECK-LABEL: func @fold_cast
func.func @fold_cast() -> tensor<2xf32> {
  %a = onnx.constant dense<[3, 4]> : tensor<2xi64>
  // CHECK: onnx.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
  // CHECK-NOT: onnx.cast
  %c = onnx.cast %a {to = f32} : (tensor<2xi64>) -> tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// Tests that ops on run-time values are left alone.
// CHECK-LABEL: func @no_fold_runtime
func.func @no_fold_runtime(%x: tensor<3xf32>) -> tensor<3xf32> {
  %b = onnx.constant dense<0.5> : tensor<f32>
  // CHECK: onnx.add %{{.*}}, %{{.*}}
  %c = onnx.add %x, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

// Tests that the pass folds constants larger than the folders' limit with
// general broadcasting ([2, 1, 1024] x [3, 1]), through the same evaluator
// as the folders.
// CHECK-LABEL: func @fold_large_broadcast
func.func @fold_large_broadcast() -> tensor<2x3x1024xf32> {
  %a = onnx.constant dense<2.0> : tensor<2x1x1024xf32>
  %b = onnx.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  // CHECK: onnx.constant dense_resource<folded> : tensor<2x3x1024xf32>
  // CHECK-NOT: onnx.mul
  %c = onnx.mul %a, %b : (tensor<2x1x1024xf32>, tensor<3x1xf32>) -> tensor<2x3x1024xf32>
  return %c : tensor<2x3x1024xf32>
}

// -----

// Tests that integers fold as integers: exact above 2^53, wrapping, and
// INT64_MIN / -1 wraps instead of trapping; division by zero is not folded.
// CHECK-LABEL: func @fold_integers
func.func @fold_integers() -> (tensor<3xi64>, tensor<3xi64>, tensor<1xi64>) {
  %a = onnx.constant dense<[9007199254740993, 9223372036854775807, -9223372036854775808]> : tensor<3xi64>
  %b = onnx.constant dense<[1, 1, -1]> : tensor<3xi64>
  // CHECK-DAG: onnx.constant dense<[9007199254740994, -9223372036854775808, 9223372036854775807]> : tensor<3xi64>
  %c = onnx.add %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  // CHECK-DAG: onnx.constant dense<[9007199254740993, 9223372036854775807, -9223372036854775808]> : tensor<3xi64>
  %d = onnx.div %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %z = onnx.constant dense<0> : tensor<1xi64>
  %one = onnx.constant dense<7> : tensor<1xi64>
  // CHECK-DAG: onnx.div %{{.*}}, %{{.*}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %e = onnx.div %one, %z : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %c, %d, %e : tensor<3xi64>, tensor<3xi64>, tensor<1xi64>
}
