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

def Onnx_MatMulIntegerOp : Onnx_InferredOp<"matmul_integer"> {
  let summary = "MatMul of zero-point-shifted 8-bit integers, in i32";
  let description = [{
    (A - a_zero_point) x (B - b_zero_point) with MatMul's shapes, exact in
    i32 (wrapping). A zero point is a scalar, one per row of A ([M] or
    [..., M, 1]) or one per column of B ([N] or [..., 1, N]); the importer
    gives 0 for an absent one.

    ```mlir
    %y = onnx.matmul_integer %a, %b, %az, %bz : (tensor<4x3xui8>, tensor<3x2xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4x2xi32>
    ```
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b, AnyTensor:$a_zero_point,
                   AnyTensor:$b_zero_point);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$a `,` $b `,` $a_zero_point `,` $b_zero_point attr-dict `:` functional-type(operands, results)";
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
