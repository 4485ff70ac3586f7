//===- LinalgOps.td - linear-algebra ONNX operators --------*- tablegen -*-===//
//
// Gemm, MatMul and Einsum. Their shape rules are in LinalgShapes.cpp, the
// type hooks in LinalgOps.cpp, the lowering in
// passes/LowerToKernel/LinalgPatterns.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_LINALG_OPS
#define ONNXCC_ONNX_LINALG_OPS

include "dialects/Onnx/OnnxBase.td"

def Onnx_GemmOp : Onnx_InferredOp<"gemm"> {
  let summary = "general matrix multiply: alpha * A' * B' + beta * C";
  let description = [{
    A' is A or its transpose (trans_a), likewise B'; C broadcasts to the
    M x N result (unidirectionally) and may be omitted.

    ```mlir
    %y = onnx.gemm %a, %b, %c {trans_b = 1 : i64} : (tensor<1x784xf32>, tensor<256x784xf32>, tensor<256xf32>) -> tensor<1x256xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b, Optional<AnyTensor>:$c,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0">:$beta,
                   DefaultValuedAttr<I64Attr, "0">:$trans_a,
                   DefaultValuedAttr<I64Attr, "0">:$trans_b);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)";
}

def Onnx_MatMulOp : Onnx_InferredOp<"matmul"> {
  let summary = "numpy matmul (1-D promotion, broadcast batches)";
  let description = [{
    A 1-D operand is promoted to a matrix (a row on the left, a column on
    the right) and the promoted dim removed from the result; the batch
    dims (all but the last two) broadcast.

    ```mlir
    %y = onnx.matmul %a, %b : (tensor<2x4x8xf32>, tensor<1x8x2xf32>) -> tensor<2x4x2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$a `,` $b attr-dict `:` functional-type(operands, results)";
}

def Onnx_EinsumOp : Onnx_InferredOp<"einsum"> {
  let summary = "Einstein summation over labelled dims";
  let description = [{
    ```mlir
    %y = onnx.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyTensor>:$inputs, StrAttr:$equation);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

#endif // ONNXCC_ONNX_LINALG_OPS
