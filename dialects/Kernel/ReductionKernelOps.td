//===- ReductionKernelOps.td - reductions over axes --------*- tablegen -*-===//
//
// Included at the end of KernelOps.td (Kernel_Op, StaticTensor).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_REDUCTION_OPS
#define ONNXCC_KERNEL_REDUCTION_OPS

include "dialects/Kernel/KernelOps.td"

def Kernel_ReduceOp : Kernel_Op<"reduce", [Pure]> {
  let summary = "reduce over a set of axes, which stay as dimensions of 1";
  let description = [{
    `kind` is one of sum, mean, max, min, prod, l1, l2, log_sum,
    log_sum_exp, sum_square. The result has the input's rank (keepdims;
    a `kernel.view` drops the dims) and element type; an empty `axes`
    applies the reduction to each element alone. Zero-size reduced
    dimensions give the reduction's identity (0 for sum, -inf for max,
    ...).

    ```mlir
    %y = kernel.reduce %x {kind = "mean", axes = array<i64: 2, 3>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StrAttr:$kind,
                   DenseI64ArrayAttr:$axes);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_ArgReduceOp : Kernel_Op<"arg_reduce", [Pure]> {
  let summary = "int64 index of the largest or smallest element along an axis";
  let description = [{
    The result has the input's rank with `axis` set to 1. Ties give the
    first index, or the last with `select_last_index`; a NaN counts as the
    extreme (numpy's argmax).

    ```mlir
    %i = kernel.arg_reduce %x {kind = "max", axis = 1 : i64, select_last_index = false} : (tensor<2x3xf32>) -> tensor<2x1xi64>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StrAttr:$kind, I64Attr:$axis,
                   BoolAttr:$select_last_index);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_REDUCTION_OPS
