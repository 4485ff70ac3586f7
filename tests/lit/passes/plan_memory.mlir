// RUN: onnxcc-opt %s --split-input-file --onnxcc-plan-memory | FileCheck %s

// Tests that a chain reuses buffers, an elementwise op overwrites its dying
// input in place, and the last op writes the graph output directly.
// CHECK: module attributes {kernel.live_pair_bytes = 64 : i64, kernel.peak_live_bytes = 64 : i64, kernel.unplanned_bytes = 64 : i64, kernel.workspace_bytes = 64 : i64}
// CHECK-LABEL: func @main
func.func @main(%a: tensor<1x4xf32>, %b: tensor<4x16xf32>, %c: tensor<16x4xf32>) -> tensor<1x4xf32> {
  // CHECK: kernel.gemm {{.*}}kernel.offset = 0 : i64
  %0 = kernel.gemm %a, %b : (tensor<1x4xf32>, tensor<4x16xf32>) -> tensor<1x16xf32>
  // CHECK: kernel.elementwise {{.*}}kernel.offset = 0 : i64
  %1 = kernel.elementwise %0 : (tensor<1x16xf32>) -> tensor<1x16xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    kernel.yield %n : f32
  }
  // CHECK: kernel.gemm {{.*}}kernel.offset = 0 : i64, kernel.output = 0 : i64
  %2 = kernel.gemm %1, %c : (tensor<1x16xf32>, tensor<16x4xf32>) -> tensor<1x4xf32>
  return %2 : tensor<1x4xf32>
}

// -----

// Tests that a concat of contiguous slices is planned in place: each
// producer writes straight into its slice of the concat's buffer.
// CHECK-LABEL: func @main
func.func @main(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %bias: tensor<2xf32>) -> tensor<1x4x4x4xf32> {
  // CHECK: kernel.conv2d {{.*}}kernel.offset = 0 : i64, kernel.output = 0 : i64
  %0 = kernel.conv2d %x, %w, %bias {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  // CHECK: kernel.conv2d {{.*}}kernel.offset = 128 : i64, kernel.output = 0 : i64
  %1 = kernel.conv2d %x, %w, %bias {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  // CHECK: kernel.concat {{.*}}kernel.in_place
  %2 = kernel.concat %0, %1 {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %2 : tensor<1x4x4x4xf32>
}
