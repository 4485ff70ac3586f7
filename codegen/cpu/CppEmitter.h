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
  /// The stem of the weight blob's files and symbol (onnxcc_STEM_weights);
  /// empty: `name`. Shape buckets name one blob that every bucket shares.
  std::string weightsStem;
};

/// A graph input or output as the shape-bucket dispatcher sees it.
struct PortSummary {
  bool isInput;
  std::string name;    ///< C++ parameter name (in_x, out_y)
  std::string element; ///< C++ element type
  std::vector<int64_t> shape;
  bool strings;
};

/// The weight blob as pieces at the offsets the planner chose
/// (kernel.blob_offset), in increasing order. Pieces point into the parsed
/// model (or mapped external data) where they can, so that megabytes of
/// weights are not copied; the driver streams them out.
class WeightBlob {
public:
  /// Places `bytes` at `offset`; `bytes` must outlive the blob.
  void place(uint64_t offset, llvm::ArrayRef<char> bytes);
  /// Moves in the pieces of `other` at offsets this blob lacks: blobs
  /// planned together (shape buckets) share the pieces they have in common.
  void merge(WeightBlob &&other);
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
  WeightBlob weights;   ///< NAME.weights.bin, or NAME_weights.cpp if Array
  std::vector<PortSummary> ports; ///< inputs, then outputs
  int64_t workspaceBytes = 0;
};

/// One library holding a specialisation per size of one dimension
/// (--dim batch=1,8,32): `buckets[i]` is the emitted code of NAME_b<size>.
struct BucketSet {
  std::string name, dim, modelPath, commandLine;
  std::vector<int64_t> sizes; ///< increasing
  std::vector<const EmittedModel *> buckets;
};

/// Prints NAME.h and NAME.cpp: predict(rows, ...) runs the smallest bucket
/// of at least `rows` rows (padding through a staging area in the
/// workspace), and rows beyond the largest in chunks of it. Fails, with
/// `error` set, when the dimension does not lead every port.
mlir::LogicalResult emitBucketDispatch(const BucketSet &set, std::string &header,
                                       std::string &source, std::string &error);

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
