//===- onnxcc.cpp - the onnxcc driver -------------------------------------===//
//
//   onnxcc compile MODEL.onnx -o DIR [--name N] [--dim K=V]...
//                  [--emit onnx-mlir|kernel-mlir|cpp] [--dump-ir DIR] [--no-fuse]
//                  [--max-arena BYTES] [--max-weights BYTES] [--report DIR]
//                  [--threads N] [--min-winograd-channels N]
//   onnxcc verify MODEL_DIR [--dim K=V]... [--atol X] [--rtol X]
//                  [--cxx CXX] [--cxxflags FLAGS] [--exec-wrapper CMD]
//                  [--runtime-dir DIR] [--keep DIR] [--no-fuse]
//                  [--max-arena BYTES] [--max-weights BYTES]
//
// Every error is one line, `onnxcc: error: <where>: <what>`, exit code 1.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/CppEmitter.h"
#include "compiler/Compile.h"
#include "compiler/Diagnostics.h"
#include "compiler/Verify.h"
#include "compiler/frontend/TensorImport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <cstdlib>

using namespace onnxcc;

static const char *kCompileUsage =
    "usage: onnxcc compile MODEL.onnx -o DIR [--name N] [--dim K=V]...\n"
    "                      [--const-input NAME=FILE.pb]...\n"
    "                      [--emit onnx-mlir|kernel-mlir|cpp] [--dump-ir DIR] [--no-fuse]\n"
    "                      [--tree-strategy S] [--tree-nested-max-nodes N]\n"
    "                      [--embed-weights incbin|array]\n"
    "                      [--max-arena BYTES] [--max-weights BYTES] [--report DIR]\n"
    "                      [--threads N] [--min-winograd-channels N]\n"
    "  Compiles MODEL.onnx into DIR/N.h, N.cpp, N_weights.S and N.weights.bin.\n"
    "  --dim K=V      pins dynamic dimension K, a dim_param or INPUT:AXIS\n"
    "                 (every free one must be pinned)\n"
    "  --dim K=V1,V2,...\n"
    "                 shape buckets: one specialisation per size of K (one\n"
    "                 dimension, leading every input and output) sharing\n"
    "                 one weight blob, behind N::predict(rows, ...), which\n"
    "                 runs the smallest bucket >= rows and splits larger\n"
    "                 calls; each also has its own N_bV::predict\n"
    "  --const-input NAME=FILE.pb\n"
    "                 binds graph input NAME to the TensorProto in FILE.pb at\n"
    "                 compile time (a shape it decides becomes static);\n"
    "                 predict() no longer takes it\n"
    "  --name N       C++ namespace and file stem (default: the model's file stem)\n"
    "  --emit KIND    cpp (default), or the IR after the graph (onnx-mlir) or\n"
    "                 kernel (kernel-mlir) pipeline\n"
    "  --dump-ir DIR  writes the IR after every pass into DIR\n"
    "  --no-fuse      disables fusion (for debugging)\n"
    "  --tree-strategy auto|nested|array\n"
    "                 tree ensembles as nested branches or a node-array walk;\n"
    "                 auto nests those of at most --tree-nested-max-nodes\n"
    "                 nodes (default 2048) run one row at a time\n"
    "  --embed-weights incbin|array\n"
    "                 incbin (default): N_weights.S pulls N.weights.bin in\n"
    "                 with .incbin (GNU assemblers: ELF, Mach-O, MinGW);\n"
    "                 array: N_weights.cpp holds the weights as a C++ array,\n"
    "                 for any C++ compiler (WebAssembly, MSVC)\n"
    "  --max-arena BYTES, --max-weights BYTES\n"
    "                 fails unless the planned arena (working memory) or the\n"
    "                 weight blob fits in BYTES; the error names the largest\n"
    "                 tensors live at the peak, or the largest weights. BYTES\n"
    "                 is an integer, optionally with K, M or G (KiB, MiB, GiB:\n"
    "                 powers of 1024)\n"
    "  --report DIR   writes the memory plan into DIR as N.memory.txt (one row\n"
    "                 per arena buffer: program positions, offset, bytes, op)\n"
    "                 and N.memory.svg (the arena over program order)\n"
    "  --threads N    predict() splits its large convolutions and products\n"
    "                 over N threads: itself and N - 1 workers of a pool\n"
    "                 started by N::init() or the first call (default 1: no\n"
    "                 pool, no threads; link with -pthread otherwise)\n"
    "  --min-winograd-channels N\n"
    "                 3x3 stride-1 convolutions with at least N input and N\n"
    "                 output channels and constant weights run as Winograd\n"
    "                 F(2,3) (default: at least 32, or from 2 inputs over\n"
    "                 a 5x5 to 8x8 output map): 2.25x fewer multiply-adds,\n"
    "                 but their weights take 16/9 of the bytes; a count\n"
    "                 above every layer's keeps the weights small\n";
static const char *kVerifyUsage =
    "usage: onnxcc verify MODEL_DIR [--dim K=V]... [--const-input NAME=FILE.pb]...\n"
    "                      [--atol X] [--rtol X]\n"
    "                      [--cxx CXX] [--cxxflags FLAGS] [--exec-wrapper CMD]\n"
    "                      [--runtime-dir DIR] [--keep DIR] [--no-fuse]\n"
    "                      [--tree-strategy S] [--tree-nested-max-nodes N]\n"
    "                      [--embed-weights incbin|array]\n"
    "                      [--max-arena BYTES] [--max-weights BYTES] [--threads N]\n"
    "                      [--min-winograd-channels N] [--bisect [--python PYTHON]]\n"
    "  Compiles MODEL_DIR/model.onnx, builds and runs it on every\n"
    "  test_data_set_*, and compares with the reference outputs:\n"
    "  |got - ref| <= atol + rtol * |ref| (defaults 1e-4, 1e-4).\n"
    "  --const-input, --max-arena, --max-weights, --threads,\n"
    "  --min-winograd-channels as for compile;\n"
    "  the data sets' files for bound inputs are not fed\n"
    "  --cxx CXX, --cxxflags FLAGS  the C++ compiler (default c++ -O2 -march=native)\n"
    "  --exec-wrapper CMD           runs the program through CMD (an emulator)\n"
    "  --keep DIR                   keeps the generated code and harness in DIR\n"
    "  --dim K=V1,V2,...            shape buckets (as for compile): runs\n"
    "                               predict(rows, ...) with the data sets' rows\n"
    "                               repeated to each count of --calls (default:\n"
    "                               each size, one more than each, and 2 x the\n"
    "                               largest + 1)\n"
    "  --bisect                     when outputs disagree, compares every\n"
    "                               intermediate tensor of data set 0 with\n"
    "                               onnxruntime and names the first node that\n"
    "                               diverges\n"
    "  --python PYTHON              the Python with onnx and onnxruntime for\n"
    "                               --bisect (default $ONNXCC_PYTHON or python3)\n";

static std::string usage() {
  return std::string(kCompileUsage) + kVerifyUsage +
         "usage: onnxcc --version | --help\n";
}

/// A command-line mistake: one line, like every other error.
static int usageError(const std::string &msg) {
  printErrorLine("", msg + " (see onnxcc --help)");
  return 1;
}

static bool isHelp(const std::string &arg) {
  return arg == "--help" || arg == "-h" || arg == "-help";
}

/// Parses "NAME=VALUE" with VALUE a positive dimension.
/// --dim NAME=SIZE pins a dimension; --dim NAME=S1,S2,... (one dimension
/// only) asks for one shape bucket per size.
static bool parseDim(const std::string &arg, std::map<std::string, int64_t> &dims,
                     std::string &bucketDim, std::vector<int64_t> &buckets,
                     std::string &error) {
  size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "--dim expects NAME=VALUE, got '" + arg + "'";
    return false;
  }
  std::string name = arg.substr(0, eq);
  std::vector<int64_t> sizes;
  for (llvm::StringRef value : llvm::split(llvm::StringRef(arg).substr(eq + 1), ',')) {
    std::string text = value.str();
    char *end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end || v <= 0 || v > kMaxDim) {
      error = "--dim " + name + " needs a positive size, got '" + text + "'";
      return false;
    }
    sizes.push_back(v);
  }
  if (sizes.size() == 1) {
    dims[name] = sizes[0];
    return true;
  }
  if (!bucketDim.empty()) {
    error = "--dim " + name + ": only one dimension can have several sizes, and " +
            bucketDim + " already has";
    return false;
  }
  llvm::sort(sizes);
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  bucketDim = name;
  buckets = sizes;
  return true;
}

static bool parseDouble(const std::string &s, double &out) {
  char *end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && !*end && out >= 0;
}

static bool parseInt(const std::string &s, int64_t &out) {
  char *end = nullptr;
  errno = 0;
  out = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && !*end && errno == 0;
}

/// The runtime headers: beside the source tree this binary was built from,
/// or installed next to it (<prefix>/include).
static std::string defaultRuntimeDir(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, (void *)&defaultRuntimeDir);
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(installed, "include");
  if (llvm::sys::fs::exists(installed + "/onnxcc/runtime.h"))
    return std::string(installed);
  return ONNXCC_RUNTIME_DIR;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    llvm::errs() << usage();
    return 1;
  }
  if (isHelp(args[0]) || args[0] == "help") {
    llvm::outs() << usage();
    return 0;
  }
  if (args[0] == "--version") {
    llvm::outs() << "onnxcc 0.1.0 (LLVM/MLIR " LLVM_VERSION_STRING ")\n";
    return 0;
  }
  std::string command = args[0];
  if (command != "compile" && command != "verify")
    return usageError("unknown command '" + command + "'");
  if (llvm::any_of(args, isHelp)) {
    llvm::outs() << (command == "compile" ? kCompileUsage : kVerifyUsage);
    return 0;
  }

  std::string input, outDir, name, dumpIr, report, emit = "cpp", cxx,
      runtimeDir, keep,
      cxxFlags = "-O2 -march=native", execWrapper, python,
      treeStrategy = "auto", embedWeights = "incbin";
  int64_t treeNestedMaxNodes = 2048, threads = 1,
          minWinogradChannels = kDefaultMinWinogradChannels;
  std::map<std::string, int64_t> dims;
  std::string bucketDim; // --dim NAME=S1,S2,...: shape buckets
  std::vector<int64_t> bucketSizes;
  std::vector<int64_t> calls; // verify: row counts predict(rows, ...) is run at
  std::map<std::string, std::string> constInputs;
  double atol = 1e-4, rtol = 1e-4;
  bool fuse = true, bisect = false;
  MemoryBudget budget;

  /// Options taking one string. Paths do not shape the output, so they stay
  /// out of the banner: output is byte-identical across directories.
  struct StringOption {
    const char *flag;
    std::string *value;
    bool isPath;
  };
  const StringOption stringOptions[] = {
      {"-o", &outDir, true},          {"--name", &name, false},
      {"--emit", &emit, false},       {"--dump-ir", &dumpIr, true},
      {"--cxx", &cxx, false},         {"--cxxflags", &cxxFlags, false},
      {"--exec-wrapper", &execWrapper, false},
      {"--runtime-dir", &runtimeDir, true}, {"--keep", &keep, true},
      {"--python", &python, true}, {"--tree-strategy", &treeStrategy, false},
      {"--embed-weights", &embedWeights, false},
      {"--report", &report, true}};

  // The flags recorded in the generated banner, as given.
  std::string commandLine;
  auto record = [&](const std::string &flag, const std::string &value) {
    commandLine += (commandLine.empty() ? "" : " ") + flag +
                   (value.empty() ? "" : " " + value);
  };
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](std::string &dst) {
      if (i + 1 >= args.size())
        return false;
      dst = args[++i];
      return true;
    };
    auto option = llvm::find_if(stringOptions,
                                [&](const StringOption &o) { return a == o.flag; });
    if (option != std::end(stringOptions)) {
      if (!value(*option->value))
        return usageError(a + " needs a value");
      if (!option->isPath)
        record(a, *option->value);
      continue;
    }
    std::string v, error;
    if (a == "--dim") {
      if (!value(v))
        return usageError("--dim needs NAME=VALUE");
      if (!parseDim(v, dims, bucketDim, bucketSizes, error))
        return usageError(error);
      record(a, v);
    } else if (a == "--const-input") {
      size_t eq = std::string::npos;
      if (!value(v) || (eq = v.find('=')) == 0 || eq == std::string::npos ||
          eq + 1 == v.size())
        return usageError("--const-input needs NAME=FILE.pb");
      if (!constInputs.emplace(v.substr(0, eq), v.substr(eq + 1)).second)
        return usageError("--const-input " + v.substr(0, eq) + " is given twice");
      record(a, v.substr(0, eq)); // the path stays out: output is path-free
    } else if (a == "--atol" || a == "--rtol") {
      double d;
      if (!value(v) || !parseDouble(v, d))
        return usageError(a + " needs a non-negative number");
      (a == "--atol" ? atol : rtol) = d;
      record(a, v);
    } else if (a == "--calls") {
      if (!value(v))
        return usageError("--calls needs row counts such as 1,5,8,33");
      for (llvm::StringRef c : llvm::split(v, ',')) {
        int64_t rows;
        if (!parseInt(c.str(), rows) || rows <= 0 || rows > kMaxDim)
          return usageError("--calls needs positive row counts, got '" + c.str() + "'");
        calls.push_back(rows);
      }
    } else if (a == "--threads") {
      if (!value(v) || !parseInt(v, threads) || threads < 1 || threads > 256)
        return usageError("--threads needs a thread count from 1 to 256, got '" +
                          v + "'");
      record(a, v);
    } else if (a == "--min-winograd-channels") {
      if (!value(v) || !parseInt(v, minWinogradChannels) ||
          minWinogradChannels < 1)
        return usageError("--min-winograd-channels needs a positive channel "
                          "count, got '" + v + "'");
      record(a, v);
    } else if (a == "--tree-nested-max-nodes") {
      if (!value(v) || !parseInt(v, treeNestedMaxNodes) || treeNestedMaxNodes < 0)
        return usageError("--tree-nested-max-nodes needs a non-negative integer");
      record(a, v);
    } else if (a == "--max-arena" || a == "--max-weights") {
      // A budget checks the output but does not shape it: not recorded.
      std::optional<int64_t> bytes;
      if (!value(v) || !(bytes = parseByteCount(v)))
        return usageError(a + " needs a byte count such as 65536, 64K, 1M or "
                              "2G, got '" + v + "'");
      (a == "--max-arena" ? budget.maxArena : budget.maxWeights) = bytes;
    } else if (a == "--no-fuse") {
      fuse = false;
      record(a, "");
    } else if (a == "--bisect") {
      bisect = true;
    } else if (!a.empty() && a[0] == '-') {
      return usageError("unknown option '" + a + "'");
    } else if (input.empty()) {
      input = a;
    } else {
      return usageError("unexpected argument '" + a + "'");
    }
  }
  if (treeStrategy != "auto" && treeStrategy != "nested" && treeStrategy != "array")
    return usageError("--tree-strategy must be auto, nested or array, got '" +
                      treeStrategy + "'");
  if (!bucketDim.empty() && dims.count(bucketDim))
    return usageError("--dim " + bucketDim + " is given a size and a list of sizes");
  if (!calls.empty() && bucketDim.empty())
    return usageError("--calls needs shape buckets (--dim NAME=S1,S2,...)");
  if (embedWeights != "incbin" && embedWeights != "array")
    return usageError("--embed-weights must be incbin or array, got '" +
                      embedWeights + "'");
  if (input.empty())
    return usageError(command == "compile" ? "no model file given"
                                           : "no model directory given");

  if (command == "verify") {
    if (!report.empty())
      return usageError("--report is an option of compile, not verify");
    VerifyRequest req;
    req.modelDir = input;
    req.dims = dims;
    req.constInputs = constInputs;
    req.atol = atol;
    req.rtol = rtol;
    req.cxx = cxx;
    req.runtimeDir = runtimeDir.empty() ? defaultRuntimeDir(argv[0]) : runtimeDir;
    req.workDir = keep;
    req.cxxFlags = cxxFlags;
    req.execWrapper = execWrapper;
    req.fuse = fuse;
    req.treeStrategy = treeStrategy;
    req.treeNestedMaxNodes = treeNestedMaxNodes;
    req.embedWeights = embedWeights;
    req.threads = threads;
    req.minWinogradChannels = minWinogradChannels;
    req.bucketDim = bucketDim;
    req.bucketSizes = bucketSizes;
    req.calls = calls;
    req.budget = budget;
    req.commandLine = commandLine;
    req.bisect = bisect;
    if (!python.empty())
      req.python = python;
    else if (const char *env = getenv("ONNXCC_PYTHON"))
      req.python = env;
    return runVerify(req);
  }

  CompileRequest req;
  if (outDir.empty())
    return usageError("compile needs -o DIR");
  if (emit == "onnx-mlir")
    req.emit = EmitKind::OnnxMlir;
  else if (emit == "kernel-mlir")
    req.emit = EmitKind::KernelMlir;
  else if (emit != "cpp")
    return usageError("--emit must be onnx-mlir, kernel-mlir or cpp, got '" + emit + "'");
  if (req.emit == EmitKind::OnnxMlir &&
      (!report.empty() || budget.maxArena || budget.maxWeights))
    return usageError("--report, --max-arena and --max-weights need a memory "
                      "plan, which --emit onnx-mlir does not make");
  if (name.empty()) {
    for (char c : llvm::sys::path::stem(input).str())
      name += isalnum((unsigned char)c) ? c : '_';
    if (!isValidCppName(name))
      name = "model_" + name;
  }
  if (!isValidCppName(name))
    return usageError("--name '" + name + "' is not a valid C++ identifier");
  req.name = name;
  req.dims = dims;
  req.constInputs = constInputs;
  req.outDir = outDir;
  req.dumpIrDir = dumpIr;
  req.reportDir = report;
  req.budget = budget;
  req.commandLine = commandLine;
  req.fuse = fuse;
  req.treeStrategy = treeStrategy;
  req.treeNestedMaxNodes = treeNestedMaxNodes;
  req.embedWeights = embedWeights;
  req.threads = threads;
  req.minWinogradChannels = minWinogradChannels;
  req.bucketDim = bucketDim;
  req.bucketSizes = bucketSizes;

  mlir::MLIRContext ctx;
  initContext(ctx);
  OneLineDiagnostics diags(ctx);
  auto model = loadModel(ctx, input);
  if (!model || failed(compileModel(ctx, *model, req)))
    return 1;
  return diags.errors() ? 1 : 0;
}
