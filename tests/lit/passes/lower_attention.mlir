// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that Attention becomes one kernel.attention computing only the
// results that are used, with the score scale folded from 1/sqrt(head size).
// CHECK-LABEL: func @only_y
func.func @only_y(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>, %v: tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32> {
  // CHECK: "kernel.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal = false, kv_heads = 2 : i64, left_window = -1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, packed = false, q_heads = 2 : i64, qk_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>, right_window = -1 : i64, scale = 0.49999997 : f32, softcap = 0.000000e+00 : f32}> : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32>
  %y, %pk, %pv, %qk = onnx.attention %q, %k, %v : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x3x5xf32>)
  return %y : tensor<1x2x3x4xf32>
}

// -----

// Tests that packed (3-D) GQA with a cache keeps the layout and the head
// counts, and computes the present key and the scores, which are used, but
// not the present value, which is not.
// CHECK-LABEL: func @packed_cache
func.func @packed_cache(%q: tensor<1x3x16xf32>, %k: tensor<1x3x8xf32>, %v: tensor<1x3x8xf32>, %m: tensor<3x5xi1>, %pk: tensor<1x2x2x4xf32>, %pv: tensor<1x2x2x4xf32>) -> (tensor<1x3x16xf32>, tensor<1x2x5x4xf32>, tensor<1x4x3x5xf32>) {
  // CHECK: "kernel.attention"({{.*}}) <{causal = true, kv_heads = 2 : i64, {{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0>, packed = true, q_heads = 4 : i64, qk_mode = 3 : i64, resultSegmentSizes = array<i32: 1, 1, 0, 1>{{.*}}}> : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<3x5xi1>, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> (tensor<1x3x16xf32>, tensor<1x2x5x4xf32>, tensor<1x4x3x5xf32>)
  %y, %npk, %npv, %qk = onnx.attention %q, %k, %v mask %m past %pk, %pv {q_num_heads = 4 : i64, kv_num_heads = 2 : i64, qk_matmul_output_mode = 3 : i64, is_causal = 1 : i64} : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<3x5xi1>, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> (tensor<1x3x16xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<1x4x3x5xf32>)
  return %y, %npk, %qk : tensor<1x3x16xf32>, tensor<1x2x5x4xf32>, tensor<1x4x3x5xf32>
}

// -----

// Tests that the kernel op refuses a mask that does not broadcast.
func.func @bad_mask(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>, %m: tensor<4x5xf32>) -> tensor<1x2x3x4xf32> {
  // expected-error @+1 {{'kernel.attention' op the mask does not broadcast to the scores}}
  %y = "kernel.attention"(%q, %k, %k, %m) <{causal = false, kv_heads = 2 : i64, left_window = -1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, packed = false, q_heads = 2 : i64, qk_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>, right_window = -1 : i64, scale = 5.000000e-01 : f32, softcap = 0.000000e+00 : f32}> : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<4x5xf32>) -> tensor<1x2x3x4xf32>
  return %y : tensor<1x2x3x4xf32>
}

// -----

// Tests that query heads must be a multiple of key/value heads.
func.func @bad_heads(%q: tensor<1x3x3x4xf32>, %k: tensor<1x2x5x4xf32>) -> tensor<1x3x3x4xf32> {
  // expected-error @+1 {{'kernel.attention' op q_heads 3 is not a multiple of kv_heads 2}}
  %y = "kernel.attention"(%q, %k, %k) <{causal = false, kv_heads = 2 : i64, left_window = -1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, packed = false, q_heads = 3 : i64, qk_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>, right_window = -1 : i64, scale = 5.000000e-01 : f32, softcap = 0.000000e+00 : f32}> : (tensor<1x3x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>) -> tensor<1x3x3x4xf32>
  return %y : tensor<1x3x3x4xf32>
}

// -----

// Tests that onnx.attention's type rule refuses heads that do not divide.
func.func @bad_hidden(%q: tensor<1x3x10xf32>, %k: tensor<1x3x8xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{hidden sizes 10, 8, 8 do not divide into 4 and 2 heads}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %pk, %pv, %qk = onnx.attention %q, %k, %k {q_num_heads = 4 : i64, kv_num_heads = 2 : i64} : (tensor<1x3x10xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %y : tensor<*xf32>
}
