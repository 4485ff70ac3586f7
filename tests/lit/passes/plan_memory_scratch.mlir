// RUN: onnxcc-opt %s --split-input-file --onnxcc-plan-memory | FileCheck %s

// Tests that im2col scratch is planned through ScratchOpInterface.
// CHECK-LABEL: func @main
func.func @main(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>, %b: tensor<1xf32>) -> tensor<1x1x2x2xf32> {
  // CHECK: kernel.conv2d {{.*}}kernel.scratch_offset = 0 : i64
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}
