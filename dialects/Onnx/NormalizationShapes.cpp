//===- NormalizationShapes.cpp - shape rules of the normalisations --------===//
#include "dialects/Onnx/NormalizationShapes.h"

#include "dialects/Onnx/InferTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnxcc {

static constexpr int64_t kDyn = ShapedType::kDynamic;

static std::string shapeText(ArrayRef<int64_t> s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "[";
  llvm::interleaveComma(s, os, [&](int64_t d) {
    if (d == kDyn)
      os << "?";
    else
      os << d;
  });
  os << "]";
  return out;
}

/// Whether `p` broadcasts unidirectionally to `x` (numpy rules, `x` fixed).
static bool broadcastsTo(ArrayRef<int64_t> p, ArrayRef<int64_t> x) {
  if (p.size() > x.size())
    return false;
  for (size_t i = 0; i < p.size(); ++i) {
    int64_t dp = p[i], dx = x[x.size() - p.size() + i];
    if (dp != 1 && dp != kDyn && dx != kDyn && dp != dx)
      return false;
  }
  return true;
}

LogicalResult inferLayerNormTypes(OptLoc loc, Value x, ValueRange params,
                                  int64_t axis, int64_t stashType,
                                  bool withStats, SmallVectorImpl<Type> &types) {
  Type f32 = Float32Type::get(x.getContext());
  if (stashType != 1)
    return emitOptionalError(loc, "stash_type ", stashType,
                             " is not supported (only 1, float32)");
  auto xs = shapeOf(x);
  if (!xs) {
    types.push_back(x.getType());
    if (withStats)
      types.append(2, UnrankedTensorType::get(f32));
    return success();
  }
  auto d = normalizeAxis(loc, axis, xs->size());
  if (failed(d))
    return failure();
  const char *names[] = {"scale", "bias"};
  for (auto [i, p] : llvm::enumerate(params)) {
    if (!p)
      continue;
    auto ps = shapeOf(p);
    if (ps && !broadcastsTo(*ps, *xs))
      return emitOptionalError(loc, names[i % 2], " ", shapeText(*ps),
                               " does not broadcast to the input ",
                               shapeText(*xs));
  }
  types.push_back(x.getType());
  if (withStats) {
    Shape stats(xs->begin(), xs->begin() + *d);
    stats.append(xs->size() - *d, 1);
    types.append(2, RankedTensorType::get(stats, f32));
  }
  return success();
}

LogicalResult inferGroupNormTypes(OptLoc loc, Value x, Value scale, Value bias,
                                  std::optional<int64_t> numGroups,
                                  SmallVectorImpl<Type> &types) {
  if (numGroups && *numGroups < 1)
    return emitOptionalError(loc, "num_groups ", *numGroups, " must be >= 1");
  auto xs = shapeOf(x);
  if (!xs) {
    types.push_back(x.getType());
    return success();
  }
  if (xs->size() < 2)
    return emitOptionalError(loc, "expects an input of rank >= 2 (N, C, ...), "
                                  "got ", shapeText(*xs));
  int64_t channels = (*xs)[1];
  if (numGroups && channels != kDyn && channels % *numGroups != 0)
    return emitOptionalError(loc, "num_groups ", *numGroups,
                             " does not divide the ", channels, " channels");
  int64_t groups = numGroups ? *numGroups : channels;
  for (auto [name, p] : {std::pair{"scale", scale}, std::pair{"bias", bias}}) {
    auto ps = shapeOf(p);
    if (!ps)
      continue;
    bool ok = ps->size() == 1 &&
              ((*ps)[0] == kDyn || channels == kDyn || (*ps)[0] == channels ||
               (*ps)[0] == groups);
    if (!ok)
      return emitOptionalError(loc, name, " ", shapeText(*ps),
                               " must hold one value per channel (", channels,
                               numGroups ? ") or per group (" : "",
                               numGroups ? std::to_string(groups) : "", ")");
  }
  types.push_back(x.getType());
  return success();
}

LogicalResult inferLRNTypes(OptLoc loc, Value x, int64_t size,
                            SmallVectorImpl<Type> &types) {
  if (size < 1)
    return emitOptionalError(loc, "size ", size, " must be >= 1");
  auto xs = shapeOf(x);
  if (xs && xs->size() < 2)
    return emitOptionalError(loc, "expects an input of rank >= 2 (N, C, ...), "
                                  "got ", shapeText(*xs));
  types.push_back(x.getType());
  return success();
}

LogicalResult inferAxisOpTypes(OptLoc loc, Value x, int64_t axis,
                               SmallVectorImpl<Type> &types) {
  if (auto xs = shapeOf(x))
    if (failed(normalizeAxis(loc, axis, xs->size())))
      return failure();
  types.push_back(x.getType());
  return success();
}

} // namespace onnxcc
