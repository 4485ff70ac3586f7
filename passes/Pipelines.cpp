//===- Pipelines.cpp - the compiler's pass pipelines ----------------------===//
#include "passes/Pipelines.h"

#include "passes/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace onnxcc {

void buildGraphPipeline(OpPassManager &pm, const PipelineOptions &options) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  // Pinned input shapes flow through the graph; shape arithmetic folds.
  fn.addPass(createShapeInference());
  // Whatever else is constant (Cast of constants, scaled weights) folds.
  fn.addPass(createFoldConstants());
  // BatchNormalization disappears into Conv weights, or (without fusion, or
  // after anything else) becomes a per-channel scale and shift.
  FoldBatchNormOptions bnOptions;
  bnOptions.intoConv = options.fuse;
  fn.addPass(createFoldBatchNorm(bnOptions));
  if (options.fuse)
    // MatMul + bias becomes one Gemm with the bias in its epilogue.
    fn.addPass(createFuseMatMulAdd());
  // Rewrites above create ops with known operands: settle their shapes.
  fn.addPass(createShapeInference());
}

void buildCpuPipeline(OpPassManager &pm, const PipelineOptions &options) {
  buildGraphPipeline(pm, options);
  OpPassManager &fn = pm.nest<func::FuncOp>();
  // One kernel call per op, over static shapes.
  LowerToKernelOptions lowerOptions;
  lowerOptions.layoutRows = options.layoutRows;
  fn.addPass(createLowerToKernel(lowerOptions));
  if (options.fuse)
    // Elementwise chains and activations become one loop / an epilogue.
    fn.addPass(createFuseElementwise());
  // Each convolution's kernel, read by the planner and the emitter.
  ChooseConvAlgorithmOptions convOptions;
  convOptions.minWinogradChannels = options.minWinogradChannels;
  convOptions.threads = options.threads;
  fn.addPass(createChooseConvAlgorithm(convOptions));
  // Constant GEMM weights in the runtime's panels.
  fn.addPass(createPackGemmWeights());
  // Which kernels split across --threads (before planning: scratch copies).
  ChooseThreadsOptions threadOptions;
  threadOptions.threads = options.threads;
  fn.addPass(createChooseThreads(threadOptions));
  // Small tree ensembles are printed as nested branches.
  ChooseTreeStrategyOptions treeOptions;
  treeOptions.strategy = options.treeStrategy;
  treeOptions.nestedMaxNodes = options.treeNestedMaxNodes;
  fn.addPass(createChooseTreeStrategy(treeOptions));
  // Constants whose users were folded or fused away are dropped.
  fn.addPass(createCanonicalizerPass());
  // Every intermediate gets an arena offset; must run last.
  PlanMemoryOptions planOptions;
  planOptions.alignment = options.alignment;
  pm.addPass(createPlanMemory(planOptions));
}

void registerPipelines() {
  PassPipelineRegistration<PipelineOptions>(
      "onnxcc-cpu-pipeline",
      "the driver's full pipeline: onnx dialect to a planned kernel module",
      buildCpuPipeline);
  PassPipelineRegistration<PipelineOptions>(
      "onnxcc-graph-pipeline",
      "graph-level specialisation, folding and fusion only",
      buildGraphPipeline);
}

} // namespace onnxcc
