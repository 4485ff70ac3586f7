// RUN: onnxcc-opt %s --split-input-file --onnxcc-fuse-matmul-add | FileCheck %s

// Tests that MatMul + bias Add becomes one Gemm.
// CHECK-LABEL: func @fuse
func.func @fuse(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: onnx.gemm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NOT: onnx.add
  %m = onnx.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = onnx.add %m, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Tests that a MatMul with a second user is kept.
// CHECK-LABEL: func @no_fuse_shared_matmul
func.func @no_fuse_shared_matmul(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: onnx.matmul
  // CHECK: onnx.add
  %m = onnx.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = onnx.add %m, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y, %m : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Tests that a stack of rows times one matrix ([1, seq, d] x [d, n], a
// transformer's projection) with a bias along n becomes one [seq, d] x
// [d, n] Gemm between two reshapes.
// CHECK-LABEL: func @fuse_rows
func.func @fuse_rows(%a: tensor<1x5x4xf32>, %b: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<1x5x3xf32> {
  // CHECK: %[[S:.*]] = onnx.constant dense<[5, 4]> : tensor<2xi64>
  // CHECK: %[[A:.*]] = onnx.reshape %{{.*}}, %[[S]] {allowzero = 1 : i64} : (tensor<1x5x4xf32>, tensor<2xi64>) -> tensor<5x4xf32>
  // CHECK: %[[G:.*]] = onnx.gemm %[[A]], %{{.*}}, %{{.*}} : (tensor<5x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  // CHECK: %[[Y:.*]] = onnx.reshape %[[G]], %{{.*}} {allowzero = 1 : i64} : (tensor<5x3xf32>, tensor<3xi64>) -> tensor<1x5x3xf32>
  // CHECK-NOT: onnx.add
  // CHECK: return %[[Y]]
  %m = onnx.matmul %a, %b : (tensor<1x5x4xf32>, tensor<4x3xf32>) -> tensor<1x5x3xf32>
  %y = onnx.add %c, %m : (tensor<3xf32>, tensor<1x5x3xf32>) -> tensor<1x5x3xf32>
  return %y : tensor<1x5x3xf32>
}

// -----

// Tests that an empty reduction (K = 0) still fuses: the rows come from
// A's leading dimensions, not from its element count divided by K.
// CHECK-LABEL: func @fuse_rows_k_zero
func.func @fuse_rows_k_zero(%a: tensor<2x5x0xf32>, %b: tensor<0x3xf32>, %c: tensor<3xf32>) -> tensor<2x5x3xf32> {
  // CHECK: onnx.reshape %{{.*}} {allowzero = 1 : i64} : (tensor<2x5x0xf32>, tensor<2xi64>) -> tensor<10x0xf32>
  // CHECK: onnx.gemm %{{.*}} : (tensor<10x0xf32>, tensor<0x3xf32>, tensor<3xf32>) -> tensor<10x3xf32>
  // CHECK-NOT: onnx.add
  %m = onnx.matmul %a, %b : (tensor<2x5x0xf32>, tensor<0x3xf32>) -> tensor<2x5x3xf32>
  %y = onnx.add %m, %c : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  return %y : tensor<2x5x3xf32>
}

// -----

// Tests that a [1, 1, n] bias becomes the Gemm's [n] bias.
// CHECK-LABEL: func @fuse_rows_rank3_bias
func.func @fuse_rows_rank3_bias(%a: tensor<2x5x4xf32>, %b: tensor<4x3xf32>, %c: tensor<1x1x3xf32>) -> tensor<2x5x3xf32> {
  // CHECK: onnx.reshape %{{.*}}, %{{.*}} {allowzero = 1 : i64} : (tensor<1x1x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  // CHECK: onnx.gemm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<10x3xf32>
  // CHECK-NOT: onnx.add
  %m = onnx.matmul %a, %b : (tensor<2x5x4xf32>, tensor<4x3xf32>) -> tensor<2x5x3xf32>
  %y = onnx.add %m, %c : (tensor<2x5x3xf32>, tensor<1x1x3xf32>) -> tensor<2x5x3xf32>
  return %y : tensor<2x5x3xf32>
}

// -----

// Tests that an addend varying along the rows (a residual, or a per-row
// bias) of a stacked product stays an Add: it is no GEMM bias.
// CHECK-LABEL: func @no_fuse_rows_residual
func.func @no_fuse_rows_residual(%a: tensor<1x5x4xf32>, %b: tensor<4x3xf32>, %c: tensor<5x1xf32>) -> tensor<1x5x3xf32> {
  // CHECK: onnx.matmul
  // CHECK: onnx.add
  %m = onnx.matmul %a, %b : (tensor<1x5x4xf32>, tensor<4x3xf32>) -> tensor<1x5x3xf32>
  %y = onnx.add %m, %c : (tensor<1x5x3xf32>, tensor<5x1xf32>) -> tensor<1x5x3xf32>
  return %y : tensor<1x5x3xf32>
}
