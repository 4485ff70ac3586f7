//===- NodeLocation.cpp - where an op came from in the model --------------===//
#include "dialects/Onnx/NodeLocation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "dialects/Onnx/InertText.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace onnxcc {

Location modelLocation(MLIRContext *ctx, StringRef model) {
  return FileLineColLoc::get(ctx, model, /*line=*/0, /*column=*/0);
}

Location nodeLocation(MLIRContext *ctx, StringRef model, StringRef name,
                      StringRef opType) {
  Location inner = modelLocation(ctx, model);
  if (!opType.empty())
    inner = NameLoc::get(StringAttr::get(ctx, opType), inner);
  return NameLoc::get(StringAttr::get(ctx, name), inner);
}

std::string
ModelPosition::describe(std::string (*escape)(StringRef, size_t)) const {
  if (opType.empty())
    return escape(name, kMaxInertNameBytes);
  return escape(name, kMaxInertNameBytes) + " (" +
         escape(opType, kMaxInertNameBytes) + ")";
}

/// The model file of an importer location, or nullopt for anything else.
static std::optional<std::string> modelOf(Location loc) {
  auto file = dyn_cast<FileLineColLoc>(loc);
  if (!file || file.getLine() != 0)
    return std::nullopt;
  return file.getFilename().str();
}

static void collect(Location loc, SmallVectorImpl<ModelPosition> &out) {
  auto add = [&](ModelPosition p) {
    bool seen = llvm::any_of(out, [&](const ModelPosition &q) {
      return q.model == p.model && q.name == p.name && q.opType == p.opType;
    });
    if (!seen)
      out.push_back(std::move(p));
  };
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations())
      collect(l, out);
    return;
  }
  if (auto model = modelOf(loc))
    return add({*model, "", ""});
  auto name = dyn_cast<NameLoc>(loc);
  if (!name)
    return;
  Location child = name.getChildLoc();
  if (auto model = modelOf(child))
    return add({*model, name.getName().str(), ""});
  auto op = dyn_cast<NameLoc>(child);
  if (auto model = op ? modelOf(op.getChildLoc()) : std::nullopt)
    add({*model, name.getName().str(), op.getName().str()});
}

SmallVector<ModelPosition> modelPositions(Location loc) {
  SmallVector<ModelPosition> out;
  collect(loc, out);
  return out;
}

/// The non-fused locations inside `loc`, in order.
static void leaves(Location loc, llvm::SetVector<Location> &out) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations())
      leaves(l, out);
    return;
  }
  out.insert(loc);
}

Location fusedNodeLocation(MLIRContext *ctx, ArrayRef<Location> locs) {
  llvm::SetVector<Location> all;
  int64_t omitted = 0;
  for (Location l : locs) {
    leaves(l, all);
    omitted += omittedPositions(l);
  }
  SmallVector<Location> kept(all.begin(), all.end());
  if (kept.size() > kMaxFusedPositions) {
    omitted += kept.size() - kMaxFusedPositions;
    kept.truncate(kMaxFusedPositions);
  }
  Attribute metadata;
  if (omitted)
    metadata = IntegerAttr::get(IntegerType::get(ctx, 64), omitted);
  return FusedLoc::get(kept, metadata, ctx);
}

int64_t omittedPositions(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  if (!fused)
    return 0;
  if (auto count = dyn_cast_or_null<IntegerAttr>(fused.getMetadata()))
    return count.getInt();
  return 0;
}

} // namespace onnxcc
