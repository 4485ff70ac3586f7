//===- RotaryKernelOps.td - rotary embedding kernel --------*- tablegen -*-===//
//
// Included at the end of KernelOps.td (Kernel_Op, StaticTensor).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_KERNEL_ROTARY_OPS
#define ONNXCC_KERNEL_ROTARY_OPS

include "dialects/Kernel/KernelOps.td"

def Kernel_RotaryEmbeddingOp : Kernel_Op<"rotary_embedding", [Pure]> {
  let summary = "rotate pairs of each head's first `rotary_dim` elements";
  let description = [{
    The input is [batch, heads, seq, head_size], or with `packed` [batch,
    seq, heads * head_size]. Each head's element pairs (i, i + rotary_dim/2)
    (with `interleaved`: (2i, 2i + 1)), i < rotary_dim/2, rotate by cos and
    sin cache entry i of the token's row: row position_ids[b, s] (clamped
    into the cache) of [positions, rotary_dim/2] caches, or row (b, s) of
    [batch, seq, rotary_dim/2] caches without position_ids. The elements
    from rotary_dim on are copied.

    ```mlir
    %y = kernel.rotary_embedding %x, %cos, %sin positions %p {heads = 2 : i64, interleaved = false, packed = false, rotary_dim = 8 : i64} : (tensor<1x2x3x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<1x3xi64>) -> tensor<1x2x3x8xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$cos_cache,
                   StaticTensor:$sin_cache,
                   Optional<StaticTensor>:$position_ids, I64Attr:$heads,
                   I64Attr:$rotary_dim, BoolAttr:$interleaved,
                   BoolAttr:$packed);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = [{
    $input `,` $cos_cache `,` $sin_cache (`positions` $position_ids^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_ROTARY_OPS
