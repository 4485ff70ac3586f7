//===- FunctionInliner.h - model-local ONNX functions, inlined --*- C++ -*-===//
//
// Exporters (PyTorch's dynamo among them) may wrap parts of a graph in
// model-local FunctionProtos. The importer sees the main graph with every
// call of such a function replaced by the function's nodes: values renamed
// apart, attribute references (ref_attr_name) resolved against the call,
// and each node keeping the ai.onnx opset it was written for (a function
// may import another than the model).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_COMPILER_FRONTEND_FUNCTIONINLINER_H
#define ONNXCC_COMPILER_FRONTEND_FUNCTIONINLINER_H

#include "onnx/onnx_pb.h"
#include <memory>
#include <string>
#include <vector>

namespace onnxcc {

/// A node of the main graph after inlining.
struct GraphNode {
  const ::onnx::NodeProto *node;             ///< in the model, or `owned`
  std::shared_ptr<::onnx::NodeProto> owned;  ///< a renamed copy, if inlined
  int64_t opset;                             ///< ai.onnx opset of its author
  const ::onnx::NodeProto &get() const { return *node; }
};

/// Limits that keep a hostile model's functions from expanding without end.
constexpr int kMaxFunctionDepth = 16;
constexpr size_t kMaxInlinedNodes = size_t(1) << 20;

/// The main graph's nodes with every call of a model-local function
/// inlined, recursively. On failure returns false and sets `error` (a
/// function calling itself, too deep, too many nodes, a call with more
/// inputs or outputs than the function has, a missing attribute).
bool inlineFunctions(const ::onnx::ModelProto &model, int64_t graphOpset,
                     std::vector<GraphNode> &nodes, std::string &error);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_FUNCTIONINLINER_H
