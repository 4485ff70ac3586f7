//===- MlStrings.h - rules of the string tables -----------------*- C++ -*-===//
//
// Shared by onnx.ml_string_{table,lookup}, their kernel twins and the
// importer: what a table of model strings may hold. Strings reach
// generated C++ as `const char *`, so none may contain a NUL byte; the
// tables are bounded so that a hostile model cannot make the generated
// source huge.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_MLSTRINGS_H
#define ONNXCC_DIALECTS_ONNX_MLSTRINGS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace onnxcc {

/// Strings in one table, and their bytes in all.
constexpr int64_t kMaxStringTableEntries = int64_t(1) << 16;
constexpr int64_t kMaxStringTableBytes = int64_t(1) << 20;

/// Why `strings` cannot be a table ("" when it can): too many entries or
/// bytes, a NUL byte, or (with `distinct`) a repeated string. Names the
/// offending entry (escaped).
std::string stringTableProblem(llvm::ArrayRef<std::string> strings,
                               bool distinct);

/// Verifier of ml_string_table ops: i64 indices, !onnx.string output of
/// the same shape, a valid table.
mlir::LogicalResult verifyStringTable(mlir::Operation *op, mlir::Value indices,
                                      mlir::Value output, mlir::ArrayAttr labels);

/// Verifier of ml_string_lookup ops: !onnx.string input, i64 output of the
/// same shape, distinct keys.
mlir::LogicalResult verifyStringLookup(mlir::Operation *op, mlir::Value input,
                                       mlir::Value output, mlir::ArrayAttr keys);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_MLSTRINGS_H
