//===- LossImporters.cpp - builders of the loss functions ----------------===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss are decomposed into
// gathers, masks, elementwise ops and reductions, following their ONNX
// function bodies (onnx/defs/math/defs.cpp): the loss is a handful of
// small passes over [N, d1..dk] values, which the existing kernels (and the
// elementwise fusion) already do well, so a dedicated kernel would buy
// nothing.
//
// A target equal to `ignore_index` is never used as an index: it is
// replaced by class 0 before the gathers (and its loss and weight are then
// set to 0). Any other target outside [0, C) is outside ONNX's contract;
// the gather kernels clamp it, so it reads a defined value.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include <cstdint>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

/// A rank-0 constant of `like`'s float element type.
Value floatLike(NodeContext &n, Value like, double value) {
  Type element = getElementTypeOrSelf(like.getType());
  auto type = RankedTensorType::get({}, element);
  return o::ConstantOp::create(
      n.builder, n.loc, type,
      DenseElementsAttr::get(
          type, ArrayRef<Attribute>{FloatAttr::get(element, value)}));
}

/// A rank-0 constant of `like`'s integer element type (`value` fits it).
Value intLike(NodeContext &n, Value like, int64_t value) {
  Type element = getElementTypeOrSelf(like.getType());
  auto type = RankedTensorType::get({}, element);
  return o::ConstantOp::create(
      n.builder, n.loc, type,
      DenseElementsAttr::get(
          type, ArrayRef<Attribute>{IntegerAttr::get(element, value)}));
}

std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") +
         (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
  return s + "]";
}

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// The loss of NegativeLogLikelihoodLoss on `logProb` [N, C, d1..dk] (the
/// log-probabilities) against `target` [N, d1..dk]:
///   loss[n, d] = -logProb[n, target[n, d], d] * w[n, d]
/// with w = weight[target] (1 without `weight`), 0 where target ==
/// ignore_index; reduced by `reduction` ("mean" divides by the sum of w).
LogicalResult buildNllLoss(NodeContext &n, Value logProb, Value target,
                           Value weight) {
  Type xElement = getElementTypeOrSelf(logProb.getType());
  if (!isa<FloatType>(xElement))
    return n.error(n.node.op_type() + " needs float scores, got element type " +
                   typeName(xElement));
  Type tElement = getElementTypeOrSelf(target.getType());
  if (!tElement.isInteger(32) && !tElement.isInteger(64))
    return n.error(n.node.op_type() + " needs an int32 or int64 target, got " +
                   "element type " + typeName(tElement));
  std::string reduction = n.getString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return n.error("reduction '" + reduction +
                   "' is not one of 'none', 'sum', 'mean'");
  // Shapes known at import (graph inputs) are checked here, so that the
  // error names them; the reshapes below catch the rest once inferred.
  auto xType = dyn_cast<RankedTensorType>(logProb.getType());
  auto tType = dyn_cast<RankedTensorType>(target.getType());
  if (xType && xType.getRank() < 2)
    return n.error("input must have rank >= 2 ([N, C, d1..dk]), got rank " +
                   Twine(xType.getRank()));
  if (xType && tType) {
    SmallVector<int64_t> expected(xType.getShape());
    expected.erase(expected.begin() + 1);
    bool ok = tType.getRank() == (int64_t)expected.size();
    for (int64_t i = 0; ok && i < tType.getRank(); ++i)
      ok = ShapedType::isDynamic(expected[i]) ||
           ShapedType::isDynamic(tType.getDimSize(i)) ||
           expected[i] == tType.getDimSize(i);
    if (!ok)
      return n.error("target of shape " + shapeText(tType.getShape()) +
                     " does not match input of shape " +
                     shapeText(xType.getShape()) + " (expected " +
                     shapeText(expected) + ")");
  }
  auto wType = weight ? dyn_cast<RankedTensorType>(weight.getType())
                      : RankedTensorType();
  if (wType && wType.getRank() != 1)
    return n.error("weight must have rank 1 ([C]), got rank " +
                   Twine(wType.getRank()));

  Type t = n.unrankedLike(logProb);
  Type i1 = n.unranked(n.builder.getI1Type());
  Value one = n.i64Constant({1});

  // mask: where the target is ignored; safe: the target with those at 0.
  Value mask, safe = target;
  // An ignore_index an int32 target cannot hold ignores nothing (narrowing
  // it would ignore another class).
  int64_t ignoreIndex = n.getInt("ignore_index", 0);
  bool fits = tElement.isInteger(64) ||
              (ignoreIndex >= INT32_MIN && ignoreIndex <= INT32_MAX);
  if (n.has("ignore_index") && fits) {
    Value ii = intLike(n, target, ignoreIndex);
    mask = o::EqualOp::create(n.builder, n.loc, i1, target, ii);
    safe = o::WhereOp::create(n.builder, n.loc, n.unrankedLike(target), mask,
                              intLike(n, target, 0), target);
  }
  // The index is the target reshaped to [N, 1, d1..dk] read off the input:
  // a target of another size is then an error once shapes are known, also
  // where they are not at import (GatherElements alone would accept a
  // smaller target and read part of the input).
  Type i64 = n.unranked(n.builder.getI64Type());
  Value lead = o::ShapeOp::create(n.builder, n.loc, i64, logProb, /*start=*/0,
                                  n.builder.getI64IntegerAttr(1));
  Value trail = o::ShapeOp::create(n.builder, n.loc, i64, logProb, /*start=*/2,
                                   /*end=*/IntegerAttr());
  Value indexShape = o::ConcatOp::create(n.builder, n.loc, i64,
                                         ValueRange{lead, one, trail}, 0);
  Value index = o::ReshapeOp::create(n.builder, n.loc, n.unrankedLike(target),
                                     safe, indexShape, /*allowzero=*/0);
  Value picked = o::GatherElementsOp::create(n.builder, n.loc, t, logProb,
                                             index, /*axis=*/1);
  Value squeezed = o::SqueezeOp::create(n.builder, n.loc, t, picked, one);
  Value loss = o::NegOp::create(n.builder, n.loc, t, squeezed);

  Value zero = floatLike(n, logProb, 0.0);
  Value w; // the per-element weight, null when every one is 1
  if (weight) {
    if (getElementTypeOrSelf(weight.getType()) != xElement)
      return n.error("weight element type " +
                     typeName(getElementTypeOrSelf(weight.getType())) +
                     " differs from the input's " + typeName(xElement));
    // Reshaped to the input's [C] so that a weight of another size is an
    // error (the gather would clamp into it) also when computed in-graph.
    Value classes =
        o::ShapeOp::create(n.builder, n.loc, i64, logProb,
                           /*start=*/1, n.builder.getI64IntegerAttr(2));
    weight = o::ReshapeOp::create(n.builder, n.loc, n.unrankedLike(weight),
                                  weight, classes, /*allowzero=*/0);
    w = o::GatherOp::create(n.builder, n.loc, t, weight, safe, /*axis=*/0);
    if (mask)
      w = o::WhereOp::create(n.builder, n.loc, t, mask, zero, w);
    loss = o::MulOp::create(n.builder, n.loc, t, loss, w);
  } else if (mask) {
    w = o::WhereOp::create(n.builder, n.loc, t, mask, zero,
                           floatLike(n, logProb, 1.0));
    loss = o::WhereOp::create(n.builder, n.loc, t, mask, zero, loss);
  }

  if (reduction == "none") {
    n.results.push_back(loss);
    return success();
  }
  auto sum = [&](Value v) -> Value {
    return o::ReduceSumOp::create(n.builder, n.loc, t, v, /*axes=*/Value(),
                                  /*keepdims=*/0, /*noop_with_empty_axes=*/0);
  };
  if (reduction == "sum")
    n.results.push_back(sum(loss));
  else if (w)
    n.results.push_back(
        o::DivOp::create(n.builder, n.loc, t, sum(loss), sum(w)));
  else
    n.results.push_back(o::ReduceMeanOp::create(n.builder, n.loc, t, loss,
                                                /*axes=*/Value(), 0, 0));
  return success();
}

LogicalResult importNllLoss(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  return buildNllLoss(n, n.operand(0), n.operand(1), n.operand(2));
}

/// SoftmaxCrossEntropyLoss: NegativeLogLikelihoodLoss of LogSoftmax over
/// the class dimension; the optional second output is that LogSoftmax.
LogicalResult importSoftmaxCrossEntropyLoss(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  Value x = n.operand(0);
  if (!isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return n.error("SoftmaxCrossEntropyLoss needs float scores, got element "
                   "type " +
                   typeName(getElementTypeOrSelf(x.getType())));
  if (auto xType = dyn_cast<RankedTensorType>(x.getType());
      xType && xType.getRank() < 2)
    return n.error("input must have rank >= 2 ([N, C, d1..dk]), got rank " +
                   Twine(xType.getRank()));
  Value logProb = o::LogSoftmaxOp::create(n.builder, n.loc, n.unrankedLike(x),
                                          x, /*axis=*/1);
  if (failed(buildNllLoss(n, logProb, n.operand(1), n.operand(2))))
    return failure();
  n.results.push_back(logProb);
  return success();
}

} // namespace

void addLossImporters(llvm::StringMap<OpImportFn> &t) {
  t["NegativeLogLikelihoodLoss"] = importNllLoss;
  t["SoftmaxCrossEntropyLoss"] = importSoftmaxCrossEntropyLoss;
}

} // namespace onnxcc
