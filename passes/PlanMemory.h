//===- PlanMemory.h - the arena plan as data --------------------*- C++ -*-===//
//
// The decisions of onnxcc-plan-memory as a list, for the driver's memory
// budget check and its --report: the pass records only offsets on the IR,
// and the lifetimes and peak are needed beside them. layoutArena() runs the
// same planner as the pass on @main without changing the IR; the pass is
// the last of the pipeline, so on its output the layout is the one the pass
// recorded.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_PASSES_PLANMEMORY_H
#define ONNXCC_PASSES_PLANMEMORY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include <cstdint>
#include <vector>

namespace onnxcc {

/// One buffer placed in the arena: a kernel result (with the tensors
/// planned inside it: in-place concat inputs, elementwise results that
/// overwrite it) or a kernel's scratch.
struct ArenaBuffer {
  mlir::Operation *op; ///< the producer, or the op whose scratch it is
  int result;          ///< result number of `op`; -1 for scratch
  int64_t bytes;       ///< unaligned size
  int64_t offset;      ///< in the arena
  int64_t firstUse, lastUse; ///< program positions: op indices in @main
  int64_t hosted = 0;  ///< tensors planned inside this one
};

struct ArenaLayout {
  std::vector<ArenaBuffer> buffers; ///< kernel results in program order, then scratch
  int64_t arenaBytes = 0;
  int64_t peakLiveBytes = 0; ///< the most bytes (aligned) live at one position
  int64_t peakPosition = 0;  ///< the first position where that is reached
  int64_t positions = 0;     ///< ops in @main's body
  int64_t callStateOffset = -1; ///< kernel.call_state_offset, or -1: none
};

/// The plan onnxcc-plan-memory makes for `func` with `alignment`.
ArenaLayout layoutArena(mlir::func::FuncOp func, int64_t alignment);

/// Weights up to this size are compared by content; larger ones only by
/// identity (the same initializer), so that planning never reads (and, for
/// mapped external data, never pages in) megabytes of weights.
inline constexpr size_t kDedupeBytes = size_t(1) << 20;

/// Gives every kernel.weight in `funcs` its place in one weight blob (the
/// planner runs it per module; shape buckets run it again over every
/// bucket so that they share one blob). Weights of at most `compareBytes`
/// are deduplicated by content. Returns the blob's size.
mlir::FailureOr<int64_t> planWeights(llvm::ArrayRef<mlir::func::FuncOp> funcs,
                                     size_t compareBytes = kDedupeBytes);

} // namespace onnxcc

#endif // ONNXCC_PASSES_PLANMEMORY_H
