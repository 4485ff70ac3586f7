// RUN: onnxcc-opt %s --split-input-file --canonicalize | FileCheck %s

// Attention's head split: Q = columns 0..127 of the [32 x 384] QKV product
// (a Slice), viewed as [32, 4, 32] (a Reshape), then [4, 32, 32] (a
// Transpose). One copy reads the heads straight from the product.
// CHECK-LABEL: func @slice_then_heads
// CHECK-NEXT: %[[Y:.*]] = kernel.copy %arg0 {offset = 0 : i64, shape = array<i64: 4, 32, 32>, strides = array<i64: 32, 384, 1>} : (tensor<32x384xf32>) -> tensor<4x32x32xf32>
// CHECK-NEXT: return %[[Y]]
func.func @slice_then_heads(%qkv: tensor<32x384xf32>) -> tensor<4x32x32xf32> {
  %q = kernel.copy %qkv {shape = array<i64: 32, 128>, strides = array<i64: 384, 1>, offset = 0 : i64} : (tensor<32x384xf32>) -> tensor<32x128xf32>
  %v = kernel.view %q : (tensor<32x128xf32>) -> tensor<32x4x32xf32>
  %h = kernel.copy %v {shape = array<i64: 4, 32, 32>, strides = array<i64: 32, 128, 1>, offset = 0 : i64} : (tensor<32x4x32xf32>) -> tensor<4x32x32xf32>
  return %h : tensor<4x32x32xf32>
}

// -----

// A BitCast view between them changes the element type: the outer copy
// keeps reading the view.
// CHECK-LABEL: func @through_bitcast
// CHECK: %[[V:.*]] = kernel.view
// CHECK-NEXT: kernel.copy %[[V]]
func.func @through_bitcast(%x: tensor<2x3xf32>) -> tensor<2x3xi32> {
  %t = kernel.copy %x {shape = array<i64: 3, 2>, strides = array<i64: 1, 3>, offset = 0 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %v = kernel.view %t : (tensor<3x2xf32>) -> tensor<3x2xi32>
  %b = kernel.copy %v {shape = array<i64: 2, 3>, strides = array<i64: 1, 2>, offset = 0 : i64} : (tensor<3x2xi32>) -> tensor<2x3xi32>
  return %b : tensor<2x3xi32>
}

// -----

// K^T: the keys (columns 128..255) transposed. The offset maps through the
// slice too; the Slice's result has another user, so it stays.
// CHECK-LABEL: func @slice_then_transpose_shared
// CHECK-DAG: %[[K:.*]] = kernel.copy %arg0 {offset = 128 : i64, shape = array<i64: 32, 128>, strides = array<i64: 384, 1>}
// CHECK-DAG: %[[KT:.*]] = kernel.copy %arg0 {offset = 128 : i64, shape = array<i64: 128, 32>, strides = array<i64: 1, 384>}
// CHECK: return %[[KT]], %[[K]]
func.func @slice_then_transpose_shared(%qkv: tensor<32x384xf32>) -> (tensor<128x32xf32>, tensor<32x128xf32>) {
  %k = kernel.copy %qkv {shape = array<i64: 32, 128>, strides = array<i64: 384, 1>, offset = 128 : i64} : (tensor<32x384xf32>) -> tensor<32x128xf32>
  %kt = kernel.copy %k {shape = array<i64: 128, 32>, strides = array<i64: 1, 128>, offset = 0 : i64} : (tensor<32x128xf32>) -> tensor<128x32xf32>
  return %kt, %k : tensor<128x32xf32>, tensor<32x128xf32>
}

// -----

// A transpose and its inverse: the composed read is the input, in order.
// CHECK-LABEL: func @transpose_back
// CHECK-NEXT: return %arg0
func.func @transpose_back(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %t = kernel.copy %x {shape = array<i64: 3, 2>, strides = array<i64: 1, 3>, offset = 0 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %b = kernel.copy %t {shape = array<i64: 2, 3>, strides = array<i64: 1, 2>, offset = 0 : i64} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}

// -----

// Every 5th element of a [4 x 6] transpose crosses rows: position 5 is
// (0, 5) but 10 is (1, 4), a carry, so the read is not affine in the
// input and both copies stay. A reversed read (negative stride) and a copy
// of a non-copy stay too.
// CHECK-LABEL: func @no_fold
// CHECK: %[[T:.*]] = kernel.copy %arg0 {offset = 0 : i64, shape = array<i64: 4, 6>, strides = array<i64: 1, 4>}
// CHECK: kernel.copy %[[T]] {offset = 0 : i64, shape = array<i64: 3>, strides = array<i64: 5>}
// CHECK: kernel.copy %[[T]] {offset = 23 : i64, shape = array<i64: 24>, strides = array<i64: -1>}
// CHECK: kernel.copy %arg0 {offset = 1 : i64, shape = array<i64: 3>, strides = array<i64: 2>}
func.func @no_fold(%x: tensor<6x4xf32>) -> (tensor<3xf32>, tensor<24xf32>, tensor<3xf32>) {
  %t = kernel.copy %x {shape = array<i64: 4, 6>, strides = array<i64: 1, 4>, offset = 0 : i64} : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %d = kernel.copy %t {shape = array<i64: 3>, strides = array<i64: 5>, offset = 0 : i64} : (tensor<4x6xf32>) -> tensor<3xf32>
  %r = kernel.copy %t {shape = array<i64: 24>, strides = array<i64: -1>, offset = 23 : i64} : (tensor<4x6xf32>) -> tensor<24xf32>
  %s = kernel.copy %x {shape = array<i64: 3>, strides = array<i64: 2>, offset = 1 : i64} : (tensor<6x4xf32>) -> tensor<3xf32>
  return %d, %r, %s : tensor<3xf32>, tensor<24xf32>, tensor<3xf32>
}

// -----

// A slice of a slice with an extent-1 dimension: its stride is never
// used, and the composed one is 0.
// CHECK-LABEL: func @slice_of_slice
// CHECK-NEXT: %[[Y:.*]] = kernel.copy %arg0 {offset = 9 : i64, shape = array<i64: 1, 2>, strides = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<1x2xf32>
// CHECK-NEXT: return %[[Y]]
func.func @slice_of_slice(%x: tensor<4x8xf32>) -> tensor<1x2xf32> {
  %a = kernel.copy %x {shape = array<i64: 2, 4>, strides = array<i64: 8, 1>, offset = 8 : i64} : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %b = kernel.copy %a {shape = array<i64: 1, 2>, strides = array<i64: 99, 2>, offset = 1 : i64} : (tensor<2x4xf32>) -> tensor<1x2xf32>
  return %b : tensor<1x2xf32>
}
