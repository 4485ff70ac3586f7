//===- OnnxDialect.td - ONNX graph dialect -----------------*- tablegen -*-===//
//
// The graph-level dialect: ONNX operator semantics on value tensors. Shapes
// start unranked where the model leaves them open and are refined by
// --onnxcc-shape-inference once symbolic dimensions are pinned.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_DIALECT
#define ONNXCC_ONNX_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Onnx_Dialect : Dialect {
  let name = "onnx";
  let summary = "ONNX operator semantics on tensors";
  let description = [{
    One op per ONNX operator the compiler supports. Attributes keep ONNX's
    names in snake_case; optional ONNX inputs are optional operands. Every op
    carries the ONNX node name as its location.
  }];
  let cppNamespace = "::onnxcc::onnx";
  let hasConstantMaterializer = 1;
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// On a function result: the type the model declares for that graph
    /// output (dim_params and unknown dims dynamic), checked against the
    /// inferred one by --onnxcc-shape-inference.
    static constexpr ::llvm::StringLiteral kDeclaredTypeAttr =
        "onnx.declared_type";
  }];
}

#endif // ONNXCC_ONNX_DIALECT
