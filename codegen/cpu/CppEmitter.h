//===- CppEmitter.h - kernel dialect to C++ ---------------------*- C++ -*-===//
#ifndef ONNXCC_CODEGEN_CPU_CPPEMITTER_H
#define ONNXCC_CODEGEN_CPU_CPPEMITTER_H

#include "codegen/cpu/CppNames.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace onnxcc {

/// Printed in every generated file.
inline constexpr const char *kVersion = "0.1.0";

/// How the weight blob reaches the linker. `.incbin` assembles megabytes in
/// milliseconds but needs a GNU-style assembler (ELF, Mach-O, COFF through
/// the preprocessor); a C++ array works with any C++ compiler (WebAssembly,
/// MSVC) at the price of compile time on large models.
enum class WeightEmbedding { Incbin, Array };

struct EmitOptions {
  std::string name;        ///< C++ namespace and file stem
  std::string modelPath;   ///< for the header comment
  std::string commandLine; ///< flags that shaped the output
  WeightEmbedding weights = WeightEmbedding::Incbin;
};

/// The weight blob as pieces at the offsets the planner chose
/// (kernel.blob_offset), in increasing order. Pieces point into the parsed
/// model (or mapped external data) where they can, so that megabytes of
/// weights are not copied; the driver streams them out.
class WeightBlob {
public:
  /// Places `bytes` at `offset`; `bytes` must outlive the blob.
  void place(uint64_t offset, llvm::ArrayRef<char> bytes);
  /// Places a copy of `bytes` (converted or expanded constants).
  void placeCopy(uint64_t offset, std::vector<char> bytes);
  uint64_t size() const { return total; }
  /// Writes the blob, zero-filling the alignment gaps. `written`, if set,
  /// is told of each stretch of model bytes once it has left `os`, so the
  /// caller can drop mapped pages it will not read again.
  void write(llvm::raw_ostream &os,
             llvm::function_ref<void(llvm::ArrayRef<char>)> written = {}) const;

private:
  struct Piece {
    uint64_t offset;
    llvm::ArrayRef<char> ref;   ///< empty when `owned` holds the bytes
    std::vector<char> owned;
  };
  std::vector<Piece> pieces;
  uint64_t total = 0;
};

/// What the emitter produces; the driver writes each to `<dir>/<file>`.
struct EmittedModel {
  std::string header;   ///< NAME.h
  std::string source;   ///< NAME.cpp
  std::string assembly; ///< NAME_weights.S (incbin of the blob), if Incbin
  WeightBlob weights;   ///< NAME.weights.bin, or NAME_weights.cpp if Array
};

/// NAME_weights.S: defines onnxcc_NAME_weights from NAME.weights.bin.
std::string weightsAssembly(const std::string &name, uint64_t size);

/// Writes NAME_weights.cpp: the blob as a 64-byte aligned C++ array.
void writeWeightsArray(llvm::raw_ostream &os, const std::string &name,
                       const WeightBlob &blob);

/// Prints a module that went through the CPU pipeline (kernel ops with a
/// memory plan). Never changes the IR; unsupported ops are errors.
mlir::LogicalResult emitCpp(mlir::ModuleOp module, const EmitOptions &options,
                            EmittedModel &out);

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_CPPEMITTER_H
