//===- ShapeInference.cpp - static shape specialisation -------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/SettleOp.h"
#include "mlir/IR/Builders.h"

namespace onnxcc {
#define GEN_PASS_DEF_SHAPEINFERENCE
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

/// A graph output whose computed type contradicts the model's declaration
/// (element type, rank, or a static dimension) means the model is not
/// what it says: an error, not a silent answer of another shape.
static LogicalResult checkDeclaredOutputs(func::FuncOp func,
                                          TypeRange computed) {
  for (auto [i, type] : llvm::enumerate(computed)) {
    auto declared = func.getResultAttrOfType<TypeAttr>(
        i, onnx::OnnxDialect::kDeclaredTypeAttr);
    if (!declared)
      continue;
    auto want = cast<ShapedType>(declared.getValue());
    auto got = cast<ShapedType>(type);
    bool mismatch = want.getElementType() != got.getElementType();
    if (want.hasRank() && got.hasRank()) {
      mismatch |= want.getRank() != got.getRank();
      for (auto [w, g] : llvm::zip(want.getShape(), got.getShape()))
        mismatch |= !ShapedType::isDynamic(w) && !ShapedType::isDynamic(g) && w != g;
    }
    if (!mismatch)
      continue;
    auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name");
    return func.emitError() << "graph output '"
                            << (name ? name.getValue() : StringRef("?"))
                            << "' is declared as " << want << " but computes "
                            << got;
  }
  return success();
}

struct ShapeInferencePass
    : onnxcc::impl::ShapeInferenceBase<ShapeInferencePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    OpBuilder b(func.getContext());
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops)
      if (failed(settleOp(op, b)))
        return signalPassFailure();
    Operation *ret = func.getBody().front().getTerminator();
    if (failed(checkDeclaredOutputs(func, ret->getOperandTypes())))
      return signalPassFailure();
    func.setFunctionType(FunctionType::get(
        func.getContext(), func.getArgumentTypes(), ret->getOperandTypes()));
  }
};
} // namespace
