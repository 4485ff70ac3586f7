// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm | FileCheck %s
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm --onnxcc-plan-memory | FileCheck %s --check-prefix=PLAN

// A 3x3 convolution over several channels per group: im2col into scratch
// (the default, which the printer elides).
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d
// CHECK-NOT: algorithm
// CHECK: return
// PLAN-LABEL: func @main
// PLAN: kernel.conv2d {{.*}}kernel.scratch_offset
func.func @main(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// 1x1, stride 1, no padding: the input is the GEMM's B, no scratch.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"
// PLAN-LABEL: func @main
// PLAN-NOT: kernel.scratch_offset
// PLAN: return
func.func @main(%x: tensor<1x3x4x4xf32>, %w: tensor<5x3x1x1xf32>, %b: tensor<5xf32>) -> tensor<1x5x4x4xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<5x3x1x1xf32>, tensor<5xf32>) -> tensor<1x5x4x4xf32>
  return %0 : tensor<1x5x4x4xf32>
}

// -----

// One channel per group (MobileNet's 3x3 layers): depthwise, no scratch.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "depthwise"
// PLAN-LABEL: func @main
// PLAN-NOT: kernel.scratch_offset
// PLAN: return
func.func @main(%x: tensor<1x3x4x4xf32>, %w: tensor<3x1x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x2x2xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 3 : i64} : (tensor<1x3x4x4xf32>, tensor<3x1x3x3xf32>, tensor<3xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

// Two output channels per group (a depth multiplier of 2): im2col.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d
// CHECK-NOT: algorithm
// CHECK: return
func.func @main(%x: tensor<1x2x4x4xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// A 1x1 depthwise convolution (a per-channel scale) is depthwise too, not
// a one-row GEMM per channel.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "depthwise"
func.func @main(%x: tensor<1x4x3x3xf32>, %w: tensor<4x1x1x1xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 4 : i64} : (tensor<1x4x3x3xf32>, tensor<4x1x1x1xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}
