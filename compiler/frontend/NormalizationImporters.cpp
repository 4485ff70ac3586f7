//===- NormalizationImporters.cpp - builders of the normalisations -------===//
//
// LayerNormalization, RMSNormalization, InstanceNormalization,
// GroupNormalization and LRN map to one op each. LogSoftmax and Hardmax
// before opset 13 ran over the input flattened to 2-D at `axis` (as
// Softmax did, see importSoftmax). MeanVarianceNormalization and
// LpNormalization are decomposed into reductions and elementwise ops,
// following their ONNX function bodies.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

/// Attributes with their ONNX defaults, as the op builders take them.
FloatAttr f32(NodeContext &n, StringRef name, float dflt) {
  return n.builder.getF32FloatAttr(n.getFloat(name, dflt));
}
IntegerAttr i64(NodeContext &n, StringRef name, int64_t dflt) {
  return n.builder.getI64IntegerAttr(n.getInt(name, dflt));
}

/// A scalar constant of `like`'s (float) element type.
Value scalarLike(NodeContext &n, Value like, double value) {
  Type element = getElementTypeOrSelf(like.getType());
  auto type = RankedTensorType::get({}, element);
  return o::ConstantOp::create(
      n.builder, n.loc, type,
      DenseElementsAttr::get(type, ArrayRef<Attribute>{FloatAttr::get(element, value)}));
}

/// Fails unless `x` has float elements (the ops decomposed here are
/// defined for floats only).
LogicalResult requireFloat(NodeContext &n, Value x) {
  Type element = getElementTypeOrSelf(x.getType());
  if (isa<FloatType>(element))
    return success();
  std::string s;
  llvm::raw_string_ostream os(s);
  os << element;
  return n.error(n.node.op_type() + " needs float elements, got element type " + s);
}

LogicalResult importLayerNorm(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  Value x = n.operand(0);
  Type f32Unranked = n.unranked(n.builder.getF32Type());
  auto op = o::LayerNormalizationOp::create(
      n.builder, n.loc, TypeRange{n.unrankedLike(x), f32Unranked, f32Unranked},
      x, n.operand(1), n.operand(2), i64(n, "axis", -1),
      f32(n, "epsilon", 1e-5f), i64(n, "stash_type", 1));
  n.results.append(op->result_begin(), op->result_end());
  return success();
}

LogicalResult importRMSNorm(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::RMSNormalizationOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), i64(n, "axis", -1), f32(n, "epsilon", 1e-5f),
      i64(n, "stash_type", 1)));
  return success();
}

LogicalResult importInstanceNorm(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  n.results.push_back(o::InstanceNormalizationOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), f32(n, "epsilon", 1e-5f)));
  return success();
}

LogicalResult importGroupNorm(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  if (!n.has("num_groups"))
    return n.error("missing required attribute 'num_groups'");
  n.results.push_back(o::GroupNormalizationOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), i64(n, "num_groups", 1),
      f32(n, "epsilon", 1e-5f), i64(n, "stash_type", 1)));
  return success();
}

LogicalResult importLRN(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  if (!n.has("size"))
    return n.error("missing required attribute 'size'");
  n.results.push_back(o::LRNOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      i64(n, "size", 1), f32(n, "alpha", 1e-4f), f32(n, "beta", 0.75f),
      f32(n, "bias", 1.0f)));
  return success();
}

/// LogSoftmax and Hardmax: along `axis` since opset 13; before, over all
/// the dimensions from `axis` (default 1) on: Flatten, the op over the last
/// dimension, and Reshape back to the input's shape.
template <typename OpTy> LogicalResult importAxisOp(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Value x = n.operand(0);
  if (n.opset >= 13) {
    n.results.push_back(
        OpTy::create(n.builder, n.loc, n.unrankedLike(x), x, n.getInt("axis", -1)));
    return success();
  }
  Type i64 = n.builder.getI64Type();
  Value flat = o::FlattenOp::create(n.builder, n.loc, n.unrankedLike(x), x,
                                    n.getInt("axis", 1));
  Value y = OpTy::create(n.builder, n.loc, n.unrankedLike(x), flat, -1);
  Value shape = o::ShapeOp::create(n.builder, n.loc, n.unranked(i64), x,
                                   /*start=*/0, /*end=*/IntegerAttr());
  n.results.push_back(o::ReshapeOp::create(n.builder, n.loc, n.unrankedLike(x),
                                           y, shape, /*allowzero=*/0));
  return success();
}

/// MeanVarianceNormalization's function body: (X - E[X]) /
/// (sqrt(E[X^2] - E[X]^2) + 1e-9), the means over `axes` (default
/// [0, 2, 3]). The variance is computed as E[(X - E[X])^2], which is the
/// same value without the cancellation.
LogicalResult importMVN(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Value x = n.operand(0);
  if (failed(requireFloat(n, x)))
    return failure();
  SmallVector<int64_t> axesList = n.has("axes") ? n.getInts("axes")
                                                : SmallVector<int64_t>{0, 2, 3};
  if (axesList.empty())
    return n.error("axes must not be empty");
  Type t = n.unrankedLike(x);
  Value axes = n.i64Constant(axesList);
  Value mean = o::ReduceMeanOp::create(n.builder, n.loc, t, x, axes,
                                       /*keepdims=*/1, /*noop_with_empty_axes=*/0);
  Value d = o::SubOp::create(n.builder, n.loc, t, x, mean);
  Value dd = o::MulOp::create(n.builder, n.loc, t, d, d);
  Value var = o::ReduceMeanOp::create(n.builder, n.loc, t, dd, axes, 1, 0);
  Value std = o::SqrtOp::create(n.builder, n.loc, t, var);
  Value denom = o::AddOp::create(n.builder, n.loc, t, std, scalarLike(n, x, 1e-9));
  n.results.push_back(o::DivOp::create(n.builder, n.loc, t, d, denom));
  return success();
}

/// LpNormalization: x / ||x||_p along `axis` (p 1 or 2), and 0 where the
/// norm is 0 (there every element is 0, so dividing by 1 gives it).
LogicalResult importLpNorm(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Value x = n.operand(0);
  if (failed(requireFloat(n, x)))
    return failure();
  int64_t p = n.getInt("p", 2);
  if (p != 1 && p != 2)
    return n.error("p " + Twine(p) + " is not supported (1 or 2)");
  Type t = n.unrankedLike(x);
  Value axes = n.i64Constant({n.getInt("axis", -1)});
  Value norm = p == 1 ? o::ReduceL1Op::create(n.builder, n.loc, t, x, axes, 1, 0)
                            .getResult()
                      : o::ReduceL2Op::create(n.builder, n.loc, t, x, axes, 1, 0)
                            .getResult();
  Value isZero = o::EqualOp::create(n.builder, n.loc,
                                    n.unranked(n.builder.getI1Type()), norm,
                                    scalarLike(n, x, 0.0));
  Value safe = o::WhereOp::create(n.builder, n.loc, t, isZero,
                                  scalarLike(n, x, 1.0), norm);
  n.results.push_back(o::DivOp::create(n.builder, n.loc, t, x, safe));
  return success();
}

} // namespace

void addNormalizationImporters(llvm::StringMap<OpImportFn> &t) {
  t["LayerNormalization"] = importLayerNorm;
  t["RMSNormalization"] = importRMSNorm;
  t["InstanceNormalization"] = importInstanceNorm;
  t["GroupNormalization"] = importGroupNorm;
  t["LRN"] = importLRN;
  t["LogSoftmax"] = importAxisOp<o::LogSoftmaxOp>;
  t["Hardmax"] = importAxisOp<o::HardmaxOp>;
  t["MeanVarianceNormalization"] = importMVN;
  t["LpNormalization"] = importLpNorm;
}

} // namespace onnxcc
