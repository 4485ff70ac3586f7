//===- Compile.cpp - model file to generated C++ --------------------------===//
#include "compiler/Compile.h"

#include "codegen/cpu/CppEmitter.h"
#include "compiler/Diagnostics.h"
#include "compiler/InitAll.h"
#include "compiler/frontend/ConstInputs.h"
#include "dialects/Onnx/InertText.h"
#include "passes/Pipelines.h"
#include "passes/PlanMemory.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnxcc {

void initContext(MLIRContext &ctx) {
  DialectRegistry registry;
  registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  ctx.disableMultithreading();
}

/// Keeps dumps readable: weights print as `dense_resource<...>` handles and
/// the blobs themselves are elided.
static OpPrintingFlags printingFlags() {
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(16);
  flags.elideLargeResourceString(64);
  return flags;
}

static LogicalResult
writeFile(MLIRContext &ctx, const std::string &path,
          llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (!ec) {
    write(os);
    os.close();
    ec = os.error();
    os.clear_error();
  }
  if (ec)
    return emitError(UnknownLoc::get(&ctx))
           << "cannot write '" << path << "': " << ec.message();
  return success();
}

static LogicalResult writeFile(MLIRContext &ctx, const std::string &path,
                               StringRef data) {
  return writeFile(ctx, path, [&](llvm::raw_ostream &os) { os << data; });
}

namespace {
/// Writes the whole module after every pass as DIR/NN-<pass>.mlir.
struct DumpAfterEachPass : PassInstrumentation {
  DumpAfterEachPass(std::string dir, ModuleOp module)
      : dir(std::move(dir)), module(module) {}
  void runAfterPass(Pass *pass, Operation *) override {
    if (pass->getArgument().empty())
      return; // the nested-pipeline adaptor, not a pass of its own
    std::string path = llvm::formatv("{0}/{1:2}-{2}.mlir", dir, ++index,
                                     pass->getArgument())
                           .str();
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (!ec)
      module.print(os, printingFlags());
  }
  std::string dir;
  ModuleOp module;
  int index = 0;
};
} // namespace

static void setPipelineOptions(PipelineOptions &options,
                               const CompileRequest &request) {
  options.fuse = request.fuse;
  options.treeStrategy = request.treeStrategy;
  options.treeNestedMaxNodes = request.treeNestedMaxNodes;
  options.layoutRows = request.layoutRows;
  options.threads = request.threads;
  options.minWinogradChannels = request.minWinogradChannels;
}

/// Writes the --report files, then checks the --max-arena / --max-weights
/// budget: a plan over budget still gets its report, which says why.
static LogicalResult reportAndCheckPlan(MLIRContext &ctx, ModuleOp module,
                                        const LoadedModel &model,
                                        const CompileRequest &request) {
  if (request.reportDir.empty() && !request.budget.maxArena &&
      !request.budget.maxWeights)
    return success();
  auto func = module.lookupSymbol<func::FuncOp>("main");
  auto workspace =
      module->getAttrOfType<IntegerAttr>(kernel::KernelDialect::kWorkspaceAttr);
  if (!func || !workspace)
    return emitError(module.getLoc()) << "the module has no memory plan";
  PipelineOptions pipelineOptions;
  setPipelineOptions(pipelineOptions, request);
  // The same planner on the planned module: the pass runs last, so this is
  // the plan it recorded (checked by the arena size).
  ArenaLayout layout = layoutArena(func, pipelineOptions.alignment);
  if (layout.arenaBytes != workspace.getInt())
    return emitError(module.getLoc())
           << "the memory plan report finds an arena of " << layout.arenaBytes
           << " bytes, the plan has " << workspace.getInt();
  if (!request.reportDir.empty()) {
    if (auto ec = llvm::sys::fs::create_directories(request.reportDir))
      return emitError(UnknownLoc::get(&ctx))
             << "cannot create '" << request.reportDir << "': " << ec.message();
    std::string base = joinPath(request.reportDir, request.name);
    if (failed(writeFile(ctx, base + ".memory.txt",
                         planTable(module, layout, model.path))) ||
        failed(writeFile(ctx, base + ".memory.svg",
                         planSvg(module, layout, model.path))))
      return failure();
  }
  return checkMemoryBudget(module, layout, request.budget);
}

OwningOpRef<ModuleOp> lowerModel(MLIRContext &ctx, LoadedModel &model,
                                 const CompileRequest &request) {
  if (failed(bindConstInputs(ctx, model, request.constInputs)))
    return nullptr;
  ImportOptions importOptions;
  importOptions.dims = request.dims;
  OwningOpRef<ModuleOp> module = importModel(ctx, model, importOptions);
  if (!module || failed(verify(*module)))
    return nullptr;

  if (!request.dumpIrDir.empty()) {
    if (auto ec = llvm::sys::fs::create_directories(request.dumpIrDir)) {
      emitError(UnknownLoc::get(&ctx))
          << "cannot create '" << request.dumpIrDir << "': " << ec.message();
      return nullptr;
    }
    if (failed(writeFile(ctx, request.dumpIrDir + "/00-import.mlir",
                         [&](llvm::raw_ostream &os) {
                           module->print(os, printingFlags());
                         })))
      return nullptr;
  }

  PassManager pm(&ctx);
  PipelineOptions pipelineOptions;
  setPipelineOptions(pipelineOptions, request);
  if (request.emit == EmitKind::OnnxMlir)
    buildGraphPipeline(pm, pipelineOptions);
  else
    buildCpuPipeline(pm, pipelineOptions);
  if (!request.dumpIrDir.empty())
    pm.addInstrumentation(
        std::make_unique<DumpAfterEachPass>(request.dumpIrDir, *module));
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

/// Writes the weight blob in the form `request` asks for, as STEM_weights.S
/// and STEM.weights.bin or as STEM_weights.cpp.
static LogicalResult writeWeights(MLIRContext &ctx, LoadedModel &model,
                                  const CompileRequest &request,
                                  const std::string &stem,
                                  const WeightBlob &blob) {
  SmallString<256> baseBuf(request.outDir);
  llvm::sys::path::append(baseBuf, stem);
  std::string base(baseBuf);
  if (request.embedWeights == "array")
    return writeFile(ctx, base + "_weights.cpp", [&](llvm::raw_ostream &os) {
      writeWeightsArray(os, stem, blob);
    });
  if (failed(writeFile(ctx, base + "_weights.S", weightsAssembly(stem, blob.size()))) ||
      failed(writeFile(ctx, base + ".weights.bin", [&](llvm::raw_ostream &os) {
        blob.write(os, [&](ArrayRef<char> bytes) { model.external.release(bytes); });
      })))
    return failure();
  return success();
}

static EmitOptions emitOptionsFor(const CompileRequest &request,
                                  const LoadedModel &model,
                                  const std::string &name,
                                  const std::string &weightsStem) {
  EmitOptions options;
  options.name = name;
  options.modelPath = model.path;
  options.commandLine = request.commandLine;
  options.weights = request.embedWeights == "array" ? WeightEmbedding::Array
                                                    : WeightEmbedding::Incbin;
  options.weightsStem = weightsStem;
  return options;
}

/// --dim D=S1,S2,...: lowers the model once per size, each with its own
/// memory plan, places all their weights in one blob (identical contents
/// once), and prints NAME_bS.{h,cpp} per size plus the NAME.{h,cpp}
/// dispatcher.
static LogicalResult compileBuckets(MLIRContext &ctx, LoadedModel &model,
                                    const CompileRequest &request) {
  Location loc = UnknownLoc::get(&ctx);
  if (request.emit != EmitKind::Cpp)
    return emitError(loc) << "--dim " << request.bucketDim
                          << " with several sizes compiles C++ only; give one "
                             "size to see the IR";
  std::vector<OwningOpRef<ModuleOp>> modules;
  SmallVector<func::FuncOp> funcs;
  for (int64_t size : request.bucketSizes) {
    CompileRequest one = request;
    one.bucketSizes.clear();
    one.dims[request.bucketDim] = size;
    one.name = request.name + "_b" + std::to_string(size);
    one.layoutRows = request.bucketSizes.back();
    if (!modules.empty())
      one.constInputs.clear(); // the model already holds them
    if (!request.dumpIrDir.empty())
      one.dumpIrDir = request.dumpIrDir + "/b" + std::to_string(size);
    OwningOpRef<ModuleOp> module = lowerModel(ctx, model, one);
    if (!module || failed(reportAndCheckPlan(ctx, *module, model, one)))
      return failure();
    funcs.push_back(module->lookupSymbol<func::FuncOp>("main"));
    modules.push_back(std::move(module));
  }
  // Every bucket reads one blob: its weights are compared by content
  // whatever their size, so no bucket adds a copy.
  if (failed(planWeights(funcs, SIZE_MAX)))
    return failure();
  if (auto ec = llvm::sys::fs::create_directories(request.outDir))
    return emitError(loc) << "cannot create '" << request.outDir
                          << "': " << ec.message();
  std::vector<EmittedModel> emitted(modules.size());
  BucketSet set{request.name, request.bucketDim, model.path, request.commandLine,
                request.bucketSizes, {}};
  WeightBlob blob;
  for (size_t i = 0; i < modules.size(); ++i) {
    std::string name = request.name + "_b" + std::to_string(request.bucketSizes[i]);
    EmitOptions options = emitOptionsFor(request, model, name, request.name);
    if (failed(emitCpp(*modules[i], options, emitted[i])))
      return failure();
    SmallString<256> base(request.outDir);
    llvm::sys::path::append(base, name);
    if (failed(writeFile(ctx, (base + ".h").str(), emitted[i].header)) ||
        failed(writeFile(ctx, (base + ".cpp").str(), emitted[i].source)))
      return failure();
    set.buckets.push_back(&emitted[i]);
  }
  std::string header, source, error;
  if (failed(emitBucketDispatch(set, header, source, error)))
    return emitError(loc) << messageText(model.path, 1024) << ": --dim "
                          << request.bucketDim << ": " << error;
  for (EmittedModel &e : emitted)
    blob.merge(std::move(e.weights));
  SmallString<256> base(request.outDir);
  llvm::sys::path::append(base, request.name);
  if (failed(writeFile(ctx, (base + ".h").str(), header)) ||
      failed(writeFile(ctx, (base + ".cpp").str(), source)))
    return failure();
  return writeWeights(ctx, model, request, request.name, blob);
}

LogicalResult compileModel(MLIRContext &ctx, LoadedModel &model,
                           const CompileRequest &request) {
  if (!request.bucketSizes.empty())
    return compileBuckets(ctx, model, request);
  OwningOpRef<ModuleOp> module = lowerModel(ctx, model, request);
  if (!module)
    return failure();
  if (request.emit != EmitKind::OnnxMlir &&
      failed(reportAndCheckPlan(ctx, *module, model, request)))
    return failure();

  if (auto ec = llvm::sys::fs::create_directories(request.outDir))
    return emitError(UnknownLoc::get(&ctx))
           << "cannot create '" << request.outDir << "': " << ec.message();
  SmallString<256> baseBuf(request.outDir);
  llvm::sys::path::append(baseBuf, request.name);
  std::string base(baseBuf);
  if (request.emit != EmitKind::Cpp)
    return writeFile(ctx,
                     base + (request.emit == EmitKind::OnnxMlir ? ".onnx.mlir"
                                                                : ".kernel.mlir"),
                     [&](llvm::raw_ostream &os) {
                       module->print(os, printingFlags());
                     });
  EmittedModel emitted;
  if (failed(emitCpp(*module, emitOptionsFor(request, model, request.name, ""),
                     emitted)))
    return failure();
  if (failed(writeFile(ctx, base + ".h", emitted.header)) ||
      failed(writeFile(ctx, base + ".cpp", emitted.source)))
    return failure();
  return writeWeights(ctx, model, request, request.name, emitted.weights);
}

} // namespace onnxcc
