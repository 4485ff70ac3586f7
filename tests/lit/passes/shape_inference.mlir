// RUN: onnxcc-opt %s --split-input-file --onnxcc-shape-inference --verify-diagnostics | FileCheck %s

// Tests that unranked results are refined from the pinned input shapes.
// CHECK-LABEL: func @refine_chain
func.func @refine_chain(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // CHECK: onnx.relu %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = onnx.relu %x : (tensor<2x3xf32>) -> tensor<*xf32>
  // CHECK: onnx.flatten %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.flatten %0 {axis = 1 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: return %{{.*}} : tensor<2x3xf32>
  return %1 : tensor<*xf32>
}

// -----

// Tests that the Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain of
// exporters collapses to constants in one sweep once shapes are static.
// CHECK-LABEL: func @shape_chain
func.func @shape_chain(%x: tensor<4x2x3xf32>) -> tensor<*xf32> {
  %s = onnx.shape %x : (tensor<4x2x3xf32>) -> tensor<?xi64>
  %i = onnx.constant dense<0> : tensor<i64>
  %b = onnx.gather %s, %i {axis = 0 : i64} : (tensor<?xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = onnx.constant dense<[0]> : tensor<1xi64>
  %u = onnx.unsqueeze %b, %ax : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %m = onnx.constant dense<[-1]> : tensor<1xi64>
  %c = onnx.concat %u, %m {axis = 0 : i64} : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK-NOT: onnx.shape
  // CHECK-NOT: onnx.gather
  // CHECK-NOT: onnx.concat
  // CHECK: %[[SHAPE:.+]] = onnx.constant dense<[4, -1]> : tensor<2xi64>
  // CHECK: onnx.reshape %{{.*}}, %[[SHAPE]] : (tensor<4x2x3xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  %r = onnx.reshape %x, %c : (tensor<4x2x3xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Tests the ceil_mode output size of MaxPool (SqueezeNet's 55 -> 27).
// CHECK-LABEL: func @pool_ceil
func.func @pool_ceil(%x: tensor<1x8x55x55xf32>) -> tensor<*xf32> {
  // CHECK: -> (tensor<1x8x27x27xf32>, tensor<1x8x27x27xi64>)
  %0, %i = onnx.max_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, ceil_mode = 1 : i64} : (tensor<1x8x55x55xf32>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0 : tensor<*xf32>
}

// -----

// Tests that a Conv whose channels do not match reports both shapes.
func.func @no_infer_conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<*xf32> {
  // The parser's verifier and the pass report it; the first line is ours.
  // expected-error @+2 {{input channels 3 != weight [4, 2, 3, 3] channels 2 x group 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
