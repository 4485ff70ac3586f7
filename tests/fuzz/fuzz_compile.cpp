//===- fuzz_compile.cpp - libFuzzer over the whole compiler ---------------===//
//
// One input is the bytes of one model file. Each goes through what
// `onnxcc compile` does, in memory: parseModel -> lowerModel (import and the
// CPU pipeline) -> emitCpp, with the weight blob streamed into a null
// stream. Nothing is written to disk. Errors are the expected outcome for
// most inputs and are swallowed; what libFuzzer reports - crashes, hangs,
// leaks, ASan and UBSan findings, failed assertions - are the bugs, and so is
// a failure that reports no error (the driver would exit 1 in silence).
//
// Build and run: scripts/fuzz (tests/fuzz/README.md).
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/CppEmitter.h"
#include "compiler/Compile.h"
#include "compiler/frontend/OnnxImporter.h"
#include "tests/fuzz/ModelMutator.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace onnxcc;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

/// Where the model "lives": an empty directory, so that every external-data
/// reference fails cleanly (not found, or escaping it).
static std::string modelPath;

/// A stream that reads every byte written to it and keeps none.
class ReadingSink : public llvm::raw_ostream {
public:
  ReadingSink() { SetUnbuffered(); }
  unsigned checksum = 0;

private:
  void write_impl(const char *ptr, size_t size) override {
    for (size_t i = 0; i < size; ++i)
      checksum += (unsigned char)ptr[i];
    pos += size;
  }
  uint64_t current_pos() const override { return pos; }
  uint64_t pos = 0;
};

/// A silent failure is a bug of its own: stop with a message libFuzzer
/// reports as a crash.
[[noreturn]] static void silentFailure(const char *stage) {
  std::fprintf(stderr, "onnxcc-fuzz: %s failed without reporting an error\n",
               stage);
  std::abort();
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *dir = std::getenv("ONNXCC_FUZZ_MODEL_DIR");
  llvm::SmallString<128> tmp;
  if (!dir) {
    // One per process; left behind, empty, when libFuzzer exits.
    if (llvm::sys::fs::createUniqueDirectory("onnxcc-fuzz", tmp)) {
      std::fprintf(stderr, "onnxcc-fuzz: cannot create a temporary directory\n");
      std::exit(1);
    }
    dir = tmp.c_str();
  }
  modelPath = std::string(dir) + "/fuzz.onnx";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Declared first so that it is destroyed last: imported constants and the
  // weight blob point into the parsed proto.
  std::unique_ptr<LoadedModel> model;
  mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
  initContext(ctx);
  int errors = 0;
  mlir::ScopedDiagnosticHandler swallow(&ctx, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      ++errors;
    return mlir::success();
  });

  model = parseModel(
      ctx, llvm::StringRef(reinterpret_cast<const char *>(data), size),
      modelPath);
  if (!model) {
    if (!errors)
      silentFailure("parseModel");
    return 0;
  }

  CompileRequest request;
  request.name = "fuzz";
  request.emit = EmitKind::Cpp;
  request.fuse = true;
  // Every symbolic dimension bound to a small size (1 to 3, by name), so
  // that models with them reach the pipeline.
  for (const SymbolicDim &d : listSymbolicDims(model->proto))
    request.dims[d.name] = 1 + int64_t(llvm::hash_value(d.name) % 3);

  mlir::OwningOpRef<mlir::ModuleOp> module = lowerModel(ctx, *model, request);
  if (!module) {
    if (!errors)
      silentFailure("lowerModel");
    return 0;
  }

  EmittedModel emitted;
  EmitOptions options;
  options.name = request.name;
  options.modelPath = model->path;
  options.commandLine = "--fuzz";
  if (mlir::failed(emitCpp(*module, options, emitted))) {
    if (!errors)
      silentFailure("emitCpp");
    return 0;
  }
  // Every byte of the blob is read, as the driver's file write would, so
  // that a piece pointing at freed or foreign memory trips ASan.
  ReadingSink sink;
  emitted.weights.write(sink);
  sink.flush();
  if (sink.tell() != emitted.weights.size()) {
    std::fprintf(stderr, "onnxcc-fuzz: weight blob wrote %llu of %llu bytes\n",
                 (unsigned long long)sink.tell(),
                 (unsigned long long)emitted.weights.size());
    std::abort();
  }
  return 0;
}

/// Three times in four: parse the input as a model, apply a few structural
/// mutations and serialize it again. Otherwise, or when the input does not
/// parse or the result would be too large, libFuzzer's byte-level mutations
/// (which use -dict=tests/fuzz/onnx.dict).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  fuzz::Rng rng(seed);
  if (rng() % 4 != 0) {
    ::onnx::ModelProto model;
    if (model.ParseFromArray(data, int(size))) {
      fuzz::mutateModel(model, rng);
      std::string out;
      if (model.SerializeToString(&out) && out.size() <= maxSize) {
        std::memcpy(data, out.data(), out.size());
        return out.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}

/// Moves a node, initializer, input or output of one model into another;
/// byte-level splicing is left to libFuzzer's own mutations.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2,
                                            uint8_t *out, size_t maxOutSize,
                                            unsigned int seed) {
  ::onnx::ModelProto into, from;
  if (!into.ParseFromArray(data1, int(size1)) ||
      !from.ParseFromArray(data2, int(size2)))
    return 0;
  fuzz::Rng rng(seed);
  fuzz::crossOver(into, from, rng);
  std::string bytes;
  if (!into.SerializeToString(&bytes) || bytes.size() > maxOutSize)
    return 0;
  std::memcpy(out, bytes.data(), bytes.size());
  return bytes.size();
}
