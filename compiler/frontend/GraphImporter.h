//===- GraphImporter.h - ONNX graph to the onnx dialect, internals -*- C++ -*-===//
//
// Internal to compiler/frontend: the importer's state, shared by
// OnnxImporter.cpp (the graph, its inputs, initialisers and node order) and
// ControlFlowImporter.cpp (If, Loop and Scan, whose subgraphs it unrolls
// into the graph).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_COMPILER_FRONTEND_GRAPHIMPORTER_H
#define ONNXCC_COMPILER_FRONTEND_GRAPHIMPORTER_H

#include "compiler/frontend/FunctionInliner.h"
#include "compiler/frontend/OnnxImporter.h"
#include "compiler/frontend/OpImporters.h"
#include "dialects/Onnx/NodeLocation.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace onnxcc {
using mlir::ArrayRef;
using mlir::FailureOr;
using mlir::Location;
using mlir::LogicalResult;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::OwningOpRef;
using mlir::SmallVector;
using mlir::Type;
using mlir::Value;

/// Whether `opType` (default domain) is If, Loop or Scan.
bool isControlFlowOp(llvm::StringRef opType);

/// Every value name the subgraphs of `node` read, recursively (a superset
/// of the outer-scope names they capture).
void subgraphReads(const ::onnx::NodeProto &node,
                   std::vector<std::string> &names);

/// Unrolling caps: iterations of one Loop, and nodes unrolled in a model.
constexpr int64_t kMaxLoopIterations = 1 << 14;
constexpr size_t kMaxUnrolledNodes = size_t(1) << 18;

class Importer {
public:
  Importer(MLIRContext &ctx, LoadedModel &model,
           const ImportOptions &options)
      : ctx(ctx), model(model), options(options), graph(model.proto.graph()),
        modelLoc(modelLocation(&ctx, model.path)) {}

  OwningOpRef<ModuleOp> run();

private:
  LogicalResult readOpset();
  LogicalResult inlineModelFunctions();
  LogicalResult checkOpTypes();
  FailureOr<SmallVector<Type>> inputTypes();
  LogicalResult importInitializers(OpBuilder &b);
  FailureOr<std::vector<int>> topologicalOrder();
  LogicalResult importNode(OpBuilder &b, const GraphNode &node);

  // ControlFlowImporter.cpp: If, Loop and Scan, unrolled as they import.
  LogicalResult importControlFlow(OpBuilder &b, NodeContext &n);
  LogicalResult importIf(OpBuilder &b, NodeContext &n);
  LogicalResult importLoop(OpBuilder &b, NodeContext &n);
  LogicalResult importScan(OpBuilder &b, NodeContext &n);
  /// Scan's iterations over static sequence axes: final states, and each
  /// scan output stacked along its axis.
  LogicalResult unrollScan(OpBuilder &b, NodeContext &n,
                           const ::onnx::GraphProto &body,
                           SmallVector<Value> &states,
                           ArrayRef<Value> scanInputs,
                           ArrayRef<int64_t> inAxes, ArrayRef<int64_t> inDirs,
                           ArrayRef<int64_t> outAxes, ArrayRef<int64_t> outDirs,
                           SmallVector<Value> &scanOutputs);
  /// Imports `g`'s initialisers and nodes at `b` with its inputs bound to
  /// `args`; returns its outputs.
  FailureOr<SmallVector<Value>> inlineSubgraph(OpBuilder &b, NodeContext &n,
                                               const ::onnx::GraphProto &g,
                                               ArrayRef<Value> args);
  /// Infers types and folds the ops built since the last call, so that a
  /// trip count or condition computed from shapes becomes a constant.
  /// Folded ops stay (without uses) until the ShapeInference pass erases
  /// them, so values held anywhere stay valid: resolve() forwards them.
  LogicalResult settle(OpBuilder &b);
  Value resolve(Value v) const;
  /// Stacks per-iteration values along a new axis `axis`.
  Value stack(NodeContext &n, ArrayRef<Value> items, int64_t axis);
  llvm::DenseMap<Value, Value> forwarded;
  llvm::DenseMap<const ::onnx::TensorProto *, Value> subgraphConstants;
  /// Nodes unrolled so far, against kMaxUnrolledNodes.
  size_t unrolledNodes = 0;
  Operation *settledUpTo = nullptr;
  std::string nodeName(const ::onnx::NodeProto &n) const {
    if (!n.name().empty())
      return n.name();
    return n.output_size() ? n.output(0) : std::string("<unnamed>");
  }
public:
  Location locOf(const ::onnx::NodeProto &n) {
    return nodeLocation(&ctx, model.path, nodeName(n), n.op_type());
  }

private:
  MLIRContext &ctx;
  LoadedModel &model;
  const ImportOptions &options;
  const ::onnx::GraphProto &graph;
  Location modelLoc;
  int64_t opset = 0;
  /// The ai.onnx.ml opset (0 when the model imports none).
  int64_t mlOpset = 0;
  /// The opImporters() key of `node`: its op type, domain-qualified
  /// outside the default domain; empty for a domain without importers.
  std::string importerKey(const ::onnx::NodeProto &node) const;
  /// The graph's nodes, model-local functions inlined (FunctionInliner.h).
  std::vector<GraphNode> nodes;
  llvm::StringMap<Value> values;
};

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_GRAPHIMPORTER_H
