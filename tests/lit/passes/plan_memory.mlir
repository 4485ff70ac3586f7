// RUN: onnxcc-opt %s --split-input-file --onnxcc-plan-memory | FileCheck %s

// Tests that a chain reuses buffers, an elementwise op overwrites its dying
// input in place, and the last op writes the graph output directly.
// CHECK: module attributes {kernel.blob_bytes = 0 : i64, kernel.live_pair_bytes = 64 : i64, kernel.peak_live_bytes = 64 : i64, kernel.unplanned_bytes = 64 : i64, kernel.workspace_bytes = 64 : i64}
// CHECK-LABEL: func @main
func.func @main(%a: tensor<1x4xf32>, %b: tensor<4x16xf32>, %c: tensor<16x4xf32>) -> tensor<1x4xf32> {
  // CHECK: kernel.gemm {{.*}}{kernel.buffers = array<i64: -1>, kernel.offsets = array<i64: 0>}
  %0 = kernel.gemm %a, %b : (tensor<1x4xf32>, tensor<4x16xf32>) -> tensor<1x16xf32>
  // CHECK: kernel.elementwise {{.*}}{kernel.buffers = array<i64: -1>, kernel.offsets = array<i64: 0>}
  %1 = kernel.elementwise %0 : (tensor<1x16xf32>) -> tensor<1x16xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    kernel.yield %n : f32
  }
  // CHECK: kernel.gemm {{.*}}{kernel.buffers = array<i64: 0>, kernel.offsets = array<i64: 0>}
  %2 = kernel.gemm %1, %c : (tensor<1x16xf32>, tensor<16x4xf32>) -> tensor<1x4xf32>
  return %2 : tensor<1x4xf32>
}

// -----

// Tests that a concat of contiguous slices is planned in place: each
// producer writes straight into its slice of the concat's buffer.
// CHECK-LABEL: func @main
func.func @main(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %bias: tensor<2xf32>) -> tensor<1x4x4x4xf32> {
  // CHECK: kernel.conv2d {{.*}}kernel.buffers = array<i64: 0>, kernel.offsets = array<i64: 0>
  %0 = kernel.conv2d %x, %w, %bias {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  // CHECK: kernel.conv2d {{.*}}kernel.buffers = array<i64: 0>, kernel.offsets = array<i64: 128>
  %1 = kernel.conv2d %x, %w, %bias {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  // CHECK: kernel.concat {{.*}}kernel.in_place
  %2 = kernel.concat %0, %1 {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %2 : tensor<1x4x4x4xf32>
}

// -----

// Tests that weights get 64-byte aligned places in the blob, that equal
// contents share one place, and that sizes follow the element type (an
// i1 is a byte, an i64 eight).
// CHECK: module attributes {kernel.blob_bytes = 136 : i64
// CHECK-LABEL: func @main
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: kernel.weight {kernel.blob_offset = 0 : i64} dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
  %a = kernel.weight dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  // CHECK: kernel.weight {kernel.blob_offset = 64 : i64} dense<[true, false, true]>
  %b = kernel.weight dense<[true, false, true]> : tensor<3xi1>
  // CHECK: kernel.weight {kernel.blob_offset = 0 : i64} dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
  %c = kernel.weight dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  // CHECK: kernel.weight {kernel.blob_offset = 128 : i64} dense<7>
  %d = kernel.weight dense<7> : tensor<1xi64>
  %0 = kernel.elementwise %x, %a, %b, %c, %d : (tensor<3xf32>, tensor<3xf32>, tensor<3xi1>, tensor<3xf32>, tensor<1xi64>) -> tensor<3xf32> {
  ^bb0(%v: f32, %p: f32, %q: i1, %r: f32, %s: i64):
    %t = arith.addf %v, %p : f32
    %u = arith.select %q, %t, %r : f32
    kernel.yield %u : f32
  }
  return %0 : tensor<3xf32>
}

// -----

// Tests that a product reading its packed B^T both ways on alternate calls
// (kernel::alternatesSweep) gets the call state: one aligned slot after
// the buffers (the 1x40 intermediate, 160 bytes, ends at 192), which the
// arena includes. A product on an unpacked B (the first module) gets none.
// CHECK: module attributes {{{.*}}kernel.call_state_offset = 192 : i64{{.*}}kernel.workspace_bytes = 256 : i64}
// CHECK-LABEL: func @main
func.func @main(%a: tensor<1x16xf32>, %b: tensor<3x16x16xf32>, %c: tensor<40x4xf32>) -> tensor<1x4xf32> {
  %0 = kernel.gemm %a, %b {packed_b = true, trans_b = true} : (tensor<1x16xf32>, tensor<3x16x16xf32>) -> tensor<1x40xf32>
  %1 = kernel.gemm %0, %c : (tensor<1x40xf32>, tensor<40x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
