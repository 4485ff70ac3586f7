// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that [..., M, K] x [K, N] folds the batch into M around one GEMM.
// CHECK-LABEL: func @matmul_fold
func.func @matmul_fold(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  // CHECK: %[[A:.+]] = kernel.view %{{.*}} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: %[[Y:.+]] = kernel.gemm %[[A]], %{{.*}} : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  // CHECK: kernel.view %[[Y]] : (tensor<6x5xf32>) -> tensor<2x3x5xf32>
  %0 = onnx.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Tests that attention's [B, H, S, D] x [B, H, D, S] is one batched product.
// CHECK-LABEL: func @matmul_batched
func.func @matmul_batched(%a: tensor<2x4x16x8xf32>, %b: tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32> {
  // CHECK: kernel.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32>
  %0 = onnx.matmul %a, %b : (tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// Tests that a lower-rank operand is padded with leading 1s and broadcast,
// for integer elements too.
// CHECK-LABEL: func @matmul_bcast
func.func @matmul_bcast(%a: tensor<3x4xi32>, %b: tensor<2x4x5xi32>) -> tensor<2x3x5xi32> {
  // CHECK: %[[A:.+]] = kernel.view %{{.*}} : (tensor<3x4xi32>) -> tensor<1x3x4xi32>
  // CHECK: kernel.batch_matmul %[[A]], %{{.*}} : (tensor<1x3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
  %0 = onnx.matmul %a, %b : (tensor<3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
  return %0 : tensor<2x3x5xi32>
}

// -----

// Tests numpy's 1-D promotion: a row on the left, a column on the right,
// both promoted dims squeezed from the result.
// CHECK-LABEL: func @matmul_vectors
func.func @matmul_vectors(%a: tensor<7xf64>, %b: tensor<7xf64>) -> tensor<f64> {
  // CHECK-DAG: %[[A:.+]] = kernel.view %{{.*}} : (tensor<7xf64>) -> tensor<1x7xf64>
  // CHECK-DAG: %[[B:.+]] = kernel.view %{{.*}} : (tensor<7xf64>) -> tensor<7x1xf64>
  // CHECK: %[[Y:.+]] = kernel.gemm %[[A]], %[[B]] : (tensor<1x7xf64>, tensor<7x1xf64>) -> tensor<1x1xf64>
  // CHECK: kernel.view %[[Y]] : (tensor<1x1xf64>) -> tensor<f64>
  %0 = onnx.matmul %a, %b : (tensor<7xf64>, tensor<7xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// Tests that a constant f32 B of a trans_b Gemm of 4 or more rows is
// transposed at compile time (the runtime streams B [K, N]) and trans_b
// dropped, while a run-time B, or a single row (faster as dot products),
// keeps trans_b.
// CHECK-LABEL: func @gemm_const_trans_b
func.func @gemm_const_trans_b(%a: tensor<4x3xf32>, %bt: tensor<2x3xf32>, %a1: tensor<1x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<1x2xf32>) {
  %b = onnx.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  // CHECK: %[[W:.+]] = kernel.weight dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
  // CHECK: kernel.gemm %{{.*}}, %[[W]] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  // CHECK: kernel.gemm %{{.*}}, %{{.*}} {trans_b = true} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  // CHECK: kernel.gemm %{{.*}}, %{{.*}} {trans_b = true} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32>
  %0 = onnx.gemm %a, %b {trans_b = 1 : i64} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  %1 = onnx.gemm %a, %bt {trans_b = 1 : i64} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  %2 = onnx.gemm %a1, %b {trans_b = 1 : i64} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<1x2xf32>
}

// -----

// Tests that a product of fewer than 16 columns over a constant f32 B of
// depth 16 or more runs as dot products with B^T at any row count: B^T
// keeps trans_b, and a B [K, N] is transposed to it. 16 columns, a depth
// of 15 and a transposed A keep the rule above.
// CHECK-LABEL: func @gemm_const_few_columns
func.func @gemm_const_few_columns(%a: tensor<4x16xf32>, %a15: tensor<4x15xf32>, %at: tensor<16x4xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %b = onnx.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0], [16.0, 17.0], [18.0, 19.0], [20.0, 21.0], [22.0, 23.0], [24.0, 25.0], [26.0, 27.0], [28.0, 29.0], [30.0, 31.0]]> : tensor<16x2xf32>
  %bt = onnx.constant dense<[[0.0, -2.0, -4.0, -6.0, -8.0, -10.0, -12.0, -14.0, -16.0, -18.0, -20.0, -22.0, -24.0, -26.0, -28.0, -30.0], [-1.0, -3.0, -5.0, -7.0, -9.0, -11.0, -13.0, -15.0, -17.0, -19.0, -21.0, -23.0, -25.0, -27.0, -29.0, -31.0]]> : tensor<2x16xf32>
  %b16 = onnx.constant dense<1.0> : tensor<16x16xf32>
  %bt15 = onnx.constant dense<1.0> : tensor<2x15xf32>
  // CHECK-DAG: %[[T:.+]] = kernel.weight dense<{{\[}}[0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01, 1.600000e+01, 1.800000e+01, 2.000000e+01, 2.200000e+01, 2.400000e+01, 2.600000e+01, 2.800000e+01, 3.000000e+01], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01, 1.300000e+01, 1.500000e+01, 1.700000e+01, 1.900000e+01, 2.100000e+01, 2.300000e+01, 2.500000e+01, 2.700000e+01, 2.900000e+01, 3.100000e+01]]> : tensor<2x16xf32>
  // CHECK-DAG: %[[BT:.+]] = kernel.weight dense<{{\[}}[0.000000e+00, -2.000000e+00, -4.000000e+00, -6.000000e+00, -8.000000e+00, -1.000000e+01, -1.200000e+01, -1.400000e+01, -1.600000e+01, -1.800000e+01, -2.000000e+01, -2.200000e+01, -2.400000e+01, -2.600000e+01, -2.800000e+01, -3.000000e+01], [-1.000000e+00, -3.000000e+00, -5.000000e+00, -7.000000e+00, -9.000000e+00, -1.100000e+01, -1.300000e+01, -1.500000e+01, -1.700000e+01, -1.900000e+01, -2.100000e+01, -2.300000e+01, -2.500000e+01, -2.700000e+01, -2.900000e+01, -3.100000e+01]]> : tensor<2x16xf32>
  // CHECK-DAG: %[[B:.+]] = kernel.weight dense<{{\[}}[0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00], [6.000000e+00, 7.000000e+00], [8.000000e+00, 9.000000e+00], [1.000000e+01, 1.100000e+01], [1.200000e+01, 1.300000e+01], [1.400000e+01, 1.500000e+01], [1.600000e+01, 1.700000e+01], [1.800000e+01, 1.900000e+01], [2.000000e+01, 2.100000e+01], [2.200000e+01, 2.300000e+01], [2.400000e+01, 2.500000e+01], [2.600000e+01, 2.700000e+01], [2.800000e+01, 2.900000e+01], [3.000000e+01, 3.100000e+01]]> : tensor<16x2xf32>
  // CHECK: kernel.gemm %{{.*}}, %[[T]] {trans_b = true} : (tensor<4x16xf32>, tensor<2x16xf32>) -> tensor<4x2xf32>
  // CHECK: kernel.gemm %{{.*}}, %[[BT]] {trans_b = true} : (tensor<4x16xf32>, tensor<2x16xf32>) -> tensor<4x2xf32>
  // CHECK: kernel.gemm %{{.*}}, %{{.*}} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  // CHECK: kernel.gemm %{{.*}}, %{{.*}} : (tensor<4x15xf32>, tensor<15x2xf32>) -> tensor<4x2xf32>
  // CHECK: kernel.gemm %{{.*}}, %[[B]] {trans_a = true} : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
  %0 = onnx.gemm %a, %b : (tensor<4x16xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
  %1 = onnx.gemm %a, %bt {trans_b = 1 : i64} : (tensor<4x16xf32>, tensor<2x16xf32>) -> tensor<4x2xf32>
  %2 = onnx.gemm %a, %b16 : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %3 = onnx.gemm %a15, %bt15 {trans_b = 1 : i64} : (tensor<4x15xf32>, tensor<2x15xf32>) -> tensor<4x2xf32>
  %4 = onnx.gemm %at, %b {trans_a = 1 : i64} : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
  return %0, %1, %2, %3, %4 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// Tests that Gemm keeps its attributes for any numeric element type.
// CHECK-LABEL: func @gemm_i64
func.func @gemm_i64(%a: tensor<4x3xi64>, %b: tensor<2x4xi64>, %c: tensor<2xi64>) -> tensor<3x2xi64> {
  // CHECK: kernel.gemm %{{.*}}, %{{.*}} bias %{{.*}} {alpha = 2.000000e+00 : f32, trans_a = true, trans_b = true} : (tensor<4x3xi64>, tensor<2x4xi64>, tensor<2xi64>) -> tensor<3x2xi64>
  %0 = onnx.gemm %a, %b, %c {alpha = 2.0 : f32, trans_a = 1 : i64, trans_b = 1 : i64} : (tensor<4x3xi64>, tensor<2x4xi64>, tensor<2xi64>) -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// -----

// Tests that an Einsum sum over one label is a product with a column of
// ones of the element type.
// CHECK-LABEL: func @einsum_sum
func.func @einsum_sum(%x: tensor<3x4xbf16>) -> tensor<3xbf16> {
  // CHECK: %[[ONES:.+]] = kernel.weight dense<1.000000e+00> : tensor<4x1xbf16>
  // CHECK: %[[S:.+]] = kernel.gemm %{{.*}}, %[[ONES]] : (tensor<3x4xbf16>, tensor<4x1xbf16>) -> tensor<3x1xbf16>
  // CHECK: kernel.view %[[S]] : (tensor<3x1xbf16>) -> tensor<3xbf16>
  %0 = onnx.einsum %x {equation = "ij->i"} : (tensor<3x4xbf16>) -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// -----

// Tests that a repeated label reads the diagonal with summed strides.
// CHECK-LABEL: func @einsum_diagonal
func.func @einsum_diagonal(%x: tensor<3x5x5xf32>) -> tensor<3x5xf32> {
  // CHECK: kernel.strided_copy %{{.*}} {strides = array<i64: 25, 6>} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  %0 = onnx.einsum %x {equation = "...ii ->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Tests a contraction: shared labels the output keeps are batch dims, the
// other is contracted after moving it next to the free dims.
// CHECK-LABEL: func @einsum_attention
func.func @einsum_attention(%q: tensor<2x3x4x5xf32>, %k: tensor<2x3x6x5xf32>) -> tensor<2x3x4x6xf32> {
  // CHECK: %[[KT:.+]] = kernel.transpose %{{.*}} {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x6x5xf32>) -> tensor<2x3x5x6xf32>
  // CHECK: kernel.batch_matmul %{{.*}}, %[[KT]] : (tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32>) -> tensor<2x3x4x6xf32>
  %0 = onnx.einsum %q, %k {equation = "bhqd,bhkd->bhqk"} : (tensor<2x3x4x5xf32>, tensor<2x3x6x5xf32>) -> tensor<2x3x4x6xf32>
  return %0 : tensor<2x3x4x6xf32>
}

// -----

// Tests a transpose alone, and a three-operand chain contracted left to
// right.
// CHECK-LABEL: func @einsum_chain
func.func @einsum_chain(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4x5xf32>) -> tensor<5x2xf32> {
  // CHECK: %[[AB:.+]] = kernel.gemm %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: %[[ABC:.+]] = kernel.gemm %[[AB]], %{{.*}} : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  // CHECK: kernel.transpose %[[ABC]] {perm = array<i64: 1, 0>} : (tensor<2x5xf32>) -> tensor<5x2xf32>
  %0 = onnx.einsum %a, %b, %c {equation = "ij,jk,kl->li"} : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

// Tests that a product of booleans is refused with its reason.
func.func @no_lower_matmul_bool(%a: tensor<2x2xi1>, %b: tensor<2x2xi1>) -> tensor<2x2xi1> {
  // expected-error @+1 {{cannot compile: elements of type 'i1' are not supported here (numbers only)}}
  %0 = onnx.matmul %a, %b : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}
