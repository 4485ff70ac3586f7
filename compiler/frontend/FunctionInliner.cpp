//===- FunctionInliner.cpp - model-local ONNX functions, inlined ----------===//
#include "compiler/frontend/FunctionInliner.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace onnxcc {

namespace {

/// "domain:name" keys a function. (IR version 10's `overload` and IR 9's
/// attribute defaults, `attribute_proto`, are not in the onnx.proto of
/// Debian's libonnx-dev (ONNX 1.12) this importer is built with: an
/// attribute a call leaves unset takes the op's default.)
std::string key(const std::string &domain, const std::string &name) {
  return domain + ":" + name;
}

class Inliner {
public:
  Inliner(const ::onnx::ModelProto &model, std::vector<GraphNode> &out,
          std::string &error)
      : out(out), error(error) {
    for (const auto &f : model.functions())
      functions[key(f.domain(), f.name())] = &f;
    // Every name the main graph uses, so that renamed values stay apart.
    const auto &g = model.graph();
    for (const auto &v : g.input())
      used.insert(v.name());
    for (const auto &t : g.initializer())
      used.insert(t.name());
    for (const auto &n : g.node())
      for (const auto &o : n.output())
        used.insert(o);
  }

  const ::onnx::FunctionProto *find(const ::onnx::NodeProto &n) const {
    return functions.lookup(key(n.domain(), n.op_type()));
  }

  bool node(const ::onnx::NodeProto &n, int64_t opset, int depth,
            std::shared_ptr<::onnx::NodeProto> owned);

private:
  bool expand(const ::onnx::NodeProto &call, const ::onnx::FunctionProto &f,
              int64_t callerOpset, int depth);
  std::string fresh(const std::string &base) {
    std::string name = base;
    for (int k = 2; !used.insert(name).second; ++k)
      name = base + "#" + std::to_string(k);
    return name;
  }
  bool fail(const std::string &message) {
    error = message;
    return false;
  }

  llvm::StringMap<const ::onnx::FunctionProto *> functions;
  llvm::StringSet<> used;
  llvm::StringSet<> active; ///< functions being expanded (recursion check)
  std::vector<GraphNode> &out;
  std::string &error;
};

bool Inliner::node(const ::onnx::NodeProto &n, int64_t opset, int depth,
                   std::shared_ptr<::onnx::NodeProto> owned) {
  if (const ::onnx::FunctionProto *f = find(n))
    return expand(n, *f, opset, depth);
  if (out.size() >= kMaxInlinedNodes)
    return fail("inlining functions gives more than " +
                std::to_string(kMaxInlinedNodes) + " nodes");
  out.push_back({owned ? owned.get() : &n, owned, opset});
  return true;
}

bool Inliner::expand(const ::onnx::NodeProto &call, const ::onnx::FunctionProto &f,
                     int64_t callerOpset, int depth) {
  std::string name = f.domain() + "." + f.name();
  if (depth >= kMaxFunctionDepth)
    return fail("function '" + name + "' is nested more than " +
                std::to_string(kMaxFunctionDepth) + " deep");
  if (!active.insert(name).second)
    return fail("function '" + name + "' calls itself");
  if (call.input_size() > f.input_size() || call.output_size() > f.output_size())
    return fail("call of function '" + name + "' passes " +
                std::to_string(call.input_size()) + " inputs and " +
                std::to_string(call.output_size()) + " outputs; it takes " +
                std::to_string(f.input_size()) + " and " +
                std::to_string(f.output_size()));
  int64_t opset = callerOpset; // unless the function imports its own
  for (const auto &o : f.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();

  // Formal -> actual names: inputs and outputs bind to the call's (an
  // omitted optional input to ""), everything else gets a fresh name.
  llvm::StringMap<std::string> rename;
  for (int i = 0; i < f.input_size(); ++i)
    rename[f.input(i)] = i < call.input_size() ? call.input(i) : "";
  for (int i = 0; i < f.output_size(); ++i)
    rename[f.output(i)] = i < call.output_size() ? call.output(i) : "";
  std::string prefix = (call.name().empty() ? name : call.name()) + "/";
  auto actual = [&](const std::string &formal) -> std::string {
    if (formal.empty())
      return formal;
    auto it = rename.find(formal);
    if (it != rename.end())
      return it->second;
    std::string renamed = fresh(prefix + formal);
    rename[formal] = renamed;
    return renamed;
  };
  // Attribute values the call gives.
  llvm::StringMap<const ::onnx::AttributeProto *> given;
  for (const auto &a : call.attribute())
    given[a.name()] = &a;

  for (const auto &inner : f.node()) {
    auto copy = std::make_shared<::onnx::NodeProto>(inner);
    copy->set_name(prefix + (inner.name().empty() ? inner.op_type() : inner.name()));
    for (int i = 0; i < copy->input_size(); ++i)
      copy->set_input(i, actual(inner.input(i)));
    for (int i = 0; i < copy->output_size(); ++i)
      copy->set_output(i, actual(inner.output(i)));
    // Resolve references to the call's attributes; an unset one is dropped
    // (the op's own default then applies, as the spec says).
    auto *attrs = copy->mutable_attribute();
    for (int i = 0; i < attrs->size();) {
      auto &a = attrs->at(i);
      if (a.ref_attr_name().empty()) {
        ++i;
        continue;
      }
      auto it = given.find(a.ref_attr_name());
      if (it == given.end()) {
        attrs->DeleteSubrange(i, 1);
        continue;
      }
      std::string own = a.name();
      a.CopyFrom(*it->second);
      a.set_name(own);
      ++i;
    }
    if (!node(*copy, opset, depth + 1, copy))
      return false;
  }
  active.erase(name);
  return true;
}

} // namespace

bool inlineFunctions(const ::onnx::ModelProto &model, int64_t graphOpset,
                     std::vector<GraphNode> &nodes, std::string &error) {
  Inliner inliner(model, nodes, error);
  for (const auto &n : model.graph().node())
    if (!inliner.node(n, graphOpset, 0, nullptr))
      return false;
  return true;
}

} // namespace onnxcc
