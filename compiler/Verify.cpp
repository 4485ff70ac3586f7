//===- Verify.cpp - `onnxcc verify`: compile, build, run, compare ---------===//
//
// For a model directory in the ONNX backend-test layout: pin symbolic dims
// from each data set's inputs, compile once per distinct binding, build the
// generated code with a small harness using the system C++ compiler, run
// every data set and compare each output with |got - ref| <= atol + rtol|ref|.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify.h"

#include "compiler/VerifyHarness.h"

#include "compiler/Compare.h"
#include "compiler/Compile.h"
#include "compiler/frontend/ConstInputs.h"
#include "compiler/Diagnostics.h"
#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/InertText.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>

using namespace mlir;

namespace onnxcc {

namespace {
struct DataSet {
  std::string dir;
  std::vector<::onnx::TensorProto> inputs, outputs;
};


bool readTensorFile(const std::string &path, ::onnx::TensorProto &t) {
  auto buf = llvm::MemoryBuffer::getFile(path, false, false);
  return buf && t.ParseFromArray((*buf)->getBufferStart(),
                                 (int)(*buf)->getBufferSize());
}

/// test_data_set_*/input_K.pb and output_K.pb, in numeric order.
bool readDataSets(const std::string &modelDir, std::vector<DataSet> &sets,
                  std::string &error) {
  std::error_code ec;
  std::vector<std::string> dirs;
  for (llvm::sys::fs::directory_iterator it(modelDir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("test_data_set_") &&
        llvm::sys::fs::is_directory(it->path()))
      dirs.push_back(it->path());
  std::sort(dirs.begin(), dirs.end());
  for (const std::string &d : dirs) {
    DataSet set{d, {}, {}};
    for (const char *kind : {"input", "output"})
      for (int i = 0;; ++i) {
        std::string path = joinPath(d, Twine(kind) + "_" + Twine(i) + ".pb");
        if (!llvm::sys::fs::exists(path))
          break;
        ::onnx::TensorProto t;
        if (!readTensorFile(path, t)) {
          error = "cannot parse '" + path + "' as a TensorProto";
          return false;
        }
        (kind[0] == 'i' ? set.inputs : set.outputs).push_back(std::move(t));
      }
    sets.push_back(std::move(set));
  }
  if (sets.empty()) {
    error = "no test_data_set_* directories";
    return false;
  }
  return true;
}

int run(const std::string &program, const std::vector<std::string> &args,
        std::string &error) {
  std::vector<StringRef> argv;
  for (const std::string &a : args)
    argv.push_back(a);
  return llvm::sys::ExecuteAndWait(program, argv, std::nullopt, {}, 0, 0, &error);
}

/// The elements of a STRING tensor: one string_data entry per element of
/// its dims, none holding a NUL byte (a const char * cannot carry one).
bool readStrings(const ::onnx::TensorProto &t, std::vector<char> &packed,
                 std::vector<std::string> &strings, std::string &error) {
  std::optional<int64_t> count = 1;
  for (int64_t d : t.dims())
    count = d < 0 || !count ? std::nullopt : llvm::checkedMul(*count, d);
  if (!count || *count != t.string_data_size()) {
    error = "tensor '" + messageText(t.name()) + "' has " +
            std::to_string(t.string_data_size()) +
            " strings, not one per element of its dims";
    return false;
  }
  strings.assign(t.string_data().begin(), t.string_data().end());
  if (!packStrings(strings, packed)) {
    error = "tensor '" + messageText(t.name()) +
            "' has a string with a NUL byte, which a const char * port "
            "cannot carry";
    return false;
  }
  return true;
}

/// Splits a space-separated option value ("-O2 -march=native").
std::vector<std::string> words(StringRef text) {
  std::vector<std::string> out;
  for (StringRef w : llvm::split(text, ' '))
    if (!w.empty())
      out.push_back(w.str());
  return out;
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}
} // namespace

namespace {
/// One `onnxcc verify` run: the model, its data sets grouped by the symbolic
/// dims each pins, and the tools to build and run the generated code.
class Verifier {
public:
  explicit Verifier(const VerifyRequest &req) : req(req), diags(ctx) {
    initContext(ctx);
  }
  int run();
  /// Whether run() failed because outputs disagreed (not on an error).
  bool disagreed = false;

private:
  LogicalResult groupDataSets();
  LogicalResult findTools();
  /// Compiles for one binding of the symbolic dims and builds the harness;
  /// returns the program's path.
  FailureOr<std::string> build(const std::map<std::string, int64_t> &dims,
                               const std::string &dir);
  /// Runs one data set; returns whether every output matched.
  FailureOr<bool> runDataSet(const DataSet &set, const std::string &dir,
                             const std::string &exe);
  bool compareOutput(const DataSet &set, size_t o, StringRef gotPath);
  /// Removes a temporary work directory and prints the verdict; returns
  /// the exit code.
  int finish(bool allOk);
  /// Shape buckets: compiles once, then runs predict(rows, ...) at each
  /// call size on the data sets' rows, repeated to that count.
  int runBuckets();
  LogicalResult collectRows();
  FailureOr<bool> runCall(int64_t rows, const std::string &dir,
                          const std::string &exe);

  /// Every data set's rows, per port, concatenated (shape buckets).
  struct PortRows {
    std::string name;
    Type element;
    size_t rowBytes = 0;
    std::vector<char> bytes;
  };
  std::vector<PortRows> inputRows, outputRows;
  size_t totalRows = 0;

  const VerifyRequest &req;
  MLIRContext ctx;
  OneLineDiagnostics diags;
  std::string modelPath;
  std::unique_ptr<LoadedModel> model;
  std::vector<DataSet> sets;
  size_t numInputs = 0;
  std::map<std::map<std::string, int64_t>, std::vector<size_t>> groups;
  std::string workDir, cxx, cxxPath, wrapperPath;
  std::vector<std::string> wrapper;
};
} // namespace

LogicalResult Verifier::groupDataSets() {
  // Pin free symbolic dims from each data set's input shapes.
  auto symbolic = listSymbolicDims(model->proto);
  numInputs = graphInputs(model->proto.graph()).size();
  for (size_t s = 0; s < sets.size(); ++s) {
    if (sets[s].inputs.size() != numInputs || sets[s].outputs.empty()) {
      failWith(sets[s].dir, "has " + std::to_string(sets[s].inputs.size()) +
                            " inputs and " + std::to_string(sets[s].outputs.size()) +
                            " outputs; the model takes " +
                            std::to_string(numInputs) + " inputs");
      return failure();
    }
    std::map<std::string, int64_t> dims = req.dims;
    for (const SymbolicDim &d : symbolic) {
      if (req.dims.count(d.name))
        continue;
      const auto &t = sets[s].inputs[d.inputIndex];
      if (d.index >= t.dims_size()) {
        failWith(sets[s].dir, "input '" + d.input + "' has rank " +
                              std::to_string(t.dims_size()));
        return failure();
      }
      dims[d.name] = t.dims(d.index);
    }
    groups[dims].push_back(s);
  }
  return success();
}

LogicalResult Verifier::findTools() {
  workDir = req.workDir;
  if (workDir.empty()) {
    SmallString<128> tmp;
    if (llvm::sys::fs::createUniqueDirectory("onnxcc-verify", tmp))
      return failWith(req.modelDir, "cannot create a temporary directory"), failure();
    workDir = std::string(tmp);
  }
  cxx = req.cxx;
  if (cxx.empty())
    cxx = getenv("CXX") ? getenv("CXX") : "c++";
  auto found = llvm::sys::findProgramByName(cxx);
  if (!found)
    return failWith(req.modelDir, "C++ compiler '" + cxx + "' not found"), failure();
  cxxPath = *found;
  // The built program runs directly or through the wrapper (an emulator).
  wrapper = words(req.execWrapper);
  if (!wrapper.empty()) {
    auto w = llvm::sys::findProgramByName(wrapper[0]);
    if (!w)
      return failWith(req.modelDir, "--exec-wrapper program '" + wrapper[0] +
                                    "' not found"),
             failure();
    wrapperPath = *w;
  }
  return success();
}

FailureOr<std::string> Verifier::build(const std::map<std::string, int64_t> &dims,
                                       const std::string &dir) {
  std::string binding;
  for (auto &[k, v] : dims)
    binding += (binding.empty() ? "" : ",") + k + "=" + std::to_string(v);
  if (!req.bucketSizes.empty()) {
    binding += (binding.empty() ? "" : ",") + req.bucketDim + "=";
    for (size_t i = 0; i < req.bucketSizes.size(); ++i)
      binding += (i ? "," : "") + std::to_string(req.bucketSizes[i]);
  }
  CompileRequest creq;
  creq.dims = dims;
  creq.name = "model";
  creq.outDir = dir;
  creq.commandLine = req.commandLine;
  creq.fuse = req.fuse;
  creq.treeStrategy = req.treeStrategy;
  creq.treeNestedMaxNodes = req.treeNestedMaxNodes;
  creq.embedWeights = req.embedWeights;
  creq.threads = req.threads;
  creq.minWinogradChannels = req.minWinogradChannels;
  creq.budget = req.budget;
  creq.bucketDim = req.bucketDim;
  creq.bucketSizes = req.bucketSizes;
  auto t0 = std::chrono::steady_clock::now();
  if (failed(compileModel(ctx, *model, creq)))
    return failure();
  double compileSeconds = seconds(t0);
  std::string harness = joinPath(dir, "harness.cpp");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(harness, ec);
    int numOutputs = model->proto.graph().output_size();
    os << (req.bucketSizes.empty()
               ? harnessSource("model", numInputs, numOutputs)
               : bucketHarnessSource("model", numInputs, numOutputs));
  }
  t0 = std::chrono::steady_clock::now();
  std::string exe = joinPath(dir, "harness"), error;
  std::vector<std::string> cmd{cxx, "-std=c++17"};
  llvm::append_range(cmd, words(req.cxxFlags));
  if (req.threads > 1)
    cmd.push_back("-pthread");
  cmd.insert(cmd.end(), {"-I" + dir, "-I" + req.runtimeDir, harness,
                         joinPath(dir, "model.cpp"),
                         joinPath(dir, req.embedWeights == "array"
                                           ? "model_weights.cpp"
                                           : "model_weights.S")});
  for (int64_t size : req.bucketSizes)
    cmd.push_back(joinPath(dir, "model_b" + Twine(size) + ".cpp"));
  cmd.insert(cmd.end(), {"-o", exe});
  if (int rc = onnxcc::run(cxxPath, cmd, error)) {
    failWith(dir, "building the generated code failed (" + cxx + " exit " +
                  std::to_string(rc) + ")" + (error.empty() ? "" : ": " + error));
    return failure();
  }
  llvm::outs() << "compiled " << messageText(modelPath, 1024)
               << (binding.empty() ? "" : " [" + messageText(binding, 1024) + "]")
               << ": onnxcc " << llvm::format("%.2f", compileSeconds) << " s, "
               << cxx << " " << llvm::format("%.2f", seconds(t0)) << " s\n";
  return exe;
}

bool Verifier::compareOutput(const DataSet &set, size_t o, StringRef gotPath) {
  std::string err;
  std::string where = joinPath(set.dir, "output_" + Twine(o) + ".pb");
  bool strings = set.outputs[o].data_type() == ::onnx::TensorProto::STRING;
  std::vector<std::string> refStrings;
  std::vector<char> ref;
  RankedTensorType type;
  if (strings) {
    if (!readStrings(set.outputs[o], ref, refStrings, err))
      return failWith(where, err), false;
  } else {
    type = tensorTypeOf(&ctx, set.outputs[o], err);
    ExternalData external{set.dir, {}};
    if (!type || !readTensorBytes(set.outputs[o], external, type, ref, err))
      return failWith(where, err), false;
  }
  auto got = llvm::MemoryBuffer::getFile(gotPath);
  if (!got || (!strings && (*got)->getBufferSize() != ref.size()))
    return failWith(set.dir, "output " + std::to_string(o) + " has " +
                             std::to_string(got ? (*got)->getBufferSize() : 0) +
                             " bytes, reference has " + std::to_string(ref.size())),
           false;
  ArrayRef<char> gotBytes((*got)->getBufferStart(), (*got)->getBufferSize());
  Comparison c = strings ? compareStrings(gotBytes, refStrings)
                         : compareTensors(type.getElementType(), gotBytes, ref,
                                          req.atol, req.rtol);
  bool ok = c.mismatches == 0;
  std::string line;
  llvm::raw_string_ostream os(line);
  os << llvm::sys::path::filename(set.dir) << " output " << o << " '"
     << messageText(set.outputs[o].name()) << "' (" << c.count
     << " values): max abs err " << llvm::format("%.3g", c.maxAbs)
     << ", max rel err " << llvm::format("%.3g", c.maxRel)
     << (ok ? "  ok" : "  MISMATCH");
  if (!ok)
    os << " (" << c.mismatches << " values out of tolerance; worst at index "
       << c.worst << ": got " << c.gotWorst << ", expected " << c.wantWorst
       << ")";
  if (!req.mismatches)
    llvm::outs() << line << "\n";
  else if (!ok)
    req.mismatches->push_back({o, line});
  return ok;
}

FailureOr<bool> Verifier::runDataSet(const DataSet &set, const std::string &dir,
                                     const std::string &exe) {
  std::vector<std::string> args = wrapper;
  size_t firstOutput = args.size() + 1 + set.inputs.size();
  args.push_back(exe);
  for (size_t i = 0; i < set.inputs.size(); ++i) {
    std::string err;
    std::vector<char> bytes;
    std::vector<std::string> strings;
    std::string where = joinPath(set.dir, "input_" + Twine(i) + ".pb");
    if (set.inputs[i].data_type() == ::onnx::TensorProto::STRING) {
      if (!readStrings(set.inputs[i], bytes, strings, err))
        return failWith(where, err), failure();
    } else {
      auto type = tensorTypeOf(&ctx, set.inputs[i], err);
      ExternalData external{set.dir, {}};
      if (!type || !readTensorBytes(set.inputs[i], external, type, bytes, err))
        return failWith(where, err), failure();
    }
    std::string path = joinPath(dir, "in" + Twine(i) + ".bin");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os.write(bytes.data(), bytes.size());
    args.push_back(path);
  }
  for (size_t o = 0; o < set.outputs.size(); ++o)
    args.push_back(joinPath(dir, "out" + Twine(o) + ".bin"));
  std::string error;
  if (int rc = onnxcc::run(wrapper.empty() ? exe : wrapperPath, args, error))
    return failWith(set.dir, "the generated program failed (exit " +
                             std::to_string(rc) + ")" +
                             (rc == 3   ? ": input size does not match the model"
                              : rc == 5 ? ": a second predict() on the same workspace "
                                          "gave different outputs"
                                        : "")),
           failure();
  bool ok = true;
  for (size_t o = 0; o < set.outputs.size(); ++o)
    ok &= compareOutput(set, o, args[firstOutput + o]);
  return ok;
}

int Verifier::run() {
  modelPath = joinPath(req.modelDir, "model.onnx");
  model = loadModel(ctx, modelPath);
  if (!model)
    return 1;
  // Positions of the bound inputs among the data sets' input_K files.
  std::vector<size_t> bound;
  auto inputs = graphInputs(model->proto.graph());
  for (size_t k = 0; k < inputs.size(); ++k)
    if (req.constInputs.count(inputs[k]->name()))
      bound.push_back(k);
  if (failed(bindConstInputs(ctx, *model, req.constInputs)))
    return 1;
  std::string error;
  if (!readDataSets(req.modelDir, sets, error))
    return failWith(req.modelDir, error);
  for (DataSet &set : sets)
    for (size_t k : llvm::reverse(bound))
      if (k < set.inputs.size())
        set.inputs.erase(set.inputs.begin() + k);
  if (!req.bucketSizes.empty())
    return findTools().succeeded() ? runBuckets() : 1;
  if (failed(groupDataSets()) || failed(findTools()))
    return 1;
  bool allOk = true;
  int groupIndex = 0;
  for (auto &[dims, members] : groups) {
    std::string dir = joinPath(workDir, "shape" + Twine(groupIndex++));
    FailureOr<std::string> exe = build(dims, dir);
    if (failed(exe))
      return 1;
    for (size_t s : members) {
      FailureOr<bool> ok = runDataSet(sets[s], dir, *exe);
      if (failed(ok))
        return 1;
      allOk &= *ok;
    }
  }
  return finish(allOk);
}

LogicalResult Verifier::collectRows() {
  auto collect = [&](std::vector<::onnx::TensorProto> DataSet::*tensors,
                     std::vector<PortRows> &ports, bool isInput) -> LogicalResult {
    for (const DataSet &set : sets) {
      const auto &ts = set.*tensors;
      if (ports.empty())
        ports.resize(ts.size());
      if (ts.size() != ports.size())
        return failWith(set.dir, "has a different number of tensors than the "
                                 "first data set"),
               failure();
      size_t setRows = 0;
      for (size_t k = 0; k < ts.size(); ++k) {
        std::string err, where = joinPath(set.dir, (isInput ? "input_" : "output_") +
                                                       Twine(k) + ".pb");
        std::vector<char> bytes;
        auto type = tensorTypeOf(&ctx, ts[k], err);
        ExternalData external{set.dir, {}};
        if (!type || !readTensorBytes(ts[k], external, type, bytes, err))
          return failWith(where, err), failure();
        if (type.getRank() == 0 || type.getDimSize(0) <= 0)
          return failWith(where, "has no leading dimension to take rows from"),
                 failure();
        size_t rows = type.getDimSize(0), rowBytes = bytes.size() / rows;
        PortRows &p = ports[k];
        if (p.bytes.empty()) {
          p = {ts[k].name(), type.getElementType(), rowBytes, {}};
        } else if (p.rowBytes != rowBytes || p.element != type.getElementType()) {
          return failWith(where, "rows differ from the first data set's"), failure();
        }
        if (k && rows != setRows)
          return failWith(where, "has " + std::to_string(rows) + " rows, the "
                                 "data set's other tensors " +
                                 std::to_string(setRows)),
                 failure();
        setRows = rows;
        llvm::append_range(p.bytes, bytes);
      }
      if (isInput)
        totalRows += setRows;
    }
    return success();
  };
  if (failed(collect(&DataSet::inputs, inputRows, true)) ||
      failed(collect(&DataSet::outputs, outputRows, false)))
    return failure();
  return success();
}

FailureOr<bool> Verifier::runCall(int64_t rows, const std::string &dir,
                                  const std::string &exe) {
  // Row r of a call is row r % totalRows of the data sets, in order.
  auto tile = [&](const PortRows &p) {
    std::vector<char> out;
    for (int64_t r = 0; r < rows; ++r) {
      const char *row = p.bytes.data() + (r % totalRows) * p.rowBytes;
      out.insert(out.end(), row, row + p.rowBytes);
    }
    return out;
  };
  std::vector<std::string> args = wrapper;
  args.push_back(exe);
  args.push_back(std::to_string(rows));
  for (size_t i = 0; i < inputRows.size(); ++i) {
    std::string path = joinPath(dir, "in" + Twine(i) + ".bin");
    std::vector<char> bytes = tile(inputRows[i]);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os.write(bytes.data(), bytes.size());
    args.push_back(path);
  }
  size_t firstOutput = args.size();
  for (size_t o = 0; o < outputRows.size(); ++o)
    args.push_back(joinPath(dir, "out" + Twine(o) + ".bin"));
  std::string error;
  if (int rc = onnxcc::run(wrapper.empty() ? exe : wrapperPath, args, error))
    return failWith(dir, "the generated program failed at " +
                             std::to_string(rows) + " rows (exit " +
                             std::to_string(rc) + ")"),
           failure();
  bool ok = true;
  for (size_t o = 0; o < outputRows.size(); ++o) {
    std::vector<char> ref = tile(outputRows[o]);
    auto got = llvm::MemoryBuffer::getFile(args[firstOutput + o]);
    if (!got || (*got)->getBufferSize() != ref.size())
      return failWith(dir, "output " + std::to_string(o) + " at " +
                               std::to_string(rows) + " rows has the wrong size"),
             failure();
    ArrayRef<char> gotBytes((*got)->getBufferStart(), (*got)->getBufferSize());
    Comparison c = compareTensors(outputRows[o].element, gotBytes, ref, req.atol,
                                  req.rtol);
    bool match = c.mismatches == 0;
    llvm::outs() << "rows=" << rows << " output " << o << " '"
                 << messageText(outputRows[o].name) << "' (" << c.count
                 << " values): max abs err " << llvm::format("%.3g", c.maxAbs)
                 << ", max rel err " << llvm::format("%.3g", c.maxRel)
                 << (match ? "  ok" : "  MISMATCH") << "\n";
    ok &= match;
  }
  return ok;
}

int Verifier::runBuckets() {
  numInputs = graphInputs(model->proto.graph()).size();
  std::map<std::string, int64_t> dims = req.dims;
  for (const SymbolicDim &d : listSymbolicDims(model->proto)) {
    if (d.name == req.bucketDim || dims.count(d.name))
      continue;
    const auto &t = sets[0].inputs[d.inputIndex];
    if (d.index >= t.dims_size())
      return failWith(sets[0].dir, "input '" + d.input + "' has rank " +
                                       std::to_string(t.dims_size()));
    dims[d.name] = t.dims(d.index);
  }
  if (failed(collectRows()))
    return 1;
  // Each bucket exactly, a call padded up to it, and chunks of the largest.
  std::vector<int64_t> calls = req.calls;
  if (calls.empty()) {
    int64_t previous = 0;
    for (int64_t size : req.bucketSizes) {
      if (previous + 1 < size)
        calls.push_back(previous + 1);
      calls.push_back(size);
      previous = size;
    }
    calls.push_back(previous + 1);
    calls.push_back(2 * previous + 1);
  }
  std::string dir = joinPath(workDir, "buckets");
  FailureOr<std::string> exe = build(dims, dir);
  if (failed(exe))
    return 1;
  bool allOk = true;
  for (int64_t rows : calls) {
    FailureOr<bool> ok = runCall(rows, dir, *exe);
    if (failed(ok))
      return 1;
    allOk &= *ok;
  }
  return finish(allOk);
}

int Verifier::finish(bool allOk) {
  if (req.workDir.empty())
    llvm::sys::fs::remove_directories(workDir);
  llvm::outs() << (allOk ? "PASS " : "FAIL ") << messageText(req.modelDir, 1024) << "\n";
  disagreed = !allOk;
  return allOk ? 0 : 1;
}

int runVerify(const VerifyRequest &req) {
  Verifier verifier(req);
  int rc = verifier.run();
  if (rc == 0 || !req.bisect || !verifier.disagreed)
    return rc;
  return runBisect(req);
}

} // namespace onnxcc
