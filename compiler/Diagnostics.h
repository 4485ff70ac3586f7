//===- Diagnostics.h - one-line errors naming model and node ----*- C++ -*-===//
#ifndef ONNXCC_COMPILER_DIAGNOSTICS_H
#define ONNXCC_COMPILER_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace onnxcc {

/// The longest error line onnxcc prints; longer ones are cut and marked.
constexpr size_t kMaxErrorLineBytes = 1024;

/// "<model>:<node> (<OpType>)" for a location the importer made (nodes of a
/// fused op joined by " + "), "<model>" for the model itself, "" for an
/// unknown location; others print as MLIR shows them. Model strings in it
/// are escaped and bounded (InertText.h).
std::string describeLocation(mlir::Location loc);

/// Prints `onnxcc: error: <where>: <message>` as one bounded line with
/// control bytes escaped. Every error onnxcc reports goes through here.
void printErrorLine(llvm::StringRef where, llvm::StringRef message);

/// printErrorLine(), then the exit code of a failed command (1).
int failWith(llvm::StringRef where, llvm::StringRef message);

/// `dir`/`file` without a doubled separator when `dir` ends in one.
std::string joinPath(llvm::StringRef dir, const llvm::Twine &file);

/// Prints every error diagnostic through printErrorLine() and counts them.
class OneLineDiagnostics {
public:
  explicit OneLineDiagnostics(mlir::MLIRContext &ctx);
  int errors() const { return count; }

private:
  int count = 0;
  std::string lastWhere; ///< location of the last error printed
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace onnxcc

#endif // ONNXCC_COMPILER_DIAGNOSTICS_H
