// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that nearest resizing becomes one gather (one tap, no weights) per
// resized axis, in the plan's order, an axis with scale 1 left alone; the
// indices are asymmetric floor's: output j reads floor(j / scale).
// CHECK-LABEL: func @nearest
func.func @nearest(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x6xf32> {
  // CHECK: %[[A:.+]] = kernel.resize_axis %{{.*}} {axis = 2 : i64, extrapolation_value = 0.000000e+00 : f64, indices = array<i64: 0, 0, 1, 1>, taps = 1 : i64, weights = array<f64>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x2xf32>
  // CHECK: kernel.resize_axis %[[A]] {axis = 3 : i64, {{.*}}indices = array<i64: 0, 0, 0, 1, 1, 1>, taps = 1 : i64, weights = array<f64>} : (tensor<1x1x4x2xf32>) -> tensor<1x1x4x6xf32>
  // CHECK-NOT: kernel.resize_axis
  %s = onnx.constant dense<[1.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %0 = onnx.resize %x scales %s {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x6xf32>
  return %0 : tensor<1x1x4x6xf32>
}

// -----

// Tests that linear resizing of integers interpolates through an f64
// intermediate (rounded and saturated only at the end) with two taps per
// output: half_pixel's first output sits at -0.25, clamped to the edge.
// CHECK-LABEL: func @linear_int8
func.func @linear_int8(%x: tensor<1x1x2x2xi8>) -> tensor<1x1x4x4xi8> {
  // CHECK: %[[A:.+]] = kernel.resize_axis %{{.*}} {axis = 2 : i64, {{.*}}indices = array<i64: 0, 0, 0, 1, 0, 1, 1, 1>, taps = 2 : i64, weights = array<f64: 2.500000e-01, 7.500000e-01, 7.500000e-01, 2.500000e-01, 2.500000e-01, 7.500000e-01, 7.500000e-01, 2.500000e-01>} : (tensor<1x1x2x2xi8>) -> tensor<1x1x4x2xf64>
  // CHECK: kernel.resize_axis %[[A]] {axis = 3 : i64, {{.*}}taps = 2 : i64{{.*}}} : (tensor<1x1x4x2xf64>) -> tensor<1x1x4x4xi8>
  %s = onnx.constant dense<[1, 1, 4, 4]> : tensor<4xi64>
  %0 = onnx.resize %x sizes %s {mode = "linear"} : (tensor<1x1x2x2xi8>, tensor<4xi64>) -> tensor<1x1x4x4xi8>
  return %0 : tensor<1x1x4x4xi8>
}

// -----

// Tests that cubic resizing has four taps per output and keeps f32 between
// axes, and that tf_crop_and_resize marks outputs outside the roi with
// index -1 (the extrapolation value).
// CHECK-LABEL: func @cubic_crop
func.func @cubic_crop(%x: tensor<4x4xf32>) -> tensor<4x2xf32> {
  // CHECK: kernel.resize_axis %{{.*}} {axis = 1 : i64, extrapolation_value = 1.000000e+01 : f64, indices = array<i64: -1, {{.*}}>, taps = 4 : i64{{.*}}} : (tensor<4x4xf32>) -> tensor<4x2xf32>
  // CHECK-NOT: kernel.resize_axis
  %roi = onnx.constant dense<[0.0, -1.0, 1.0, 0.5]> : tensor<4xf32>
  %s = onnx.constant dense<[4, 2]> : tensor<2xi64>
  %0 = onnx.resize %x roi %roi sizes %s {mode = "cubic", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 10.0 : f32} : (tensor<4x4xf32>, tensor<4xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Tests that the kernel op's verifier refuses an index outside the input.
func.func @bad_index(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'kernel.resize_axis' op index 2 is outside [0, 2)}}
  %0 = kernel.resize_axis %x {axis = 0 : i64, extrapolation_value = 0.0 : f64, indices = array<i64: 0, 2>, taps = 1 : i64, weights = array<f64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Tests that weights must come one per index.
func.func @bad_weights(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'kernel.resize_axis' op has 1 weights for 2 indices}}
  %0 = kernel.resize_axis %x {axis = 0 : i64, extrapolation_value = 0.0 : f64, indices = array<i64: 0, 1>, taps = 1 : i64, weights = array<f64: 1.0>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Tests that a gather cannot change the element type.
func.func @bad_gather(%x: tensor<2xf32>) -> tensor<2xf64> {
  // expected-error @+1 {{'kernel.resize_axis' op gathers (no weights) with 1 taps or a change of element type}}
  %0 = kernel.resize_axis %x {axis = 0 : i64, extrapolation_value = 0.0 : f64, indices = array<i64: 0, 1>, taps = 1 : i64, weights = array<f64>} : (tensor<2xf32>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}
