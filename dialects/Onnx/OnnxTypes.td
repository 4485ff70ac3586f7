//===- OnnxTypes.td - element types of the onnx dialect ----*- tablegen -*-===//
//
// ONNX's STRING element type. Only the ops that convert between strings
// and indices (ml_string_table, ml_string_lookup) take it; the importer
// refuses it everywhere else (compiler/frontend/MlStringImporters.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_ONNX_TYPES
#define ONNXCC_ONNX_TYPES

include "dialects/Onnx/OnnxDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Onnx_StringType : TypeDef<Onnx_Dialect, "String"> {
  let mnemonic = "string";
  let summary = "an ONNX STRING element: a NUL-terminated byte string";
  let description = [{
    The element type of ONNX string tensors. Generated code holds one
    `const char *` per element (8 bytes in the memory plan): inputs point
    into the caller's strings, outputs into constant tables of the
    generated code (never the heap). Only `onnx.ml_string_table` and
    `onnx.ml_string_lookup` (and their kernel twins) accept it.

    ```mlir
    %l = onnx.ml_string_table %i {labels = ["a", "b"]} : (tensor<3xi64>) -> tensor<3x!onnx.string>
    ```
  }];
}

#endif // ONNXCC_ONNX_TYPES
