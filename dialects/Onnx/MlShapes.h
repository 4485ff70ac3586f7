//===- MlShapes.h - type rules of the ai.onnx.ml family ---------*- C++ -*-===//
#ifndef ONNXCC_DIALECTS_ONNX_MLSHAPES_H
#define ONNXCC_DIALECTS_ONNX_MLSHAPES_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>

namespace onnxcc {

/// ONNX-ML rule for per-row outputs: `x` is [N, F]; each result is [N]
/// (columns -1) or [N, columns], of its element type. Unranked when `x` is.
mlir::LogicalResult
inferMlRowTypes(std::optional<mlir::Location> loc, mlir::Value x,
                llvm::ArrayRef<std::pair<int64_t, mlir::Type>> results,
                llvm::SmallVectorImpl<mlir::Type> &types);

/// ArrayFeatureExtractor: x [..., C] and indices of K elements give
/// [..., K]; a 1-D x gives [1, K].
mlir::LogicalResult
inferArrayFeatureExtractorTypes(std::optional<mlir::Location> loc,
                                mlir::Value x, mlir::Value indices,
                                llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_MLSHAPES_H
