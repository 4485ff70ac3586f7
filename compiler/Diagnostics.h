//===- Diagnostics.h - one-line errors naming model and node ----*- C++ -*-===//
#ifndef ONNXCC_COMPILER_DIAGNOSTICS_H
#define ONNXCC_COMPILER_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include <string>

namespace onnxcc {

/// "<model>:<node> (<OpType>)" for a location the importer made (nodes of a
/// fused op joined by " + "), "<model>" for the model itself, "" for an
/// unknown location; others print as MLIR shows them.
std::string describeLocation(mlir::Location loc);

/// Prints every error as `onnxcc: error: <where>: <message>` on one line
/// and counts them.
class OneLineDiagnostics {
public:
  explicit OneLineDiagnostics(mlir::MLIRContext &ctx);
  int errors() const { return count; }

private:
  int count = 0;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace onnxcc

#endif // ONNXCC_COMPILER_DIAGNOSTICS_H
