//===- MlStringOps.td - strings of the ai.onnx.ml family ---*- tablegen -*-===//
//
// The only ops that take or give !onnx.string tensors: class labels and
// LabelEncoder values as strings (ml_string_table: index -> string) and
// LabelEncoder string keys (ml_string_lookup: string -> index). The
// strings are attributes; the emitter prints them as escaped literals in
// constant tables (codegen/cpu/MlStringPrinters.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_ONNX_ML_STRING_OPS
#define ONNXCC_ONNX_ML_STRING_OPS

include "dialects/Onnx/OnnxBase.td"
include "dialects/Onnx/OnnxTypes.td"

def Onnx_MlStringTableOp : Onnx_FamilyOp<"ml_string_table"> {
  let summary = "strings by index: labels[indices]";
  let description = [{
    Each i64 index picks one of `labels` (the class names of a classifier,
    or a LabelEncoder's values followed by its default); an index outside
    the table is clamped to it. The result has the indices' shape and
    !onnx.string elements.

    ```mlir
    %l = onnx.ml_string_table %i {labels = ["cat", "dog"]} : (tensor<3xi64>) -> tensor<3x!onnx.string>
    ```
  }];
  let arguments = (ins AnyTensor:$indices, StrArrayAttr:$labels);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let inferTypes = [{
      types.push_back(::onnxcc::withElementType(adaptor.getIndices().getType(),
                                                StringType::get(ctx)));
      return ::mlir::success();
  }];
}

def Onnx_MlStringLookupOp : Onnx_FamilyOp<"ml_string_lookup"> {
  let summary = "indices of strings: the position of each in `keys`";
  let description = [{
    For each !onnx.string element, its position in `keys` (distinct
    strings, in the model's order) as i64, or the number of keys where it
    is none of them (and for a null pointer).

    ```mlir
    %i = onnx.ml_string_lookup %x {keys = ["a", "b"]} : (tensor<5x!onnx.string>) -> tensor<5xi64>
    ```
  }];
  let arguments = (ins AnyTensor:$input, StrArrayAttr:$keys);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let inferTypes = [{
      types.push_back(::onnxcc::withElementType(
          adaptor.getInput().getType(), ::mlir::IntegerType::get(ctx, 64)));
      return ::mlir::success();
  }];
}

#endif // ONNXCC_ONNX_ML_STRING_OPS
