//===- Compile.h - model file to generated C++ ------------------*- C++ -*-===//
#ifndef ONNXCC_COMPILER_COMPILE_H
#define ONNXCC_COMPILER_COMPILE_H

#include "compiler/PlanReport.h"
#include "compiler/frontend/OnnxImporter.h"
#include "mlir/IR/MLIRContext.h"
#include "passes/Pipelines.h"
#include <map>
#include <string>

namespace onnxcc {

enum class EmitKind { OnnxMlir, KernelMlir, Cpp };

struct CompileRequest {
  std::map<std::string, int64_t> dims;
  /// Graph inputs bound to constants: name -> TensorProto file (--const-input).
  std::map<std::string, std::string> constInputs;
  std::string name;        ///< C++ namespace and file stem
  EmitKind emit = EmitKind::Cpp;
  std::string outDir;
  std::string dumpIrDir;   ///< empty: no dumps
  std::string reportDir;   ///< empty: no memory plan report (--report)
  MemoryBudget budget;     ///< --max-arena, --max-weights
  std::string commandLine; ///< recorded in the generated header
  bool fuse = true;
  /// How tree ensembles are printed (onnxcc-choose-tree-strategy).
  std::string treeStrategy = "auto";
  int64_t treeNestedMaxNodes = 2048;
  /// How the weight blob is linked: "incbin" (NAME_weights.S and
  /// NAME.weights.bin) or "array" (NAME_weights.cpp, for any C++ compiler).
  std::string embedWeights = "incbin";
  /// Shape buckets (--dim batch=1,8,32): one specialisation per size of
  /// `bucketDim`, in increasing order, behind one predict(rows, ...).
  std::string bucketDim;
  std::vector<int64_t> bucketSizes;
  /// Weight layouts are chosen as if every product had at least this many
  /// rows (the largest bucket, so that buckets share their weights).
  int64_t layoutRows = 0;
  /// Threads predict() runs its large kernels on (--threads; 1: no pool).
  int64_t threads = 1;
  /// Least input and output channels of a Winograd convolution
  /// (--min-winograd-channels; 0: the pass's rule): its weights are 16/9
  /// of the 3x3 ones.
  int64_t minWinogradChannels = kDefaultMinWinogradChannels;
};

/// A context with every dialect onnxcc uses, single-threaded so that dumps
/// and output are deterministic.
void initContext(mlir::MLIRContext &ctx);

/// Imports `model` and runs the pipeline `request.emit` asks for (the graph
/// pipeline for OnnxMlir, the CPU pipeline otherwise), dumping IR if asked.
/// Returns null after reporting errors on the context's handler.
mlir::OwningOpRef<mlir::ModuleOp> lowerModel(mlir::MLIRContext &ctx,
                                             LoadedModel &model,
                                             const CompileRequest &request);

/// lowerModel(), then writes what `request.emit` asks for into
/// `request.outDir`. Errors go to the context's diagnostic handler.
mlir::LogicalResult compileModel(mlir::MLIRContext &ctx, LoadedModel &model,
                                 const CompileRequest &request);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_COMPILE_H
