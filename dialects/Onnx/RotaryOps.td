//===- RotaryOps.td - rotary position embedding ------------*- tablegen -*-===//
#ifndef ONNXCC_ONNX_ROTARY_OPS
#define ONNXCC_ONNX_ROTARY_OPS

include "dialects/Onnx/OnnxBase.td"

def Onnx_RotaryEmbeddingOp : Onnx_FamilyOp<"rotary_embedding"> {
  let summary = "rotate pairs of each head's first dimensions by cached angles";
  let description = [{
    ONNX `RotaryEmbedding` (opset 23). The input is [batch, heads, seq,
    head_size], or [batch, seq, heads * head_size] with `num_heads`. The
    first `rotary_embedding_dim` (0: all) dimensions of each head form
    pairs, (i, i + dim/2) or with `interleaved` (2i, 2i + 1), rotated by
    the angle whose cos and sin the caches hold; the rest are copied. With
    `position_ids` [batch, seq] the caches are [positions, dim/2] rows
    picked per token, without they are [batch, seq, dim/2].

    ```mlir
    %y = onnx.rotary_embedding %x, %cos, %sin positions %p : (tensor<1x2x3x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<1x3xi64>) -> tensor<1x2x3x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$cos_cache,
                   AnyTensor:$sin_cache, Optional<AnyTensor>:$position_ids,
                   DefaultValuedAttr<I64Attr, "0">:$interleaved,
                   DefaultValuedAttr<I64Attr, "0">:$num_heads,
                   DefaultValuedAttr<I64Attr, "0">:$rotary_embedding_dim);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $cos_cache `,` $sin_cache (`positions` $position_ids^)? attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      return ::onnxcc::inferRotaryEmbeddingTypes(
          loc, adaptor.getInput(), adaptor.getCosCache(),
          adaptor.getSinCache(), adaptor.getPositionIds(),
          adaptor.getNumHeads(), adaptor.getRotaryEmbeddingDim(), types);
  }];
}

#endif // ONNXCC_ONNX_ROTARY_OPS
