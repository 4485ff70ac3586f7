//===- PlanReport.h - memory budget and plan report -------------*- C++ -*-===//
//
// What the driver does with a planned module beyond printing it: checks it
// against the --max-arena / --max-weights budget and, for --report, prints
// the arena plan as a text table and as an SVG picture.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_COMPILER_PLANREPORT_H
#define ONNXCC_COMPILER_PLANREPORT_H

#include "passes/PlanMemory.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace onnxcc {

/// Byte budgets; unset ones are not checked.
struct MemoryBudget {
  std::optional<int64_t> maxArena;   ///< --max-arena
  std::optional<int64_t> maxWeights; ///< --max-weights
};

/// Parses a byte count for --max-arena / --max-weights: a non-negative
/// integer, optionally followed by K, M or G (or KiB, MiB, GiB), each a
/// power of 1024. Nullopt for anything else or a count over INT64_MAX.
std::optional<int64_t> parseByteCount(llvm::StringRef s);

/// Emits one error on the module's location when the planned arena or the
/// weight blob is over `budget`, naming the figures and the (up to three)
/// largest buffers live at the arena's peak, or the largest weights.
mlir::LogicalResult checkMemoryBudget(mlir::ModuleOp module,
                                      const ArenaLayout &layout,
                                      const MemoryBudget &budget);

/// The plan as a table, one row per arena buffer in program order: first
/// and last program position, arena offset, bytes, kernel op, tensor.
std::string planTable(mlir::ModuleOp module, const ArenaLayout &layout,
                      llvm::StringRef model);

/// The plan as a self-contained SVG: x is program position, y arena offset,
/// one <rect> per buffer with its tensor as a <title> tooltip. The same
/// plan gives the same bytes.
std::string planSvg(mlir::ModuleOp module, const ArenaLayout &layout,
                    llvm::StringRef model);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_PLANREPORT_H
