//===- AttentionOps.td - scaled dot-product attention ------*- tablegen -*-===//
#ifndef ONNXCC_ONNX_ATTENTION_OPS
#define ONNXCC_ONNX_ATTENTION_OPS

include "dialects/Onnx/OnnxBase.td"

def Onnx_AttentionOp
    : Onnx_FamilyOp<"attention", [AttrSizedOperandSegments]> {
  let summary = "scaled dot-product attention with masks and a key/value cache";
  let description = [{
    ONNX `Attention` (opsets 23 to 25). Q, K and V are [batch, heads, seq,
    head_size], or [batch, seq, heads * head_size] with `q_num_heads` and
    `kv_num_heads` set. `attn_mask` broadcasts to [batch, q_heads, q_seq,
    kv_seq] (a bool mask allows where true, any other type adds); a mask
    shorter than the keys masks the rest. `past_key`/`past_value` are
    prepended to K and V, which `present_key`/`present_value` return.
    `nonpad_kv_seqlen` (opset 24) gives each batch's number of valid keys.
    The four results always exist; the unused ones are not computed.

    ```mlir
    %y, %pk, %pv, %qk = onnx.attention %q, %k, %v : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x3x5xf32>)
    ```
  }];
  let arguments = (ins AnyTensor:$q, AnyTensor:$k, AnyTensor:$v,
                   Optional<AnyTensor>:$attn_mask,
                   Optional<AnyTensor>:$past_key,
                   Optional<AnyTensor>:$past_value,
                   Optional<AnyTensor>:$nonpad_kv_seqlen,
                   DefaultValuedAttr<I64Attr, "0">:$is_causal,
                   DefaultValuedAttr<I64Attr, "0">:$q_num_heads,
                   DefaultValuedAttr<I64Attr, "0">:$kv_num_heads,
                   OptionalAttr<F32Attr>:$scale,
                   DefaultValuedAttr<F32Attr, "0.0">:$softcap,
                   DefaultValuedAttr<I64Attr, "0">:$qk_matmul_output_mode,
                   DefaultValuedAttr<I64Attr, "-1">:$left_window_size,
                   DefaultValuedAttr<I64Attr, "-1">:$right_window_size);
  let results = (outs AnyTensor:$y, AnyTensor:$present_key,
                 AnyTensor:$present_value, AnyTensor:$qk_matmul_output);
  let assemblyFormat = [{
    $q `,` $k `,` $v (`mask` $attn_mask^)? (`past` $past_key^ `,` $past_value)?
    (`nonpad` $nonpad_kv_seqlen^)? attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      return ::onnxcc::inferAttentionTypes(loc, adaptor, types);
  }];
  let extraClassDeclaration = [{
    /// The sizes (AttentionShapes.h), once Q, K, V and the cache are ranked
    /// and static; failure otherwise (an invalid one with its error).
    ::mlir::FailureOr<::onnxcc::AttentionDims> getDims();
  }];
}

#endif // ONNXCC_ONNX_ATTENTION_OPS
