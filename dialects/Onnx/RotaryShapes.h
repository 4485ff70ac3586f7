//===- RotaryShapes.h - sizes of a RotaryEmbedding --------------*- C++ -*-===//
//
// One place that reads RotaryEmbedding's input and cache shapes, so that the
// type rule, the lowering and the kernel op's verifier agree.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_ROTARYSHAPES_H
#define ONNXCC_DIALECTS_ONNX_ROTARYSHAPES_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace onnxcc {

struct RotaryDims {
  int64_t batch = 0, seq = 0, heads = 0, headSize = 0;
  int64_t rotaryDim = 0; ///< the rotated leading dimensions of a head (even)
  bool packed = false;   ///< 3-D [batch, seq, heads * head_size] input
  /// The cache rows position_ids index ([positions, dim/2] caches); 0
  /// without position_ids ([batch, seq, dim/2] caches).
  int64_t positions = 0;
};

/// The sizes of a RotaryEmbedding on these static shapes (`positionIds`
/// absent without position_ids); `numHeads` and `rotaryDim` are the
/// attributes (0 when absent). Checks ranks, the head split, an even
/// rotary dimension within the head and caches of [.., dim/2].
mlir::FailureOr<RotaryDims>
rotaryDims(std::optional<mlir::Location> loc, llvm::ArrayRef<int64_t> input,
           llvm::ArrayRef<int64_t> cos, llvm::ArrayRef<int64_t> sin,
           std::optional<llvm::ArrayRef<int64_t>> positionIds, int64_t numHeads,
           int64_t rotaryDim);

/// The type rule of onnx.rotary_embedding: the input's type, once the
/// shapes (where known) fit.
mlir::LogicalResult inferRotaryEmbeddingTypes(
    std::optional<mlir::Location> loc, mlir::Value input, mlir::Value cos,
    mlir::Value sin, mlir::Value positionIds, int64_t numHeads,
    int64_t rotaryDim, llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_ROTARYSHAPES_H
