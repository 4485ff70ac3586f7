//===- Pipelines.h - the compiler's pass pipelines --------------*- C++ -*-===//
#ifndef ONNXCC_PASSES_PIPELINES_H
#define ONNXCC_PASSES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace onnxcc {

/// --min-winograd-channels when not given: 0, onnxcc-choose-conv-
/// algorithm's own rule (Passes.td). A count N >= 1 makes the rule "at
/// least N input and N output channels" for every map.
constexpr int64_t kDefaultMinWinogradChannels = 0;

struct PipelineOptions : mlir::PassPipelineOptions<PipelineOptions> {
  Option<int64_t> alignment{*this, "alignment",
                            llvm::cl::desc("byte alignment of arena buffers"),
                            llvm::cl::init(64)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("run the fusion passes"),
                    llvm::cl::init(true)};
  Option<std::string> treeStrategy{
      *this, "tree-strategy",
      llvm::cl::desc("tree ensembles: auto, nested or array"),
      llvm::cl::init("auto")};
  Option<int64_t> treeNestedMaxNodes{
      *this, "tree-nested-max-nodes",
      llvm::cl::desc("largest ensemble `auto` prints as nested branches"),
      llvm::cl::init(2048)};
  Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("threads the generated code splits large kernels over"),
      llvm::cl::init(1)};
  Option<int64_t> minWinogradChannels{
      *this, "min-winograd-channels",
      llvm::cl::desc("least input and output channels of a Winograd convolution (0: the pass's own rule)"),
      llvm::cl::init(kDefaultMinWinogradChannels)};
  Option<int64_t> layoutRows{
      *this, "layout-rows",
      llvm::cl::desc("rows weight layouts are chosen for, at least (buckets)"),
      llvm::cl::init(0)};
};

/// onnx dialect (as imported) -> kernel dialect with a memory plan.
void buildCpuPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Only the graph-level part (what --emit onnx-mlir prints).
void buildGraphPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers --onnxcc-cpu-pipeline and --onnxcc-graph-pipeline.
void registerPipelines();

} // namespace onnxcc

#endif // ONNXCC_PASSES_PIPELINES_H
