//===- OnnxBase.td - base classes of the onnx dialect's ops -*- tablegen -*-===//
//
// Families of ops share a base class that also defines their shape rule
// (through extraClassDefinition and the helpers of InferTypes.h), so that
// adding an elementwise operator is one line of TableGen.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_BASE
#define ONNXCC_ONNX_BASE

include "dialects/Onnx/OnnxDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Onnx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Onnx_Dialect, mnemonic, !listconcat(traits, [Pure])>;

// Ops whose result types come from a shape rule. Unknown input shapes give an
// unranked result instead of an error so that import never fails on them.
class Onnx_InferredOp<string mnemonic, list<Trait> traits = []>
    : Onnx_Op<mnemonic, !listconcat(traits, [InferTypeOpAdaptorWithIsCompatible])>;

// Ops whose whole type rule is written by their family: the family's
// `inferTypes` body, plus the isCompatibleReturnTypes every inferred op
// shares (element types equal, shapes that may be equal: an unranked
// result is refined later).
class Onnx_FamilyOp<string mnemonic, list<Trait> traits = []>
    : Onnx_InferredOp<mnemonic, traits> {
  code inferTypes = ?;
  let extraClassDefinition = !strconcat([{
    ::mlir::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      (void)ctx;
      (void)loc;
  }], inferTypes, [{
    }
    bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange l,
                                            ::mlir::TypeRange r) {
      return ::onnxcc::compatibleTypes(l, r);
    }
  }]);
}

//===----------------------------------------------------------------------===//
// Elementwise families
//===----------------------------------------------------------------------===//

// y = f(x) elementwise; `attrs` adds the op's attributes.
class Onnx_UnaryOp<string mnemonic, string onnxName, dag attrs = (ins)>
    : Onnx_FamilyOp<mnemonic> {
  let summary = "elementwise " # onnxName;
  let description = [{
    ONNX `}] # onnxName # [{`, applied to every element.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = !con((ins AnyTensor:$input), attrs);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      types.push_back(adaptor.getInput().getType());
      return ::mlir::success();
  }];
}

// A unary test: y = p(x) as a bool tensor of x's shape (IsNaN, IsInf).
class Onnx_UnaryPredicateOp<string mnemonic, string onnxName, dag attrs = (ins)>
    : Onnx_UnaryOp<mnemonic, onnxName, attrs> {
  let inferTypes = [{
      types.push_back(::onnxcc::withElementType(
          adaptor.getInput().getType(), ::mlir::IntegerType::get(ctx, 1)));
      return ::mlir::success();
  }];
}

// z = f(x, y) with multidirectional (numpy) broadcasting; both operands
// have one element type, which the result keeps.
class Onnx_BinaryOp<string mnemonic, string onnxName, dag attrs = (ins),
                    list<Trait> traits = []>
    : Onnx_FamilyOp<mnemonic, traits> {
  let summary = "elementwise " # onnxName # " with multidirectional broadcasting";
  let description = [{
    ONNX `}] # onnxName # [{` with numpy-style broadcasting.

    ```mlir
    %z = onnx.}] # mnemonic # [{ %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = !con((ins AnyTensor:$lhs, AnyTensor:$rhs), attrs);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  // The result's element type: that of the operands (null), or i1.
  code resultElement = "::mlir::Type()";
  // Whether both operands must have one element type (Pow's need not).
  bit sameElementTypes = 1;
  let inferTypes = !strconcat([{
      return ::onnxcc::inferBroadcastTypes(
          loc, {adaptor.getLhs(), adaptor.getRhs()}, }], resultElement, [{,
          /*sameElementTypes=*/}], !if(sameElementTypes, "true", "false"), [{, types);
  }]);
}

// A comparison or logical test: bool result of the broadcast shape.
class Onnx_CompareOp<string mnemonic, string onnxName>
    : Onnx_BinaryOp<mnemonic, onnxName> {
  let resultElement = "::mlir::IntegerType::get(ctx, 1)";
}

// f(x0, x1, ...) over any number of broadcast inputs (Sum, Max, ...).
class Onnx_VariadicOp<string mnemonic, string onnxName>
    : Onnx_FamilyOp<mnemonic> {
  let summary = "elementwise " # onnxName # " of any number of inputs";
  let description = [{
    ONNX `}] # onnxName # [{` with numpy-style broadcasting of all inputs.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %a, %b, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyTensor>:$inputs);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferBroadcastTypes(loc, adaptor.getInputs(),
                                           ::mlir::Type(),
                                           /*sameElementTypes=*/true, types);
  }];
}

#endif // ONNXCC_ONNX_BASE
