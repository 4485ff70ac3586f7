//===- SettleOp.cpp - infer one op's result types, then fold it -----------===//
#include "dialects/Onnx/SettleOp.h"

#include "dialects/Onnx/TensorLimits.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

namespace onnxcc {

bool tryFoldOp(Operation *op, OpBuilder &b, SmallVectorImpl<Value> *replacedBy,
               bool erase) {
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
  if (erase)
    op->erase();
  if (replacedBy)
    replacedBy->assign(replacements.begin(), replacements.end());
  return true;
}

LogicalResult settleOp(Operation *op, OpBuilder &b,
                       SmallVectorImpl<Value> *replacedBy, bool erase) {
  if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    SmallVector<Type> types;
    if (failed(infer.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)))
      return failure(); // the shape rule emitted the error
    // A shape may be well-formed and still absurd (a pad of 2^30 makes an
    // intermediate of 2^64 elements): refuse it before anything computes
    // with its size.
    for (Type t : types)
      if (failed(checkTensorSize(op->getLoc(), cast<ShapedType>(t), "result")))
        return failure();
    for (auto [res, t] : llvm::zip(op->getResults(), types))
      res.setType(t);
  }
  tryFoldOp(op, b, replacedBy, erase);
  return success();
}

} // namespace onnxcc
