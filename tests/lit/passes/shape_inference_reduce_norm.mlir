// RUN: onnxcc-opt %s --split-input-file --onnxcc-shape-inference --verify-diagnostics | FileCheck %s

// Tests the reductions' shapes: constant axes (negative ones too) with and
// without keepdims, all axes without them, none with noop_with_empty_axes,
// and ArgMax's i64 result.
// CHECK-LABEL: func @reduce_shapes
func.func @reduce_shapes(%x: tensor<2x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>) {
  %a = onnx.constant dense<[-1, 0]> : tensor<2xi64>
  %e = onnx.constant dense<> : tensor<0xi64>
  // CHECK: onnx.reduce_sum {{.*}} -> tensor<1x3x1xf32>
  %0 = onnx.reduce_sum %x, %a : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.reduce_max {{.*}} -> tensor<3xf32>
  %1 = onnx.reduce_max %x, %a {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.reduce_mean {{.*}} -> tensor<f32>
  %2 = onnx.reduce_mean %x {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<*xf32>
  // CHECK: onnx.reduce_l2 {{.*}} -> tensor<2x3x4xf32>
  %3 = onnx.reduce_l2 %x, %e {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>, tensor<0xi64>) -> tensor<*xf32>
  // CHECK: onnx.arg_max {{.*}} -> tensor<2x4xi64>
  %4 = onnx.arg_max %x {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<*xi64>
  return %0, %1, %2, %3, %4 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>
}

// -----

// Tests that axes that are not (yet) a constant leave the result unranked.
// CHECK-LABEL: func @reduce_unknown_axes
func.func @reduce_unknown_axes(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<*xf32> {
  // CHECK: onnx.reduce_prod {{.*}} -> tensor<*xf32>
  %0 = onnx.reduce_prod %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests that a repeated axis is refused, naming it.
func.func @no_infer_repeated_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.constant dense<[1, -1]> : tensor<2xi64>
  // expected-error @+2 {{axes [1, -1] names axis 1 twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.reduce_sum %x, %a : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests that an axis out of range is refused, naming it.
func.func @no_infer_axis_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.constant dense<[2]> : tensor<1xi64>
  // expected-error @+2 {{axes [2] has axis 2, out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.reduce_min %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests LayerNormalization's Mean and InvStdDev: the normalised dims set to
// 1, in f32 whatever the input's type.
// CHECK-LABEL: func @layer_norm_stats
func.func @layer_norm_stats(%x: tensor<2x3x4xf16>, %s: tensor<4xf16>) -> (tensor<*xf16>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: -> (tensor<2x3x4xf16>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  %y, %m, %r = onnx.layer_normalization %x, %s : (tensor<2x3x4xf16>, tensor<4xf16>) -> (tensor<*xf16>, tensor<*xf32>, tensor<*xf32>)
  return %y, %m, %r : tensor<*xf16>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests that a scale that does not broadcast to the input is refused.
func.func @no_infer_layer_norm_scale(%x: tensor<2x4xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{scale [3] does not broadcast to the input [2, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.rms_normalization %x, %s : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that a stash_type other than float32 is refused.
func.func @no_infer_stash_type(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{stash_type 11 is not supported (only 1, float32)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.rms_normalization %x, %s {stash_type = 11 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that num_groups must divide the channels.
func.func @no_infer_groups(%x: tensor<1x6x2xf32>, %s: tensor<6xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{num_groups 4 does not divide the 6 channels}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.group_normalization %x, %s, %s {num_groups = 4 : i64} : (tensor<1x6x2xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that a per-group scale of the wrong size is refused.
func.func @no_infer_group_scale(%x: tensor<1x6x2xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{scale [4] must hold one value per channel (6) or per group (3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.group_normalization %x, %s, %s {num_groups = 3 : i64} : (tensor<1x6x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that LRN needs a window of at least one channel.
func.func @no_infer_lrn_size(%x: tensor<1x6x2xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{size 0 must be >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.lrn %x {size = 0 : i64} : (tensor<1x6x2xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}
