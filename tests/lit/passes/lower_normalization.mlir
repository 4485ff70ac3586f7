// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that LayerNormalization without used Mean/InvStdDev computes no
// stats, and that a bias of [4] for rows of [3, 4] is first broadcast.
// CHECK-LABEL: func @layer_norm
func.func @layer_norm(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: %[[B:.+]] = kernel.elementwise %{{.*}} : (tensor<4xf32>) -> tensor<3x4xf32>
  // CHECK: kernel.layer_norm %{{.*}}, %{{.*}}, %[[B]] {axis = 1 : i64, epsilon = 1.000000e-03 : f32, rms = false} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %y, %m, %r = onnx.layer_normalization %x, %s, %b {axis = 1 : i64, epsilon = 1.0e-03 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %y : tensor<2x3x4xf32>
}

// -----

// Tests that used Mean/InvStdDev become the kernel's stats results, and
// that a scale of [1, 4] is a view of the row.
// CHECK-LABEL: func @layer_norm_stats
func.func @layer_norm_stats(%x: tensor<2x4xf16>, %s: tensor<1x4xf16>) -> (tensor<2x4xf16>, tensor<2x1xf32>, tensor<2x1xf32>) {
  // CHECK: %[[S:.+]] = kernel.view %{{.*}} : (tensor<1x4xf16>) -> tensor<4xf16>
  // CHECK: kernel.layer_norm %{{.*}}, %[[S]] {axis = 1 : i64, {{.*}}} : (tensor<2x4xf16>, tensor<4xf16>) -> (tensor<2x4xf16>, tensor<2x1xf32>, tensor<2x1xf32>)
  %y, %m, %r = onnx.layer_normalization %x, %s : (tensor<2x4xf16>, tensor<1x4xf16>) -> (tensor<2x4xf16>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %y, %m, %r : tensor<2x4xf16>, tensor<2x1xf32>, tensor<2x1xf32>
}

// -----

// Tests that RMSNormalization is the layer-norm kernel without a mean.
// CHECK-LABEL: func @rms_norm
func.func @rms_norm(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: kernel.layer_norm %{{.*}}, %{{.*}} {axis = 1 : i64, epsilon = {{.*}}, rms = true} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %y = onnx.rms_normalization %x, %s : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Tests that a GroupNormalization-18 scale per group is repeated for each
// channel of its group, and that InstanceNormalization is one channel per
// group.
// CHECK-LABEL: func @group_norms
func.func @group_norms(%x: tensor<1x4x3xf32>, %g: tensor<2xf32>, %c: tensor<4xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>) {
  // CHECK: %[[COL:.+]] = kernel.view %{{.*}} : (tensor<2xf32>) -> tensor<2x1xf32>
  // CHECK: %[[REP:.+]] = kernel.elementwise %[[COL]] : (tensor<2x1xf32>) -> tensor<2x2xf32>
  // CHECK: %[[S:.+]] = kernel.view %[[REP]] : (tensor<2x2xf32>) -> tensor<4xf32>
  // CHECK: kernel.group_norm %{{.*}}, %[[S]], %{{.*}} {epsilon = {{.*}}, groups = 2 : i64}
  %0 = onnx.group_normalization %x, %g, %g {num_groups = 2 : i64} : (tensor<1x4x3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x4x3xf32>
  // CHECK: kernel.group_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = {{.*}}, groups = 4 : i64}
  %1 = onnx.instance_normalization %x, %c, %c : (tensor<1x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3xf32>
  return %0, %1 : tensor<1x4x3xf32>, tensor<1x4x3xf32>
}

// -----

// Tests LRN, LogSoftmax and Hardmax (negative axes normalised).
// CHECK-LABEL: func @axis_ops
func.func @axis_ops(%x: tensor<1x4x3xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1x4x3xf32>) {
  // CHECK: kernel.lrn %{{.*}} {alpha = {{.*}}, beta = {{.*}}, bias = {{.*}}, size = 3 : i64}
  %0 = onnx.lrn %x {size = 3 : i64} : (tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  // CHECK: kernel.axis_norm %{{.*}} {axis = 2 : i64, kind = "log_softmax"}
  %1 = onnx.log_softmax %x : (tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  // CHECK: kernel.axis_norm %{{.*}} {axis = 1 : i64, kind = "hardmax"}
  %2 = onnx.hardmax %x {axis = -2 : i64} : (tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  return %0, %1, %2 : tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1x4x3xf32>
}

// -----

// Tests that the normalisations refuse integer inputs with a reason.
func.func @no_int_norms(%x: tensor<2x4xi32>, %s: tensor<4xi32>) -> (tensor<2x4xi32>, tensor<2x4xi32>) {
  // expected-error @+1 {{cannot compile: element type 'i32' is not supported (floats only)}}
  %0 = onnx.rms_normalization %x, %s : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  // expected-error @+1 {{cannot compile: element type 'i32' is not supported (floats only)}}
  %1 = onnx.log_softmax %x : (tensor<2x4xi32>) -> tensor<2x4xi32>
  return %0, %1 : tensor<2x4xi32>, tensor<2x4xi32>
}
