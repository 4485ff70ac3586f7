//===- OnnxImporter.cpp - ONNX model to the onnx dialect ------------------===//
//
// Reads an untrusted ModelProto into `func.func @main`. The graph is
// checked before anything is built: opsets, every node's op type (all
// unsupported ones are reported together), inputs defined exactly once,
// no cycles, and every symbolic input dimension bound by --dim.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OnnxImporter.h"

#include "compiler/frontend/FunctionInliner.h"
#include "compiler/frontend/GraphImporter.h"
#include "compiler/frontend/OpImporters.h"
#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/NodeLocation.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <deque>
#include <functional>

using namespace mlir;

namespace onnxcc {

std::unique_ptr<LoadedModel> loadModel(MLIRContext &ctx,
                                       const std::string &path) {
  Location loc = modelLocation(&ctx, path);
  // A FIFO or device would block or never end: only regular files.
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status)) {
    emitError(loc) << "cannot read model file: " << ec.message();
    return nullptr;
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    emitError(loc) << "cannot read model file: not a regular file";
    return nullptr;
  }
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf) {
    emitError(loc) << "cannot read model file: " << buf.getError().message();
    return nullptr;
  }
  return parseModel(ctx, (*buf)->getBuffer(), path);
}

std::unique_ptr<LoadedModel> parseModel(MLIRContext &ctx, StringRef bytes,
                                        const std::string &path) {
  Location loc = modelLocation(&ctx, path);
  auto model = std::make_unique<LoadedModel>();
  model->path = path;
  model->external.modelDir = std::string(llvm::sys::path::parent_path(path));
  // protobuf refuses messages of 2 GiB or more; larger weights belong in
  // external data.
  if (bytes.size() >= (size_t(2) << 30) ||
      !model->proto.ParseFromArray(bytes.data(), (int)bytes.size())) {
    emitError(loc) << "not a valid ONNX model (protobuf parse failed: "
                      "truncated or corrupt file of "
                   << bytes.size() << " bytes)";
    return nullptr;
  }
  if (!model->proto.has_graph()) {
    emitError(loc) << "the model has no graph";
    return nullptr;
  }
  return model;
}

std::vector<const ::onnx::ValueInfoProto *>
graphInputs(const ::onnx::GraphProto &g) {
  llvm::StringSet<> inits;
  for (const auto &t : g.initializer())
    inits.insert(t.name());
  std::vector<const ::onnx::ValueInfoProto *> out;
  for (const auto &in : g.input())
    if (!inits.contains(in.name()))
      out.push_back(&in);
  return out;
}

std::string unnamedDimName(StringRef input, int axis) {
  return (input + ":" + Twine(axis)).str();
}

/// The name a dimension is pinned by: its dim_param, or "input:axis" for a
/// dynamic dimension without one (skl2onnx leaves dim_param empty).
static std::string dimName(const ::onnx::TensorShapeProto::Dimension &d,
                           StringRef input, int axis) {
  if (d.has_dim_param() && !d.dim_param().empty())
    return d.dim_param();
  return unnamedDimName(input, axis);
}

std::vector<SymbolicDim> listSymbolicDims(const ::onnx::ModelProto &model) {
  std::vector<SymbolicDim> out;
  auto inputs = graphInputs(model.graph());
  for (size_t k = 0; k < inputs.size(); ++k) {
    const auto &shape = inputs[k]->type().tensor_type().shape();
    for (int i = 0; i < shape.dim_size(); ++i)
      if (!shape.dim(i).has_dim_value())
        out.push_back({dimName(shape.dim(i), inputs[k]->name(), i),
                       inputs[k]->name(), (int)k, i});
  }
  return out;
}

/// The tensor type a graph output declares, with dim_params and unknown
/// dims dynamic (unranked without a shape); null when it declares no
/// usable element type (declaring one is optional).
static Type declaredType(MLIRContext *ctx, const ::onnx::ValueInfoProto &v) {
  if (!v.type().has_tensor_type())
    return {};
  const auto &tt = v.type().tensor_type();
  Type et = elementTypeFor(ctx, tt.elem_type());
  if (!et)
    return {};
  if (!tt.has_shape() || tt.shape().dim_size() > kMaxRank)
    return UnrankedTensorType::get(et);
  SmallVector<int64_t> dims;
  for (const auto &d : tt.shape().dim())
    dims.push_back(d.has_dim_value() && d.dim_value() >= 0 &&
                           d.dim_value() <= kMaxDim
                       ? d.dim_value()
                       : ShapedType::kDynamic);
  return RankedTensorType::get(dims, et);
}

LogicalResult Importer::readOpset() {
  for (const auto &op : model.proto.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx")
      opset = op.version();
    else if (op.domain() == "ai.onnx.ml")
      mlOpset = op.version();
  if (mlOpset < 0 || mlOpset > kMaxMlOpset)
    return emitError(modelLoc) << "ai.onnx.ml opset " << mlOpset
                               << " is outside the supported 1 to "
                               << kMaxMlOpset;
  // A model of ml ops only (onnxmltools' XGBoost) need not import ai.onnx;
  // checkOpTypes() then refuses any default-domain node.
  if (opset <= 0 && mlOpset > 0)
    return success();
  if (opset <= 0)
    return emitError(modelLoc) << "the model imports no ai.onnx opset";
  if (opset > kMaxOpset)
    return emitError(modelLoc) << "opset " << opset
                               << " is newer than the supported " << kMaxOpset;
  return success();
}

LogicalResult Importer::inlineModelFunctions() {
  std::string error;
  if (!inlineFunctions(model.proto, opset, nodes, error))
    return emitError(modelLoc) << error;
  for (const GraphNode &n : nodes) {
    // Other domains are reported by checkOpTypes().
    const std::string &domain = n.get().domain();
    if (!domain.empty() && domain != "ai.onnx")
      continue;
    if (n.opset <= 0 && opset <= 0)
      return emitError(locOf(n.get()))
             << "operator '" << n.get().op_type()
             << "' of the default domain, but the model imports no ai.onnx "
                "opset";
    if (n.opset <= 0 || n.opset > kMaxOpset)
      return emitError(locOf(n.get()))
             << "the node's function imports ai.onnx opset " << n.opset
             << ", outside the supported 1 to " << kMaxOpset;
  }
  return success();
}

std::string Importer::importerKey(const ::onnx::NodeProto &node) const {
  if (node.domain().empty() || node.domain() == "ai.onnx")
    return node.op_type();
  if (node.domain() == "ai.onnx.ml" && mlOpset > 0)
    return "ai.onnx.ml." + node.op_type();
  return "";
}

LogicalResult Importer::checkOpTypes() {
  bool ok = true;
  const auto &table = opImporters();
  // Subgraphs (If branches, Loop and Scan bodies) are checked too, nested
  // ones included: all unsupported operators are reported at once.
  std::function<void(const ::onnx::NodeProto &)> check =
      [&](const ::onnx::NodeProto &node) {
        bool standard = node.domain().empty() || node.domain() == "ai.onnx";
        if (standard && isControlFlowOp(node.op_type())) {
          for (const auto &a : node.attribute())
            for (const auto &n : a.g().node())
              check(n);
          return;
        }
        if (standard && opset <= 0) {
          emitError(locOf(node)) << "operator '" << node.op_type()
                                 << "' of the default domain, but the model "
                                    "imports no ai.onnx opset";
          ok = false;
          return;
        }
        std::string key = importerKey(node);
        if (key.empty() || !table.count(key)) {
          emitError(locOf(node))
              << "unsupported operator '"
              << (node.domain().empty() ? "" : node.domain() + ".")
              << node.op_type() << "'";
          ok = false;
        }
      };
  for (const GraphNode &graphNode : nodes)
    check(graphNode.get());
  return success(ok);
}

FailureOr<SmallVector<Type>> Importer::inputTypes() {
  SmallVector<Type> types;
  std::vector<std::string> unbound;
  llvm::StringSet<> names;
  bool ok = true;
  for (const auto *in : graphInputs(graph)) {
    Location loc = nodeLocation(&ctx, model.path, in->name());
    if (!names.insert(in->name()).second) {
      emitError(loc) << "graph input '" << in->name() << "' is listed twice";
      ok = false;
      continue;
    }
    if (!in->type().has_tensor_type()) {
      emitError(loc) << "graph input '" << in->name()
                     << "' is not a tensor (sequences and maps are unsupported)";
      ok = false;
      continue;
    }
    const auto &tt = in->type().tensor_type();
    Type et = elementTypeFor(&ctx, tt.elem_type());
    if (!et) {
      emitError(loc) << "graph input '" << in->name()
                     << "' has unsupported element type "
                     << onnxTypeName(tt.elem_type());
      ok = false;
      continue;
    }
    if (!tt.has_shape()) {
      emitError(loc) << "graph input '" << in->name()
                     << "' has no shape (onnxcc compiles ranked inputs)";
      ok = false;
      continue;
    }
    if (tt.shape().dim_size() > kMaxRank) {
      emitError(loc) << "graph input '" << in->name() << "' has rank "
                     << tt.shape().dim_size() << ", more than the limit of "
                     << kMaxRank;
      ok = false;
      continue;
    }
    SmallVector<int64_t> dims;
    bool dimsOk = true;
    for (int i = 0; i < tt.shape().dim_size(); ++i) {
      const auto &d = tt.shape().dim(i);
      std::string where = "input '" + in->name() + "' dim " + std::to_string(i);
      if (d.has_dim_value()) {
        if (d.dim_value() < 0 || d.dim_value() > kMaxDim) {
          emitError(loc) << "graph " << where << " has invalid size "
                         << d.dim_value();
          dimsOk = false;
        }
        dims.push_back(d.dim_value());
      } else if (auto it = options.dims.find(dimName(d, in->name(), i));
                 it != options.dims.end()) {
        dims.push_back(it->second);
      } else if (auto it = options.dims.find(unnamedDimName(in->name(), i));
                 it != options.dims.end()) {
        dims.push_back(it->second); // a named dim pinned by position
      } else {
        unbound.push_back(dimName(d, in->name(), i) + " (" + where + ")");
        dims.push_back(ShapedType::kDynamic);
      }
    }
    auto type = RankedTensorType::get(dims, et);
    if (!dimsOk ||
        failed(checkTensorSize(loc, type, "graph input '" + in->name() + "'")))
      ok = false;
    types.push_back(type);
  }
  if (!unbound.empty()) {
    auto diag = emitError(modelLoc) << "unbound symbolic dimensions: ";
    llvm::interleaveComma(unbound, diag);
    diag << "; pin each with --dim NAME=VALUE";
    return failure();
  }
  if (!ok)
    return failure();
  return types;
}

LogicalResult Importer::importInitializers(OpBuilder &b) {
  // Only initializers the graph reads are imported: an unused one is never
  // read, however large its data claims to be.
  llvm::StringSet<> read, seen;
  std::vector<std::string> captured;
  for (const GraphNode &node : nodes) {
    for (const auto &in : node.get().input())
      read.insert(in);
    subgraphReads(node.get(), captured);
  }
  for (const std::string &name : captured)
    read.insert(name);
  for (const auto &out : graph.output())
    read.insert(out.name());
  for (const auto &t : graph.initializer()) {
    Location loc = nodeLocation(&ctx, model.path, t.name());
    if (!seen.insert(t.name()).second || values.count(t.name()))
      return emitError(loc) << "initializer '" << t.name()
                            << "' is defined twice";
    if (!read.contains(t.name()))
      continue;
    std::string err;
    ElementsAttr value = importTensor(&ctx, t, model.external, err);
    if (!value)
      return emitError(loc) << err;
    values[t.name()] =
        onnx::ConstantOp::create(b, loc, value.getType(), value);
  }
  return success();
}

/// Kahn's algorithm over node outputs. ONNX requires sorted graphs, but
/// exporters do not always comply; a cycle is an error naming its nodes.
FailureOr<std::vector<int>> Importer::topologicalOrder() {
  llvm::StringMap<int> producer;
  for (int i = 0; i < (int)nodes.size(); ++i)
    for (const auto &out : nodes[i].get().output()) {
      if (out.empty())
        continue;
      if (values.count(out) || producer.count(out))
        return emitError(locOf(nodes[i].get()))
               << "value '" << out << "' is defined more than once";
      producer[out] = i;
    }
  std::vector<int> pending((int)nodes.size(), 0);
  std::vector<std::vector<int>> users((int)nodes.size());
  for (int i = 0; i < (int)nodes.size(); ++i) {
    for (const auto &in : nodes[i].get().input()) {
      if (in.empty() || values.count(in))
        continue;
      auto it = producer.find(in);
      if (it == producer.end())
        return emitError(locOf(nodes[i].get()))
               << "input '" << in << "' is not produced by any node, "
               << "initializer or graph input";
      ++pending[i];
      users[it->second].push_back(i);
    }
    // A subgraph may capture values of the outer graph: those nodes come
    // first. (Names it defines itself produce nothing out here.)
    std::vector<std::string> captured;
    subgraphReads(nodes[i].get(), captured);
    llvm::StringSet<> counted;
    for (const std::string &in : captured) {
      auto it = producer.find(in);
      if (it == producer.end() || it->second == i ||
          !counted.insert(in).second)
        continue;
      ++pending[i];
      users[it->second].push_back(i);
    }
  }
  std::deque<int> ready;
  for (int i = 0; i < (int)nodes.size(); ++i)
    if (!pending[i])
      ready.push_back(i);
  std::vector<int> order;
  while (!ready.empty()) {
    int i = ready.front();
    ready.pop_front();
    order.push_back(i);
    for (int u : users[i])
      if (--pending[u] == 0)
        ready.push_back(u);
  }
  if ((int)order.size() != (int)nodes.size()) {
    auto diag = emitError(modelLoc) << "the graph has a cycle through nodes: ";
    bool first = true;
    for (int i = 0; i < (int)nodes.size(); ++i)
      if (pending[i]) {
        diag << (first ? "" : ", ") << nodeName(nodes[i].get());
        first = false;
      }
    return failure();
  }
  return order;
}

LogicalResult Importer::importNode(OpBuilder &b, const GraphNode &graphNode) {
  const ::onnx::NodeProto &node = graphNode.get();
  std::string key = importerKey(node);
  bool ml = StringRef(key).starts_with("ai.onnx.ml.");
  NodeContext n{b,  locOf(node), node, {}, ml ? mlOpset : graphNode.opset,
                model.external, {}, {}, {}};
  for (const auto &in : node.input())
    n.operands.push_back(in.empty() ? Value() : resolve(values.lookup(in)));
  // String tensors (graph inputs, labels) flow only into the ops that read
  // them as strings; every other builder assumes numbers.
  if (key != "ai.onnx.ml.LabelEncoder")
    for (int i = 0; i < node.input_size(); ++i)
      if (n.operand(i) && isStringTensor(n.operand(i).getType()))
        return n.error("input " + Twine(i) + " ('" + node.input(i) +
                       "') has element type STRING, which " + node.op_type() +
                       " does not take");
  Block *block = b.getInsertionBlock();
  Operation *last = b.getInsertionPoint() == block->begin()
                        ? nullptr
                        : &*std::prev(b.getInsertionPoint());
  LogicalResult built = isControlFlowOp(node.op_type())
                            ? importControlFlow(b, n)
                            : opImporters().lookup(key)(n);
  if (failed(built) || failed(n.checkAttributes()))
    return failure();
  // Only the string-table ops make strings: a builder that asks for
  // another op of STRING type (Cast to STRING, EyeLike with dtype STRING)
  // would have it compute numbers into pointers.
  Block::iterator first = last ? std::next(last->getIterator()) : block->begin();
  for (Operation &op : llvm::make_range(first, b.getInsertionPoint())) {
    WalkResult walk = op.walk([&](Operation *inner) {
      if (isa<onnx::MlStringTableOp>(inner))
        return WalkResult::advance();
      for (Value r : inner->getResults())
        if (isStringTensor(r.getType()))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return n.error("element type STRING is supported only for class labels "
                     "and LabelEncoder values, not for " + node.op_type());
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    if (i >= (int)n.results.size())
      return n.error("output " + Twine(i) + " ('" + node.output(i) +
                     "') is not supported");
    values[node.output(i)] = n.results[i];
  }
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  if (failed(readOpset()) || failed(inlineModelFunctions()) ||
      failed(checkOpTypes()))
    return nullptr;
  auto argTypes = inputTypes();
  if (failed(argTypes))
    return nullptr;

  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(modelLoc);
  module->getOperation()->setAttr("onnx.opset", b.getI64IntegerAttr(opset));
  module->getOperation()->setAttr(
      "onnx.producer", b.getStringAttr(model.proto.producer_name() + " " +
                                       model.proto.producer_version()));
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, modelLoc, "main",
                                   b.getFunctionType(*argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);

  auto inputs = graphInputs(graph);
  for (size_t i = 0; i < inputs.size(); ++i) {
    values[inputs[i]->name()] = entry->getArgument(i);
    func.setArgAttr(i, "onnx.name", b.getStringAttr(inputs[i]->name()));
  }
  if (failed(importInitializers(b)))
    return nullptr;
  auto order = topologicalOrder();
  if (failed(order))
    return nullptr;
  for (int i : *order)
    if (failed(importNode(b, nodes[i])))
      return nullptr;

  SmallVector<Value> results;
  for (const auto &out : graph.output()) {
    Value v = resolve(values.lookup(out.name()));
    if (!v) {
      emitError(modelLoc) << "graph output '" << out.name()
                          << "' is not produced by the graph";
      return nullptr;
    }
    results.push_back(v);
  }
  if (results.empty()) {
    emitError(modelLoc) << "the graph has no outputs";
    return nullptr;
  }
  func::ReturnOp::create(b, modelLoc, results);
  func.setFunctionType(b.getFunctionType(*argTypes, TypeRange(results)));
  for (int i = 0; i < graph.output_size(); ++i)
    func.setResultAttr(i, "onnx.name", b.getStringAttr(graph.output(i).name()));
  // What the model says its outputs are, checked once shapes are known.
  for (int i = 0; i < graph.output_size(); ++i)
    if (Type declared = declaredType(&ctx, graph.output(i)))
      func.setResultAttr(i, onnx::OnnxDialect::kDeclaredTypeAttr,
                         TypeAttr::get(declared));
  return module;
}

OwningOpRef<ModuleOp> importModel(MLIRContext &ctx, LoadedModel &model,
                                  const ImportOptions &options) {
  return Importer(ctx, model, options).run();
}

} // namespace onnxcc
