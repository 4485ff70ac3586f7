//===- ReductionShapes.cpp - shape rules of the reductions ----------------===//
#include "dialects/Onnx/ReductionShapes.h"

#include "dialects/Onnx/InferTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnxcc {

/// [0, -1] for an error message; long lists are cut (a hostile model may
/// give a million axes).
static std::string axesText(ArrayRef<int64_t> axes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "[";
  llvm::interleaveComma(axes.take_front(8), os);
  if (axes.size() > 8)
    os << ", ... (" << axes.size() << " in all)";
  os << "]";
  return out;
}

FailureOr<Shape> reducedAxes(OptLoc loc, ArrayRef<int64_t> axes, int64_t rank,
                             bool noopWithEmptyAxes) {
  Shape out;
  if (axes.empty()) {
    if (!noopWithEmptyAxes)
      for (int64_t d = 0; d < rank; ++d)
        out.push_back(d);
    return out;
  }
  SmallVector<bool> seen(rank, false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      return emitOptionalError(loc, "axes ", axesText(axes),
                               " has axis ", a, ", out of range for rank ", rank);
    int64_t d = a < 0 ? a + rank : a;
    if (seen[d])
      return emitOptionalError(loc, "axes ", axesText(axes), " names axis ", d,
                               " twice");
    seen[d] = true;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (seen[d])
      out.push_back(d);
  return out;
}

Shape reducedShape(ArrayRef<int64_t> in, ArrayRef<int64_t> reduced,
                   bool keepdims) {
  Shape out;
  for (int64_t d = 0, e = in.size(); d < e; ++d) {
    if (!llvm::is_contained(reduced, d))
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

LogicalResult inferReduceTypes(OptLoc loc, Value data, Value axes,
                               bool keepdims, bool noopWithEmptyAxes,
                               SmallVectorImpl<Type> &types) {
  Type element = getElementTypeOrSelf(data.getType());
  auto x = shapeOf(data);
  std::optional<std::vector<int64_t>> list;
  if (axes) {
    if (auto a = shapeOf(axes); a && a->size() > 1)
      return emitOptionalError(loc, "axes must be 1-D, got rank ", a->size());
    Type axesElement = getElementTypeOrSelf(axes.getType());
    if (!axesElement.isInteger(64))
      return emitOptionalError(loc, "axes must be int64, got element type ",
                               axesElement);
    list = constInts(axes);
  } else {
    list.emplace();
  }
  if (!x || !list) {
    types.push_back(UnrankedTensorType::get(element));
    return success();
  }
  auto reduced = reducedAxes(loc, *list, x->size(), noopWithEmptyAxes);
  if (failed(reduced))
    return failure();
  types.push_back(
      RankedTensorType::get(reducedShape(*x, *reduced, keepdims), element));
  return success();
}

LogicalResult inferArgReduceTypes(OptLoc loc, Value data, int64_t axis,
                                  bool keepdims, SmallVectorImpl<Type> &types) {
  Type i64 = IntegerType::get(data.getContext(), 64);
  auto x = shapeOf(data);
  if (!x) {
    types.push_back(UnrankedTensorType::get(i64));
    return success();
  }
  auto d = normalizeAxis(loc, axis, x->size());
  if (failed(d))
    return failure();
  types.push_back(RankedTensorType::get(reducedShape(*x, {*d}, keepdims), i64));
  return success();
}

LogicalResult inferGlobalPoolTypes(OptLoc loc, Value x,
                                   SmallVectorImpl<Type> &types) {
  auto xs = shapeOf(x);
  if (!xs) {
    types.push_back(x.getType());
    return success();
  }
  if (xs->size() < 2)
    return emitOptionalError(loc, "expects an input of rank >= 2 (N, C, ...), "
                                  "got rank ", xs->size());
  Shape out(xs->begin(), xs->begin() + 2);
  out.append(xs->size() - 2, 1);
  types.push_back(RankedTensorType::get(out, getElementTypeOrSelf(x.getType())));
  return success();
}

} // namespace onnxcc
