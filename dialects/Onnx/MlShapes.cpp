//===- MlShapes.cpp - type rules of the ai.onnx.ml family -----------------===//
#include "dialects/Onnx/MlShapes.h"

#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {

LogicalResult inferMlRowTypes(std::optional<Location> loc, Value x,
                              ArrayRef<std::pair<int64_t, Type>> results,
                              SmallVectorImpl<Type> &types) {
  auto ranked = dyn_cast<RankedTensorType>(x.getType());
  if (ranked && ranked.getRank() != 2)
    return emitOptionalError(loc, "expects X of rank 2 [N, F], got rank ",
                             ranked.getRank());
  for (auto [cols, element] : results) {
    if (cols < -1 || cols == 0 || cols > kMaxDim)
      return emitOptionalError(loc, "invalid number of output columns ", cols);
    if (!ranked) {
      types.push_back(UnrankedTensorType::get(element));
      continue;
    }
    SmallVector<int64_t> shape{ranked.getDimSize(0)};
    if (cols > 0)
      shape.push_back(cols);
    types.push_back(RankedTensorType::get(shape, element));
  }
  return success();
}

LogicalResult
inferArrayFeatureExtractorTypes(std::optional<Location> loc, Value x,
                                Value indices, SmallVectorImpl<Type> &types) {
  Type element = getElementTypeOrSelf(x.getType());
  Type ie = getElementTypeOrSelf(indices.getType());
  if (!isa<IntegerType>(ie) || ie.isInteger(1))
    return emitOptionalError(loc, "indices must be integers, got ", ie);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  auto it = dyn_cast<RankedTensorType>(indices.getType());
  if (!xt || !it) {
    types.push_back(UnrankedTensorType::get(element));
    return success();
  }
  if (xt.getRank() < 1)
    return emitOptionalError(loc, "expects X of rank >= 1, got a scalar");
  if (!xt.isDynamicDim(xt.getRank() - 1) && xt.getShape().back() == 0)
    return emitOptionalError(loc, "X's last axis is empty");
  int64_t k = it.hasStaticShape() ? it.getNumElements() : ShapedType::kDynamic;
  if (k == 0)
    return emitOptionalError(loc, "expects at least one index");
  SmallVector<int64_t> shape(xt.getShape().drop_back());
  if (shape.empty())
    shape.push_back(1);
  shape.push_back(k);
  types.push_back(RankedTensorType::get(shape, element));
  return success();
}

} // namespace onnxcc
