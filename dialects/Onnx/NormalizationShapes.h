//===- NormalizationShapes.h - shape rules of the normalisations -*- C++ -*-===//
//
// The type rules the ops of NormalizationOps.td call: the output is shaped
// like the input; what is checked is that the parameters fit it.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_NORMALIZATIONSHAPES_H
#define ONNXCC_DIALECTS_ONNX_NORMALIZATIONSHAPES_H

#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

namespace onnxcc {

/// ONNX LayerNormalization (withStats: Y, Mean, InvStdDev) and
/// RMSNormalization (Y): every parameter (null when absent) must broadcast
/// unidirectionally to the input; Mean and InvStdDev are the input's shape
/// with the dimensions from `axis` on set to 1, in f32 (stash_type 1, the
/// only one supported).
mlir::LogicalResult inferLayerNormTypes(OptLoc loc, mlir::Value x,
                                        mlir::ValueRange params, int64_t axis,
                                        int64_t stashType, bool withStats,
                                        llvm::SmallVectorImpl<mlir::Type> &types);

/// ONNX GroupNormalization (`numGroups` groups) and InstanceNormalization
/// (nullopt: one group per channel) of an [N, C, ...] input: scale and
/// bias hold one value per channel, or per group.
mlir::LogicalResult inferGroupNormTypes(OptLoc loc, mlir::Value x,
                                        mlir::Value scale, mlir::Value bias,
                                        std::optional<int64_t> numGroups,
                                        llvm::SmallVectorImpl<mlir::Type> &types);

/// ONNX LRN: an [N, C, ...] input and a window of `size` >= 1 channels.
mlir::LogicalResult inferLRNTypes(OptLoc loc, mlir::Value x, int64_t size,
                                  llvm::SmallVectorImpl<mlir::Type> &types);

/// LogSoftmax and Hardmax (opset 13): `axis` in range, y shaped like x.
mlir::LogicalResult inferAxisOpTypes(OptLoc loc, mlir::Value x, int64_t axis,
                                     llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_NORMALIZATIONSHAPES_H
