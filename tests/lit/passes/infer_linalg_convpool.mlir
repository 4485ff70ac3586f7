// RUN: onnxcc-opt %s --split-input-file --onnxcc-shape-inference --verify-diagnostics | FileCheck %s

// Tests MatMul's broadcast batches and 1-D promotion.
// CHECK-LABEL: func @matmul_shapes
func.func @matmul_shapes(%a: tensor<3x1x2x4xf32>, %b: tensor<1x5x4x3xf32>, %v: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: -> tensor<3x5x2x3xf32>
  %0 = onnx.matmul %a, %b : (tensor<3x1x2x4xf32>, tensor<1x5x4x3xf32>) -> tensor<*xf32>
  // CHECK: -> tensor<3x1x2xf32>
  %1 = onnx.matmul %a, %v : (tensor<3x1x2x4xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests Einsum's explicit and implicit outputs, with an ellipsis.
// CHECK-LABEL: func @einsum_shapes
func.func @einsum_shapes(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>, %c: tensor<3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: -> tensor<2x5x3x2xf32>
  %0 = onnx.einsum %a, %b {equation = "...ij,...jk->...ik"} : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<*xf32>
  // Implicit: the labels seen once, sorted (k before q).
  // CHECK: -> tensor<4x3xf32>
  %1 = onnx.einsum %c {equation = "qk"} : (tensor<3x4xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests 1-D and 3-D windows: defaults filled from the weight, auto_pad
// SAME_UPPER keeping ceil(in / stride).
// CHECK-LABEL: func @conv_ranks
func.func @conv_ranks(%x: tensor<1x2x11xf32>, %w: tensor<4x1x3xf32>, %y: tensor<1x1x5x6x7xf32>, %w3: tensor<2x1x3x3x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: -> tensor<1x4x6xf32>
  %0 = onnx.conv %x, %w {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64: 2>, dilations = array<i64: 2>, group = 2 : i64, auto_pad = "SAME_UPPER"} : (tensor<1x2x11xf32>, tensor<4x1x3xf32>) -> tensor<*xf32>
  // CHECK: -> tensor<1x2x3x5x7xf32>
  %1 = onnx.conv %y, %w3 {kernel_shape = array<i64: 3, 3, 3>, pads = array<i64: 0, 0, 1, 0, 1, 1>, strides = array<i64: 1, 1, 1>, dilations = array<i64: 1, 1, 1>} : (tensor<1x1x5x6x7xf32>, tensor<2x1x3x3x3xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests ConvTranspose: output_padding, groups (M = weight[1] * group), and
// output_shape overriding the pads.
// CHECK-LABEL: func @conv_transpose_shapes
func.func @conv_transpose_shapes(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: -> tensor<1x4x8x7xf32>
  %0 = onnx.conv_transpose %x, %w {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64: 2, 2>, dilations = array<i64>, output_padding = array<i64: 1, 0>, output_shape = array<i64>, group = 2 : i64} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<*xf32>
  // CHECK: -> tensor<1x4x10x5xf32>
  %1 = onnx.conv_transpose %x, %w {kernel_shape = array<i64>, pads = array<i64: 5, 5, 5, 5>, strides = array<i64: 3, 1>, dilations = array<i64>, output_padding = array<i64>, output_shape = array<i64: 1, 4, 10, 5>, group = 2 : i64} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests Col2Im with constant image and block shapes, and MaxUnpool with
// and without an output_shape.
// CHECK-LABEL: func @scatter_shapes
func.func @scatter_shapes(%c: tensor<2x10x9xf32>, %p: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %img = onnx.constant dense<[3, 5]> : tensor<2xi64>
  %blk = onnx.constant dense<[1, 5]> : tensor<2xi64>
  // CHECK: -> tensor<2x2x3x5xf32>
  %0 = onnx.col2im %c, %img, %blk {pads = array<i64: 0, 2, 0, 2>, strides = array<i64: 1, 2>, dilations = array<i64>} : (tensor<2x10x9xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: -> tensor<1x1x4x4xf32>
  %1 = onnx.max_unpool %p, %i {kernel_shape = array<i64: 2, 2>, pads = array<i64>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<*xf32>
  %s = onnx.constant dense<[1, 1, 5, 6]> : tensor<4xi64>
  // CHECK: -> tensor<1x1x5x6xf32>
  %2 = onnx.max_unpool %p, %i, %s {kernel_shape = array<i64: 2, 2>, pads = array<i64>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests that a window list of the wrong length names every list.
func.func @no_infer_pool_window_rank(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{expects a 2-D window for an input with 2 spatial axes, got kernel_shape [2, 2], pads [0, 0], strides [1, 1], dilations [1, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.average_pool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0>, strides = array<i64>, dilations = array<i64>} : (tensor<1x1x4x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests that an Einsum label whose extents disagree is reported.
func.func @no_infer_einsum_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{einsum label sizes disagree: 3 and 4 (inputs [2, 3], [4, 5])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests that a malformed equation is reported, not misread.
func.func @no_infer_einsum_equation(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{equation 'i$->i' has an unexpected character at offset 1 of term 'i$'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.einsum %a {equation = "i$->i"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests that a MaxUnpool output_shape smaller than its indices' tensor is
// refused.
func.func @no_infer_unpool_shrink(%p: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<*xf32> {
  %s = onnx.constant dense<[1, 1, 3, 3]> : tensor<4xi64>
  // expected-error @+2 {{output_shape [1, 1, 3, 3] must keep N and C and may only enlarge the unpooled shape [1, 1, 4, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.max_unpool %p, %i, %s {kernel_shape = array<i64: 2, 2>, pads = array<i64>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests that a shape operand that is a graph input is named as
// data-dependent.
func.func @no_infer_col2im_input(%c: tensor<1x5x5xf32>, %img: tensor<2xi64>, %blk: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{image_shape is a graph input: the output shape would depend on its values (a data-dependent shape), which is not supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.col2im %c, %img, %blk {pads = array<i64>, strides = array<i64>, dilations = array<i64>} : (tensor<1x5x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests DeformConv's Conv-shaped result, and that offset must have
// offset_group * kH*kW * 2 channels at the output's extent.
// CHECK-LABEL: func @deform_conv
func.func @deform_conv(%x: tensor<1x4x5x5xf32>, %w: tensor<2x4x3x3xf32>, %off: tensor<1x36x3x3xf32>) -> tensor<*xf32> {
  // CHECK: -> tensor<1x2x3x3xf32>
  %0 = onnx.deform_conv %x, %w, %off {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64>, dilations = array<i64>, offset_group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<1x36x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deform_conv_offset(%x: tensor<1x4x5x5xf32>, %w: tensor<2x4x3x3xf32>, %off: tensor<1x18x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{offset [1, 18, 3, 3] must be [1, 36, 3, 3] for offset_group 2 and kernel_shape [3, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.deform_conv %x, %w, %off {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64>, dilations = array<i64>, offset_group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<1x18x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
