//===- Bisect.cpp - `onnxcc verify --bisect`: the first diverging node ----===//
//
// When a model's outputs disagree with its reference, the question is which
// node went wrong. The bisection makes every node output a graph output
// (in graph order), runs data set 0 through onnxruntime (in the Python the
// user names; it needs onnx and onnxruntime) for a reference of every
// intermediate tensor, and verifies the compiled model against it: the
// first mismatching output in graph order names the node.
//
//===----------------------------------------------------------------------===//
#include "compiler/Verify.h"

#include "compiler/Diagnostics.h"
#include "compiler/frontend/OnnxImporter.h"
#include "dialects/Onnx/InertText.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <fstream>

namespace onnxcc {
namespace {

/// Runs the augmented model in onnxruntime on test_data_set_0's inputs and
/// writes each graph output as test_data_set_0/output_K.pb.
constexpr const char *kReferenceScript = R"(import sys
import onnx
import onnxruntime as ort
from onnx import numpy_helper

model_dir = sys.argv[1]
m = onnx.load(model_dir + "/model.onnx")
sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
inits = {t.name for t in m.graph.initializer}
names = [i.name for i in m.graph.input if i.name not in inits]
feeds = {}
for k, name in enumerate(names):
    t = onnx.load_tensor("%s/test_data_set_0/input_%d.pb" % (model_dir, k))
    feeds[name] = numpy_helper.to_array(t)
for k, (o, v) in enumerate(zip(m.graph.output, sess.run(None, feeds))):
    onnx.save_tensor(numpy_helper.from_array(v, o.name),
                     "%s/test_data_set_0/output_%d.pb" % (model_dir, k))
)";


/// The producer of each exposed output: node name and op type.
struct Exposed {
  std::string value, node, op;
};

/// Rewrites the graph's outputs to every node output, in graph order, then
/// any original output no node produces (an input passed through).
std::vector<Exposed> exposeIntermediates(::onnx::GraphProto &g) {
  std::vector<Exposed> exposed;
  llvm::StringSet<> seen;
  for (const auto &node : g.node())
    for (const auto &out : node.output())
      if (!out.empty() && seen.insert(out).second)
        exposed.push_back({out, node.name(), node.op_type()});
  for (const auto &out : g.output())
    if (seen.insert(out.name()).second)
      exposed.push_back({out.name(), "", "graph input"});
  g.clear_output();
  for (const Exposed &e : exposed)
    g.add_output()->set_name(e.value);
  return exposed;
}

/// The first test_data_set_* directory by name.
std::string firstDataSet(const std::string &modelDir) {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(modelDir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("test_data_set_"))
      dirs.push_back(it->path());
  std::sort(dirs.begin(), dirs.end());
  return dirs.empty() ? "" : dirs.front();
}

bool usesExternalData(const ::onnx::GraphProto &g) {
  for (const auto &t : g.initializer())
    if (t.data_location() == ::onnx::TensorProto::EXTERNAL)
      return true;
  return false;
}

} // namespace

int runBisect(const VerifyRequest &req) {
  llvm::outs() << "bisect: comparing every intermediate tensor of data set 0 "
                  "with onnxruntime\n";
  mlir::MLIRContext ctx;
  OneLineDiagnostics diags(ctx);
  auto model = loadModel(ctx, joinPath(req.modelDir, "model.onnx"));
  if (!model)
    return 1;
  if (usesExternalData(model->proto.graph()))
    return failWith(req.modelDir, "--bisect does not support models with external "
                              "data yet");
  std::string set0 = firstDataSet(req.modelDir);
  if (set0.empty())
    return failWith(req.modelDir, "no test_data_set_* directory");

  llvm::SmallString<128> work;
  if (llvm::sys::fs::createUniqueDirectory("onnxcc-bisect", work))
    return failWith(req.modelDir, "cannot create a temporary directory");
  std::string dir = joinPath(work, "model"), setDir = joinPath(dir, "test_data_set_0");
  llvm::sys::fs::create_directories(setDir);
  ::onnx::ModelProto augmented = model->proto;
  std::vector<Exposed> exposed = exposeIntermediates(*augmented.mutable_graph());
  {
    std::ofstream os(joinPath(dir, "model.onnx"), std::ios::binary);
    if (!augmented.SerializeToOstream(&os))
      return failWith(dir, "cannot write the augmented model");
  }
  for (int k = 0;; ++k) {
    std::string from = joinPath(set0, "input_" + llvm::Twine(k) + ".pb");
    if (!llvm::sys::fs::exists(from))
      break;
    if (llvm::sys::fs::copy_file(from, joinPath(setDir, "input_" + llvm::Twine(k) + ".pb")))
      return failWith(from, "cannot copy into " + setDir);
  }

  // The reference of every intermediate, from onnxruntime.
  std::string script = joinPath(work, "reference.py");
  {
    std::ofstream os(script);
    os << kReferenceScript;
  }
  auto python = llvm::sys::findProgramByName(req.python);
  if (!python)
    return failWith(req.modelDir, "--python '" + req.python + "' not found");
  std::string error;
  llvm::StringRef argv[] = {*python, script, dir};
  if (int rc = llvm::sys::ExecuteAndWait(*python, argv, std::nullopt, {}, 0, 0,
                                         &error))
    return failWith(req.modelDir, "onnxruntime could not run the model (" +
                                  req.python + " exit " + std::to_string(rc) +
                                  "; it needs the onnx and onnxruntime packages)" +
                                  (error.empty() ? "" : ": " + error));

  std::vector<std::pair<size_t, std::string>> mismatches;
  VerifyRequest sub = req;
  sub.modelDir = dir;
  sub.workDir = joinPath(work, "build");
  sub.bisect = false;
  // Exposing every tensor changes the plan: the budget was checked already.
  sub.budget = {};
  sub.mismatches = &mismatches;
  int rc = runVerify(sub);
  if (rc != 0 && mismatches.empty())
    return failWith(req.modelDir, "the bisection could not verify the model with "
                              "its intermediate tensors exposed");
  llvm::sys::fs::remove_directories(work);
  if (mismatches.empty()) {
    llvm::outs() << "bisect: all " << exposed.size()
                 << " intermediate tensors match onnxruntime\n";
    return 0;
  }
  const Exposed &first = exposed[mismatches.front().first];
  llvm::outs() << "bisect: " << mismatches.size() << " of " << exposed.size()
               << " intermediate tensors differ; the first in graph order is "
               << "output '" << messageText(first.value) << "' of node '"
               << messageText(first.node) << "' (" << messageText(first.op)
               << ")\n  " << mismatches.front().second << "\n";
  return 1;
}

} // namespace onnxcc
