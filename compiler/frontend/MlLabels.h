//===- MlLabels.h - class labels and string values of ml ops ----*- C++ -*-===//
//
// Internal to the ai.onnx.ml importers. A classifier's labels are int64s
// or strings; the kernels work on class positions, and a string label is
// the position looked up in a constant table (onnx.ml_string_table) at the
// end. MlLabelImporters.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_COMPILER_FRONTEND_MLLABELS_H
#define ONNXCC_COMPILER_FRONTEND_MLLABELS_H

#include "compiler/frontend/OpImporters.h"
#include <string>
#include <vector>

namespace onnxcc {

/// The class labels of a classifier. For string labels `ints` holds the
/// positions 0..C-1, so the label the kernels compute is a position.
struct ClassLabels {
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  bool areStrings() const { return !strings.empty(); }
  size_t size() const { return ints.size(); }
};

/// The labels from `intsName` (INTS) or `stringsName` (STRINGS), not both;
/// string labels must make a valid table (MlStrings.h).
mlir::FailureOr<ClassLabels> classLabels(const NodeContext &n,
                                         llvm::StringRef intsName,
                                         llvm::StringRef stringsName);

/// The label output: `label` itself for int64 labels, its strings for
/// string labels (`label` then holds positions).
mlir::Value labelOutput(const NodeContext &n, mlir::Value label,
                        const ClassLabels &labels);

/// LabelEncoder with string keys or values (ml opsets 1 to 4):
/// string -> int64/float/string, int64/float -> string.
mlir::LogicalResult importStringLabelEncoder(NodeContext &n);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_MLLABELS_H
