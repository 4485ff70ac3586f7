// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that a 4-D RotaryEmbedding with position_ids becomes one kernel op
// rotating the whole head (rotary_embedding_dim 0) with the head count read
// from the input.
// CHECK-LABEL: func @positions_4d
func.func @positions_4d(%x: tensor<1x2x3x8xf32>, %c: tensor<16x4xf32>, %s: tensor<16x4xf32>, %p: tensor<1x3xi64>) -> tensor<1x2x3x8xf32> {
  // CHECK: kernel.rotary_embedding %arg0, %arg1, %arg2 positions %arg3 {heads = 2 : i64, interleaved = false, packed = false, rotary_dim = 8 : i64} : (tensor<1x2x3x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<1x3xi64>) -> tensor<1x2x3x8xf32>
  %y = onnx.rotary_embedding %x, %c, %s positions %p : (tensor<1x2x3x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<1x3xi64>) -> tensor<1x2x3x8xf32>
  return %y : tensor<1x2x3x8xf32>
}

// -----

// Tests that a packed 3-D input without position_ids keeps num_heads, the
// partial rotary dimension and interleaving.
// CHECK-LABEL: func @packed_partial_interleaved
func.func @packed_partial_interleaved(%x: tensor<2x3x12xf16>, %c: tensor<2x3x2xf16>, %s: tensor<2x3x2xf16>) -> tensor<2x3x12xf16> {
  // CHECK: kernel.rotary_embedding %arg0, %arg1, %arg2 {heads = 2 : i64, interleaved = true, packed = true, rotary_dim = 4 : i64} : (tensor<2x3x12xf16>, tensor<2x3x2xf16>, tensor<2x3x2xf16>) -> tensor<2x3x12xf16>
  %y = onnx.rotary_embedding %x, %c, %s {num_heads = 2 : i64, rotary_embedding_dim = 4 : i64, interleaved = 1 : i64} : (tensor<2x3x12xf16>, tensor<2x3x2xf16>, tensor<2x3x2xf16>) -> tensor<2x3x12xf16>
  return %y : tensor<2x3x12xf16>
}

// -----

// Tests that the type rule refuses a 3-D input without num_heads.
func.func @no_num_heads(%x: tensor<1x3x8xf32>, %c: tensor<1x3x4xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{a 3-D input needs the num_heads attribute}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.rotary_embedding %x, %c, %c : (tensor<1x3x8xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that the type rule refuses an odd or too large rotary dimension.
func.func @odd_rotary_dim(%x: tensor<1x2x3x8xf32>, %c: tensor<4x2xf32>, %p: tensor<1x3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{rotary_embedding_dim 5 must be even and at most the head size 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.rotary_embedding %x, %c, %c positions %p {rotary_embedding_dim = 5 : i64} : (tensor<1x2x3x8xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<1x3xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that the type rule refuses caches that do not have rotary_dim / 2
// columns.
func.func @bad_cache(%x: tensor<1x2x3x8xf32>, %c: tensor<4x3xf32>, %p: tensor<1x3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{with position_ids the caches must be [positions, 4], got [4, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.rotary_embedding %x, %c, %c positions %p : (tensor<1x2x3x8xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1x3xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that the type rule refuses hostile attributes: negative num_heads.
func.func @negative_heads(%x: tensor<1x3x8xf32>, %c: tensor<1x3x4xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{num_heads -2 and rotary_embedding_dim 0 must not be negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.rotary_embedding %x, %c, %c {num_heads = -2 : i64} : (tensor<1x3x8xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that the kernel op refuses caches of the wrong shape.
func.func @kernel_bad_cache(%x: tensor<1x2x3x8xf32>, %c: tensor<1x3x2xf32>) -> tensor<1x2x3x8xf32> {
  // expected-error @+1 {{'kernel.rotary_embedding' op caches must be [batch, seq, rotary_dim / 2]}}
  %y = kernel.rotary_embedding %x, %c, %c {heads = 2 : i64, interleaved = false, packed = false, rotary_dim = 8 : i64} : (tensor<1x2x3x8xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<1x2x3x8xf32>
  return %y : tensor<1x2x3x8xf32>
}

// -----

// Tests that the kernel op refuses an odd rotary dimension.
func.func @kernel_odd_dim(%x: tensor<1x2x3x8xf32>, %c: tensor<1x3x2xf32>) -> tensor<1x2x3x8xf32> {
  // expected-error @+1 {{'kernel.rotary_embedding' op rotary_dim 3 must be even and in (0, 8]}}
  %y = kernel.rotary_embedding %x, %c, %c {heads = 2 : i64, interleaved = false, packed = false, rotary_dim = 3 : i64} : (tensor<1x2x3x8xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<1x2x3x8xf32>
  return %y : tensor<1x2x3x8xf32>
}
