//===- CppEmitter.h - kernel dialect to C++ ---------------------*- C++ -*-===//
#ifndef ONNXCC_CODEGEN_CPU_CPPEMITTER_H
#define ONNXCC_CODEGEN_CPU_CPPEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include <string>
#include <vector>

namespace onnxcc {

struct EmitOptions {
  std::string name;        ///< C++ namespace and file stem
  std::string modelPath;   ///< for the header comment
  std::string commandLine; ///< flags that shaped the output
};

/// What the emitter produces; the driver writes each to `<dir>/<file>`.
struct EmittedModel {
  std::string header;   ///< NAME.h
  std::string source;   ///< NAME.cpp
  std::string assembly; ///< NAME_weights.S (incbin of the blob)
  std::vector<char> weights; ///< NAME.weights.bin
};

/// Prints a module that went through the CPU pipeline (kernel ops with a
/// memory plan). Never changes the IR; unsupported ops are errors.
mlir::LogicalResult emitCpp(mlir::ModuleOp module, const EmitOptions &options,
                            EmittedModel &out);

/// Whether `name` can be a C++ namespace (identifier, not a keyword).
bool isValidCppName(const std::string &name);

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_CPPEMITTER_H
