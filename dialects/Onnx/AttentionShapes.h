//===- AttentionShapes.h - sizes of an Attention ----------------*- C++ -*-===//
//
// One place that reads Attention's Q, K, V and cache shapes, so that the
// type rule, the lowering and the kernel op's verifier agree.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_ATTENTIONSHAPES_H
#define ONNXCC_DIALECTS_ONNX_ATTENTIONSHAPES_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>

namespace onnxcc {

struct AttentionDims {
  int64_t batch = 0, qHeads = 0, kvHeads = 0;
  int64_t qSeq = 0, kvSeq = 0, pastSeq = 0; ///< kvSeq: new keys only
  int64_t headSize = 0, vHeadSize = 0;
  bool packed = false; ///< 3-D [batch, seq, heads * head_size] layout
  int64_t totalSeq() const { return pastSeq + kvSeq; }
};

/// The sizes of an Attention on these (static) shapes; `qNumHeads` and
/// `kvNumHeads` are the attributes (0 when absent). Checks ranks, head
/// counts that divide, matching batch, sequence and head sizes, and a
/// cache of [batch, kv_heads, past, head_size].
mlir::FailureOr<AttentionDims>
attentionDims(std::optional<mlir::Location> loc, llvm::ArrayRef<int64_t> q,
              llvm::ArrayRef<int64_t> k, llvm::ArrayRef<int64_t> v,
              std::optional<llvm::ArrayRef<int64_t>> pastKey,
              std::optional<llvm::ArrayRef<int64_t>> pastValue,
              int64_t qNumHeads, int64_t kvNumHeads);

/// Checks that a mask of `mask`'s shape broadcasts to [batch, q_heads,
/// q_seq, <= total_seq].
mlir::LogicalResult checkAttentionMask(std::optional<mlir::Location> loc,
                                       const AttentionDims &d,
                                       llvm::ArrayRef<int64_t> mask);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_ATTENTIONSHAPES_H
