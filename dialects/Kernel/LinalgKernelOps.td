//===- LinalgKernelOps.td - batched products and strided copies -*- tablegen -*-===//
//
// The kernels MatMul and Einsum lower to besides kernel.gemm (which is in
// KernelOps.td with the fusion passes that read it). Verifiers are in
// LinalgKernelOps.cpp, printers in codegen/cpu/LinalgPrinters.cpp, the
// runtime in runtime-support/onnxcc/linalg.h.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_LINALG_OPS
#define ONNXCC_KERNEL_LINALG_OPS

def Kernel_BatchMatMulOp : Kernel_Op<"batch_matmul",
    [Pure, Kernel_ThreadedOpInterface]> {
  let summary = "a matrix product per batch index, batch dims broadcast";
  let description = [{
    `a` is [B..., M, K] and `b` [B'..., K, N], both of one rank; each batch
    dim of the two is equal or 1 (broadcast). The result is [B''..., M, N].
    Any element type; 16-bit floats accumulate in f32. `threads`
    (onnxcc-choose-threads) splits the batch indices of an f32 product.

    ```mlir
    %y = kernel.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$a, StaticTensor:$b,
                   DefaultValuedAttr<I64Attr, "1">:$threads);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$a `,` $b attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_StridedCopyOp : Kernel_Op<"strided_copy", [Pure]> {
  let summary = "copy elements read at given strides (diagonals)";
  let description = [{
    Output element (i0, i1, ...) is input element sum(i_d * strides[d]) in
    the input's row-major order; a diagonal sums the strides of the dims it
    merges.

    ```mlir
    %y = kernel.strided_copy %x {strides = array<i64: 6>} : (tensor<5x5xf32>) -> tensor<5xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, DenseI64ArrayAttr:$strides);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_LINALG_OPS
