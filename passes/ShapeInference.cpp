//===- ShapeInference.cpp - static shape specialisation -------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace onnxcc {
#define GEN_PASS_DEF_SHAPEINFERENCE
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

/// Folds `op` with its now-refined types (Shape of a static tensor) or
/// constant operands; returns true if it was replaced. Shape arithmetic
/// then collapses as the sweep reaches it.
static bool tryFold(Operation *op, OpBuilder &b) {
  if (op->hasTrait<OpTrait::ConstantLike>() || op->getNumOperands() == 0)
    return false;
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(folded)) || folded.size() != op->getNumResults())
    return false;
  b.setInsertionPoint(op);
  SmallVector<Value> replacements;
  for (auto [res, f] : llvm::zip(op->getResults(), folded)) {
    if (auto v = dyn_cast<Value>(f)) {
      replacements.push_back(v);
      continue;
    }
    Operation *c = op->getDialect()->materializeConstant(
        b, cast<Attribute>(f), res.getType(), op->getLoc());
    if (!c)
      return false;
    replacements.push_back(c->getResult(0));
  }
  op->replaceAllUsesWith(replacements);
  op->erase();
  return true;
}

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
    for (Operation *op : ops) {
      auto infer = dyn_cast<InferTypeOpInterface>(op);
      if (infer) {
        SmallVector<Type> types;
        if (failed(infer.inferReturnTypes(
                op->getContext(), op->getLoc(), op->getOperands(),
                op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
                op->getRegions(), types)))
          return signalPassFailure(); // the shape rule emitted the error
        // A shape may be well-formed and still absurd (a pad of 2^30 makes
        // an intermediate of 2^64 elements): refuse it before anything
        // computes with its size.
        for (Type t : types)
          if (failed(checkTensorSize(op->getLoc(), cast<ShapedType>(t),
                                     "result")))
            return signalPassFailure();
        for (auto [res, t] : llvm::zip(op->getResults(), types))
          res.setType(t);
      }
      tryFold(op, b);
    }
    Operation *ret = func.getBody().front().getTerminator();
    if (failed(checkDeclaredOutputs(func, ret->getOperandTypes())))
      return signalPassFailure();
    func.setFunctionType(FunctionType::get(
        func.getContext(), func.getArgumentTypes(), ret->getOperandTypes()));
  }
};
} // namespace
