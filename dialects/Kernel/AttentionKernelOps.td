//===- AttentionKernelOps.td - attention kernel ------------*- tablegen -*-===//
//
// Included at the end of KernelOps.td (Kernel_Op, StaticTensor).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_KERNEL_ATTENTION_OPS
#define ONNXCC_KERNEL_ATTENTION_OPS

include "dialects/Kernel/KernelOps.td"

def Kernel_AttentionOp : Kernel_Op<"attention",
    [Pure, AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "softmax(scale * Q K^T + bias) V, one query row at a time";
  let description = [{
    Q, K, V are [batch, heads, seq, head_size], or with `packed` [batch,
    seq, heads * head_size]. Each query head h reads key/value head
    h / (q_heads / kv_heads). Keys and values are `past_*` followed by the
    new ones. The bias of a (query i, key j) pair is -inf where `causal`
    (j > i + offset), the window (`left_window`, `right_window`; -1 is
    unbounded), `nonpad` (j >= nonpad[b]) or a false bool mask position
    forbids, plus a numeric mask's value; a row that allows nothing gives
    zeros. The softmax is computed online in float (double for f64), so no
    scratch memory is needed. The optional results are the cache with the
    new keys and values appended and the scores of `qk_mode` (0/1: after
    softcap, 2: plus bias, 3: the probabilities).

    ```mlir
    %y = "kernel.attention"(%q, %k, %v) <{causal = false, kv_heads = 2 : i64, left_window = -1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, packed = false, q_heads = 2 : i64, qk_mode = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>, right_window = -1 : i64, scale = 5.000000e-01 : f32, softcap = 0.000000e+00 : f32}> : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$q, StaticTensor:$k, StaticTensor:$v,
                   Optional<StaticTensor>:$mask,
                   Optional<StaticTensor>:$past_key,
                   Optional<StaticTensor>:$past_value,
                   Optional<StaticTensor>:$nonpad,
                   I64Attr:$q_heads, I64Attr:$kv_heads, BoolAttr:$packed,
                   F32Attr:$scale, F32Attr:$softcap, BoolAttr:$causal,
                   I64Attr:$left_window, I64Attr:$right_window,
                   I64Attr:$qk_mode);
  let results = (outs StaticTensor:$y, Optional<StaticTensor>:$present_key,
                 Optional<StaticTensor>:$present_value,
                 Optional<StaticTensor>:$qk);
  // The generic form: it round-trips which optional results exist, which a
  // declarative format with functional-type() cannot.
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_ATTENTION_OPS
