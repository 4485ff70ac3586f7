//===- ReductionOps.td - Reduce* and ArgMax/ArgMin ---------*- tablegen -*-===//
//
// The reductions in their newest form: `axes` is an optional operand (the
// importer turns the attribute of older opsets into a constant), and the
// shape rule needs it constant. Their scalar meaning (identity, combine,
// finish) is in runtime-support/onnxcc/reduce.h.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_REDUCTION_OPS
#define ONNXCC_ONNX_REDUCTION_OPS

include "dialects/Onnx/OnnxBase.td"

// y = reduce(x) over `axes` (all axes when absent or empty, none when empty
// and noop_with_empty_axes is set); reduced dims stay as 1 with keepdims.
class Onnx_ReduceOp<string mnemonic, string onnxName>
    : Onnx_FamilyOp<mnemonic> {
  let summary = "ONNX " # onnxName # " over a constant set of axes";
  let description = [{
    ONNX `}] # onnxName # [{` (opset 18 form: `axes` is an optional
    operand, which must fold to a constant).

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, Optional<AnyTensor>:$axes,
                   DefaultValuedAttr<I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<I64Attr, "0">:$noop_with_empty_axes);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data (`,` $axes^)? attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferReduceTypes(loc, adaptor.getData(),
                                        adaptor.getAxes(),
                                        adaptor.getKeepdims() != 0,
                                        adaptor.getNoopWithEmptyAxes() != 0,
                                        types);
  }];
}

def Onnx_ReduceL1Op : Onnx_ReduceOp<"reduce_l1", "ReduceL1">;
def Onnx_ReduceL2Op : Onnx_ReduceOp<"reduce_l2", "ReduceL2">;
def Onnx_ReduceLogSumOp : Onnx_ReduceOp<"reduce_log_sum", "ReduceLogSum">;
def Onnx_ReduceLogSumExpOp : Onnx_ReduceOp<"reduce_log_sum_exp", "ReduceLogSumExp">;
def Onnx_ReduceMaxOp : Onnx_ReduceOp<"reduce_max", "ReduceMax">;
def Onnx_ReduceMeanOp : Onnx_ReduceOp<"reduce_mean", "ReduceMean">;
def Onnx_ReduceMinOp : Onnx_ReduceOp<"reduce_min", "ReduceMin">;
def Onnx_ReduceProdOp : Onnx_ReduceOp<"reduce_prod", "ReduceProd">;
def Onnx_ReduceSumOp : Onnx_ReduceOp<"reduce_sum", "ReduceSum">;
def Onnx_ReduceSumSquareOp : Onnx_ReduceOp<"reduce_sum_square", "ReduceSumSquare">;

// The int64 index of the largest (smallest) element along `axis`: the
// first one, or the last with select_last_index.
class Onnx_ArgReduceOp<string mnemonic, string onnxName>
    : Onnx_FamilyOp<mnemonic> {
  let summary = "ONNX " # onnxName # ": int64 index of the extreme element along an axis";
  let description = [{
    ```mlir
    %i = onnx.}] # mnemonic # [{ %x {axis = 1 : i64, keepdims = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
    ```
  }];
  let arguments = (ins AnyTensor:$data,
                   DefaultValuedAttr<I64Attr, "0">:$axis,
                   DefaultValuedAttr<I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<I64Attr, "0">:$select_last_index);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferArgReduceTypes(loc, adaptor.getData(),
                                           adaptor.getAxis(),
                                           adaptor.getKeepdims() != 0, types);
  }];
}

def Onnx_ArgMaxOp : Onnx_ArgReduceOp<"arg_max", "ArgMax">;
def Onnx_ArgMinOp : Onnx_ArgReduceOp<"arg_min", "ArgMin">;

// Reductions over every axis from 2 on of [N, C, D1, ...], kept as 1.
class Onnx_GlobalPoolOp<string mnemonic, string onnxName, dag attrs = (ins)>
    : Onnx_FamilyOp<mnemonic> {
  let summary = "ONNX " # onnxName # ": a reduction over all spatial positions";
  let description = [{
    ```mlir
    %y = onnx.}] # mnemonic # [{ %x : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32>
    ```
  }];
  let arguments = !con((ins AnyTensor:$input), attrs);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferGlobalPoolTypes(loc, adaptor.getInput(), types);
  }];
}

def Onnx_GlobalMaxPoolOp : Onnx_GlobalPoolOp<"global_max_pool", "GlobalMaxPool">;
// (sum over the spatial positions of |x|^p)^(1/p).
def Onnx_GlobalLpPoolOp : Onnx_GlobalPoolOp<"global_lp_pool", "GlobalLpPool",
    (ins DefaultValuedAttr<I64Attr, "2">:$p)>;

#endif // ONNXCC_ONNX_REDUCTION_OPS
