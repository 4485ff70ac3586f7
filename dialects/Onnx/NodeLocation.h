//===- NodeLocation.h - where an op came from in the model ------*- C++ -*-===//
//
// The one place that knows how the importer encodes a model position as an
// MLIR location: loc("node"("OpType"("model.onnx":0:0))) for a node,
// loc("tensor"("model.onnx":0:0)) for a graph input or initializer. Passes
// keep these (fusion joins them into FusedLocs); diagnostics and the
// emitter read them back.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_NODELOCATION_H
#define ONNXCC_DIALECTS_ONNX_NODELOCATION_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace onnxcc {

/// The location of the model file itself.
mlir::Location modelLocation(mlir::MLIRContext *ctx, llvm::StringRef model);

/// The location of a node (`opType` set) or of a named tensor (`opType`
/// empty) in `model`.
mlir::Location nodeLocation(mlir::MLIRContext *ctx, llvm::StringRef model,
                            llvm::StringRef name, llvm::StringRef opType = "");

/// One model position decoded from a location.
struct ModelPosition {
  std::string model;
  std::string name;   ///< node or tensor name; empty for the model itself
  std::string opType; ///< empty for tensors and the model

  /// "node (OpType)", "tensor", or "" for the model, with both strings
  /// passed through `escape` (InertText.h: commentText or messageText).
  std::string describe(std::string (*escape)(llvm::StringRef, size_t)) const;
};

/// Every model position `loc` names, in order and without repeats (a fused
/// op names all the nodes it came from). Empty for other locations.
llvm::SmallVector<ModelPosition> modelPositions(mlir::Location loc);

/// Positions a fused location names at most; the rest are only counted, so
/// that a fusion of 100,000 nodes keeps a small location.
constexpr size_t kMaxFusedPositions = 8;

/// The location of an op made from the ops at `locs` (which may be fused
/// themselves): the first kMaxFusedPositions distinct positions, plus the
/// count of those left out.
mlir::Location fusedNodeLocation(mlir::MLIRContext *ctx,
                                 llvm::ArrayRef<mlir::Location> locs);

/// How many positions fusedNodeLocation() left out of `loc`.
int64_t omittedPositions(mlir::Location loc);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_NODELOCATION_H
