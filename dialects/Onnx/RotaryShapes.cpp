//===- RotaryShapes.cpp - type rule of onnx.rotary_embedding --------------===//
#include "dialects/Onnx/RotaryShapes.h"

#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {

static std::string dimsText(ArrayRef<int64_t> s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i)
    t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

FailureOr<RotaryDims> rotaryDims(std::optional<Location> loc,
                                 ArrayRef<int64_t> x, ArrayRef<int64_t> cos,
                                 ArrayRef<int64_t> sin,
                                 std::optional<ArrayRef<int64_t>> positionIds,
                                 int64_t numHeads, int64_t rotaryDim) {
  if (x.size() != 3 && x.size() != 4)
    return emitOptionalError(loc,
                             "input must be 3-D [batch, seq, hidden] or "
                             "4-D [batch, heads, seq, head_size], got ",
                             dimsText(x));
  if (numHeads < 0 || rotaryDim < 0)
    return emitOptionalError(loc, "num_heads ", numHeads,
                             " and rotary_embedding_dim ", rotaryDim,
                             " must not be negative");
  RotaryDims d;
  d.batch = x[0];
  if (x.size() == 3) {
    if (numHeads == 0)
      return emitOptionalError(loc,
                               "a 3-D input needs the num_heads attribute");
    if (x[2] % numHeads)
      return emitOptionalError(loc, "hidden size ", x[2],
                               " does not divide into num_heads ", numHeads);
    d.packed = true;
    d.seq = x[1];
    d.heads = numHeads;
    d.headSize = x[2] / numHeads;
  } else {
    d.heads = x[1];
    d.seq = x[2];
    d.headSize = x[3];
  }
  d.rotaryDim = rotaryDim ? rotaryDim : d.headSize;
  if (d.rotaryDim > d.headSize || d.rotaryDim % 2)
    return emitOptionalError(loc, "rotary_embedding_dim ", d.rotaryDim,
                             " must be even and at most the head size ",
                             d.headSize);
  int64_t half = d.rotaryDim / 2;
  if (cos != sin)
    return emitOptionalError(loc, "cos_cache ", dimsText(cos),
                             " and sin_cache ", dimsText(sin), " differ");
  if (positionIds) {
    if (*positionIds != ArrayRef<int64_t>{d.batch, d.seq})
      return emitOptionalError(loc, "position_ids ", dimsText(*positionIds),
                               " must be [batch ", d.batch, ", seq ", d.seq,
                               "]");
    if (cos.size() != 2 || cos[1] != half || cos[0] < 1)
      return emitOptionalError(loc,
                               "with position_ids the caches must be "
                               "[positions, ",
                               half, "], got ", dimsText(cos));
    d.positions = cos[0];
  } else if (cos != ArrayRef<int64_t>{d.batch, d.seq, half}) {
    return emitOptionalError(loc,
                             "without position_ids the caches must be "
                             "[batch ",
                             d.batch, ", seq ", d.seq, ", ", half, "], got ",
                             dimsText(cos));
  }
  return d;
}

LogicalResult inferRotaryEmbeddingTypes(std::optional<Location> loc,
                                        Value input, Value cos, Value sin,
                                        Value positionIds, int64_t numHeads,
                                        int64_t rotaryDim,
                                        SmallVectorImpl<Type> &types) {
  Type element = getElementTypeOrSelf(input.getType());
  for (Value c : {cos, sin})
    if (getElementTypeOrSelf(c.getType()) != element)
      return emitOptionalError(loc, "the caches must have the input's element "
                                    "type");
  if (positionIds && !getElementTypeOrSelf(positionIds.getType()).isInteger(64))
    return emitOptionalError(loc, "position_ids must be int64");
  types.push_back(input.getType());
  auto x = shapeOf(input), c = shapeOf(cos), s = shapeOf(sin);
  std::optional<ArrayRef<int64_t>> p;
  if (positionIds && !(p = shapeOf(positionIds)))
    return success();
  if (!x || !c || !s)
    return success();
  for (auto shape : {*x, *c, *s})
    if (llvm::any_of(shape, ShapedType::isDynamic))
      return success();
  if (p && llvm::any_of(*p, ShapedType::isDynamic))
    return success();
  if (failed(rotaryDims(loc, *x, *c, *s, p, numHeads, rotaryDim)))
    return failure();
  return success();
}

} // namespace onnxcc
