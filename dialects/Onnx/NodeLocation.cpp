//===- NodeLocation.cpp - where an op came from in the model --------------===//
#include "dialects/Onnx/NodeLocation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

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

std::string ModelPosition::describe() const {
  if (opType.empty())
    return name;
  return name + " (" + opType + ")";
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

} // namespace onnxcc
