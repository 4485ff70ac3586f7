// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that an f32 1-D Conv runs the 2-D im2col kernel one row high, its
// defaults filled in and its pads moved to the W axis.
// CHECK-LABEL: func @conv1d
func.func @conv1d(%x: tensor<1x3x9xf32>, %w: tensor<4x3x4xf32>) -> tensor<1x4x9xf32> {
  // CHECK-DAG: %[[B:.+]] = kernel.weight dense<0.000000e+00> : tensor<4xf32>
  // CHECK-DAG: %[[X:.+]] = kernel.view %{{.*}} : (tensor<1x3x9xf32>) -> tensor<1x3x1x9xf32>
  // CHECK-DAG: %[[W:.+]] = kernel.view %{{.*}} : (tensor<4x3x4xf32>) -> tensor<4x3x1x4xf32>
  // CHECK: %[[Y:.+]] = kernel.conv2d %[[X]], %[[W]], %[[B]] {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 1, 0, 2>, strides = array<i64: 1, 1>}
  // CHECK: kernel.view %[[Y]] : (tensor<1x4x1x9xf32>) -> tensor<1x4x9xf32>
  %0 = onnx.conv %x, %w {kernel_shape = array<i64>, pads = array<i64: 1, 2>, strides = array<i64>, dilations = array<i64>} : (tensor<1x3x9xf32>, tensor<4x3x4xf32>) -> tensor<1x4x9xf32>
  return %0 : tensor<1x4x9xf32>
}

// -----

// Tests that 3-D and non-f32 Convs use the direct kernel, bias optional.
// CHECK-LABEL: func @conv_direct
func.func @conv_direct(%x: tensor<1x2x4x5x6xf32>, %w: tensor<3x2x3x2x2xf32>, %b: tensor<3xf32>,
                       %xd: tensor<1x3x6x6xf64>, %wd: tensor<6x1x3x3xf64>) -> (tensor<1x3x4x3x5xf32>, tensor<1x6x6x6xf64>) {
  // CHECK: kernel.conv %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1, 2>, group = 1 : i64, pads = array<i64: 1, 0, 1, 1, 2, 0>, strides = array<i64: 1, 2, 1>} : (tensor<1x2x4x5x6xf32>, tensor<3x2x3x2x2xf32>, tensor<3xf32>) -> tensor<1x3x4x3x5xf32>
  %0 = onnx.conv %x, %w, %b {kernel_shape = array<i64: 3, 2, 2>, pads = array<i64: 1, 0, 1, 1, 2, 0>, strides = array<i64: 1, 2, 1>, dilations = array<i64: 1, 1, 2>} : (tensor<1x2x4x5x6xf32>, tensor<3x2x3x2x2xf32>, tensor<3xf32>) -> tensor<1x3x4x3x5xf32>
  // CHECK: kernel.conv %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, group = 3 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x6x6xf64>, tensor<6x1x3x3xf64>) -> tensor<1x6x6x6xf64>
  %1 = onnx.conv %xd, %wd {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 3 : i64} : (tensor<1x3x6x6xf64>, tensor<6x1x3x3xf64>) -> tensor<1x6x6x6xf64>
  return %0, %1 : tensor<1x3x4x3x5xf32>, tensor<1x6x6x6xf64>
}

// -----

// Tests that an f16 ConvTranspose accumulates in f32 between conversions.
// CHECK-LABEL: func @conv_transpose_f16
func.func @conv_transpose_f16(%x: tensor<1x2x3x3xf16>, %w: tensor<2x3x3x3xf16>) -> tensor<1x3x8x7xf16> {
  // CHECK: %[[X:.+]] = kernel.elementwise %{{.*}} : (tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf32>
  // CHECK: %[[W:.+]] = kernel.elementwise %{{.*}} : (tensor<2x3x3x3xf16>) -> tensor<2x3x3x3xf32>
  // CHECK: %[[Y:.+]] = kernel.conv_transpose %[[X]], %[[W]] {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x8x7xf32>
  // CHECK: kernel.elementwise %[[Y]] : (tensor<1x3x8x7xf32>) -> tensor<1x3x8x7xf16>
  %0 = onnx.conv_transpose %x, %w {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64: 2, 2>, dilations = array<i64>, output_padding = array<i64: 1, 0>, output_shape = array<i64>} : (tensor<1x2x3x3xf16>, tensor<2x3x3x3xf16>) -> tensor<1x3x8x7xf16>
  return %0 : tensor<1x3x8x7xf16>
}

// -----

// Tests that output_shape beyond the taps' reach keeps the begin pad at 0
// (the extra row is all bias).
// CHECK-LABEL: func @conv_transpose_output_shape
func.func @conv_transpose_output_shape(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x10x8xf32> {
  // CHECK: kernel.conv_transpose {{.*}}pads = array<i64: 0, 0, -1, -1>, strides = array<i64: 3, 2>
  %0 = onnx.conv_transpose %x, %w {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64: 3, 2>, dilations = array<i64>, output_padding = array<i64>, output_shape = array<i64: 10, 8>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x10x8xf32>
  return %0 : tensor<1x2x10x8xf32>
}

// -----

// Tests that MaxPool computes indices only when they are used.
// CHECK-LABEL: func @max_pool
func.func @max_pool(%x: tensor<2x3x10xf32>, %u: tensor<2x3x10xui8>) -> (tensor<2x3x6xf32>, tensor<2x3x6xi64>, tensor<2x3x5xui8>) {
  // CHECK: %{{.*}}, %{{.*}} = kernel.pool %{{.*}} {dilations = array<i64: 1>, kernel_shape = array<i64: 3>, kind = "max", pads = array<i64: 1, 1>, strides = array<i64: 2>} : (tensor<2x3x10xf32>) -> (tensor<2x3x6xf32>, tensor<2x3x6xi64>)
  %0, %1 = onnx.max_pool %x {kernel_shape = array<i64: 3>, pads = array<i64: 1, 1>, strides = array<i64: 2>, dilations = array<i64>, ceil_mode = 1 : i64} : (tensor<2x3x10xf32>) -> (tensor<2x3x6xf32>, tensor<2x3x6xi64>)
  // CHECK: kernel.pool %{{.*}} {{.*}}kind = "max"{{.*}} : (tensor<2x3x10xui8>) -> tensor<2x3x5xui8>
  %2, %3 = onnx.max_pool %u {kernel_shape = array<i64: 2>, pads = array<i64>, strides = array<i64: 2>, dilations = array<i64>} : (tensor<2x3x10xui8>) -> (tensor<2x3x5xui8>, tensor<2x3x5xi64>)
  return %0, %1, %2 : tensor<2x3x6xf32>, tensor<2x3x6xi64>, tensor<2x3x5xui8>
}

// -----

// Tests LpPool's p and AveragePool's auto_pad resolved to explicit pads.
// CHECK-LABEL: func @avg_lp
func.func @avg_lp(%x: tensor<1x2x4x5xf32>) -> (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) {
  // CHECK: kernel.pool %{{.*}} {{{.*}}kind = "lp", p = 3 : i64, pads = array<i64: 1, 0, 0, 1>
  %0 = onnx.lp_pool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>, strides = array<i64>, dilations = array<i64>, p = 3 : i64} : (tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  // CHECK: kernel.pool %{{.*}} {count_include_pad = true, {{.*}}kind = "avg", pads = array<i64: 1, 1, 0, 0>
  %1 = onnx.average_pool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64>, strides = array<i64>, dilations = array<i64>, auto_pad = "SAME_LOWER", count_include_pad = 1 : i64} : (tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  return %1, %0 : tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>
}

// -----

// Tests that GlobalAveragePool of any rank is one kernel.global_pool.
// CHECK-LABEL: func @global_average_pool
func.func @global_average_pool(%x: tensor<2x3x4x5x2xf16>) -> tensor<2x3x1x1x1xf16> {
  // CHECK: kernel.global_pool %{{.*}} {kind = "avg"} : (tensor<2x3x4x5x2xf16>) -> tensor<2x3x1x1x1xf16>
  %0 = onnx.global_average_pool %x : (tensor<2x3x4x5x2xf16>) -> tensor<2x3x1x1x1xf16>
  return %0 : tensor<2x3x1x1x1xf16>
}

// -----

// Tests that MaxUnpool records the shape its indices address, and Col2Im
// its constant block shape.
// CHECK-LABEL: func @unpool_col2im
func.func @unpool_col2im(%x: tensor<1x2x2x2xf32>, %i: tensor<1x2x2x2xi64>, %c: tensor<1x8x12xf32>) -> (tensor<1x2x5x5xf32>, tensor<1x2x4x5xf32>) {
  %s = onnx.constant dense<[1, 2, 5, 5]> : tensor<4xi64>
  // CHECK: kernel.max_unpool %{{.*}}, %{{.*}} {unpooled_shape = array<i64: 1, 2, 4, 4>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x5x5xf32>
  %0 = onnx.max_unpool %x, %i, %s {kernel_shape = array<i64: 2, 2>, pads = array<i64>, strides = array<i64: 2, 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>, tensor<4xi64>) -> tensor<1x2x5x5xf32>
  %img = onnx.constant dense<[4, 5]> : tensor<2xi64>
  %blk = onnx.constant dense<[2, 2]> : tensor<2xi64>
  // CHECK: kernel.col2im %{{.*}} {block_shape = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 1, 1, 0>, strides = array<i64: 1, 2>} : (tensor<1x8x12xf32>) -> tensor<1x2x4x5xf32>
  %1 = onnx.col2im %c, %img, %blk {pads = array<i64: 0, 1, 1, 0>, strides = array<i64: 1, 2>, dilations = array<i64>} : (tensor<1x8x12xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x4x5xf32>
  return %0, %1 : tensor<1x2x5x5xf32>, tensor<1x2x4x5xf32>
}

// -----

// Tests that a pool over four spatial axes is refused with the limit.
func.func @no_lower_pool_4d(%x: tensor<1x1x2x2x2x2xf32>) -> tensor<1x1x1x1x1x1xf32> {
  // expected-error @+1 {{cannot compile: windows over 4 spatial axes are not supported (1-D to 3-D)}}
  %0 = onnx.average_pool %x {kernel_shape = array<i64: 2, 2, 2, 2>, pads = array<i64>, strides = array<i64>, dilations = array<i64>} : (tensor<1x1x2x2x2x2xf32>) -> tensor<1x1x1x1x1x1xf32>
  return %0 : tensor<1x1x1x1x1x1xf32>
}

// -----

// Tests that averaging integers is refused (only MaxPool takes them).
func.func @no_lower_avg_pool_int(%x: tensor<1x1x4x4xi32>) -> tensor<1x1x2x2xi32> {
  // expected-error @+1 {{cannot compile: elements of type 'i32' are not supported here (float types only)}}
  %0 = onnx.average_pool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64>, strides = array<i64: 2, 2>, dilations = array<i64>} : (tensor<1x1x4x4xi32>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

// Tests that a 2-D DeformConv is one kernel.deform_conv2d with its optional
// bias and mask, the window resolved.
// CHECK-LABEL: func @deform_conv
func.func @deform_conv(%x: tensor<1x4x5x5xf32>, %w: tensor<2x2x2x2xf32>, %off: tensor<1x16x4x4xf32>, %b: tensor<2xf32>, %m: tensor<1x8x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // CHECK: kernel.deform_conv2d %{{.*}}, %{{.*}}, %{{.*}} bias %{{.*}} mask %{{.*}} {dilations = array<i64: 1, 1>, group = 2 : i64, offset_group = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}
  %0 = onnx.deform_conv %x, %w, %off bias %b mask %m {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64>, dilations = array<i64>, group = 2 : i64, offset_group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<2x2x2x2xf32>, tensor<1x16x4x4xf32>, tensor<2xf32>, tensor<1x8x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Tests that a DeformConv over other than 2 axes is refused by name.
func.func @no_deform_conv_1d(%x: tensor<1x1x5xf32>, %w: tensor<1x1x2xf32>, %off: tensor<1x2x4xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{cannot compile: DeformConv over 1 spatial axes is not supported (2-D only)}}
  %0 = onnx.deform_conv %x, %w, %off {kernel_shape = array<i64>, pads = array<i64>, strides = array<i64>, dilations = array<i64>} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<1x2x4xf32>) -> tensor<1x1x4xf32>
  return %0 : tensor<1x1x4xf32>
}
