//===- Verify.cpp - `onnxcc verify`: compile, build, run, compare ---------===//
//
// For a model directory in the ONNX backend-test layout: pin symbolic dims
// from each data set's inputs, compile once per distinct binding, build the
// generated code with a small harness using the system C++ compiler, run
// every data set and compare each output with |got - ref| <= atol + rtol|ref|.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify.h"

#include "compiler/Compile.h"
#include "compiler/Diagnostics.h"
#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/InertText.h"
#include "llvm/ADT/StringExtras.h"
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

int fail(const std::string &where, const std::string &msg) {
  printErrorLine(where, msg);
  return 1;
}

/// `dir`/`file` without a doubled separator when `dir` ends in one.
std::string joinPath(StringRef dir, const Twine &file) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  return std::string(path);
}

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

std::string harnessSource(const std::string &name, int numInputs,
                          int numOutputs) {
  std::string s = "// onnxcc verify harness: raw inputs in, raw outputs out.\n"
                  "#include \"" + name + ".h\"\n#include <cstdio>\n\n"
                  "static bool io(const char *path, void *p, std::size_t n, bool rd) {\n"
                  "  std::FILE *f = std::fopen(path, rd ? \"rb\" : \"wb\");\n"
                  "  if (!f) return false;\n"
                  "  std::size_t got = rd ? std::fread(p, 1, n, f) : std::fwrite(p, 1, n, f);\n"
                  "  std::fclose(f);\n  return got == n;\n}\n\n";
  for (int i = 0; i < numInputs; ++i)
    s += "static " + name + "::Input" + std::to_string(i) + " in" + std::to_string(i) + ";\n";
  for (int i = 0; i < numOutputs; ++i)
    s += "static " + name + "::Output" + std::to_string(i) + " out" + std::to_string(i) + ";\n";
  s += "static " + name + "::Workspace workspace;\n\nint main(int argc, char **argv) {\n"
       "  if (argc != " + std::to_string(1 + numInputs + numOutputs) + ") return 2;\n";
  for (int i = 0; i < numInputs; ++i)
    s += "  if (!io(argv[" + std::to_string(1 + i) + "], &in" + std::to_string(i) +
         ", sizeof in" + std::to_string(i) + ", true)) return 3;\n";
  s += "  " + name + "::predict(";
  for (int i = 0; i < numInputs; ++i)
    s += "in" + std::to_string(i) + ", ";
  for (int i = 0; i < numOutputs; ++i)
    s += "out" + std::to_string(i) + ", ";
  s += "workspace);\n";
  for (int i = 0; i < numOutputs; ++i)
    s += "  if (!io(argv[" + std::to_string(1 + numInputs + i) + "], &out" +
         std::to_string(i) + ", sizeof out" + std::to_string(i) + ", false)) return 4;\n";
  return s + "  return 0;\n}\n";
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

int runVerify(const VerifyRequest &req) {
  std::string modelPath = joinPath(req.modelDir, "model.onnx");
  MLIRContext ctx;
  initContext(ctx);
  OneLineDiagnostics diags(ctx);
  auto model = loadModel(ctx, modelPath);
  if (!model)
    return 1;
  std::vector<DataSet> sets;
  std::string error;
  if (!readDataSets(req.modelDir, sets, error))
    return fail(req.modelDir, error);

  // Pin free symbolic dims from each data set's input shapes.
  auto symbolic = listSymbolicDims(model->proto);
  size_t numInputs = graphInputs(model->proto.graph()).size();
  std::map<std::map<std::string, int64_t>, std::vector<size_t>> groups;
  for (size_t s = 0; s < sets.size(); ++s) {
    if (sets[s].inputs.size() != numInputs || sets[s].outputs.empty())
      return fail(sets[s].dir, "has " + std::to_string(sets[s].inputs.size()) +
                                   " inputs and " + std::to_string(sets[s].outputs.size()) +
                                   " outputs; the model takes " +
                                   std::to_string(numInputs) + " inputs");
    std::map<std::string, int64_t> dims = req.dims;
    for (const SymbolicDim &d : symbolic) {
      if (req.dims.count(d.name))
        continue;
      const auto &t = sets[s].inputs[d.inputIndex];
      if (d.index >= t.dims_size())
        return fail(sets[s].dir, "input '" + d.input + "' has rank " +
                                     std::to_string(t.dims_size()));
      dims[d.name] = t.dims(d.index);
    }
    groups[dims].push_back(s);
  }

  std::string workDir = req.workDir;
  if (workDir.empty()) {
    SmallString<128> tmp;
    if (llvm::sys::fs::createUniqueDirectory("onnxcc-verify", tmp))
      return fail(req.modelDir, "cannot create a temporary directory");
    workDir = std::string(tmp);
  }
  std::string cxx = req.cxx;
  if (cxx.empty())
    cxx = getenv("CXX") ? getenv("CXX") : "c++";
  auto cxxPath = llvm::sys::findProgramByName(cxx);
  if (!cxxPath)
    return fail(req.modelDir, "C++ compiler '" + cxx + "' not found");
  // The built program runs directly or through the wrapper (an emulator).
  std::vector<std::string> wrapper = words(req.execWrapper);
  std::string wrapperPath;
  if (!wrapper.empty()) {
    auto found = llvm::sys::findProgramByName(wrapper[0]);
    if (!found)
      return fail(req.modelDir, "--exec-wrapper program '" + wrapper[0] +
                                    "' not found");
    wrapperPath = *found;
  }

  bool allOk = true;
  int groupIndex = 0;
  for (auto &[dims, members] : groups) {
    std::string dir = joinPath(workDir, "shape" + Twine(groupIndex++));
    std::string binding;
    for (auto &[k, v] : dims)
      binding += (binding.empty() ? "" : ",") + k + "=" + std::to_string(v);
    CompileRequest creq;
    creq.dims = dims;
    creq.name = "model";
    creq.outDir = dir;
    creq.commandLine = req.commandLine;
    creq.fuse = req.fuse;
    auto t0 = std::chrono::steady_clock::now();
    if (failed(compileModel(ctx, *model, creq)))
      return 1;
    double compileSeconds = seconds(t0);
    std::string harness = dir + "/harness.cpp";
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(harness, ec);
      os << harnessSource("model", numInputs,
                          model->proto.graph().output_size());
    }
    t0 = std::chrono::steady_clock::now();
    std::string exe = dir + "/harness";
    std::vector<std::string> cmd{cxx, "-std=c++17"};
    llvm::append_range(cmd, words(req.cxxFlags));
    cmd.insert(cmd.end(), {"-I" + dir, "-I" + req.runtimeDir, harness,
                           dir + "/model.cpp", dir + "/model_weights.S", "-o", exe});
    int rc = run(*cxxPath, cmd, error);
    if (rc != 0)
      return fail(dir, "building the generated code failed (" + cxx + " exit " +
                           std::to_string(rc) + ")" + (error.empty() ? "" : ": " + error));
    llvm::outs() << "compiled " << modelPath << (binding.empty() ? "" : " [" + binding + "]")
                 << ": onnxcc " << llvm::format("%.2f", compileSeconds) << " s, "
                 << cxx << " " << llvm::format("%.2f", seconds(t0)) << " s\n";

    for (size_t s : members) {
      const DataSet &set = sets[s];
      std::vector<std::string> args = wrapper;
      size_t firstArg = args.size() + 1;
      args.push_back(exe);
      for (size_t i = 0; i < set.inputs.size(); ++i) {
        std::string err;
        auto type = tensorTypeOf(&ctx, set.inputs[i], err);
        std::vector<char> bytes;
        ExternalData external{set.dir, {}};
        if (!type || !readTensorBytes(set.inputs[i], external, type, bytes, err))
          return fail(joinPath(set.dir, "input_" + Twine(i) + ".pb"), err);
        std::string path = dir + "/in" + std::to_string(i) + ".bin";
        std::error_code ec;
        llvm::raw_fd_ostream os(path, ec);
        os.write(bytes.data(), bytes.size());
        args.push_back(path);
      }
      for (size_t o = 0; o < set.outputs.size(); ++o)
        args.push_back(dir + "/out" + std::to_string(o) + ".bin");
      if (int rc = run(wrapper.empty() ? exe : wrapperPath, args, error))
        return fail(set.dir, "the generated program failed (exit " +
                                 std::to_string(rc) + ")" +
                                 (rc == 3 ? ": input size does not match the model" : ""));
      for (size_t o = 0; o < set.outputs.size(); ++o) {
        std::string err;
        auto type = tensorTypeOf(&ctx, set.outputs[o], err);
        std::vector<char> ref;
        ExternalData external{set.dir, {}};
        if (!type || !type.getElementType().isF32() ||
            !readTensorBytes(set.outputs[o], external, type, ref, err))
          return fail(joinPath(set.dir, "output_" + Twine(o) + ".pb"),
                      err.empty() ? "only f32 outputs are compared" : err);
        auto got = llvm::MemoryBuffer::getFile(args[firstArg + set.inputs.size() + o]);
        if (!got || (*got)->getBufferSize() != ref.size())
          return fail(set.dir, "output " + std::to_string(o) + " has " +
                                   std::to_string(got ? (*got)->getBufferSize() : 0) +
                                   " bytes, reference has " + std::to_string(ref.size()));
        const float *g = reinterpret_cast<const float *>((*got)->getBufferStart());
        const float *r = reinterpret_cast<const float *>(ref.data());
        size_t n = ref.size() / 4, worst = 0, bad = 0;
        double maxAbs = 0, maxRel = 0;
        for (size_t i = 0; i < n; ++i) {
          double diff = std::fabs((double)g[i] - r[i]);
          if (std::isnan(g[i]) != std::isnan(r[i]))
            diff = INFINITY;
          double rel = diff / std::max(std::fabs((double)r[i]), 1e-30);
          if (diff > maxAbs) {
            maxAbs = diff;
            worst = i;
          }
          maxRel = std::max(maxRel, rel);
          if (!(diff <= req.atol + req.rtol * std::fabs((double)r[i])))
            ++bad;
        }
        bool ok = bad == 0;
        allOk &= ok;
        llvm::outs() << llvm::sys::path::filename(set.dir) << " output " << o
                     << " '" << messageText(set.outputs[o].name()) << "' (" << n
                     << " values): max abs err "
                     << llvm::format("%.3g", maxAbs) << ", max rel err "
                     << llvm::format("%.3g", maxRel) << (ok ? "  ok" : "  MISMATCH");
        if (!ok)
          llvm::outs() << " (" << bad << " values out of tolerance; worst at index "
                       << worst << ": got " << g[worst] << ", expected " << r[worst] << ")";
        llvm::outs() << "\n";
      }
    }
  }
  if (req.workDir.empty())
    llvm::sys::fs::remove_directories(workDir);
  llvm::outs() << (allOk ? "PASS " : "FAIL ") << req.modelDir << "\n";
  return allOk ? 0 : 1;
}

} // namespace onnxcc
