//===- InferTypes.cpp - shared pieces of the ops' type inference ---------===//
#include "dialects/Onnx/InferTypes.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {

bool compatibleTypes(TypeRange l, TypeRange r) {
  if (l.size() != r.size())
    return false;
  for (auto [a, b] : llvm::zip(l, r))
    if (getElementTypeOrSelf(a) != getElementTypeOrSelf(b) ||
        failed(verifyCompatibleShape(a, b)))
      return false;
  return true;
}

Type withElementType(Type type, Type element) {
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(ranked.getShape(), element);
  return UnrankedTensorType::get(element);
}

std::optional<std::vector<int64_t>> constInts(Value v) {
  ElementsAttr attr = getConstantElements(v);
  std::vector<int64_t> out;
  if (!attr || !readAsInt64s(attr, out))
    return std::nullopt;
  return out;
}

std::optional<ArrayRef<int64_t>> shapeOf(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return t.getShape();
  return std::nullopt;
}

LogicalResult inferBroadcastTypes(std::optional<Location> loc,
                                  ValueRange operands, Type resultElement,
                                  bool sameElementTypes,
                                  SmallVectorImpl<Type> &types) {
  if (operands.empty())
    return emitOptionalError(loc, "expects at least one input");
  Type first = getElementTypeOrSelf(operands[0].getType());
  if (sameElementTypes)
    for (Value v : operands.drop_front())
      if (getElementTypeOrSelf(v.getType()) != first)
        return emitOptionalError(loc, "operand element types differ: ", first,
                                 " and ", getElementTypeOrSelf(v.getType()));
  Type element = resultElement ? resultElement : first;
  std::optional<Shape> shape;
  for (Value v : operands) {
    auto s = shapeOf(v);
    if (!s) {
      types.push_back(UnrankedTensorType::get(element));
      return success();
    }
    if (!shape) {
      shape = Shape(s->begin(), s->end());
      continue;
    }
    auto next = inferBroadcastShape(loc, *shape, *s);
    if (failed(next))
      return failure();
    shape = *next;
  }
  types.push_back(RankedTensorType::get(*shape, element));
  return success();
}

} // namespace onnxcc
