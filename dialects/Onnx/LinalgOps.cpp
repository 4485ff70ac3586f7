//===- LinalgOps.cpp - type rules of Gemm, MatMul and Einsum --------------===//
//
// Each hook answers an unranked result while an operand is unranked, then
// calls its shape rule in LinalgShapes.cpp. Operands must share one element
// type, which the result keeps.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/LinalgShapes.h"
#include "dialects/Onnx/OnnxOps.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace onnxcc;
using namespace onnxcc::onnx;

/// Fails unless every present value in `values` has `values[0]`'s element
/// type; sets `element` to it.
static LogicalResult sameElements(OptLoc l, ValueRange values, Type &element) {
  element = getElementTypeOrSelf(values[0].getType());
  for (Value v : values.drop_front())
    if (v && getElementTypeOrSelf(v.getType()) != element)
      return emitOptionalError(l, "operand element types differ: ", element,
                               " and ", getElementTypeOrSelf(v.getType()));
  return success();
}

static LogicalResult pushShape(SmallVectorImpl<Type> &types,
                               FailureOr<Shape> shape, Type element) {
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, element));
  return success();
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *, std::optional<Location> l,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  Type et;
  SmallVector<Value> operands = {adaptor.getA(), adaptor.getB()};
  if (adaptor.getC())
    operands.push_back(adaptor.getC());
  if (failed(sameElements(l, operands, et)))
    return failure();
  auto a = shapeOf(adaptor.getA()), b = shapeOf(adaptor.getB());
  if (!a || !b) {
    types.push_back(UnrankedTensorType::get(et));
    return success();
  }
  auto shape = inferGemmShape(l, *a, *b, adaptor.getTransA() != 0,
                              adaptor.getTransB() != 0);
  if (failed(shape))
    return failure();
  // C broadcasts to the result, not the other way round.
  if (adaptor.getC())
    if (auto c = shapeOf(adaptor.getC())) {
      bool ok = c->size() <= 2;
      for (size_t i = 0; ok && i < c->size(); ++i) {
        int64_t d = (*c)[i], r = (*shape)[2 - c->size() + i];
        ok = d == 1 || d == r || ShapedType::isDynamic(d) ||
             ShapedType::isDynamic(r);
      }
      if (!ok)
        return emitOptionalError(l, "C ", formatShape(*c),
                                 " does not broadcast to the result ",
                                 formatShape(*shape));
    }
  return pushShape(types, shape, et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(GemmOp)

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> l,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  Type et;
  if (failed(sameElements(l, {adaptor.getA(), adaptor.getB()}, et)))
    return failure();
  auto a = shapeOf(adaptor.getA()), b = shapeOf(adaptor.getB());
  if (!a || !b) {
    types.push_back(UnrankedTensorType::get(et));
    return success();
  }
  return pushShape(types, inferMatMulShape(l, *a, *b), et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(MatMulOp)

LogicalResult EinsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> l,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(l, "expects at least one input");
  Type et;
  if (failed(sameElements(l, adaptor.getInputs(), et)))
    return failure();
  SmallVector<ArrayRef<int64_t>> shapes;
  SmallVector<int64_t> ranks;
  for (Value v : adaptor.getInputs()) {
    auto s = shapeOf(v);
    if (!s) {
      types.push_back(UnrankedTensorType::get(et));
      return success();
    }
    shapes.push_back(*s);
    ranks.push_back(s->size());
  }
  auto spec = parseEinsum(l, adaptor.getEquation(), ranks);
  if (failed(spec))
    return failure();
  return pushShape(types, inferEinsumShape(l, *spec, shapes), et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(EinsumOp)
