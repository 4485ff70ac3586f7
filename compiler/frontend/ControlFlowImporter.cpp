//===- ControlFlowImporter.cpp - If, Loop and Scan, unrolled --------------===//
//
// onnxcc compiles static shapes, so control flow is resolved while the graph
// imports: an If whose condition is known takes its branch; one whose
// condition is a run-time value computes both branches (they have no side
// effects) and selects with Where; a Loop with a static trip count or a
// condition that folds, and a Scan over static sequence axes, are unrolled
// into the graph, one copy of the body per iteration. A trip count that
// depends on computed shapes becomes known because the importer infers and
// folds the ops built so far first (settle()).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/GraphImporter.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/ConstantEval.h"
#include "dialects/Onnx/GraphInputs.h"
#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/SettleOp.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
namespace o = ::onnxcc::onnx;

namespace onnxcc {

bool isControlFlowOp(llvm::StringRef opType) {
  return opType == "If" || opType == "Loop" || opType == "Scan";
}

static void graphReads(const ::onnx::GraphProto &g,
                       std::vector<std::string> &names) {
  for (const auto &node : g.node()) {
    for (const auto &in : node.input())
      if (!in.empty())
        names.push_back(in);
    subgraphReads(node, names);
  }
  // A branch may return an outer value as it is.
  for (const auto &out : g.output())
    names.push_back(out.name());
}

void subgraphReads(const ::onnx::NodeProto &node,
                   std::vector<std::string> &names) {
  for (const auto &a : node.attribute()) {
    if (a.has_g())
      graphReads(a.g(), names);
    for (const auto &g : a.graphs())
      graphReads(g, names);
  }
}

/// Shape arithmetic that only the FoldConstants pass would evaluate
/// (Equal, Where, Not of small integer constants; Add ... Div), evaluated
/// now: a condition is often computed that way. Null if it does not apply.
static Value evalSmallConstant(Operation *op, OpBuilder &b) {
  constexpr int64_t kMaxElements = 4096;
  if (op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      op->hasTrait<OpTrait::ConstantLike>())
    return nullptr;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() > kMaxElements)
    return nullptr;
  SmallVector<ElementsAttr> operands;
  for (Value v : op->getOperands()) {
    ElementsAttr e = v ? getConstantElements(v) : ElementsAttr();
    if (!e)
      return nullptr;
    operands.push_back(e);
  }
  auto fmod = op->getAttrOfType<IntegerAttr>("fmod");
  ElementsAttr folded = evalIntElementwise(op->getName().getStringRef(),
                                           operands, type,
                                           fmod && fmod.getInt() != 0);
  std::optional<BinaryKind> kind;
  if (isa<o::AddOp>(op))
    kind = BinaryKind::Add;
  else if (isa<o::SubOp>(op))
    kind = BinaryKind::Sub;
  else if (isa<o::MulOp>(op))
    kind = BinaryKind::Mul;
  else if (isa<o::DivOp>(op))
    kind = BinaryKind::Div;
  if (!folded && kind && operands.size() == 2)
    folded = evalBinary(*kind, operands[0], operands[1], type);
  if (!folded)
    return nullptr;
  b.setInsertionPoint(op);
  Value c = o::ConstantOp::create(b, op->getLoc(), type, folded);
  op->getResult(0).replaceAllUsesWith(c);
  return c;
}

LogicalResult Importer::settle(OpBuilder &b) {
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.getInsertionBlock();
  SmallVector<Operation *> ops;
  for (Operation *op = settledUpTo ? settledUpTo->getNextNode()
                                   : (block->empty() ? nullptr : &block->front());
       op; op = op->getNextNode())
    ops.push_back(op);
  for (Operation *op : ops) {
    SmallVector<Value> replacements;
    if (failed(settleOp(op, b, &replacements, /*erase=*/false)))
      return failure();
    if (replacements.empty())
      if (Value v = evalSmallConstant(op, b))
        replacements.push_back(v);
    for (auto [from, to] : llvm::zip(op->getResults(), replacements))
      forwarded[from] = to;
  }
  settledUpTo = block->empty() ? nullptr : &block->back();
  return success();
}

Value Importer::resolve(Value v) const {
  while (Value to = forwarded.lookup(v))
    v = to;
  return v;
}

FailureOr<SmallVector<Value>>
Importer::inlineSubgraph(OpBuilder &b, NodeContext &n,
                         const ::onnx::GraphProto &g, ArrayRef<Value> args) {
  if ((int64_t)args.size() != g.input_size())
    return n.error("its subgraph '" + g.name() + "' takes " +
                   Twine(g.input_size()) + " inputs; " + Twine(args.size()) +
                   " are given");
  unrolledNodes += g.node_size();
  if (unrolledNodes > kMaxUnrolledNodes)
    return n.error("unrolling control flow makes more than " +
                   Twine(kMaxUnrolledNodes) + " nodes");
  for (auto [in, v] : llvm::zip(g.input(), args))
    values[in.name()] = resolve(v);
  // A body's initialisers are imported once, however often it unrolls.
  for (const auto &t : g.initializer()) {
    Value &cached = subgraphConstants[&t];
    if (!cached) {
      std::string err;
      ElementsAttr value = importTensor(&ctx, t, model.external, err);
      if (!value)
        return n.error("subgraph initializer '" + t.name() + "': " + err);
      cached = o::ConstantOp::create(b, n.loc, value.getType(), value);
    }
    values[t.name()] = cached;
  }
  for (const auto &node : g.node()) {
    // Subgraphs are sorted (ONNX requires it); a name read before it is
    // defined must not pass for an omitted optional input.
    for (const auto &in : node.input())
      if (!in.empty() && !values.count(in))
        return emitError(locOf(node))
               << "input '" << in << "' is not defined before the node in "
               << "subgraph '" << g.name() << "'";
    if (failed(importNode(b, GraphNode{&node, nullptr, n.opset})))
      return failure();
  }
  SmallVector<Value> outs;
  for (const auto &out : g.output()) {
    Value v = values.lookup(out.name());
    if (!v)
      return n.error("subgraph '" + g.name() + "' output '" + out.name() +
                     "' is not produced");
    outs.push_back(resolve(v));
  }
  return outs;
}

/// The graph attribute `name`, or an error.
static const ::onnx::GraphProto *graphAttr(NodeContext &n, StringRef name) {
  const auto *a = n.typedAttr(name, ::onnx::AttributeProto::GRAPH);
  if (!a) {
    (void)n.error("needs the subgraph attribute '" + name + "'");
    return nullptr;
  }
  return &a->g();
}

/// A constant scalar's value as int64, or nullopt.
static std::optional<int64_t> constantScalar(Value v) {
  std::vector<int64_t> xs;
  ElementsAttr e = v ? getConstantElements(v) : nullptr;
  if (!e || !readAsInt64s(e, xs) || xs.size() != 1)
    return std::nullopt;
  return xs[0];
}

/// The first graph input (by a depth-first walk of its producers) that `v`
/// is computed from, or "": binding it may make `v` a constant.
static std::string upstreamGraphInput(Value v) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work{v};
  while (!work.empty() && seen.size() < 4096) {
    Value x = work.pop_back_val();
    std::string name = graphInputName(x);
    if (!name.empty())
      return name;
    Operation *def = x.getDefiningOp();
    if (def && seen.insert(def).second)
      for (Value operand : llvm::reverse(def->getOperands()))
        work.push_back(operand);
  }
  return "";
}

/// The error for a control value that must be constant; names the graph
/// input to bind when it is (or comes from) one.
static LogicalResult notConstant(NodeContext &n, Value v, const Twine &what) {
  std::string input = upstreamGraphInput(v);
  return n.error(what + " is known only at run time (onnxcc unrolls control "
                        "flow over static trip counts)" +
                 (input.empty() ? "" : constInputHint(input)));
}

static Value scalarConstant(NodeContext &n, Type element, int64_t v) {
  auto type = RankedTensorType::get({}, element);
  Attribute value = element.isInteger(1)
                        ? DenseElementsAttr::get(type, v != 0)
                        : DenseElementsAttr::get(type, ArrayRef<int64_t>{v});
  return o::ConstantOp::create(n.builder, n.loc, type,
                               cast<ElementsAttr>(value));
}

/// Stacks per-iteration values along a new axis `axis`.
Value Importer::stack(NodeContext &n, ArrayRef<Value> items, int64_t axis) {
  SmallVector<Value> parts;
  for (Value item : items)
    if (Value v = resolve(item))
      parts.push_back(o::UnsqueezeOp::create(n.builder, n.loc,
                                           n.unrankedLike(v), v,
                                           n.i64Constant({axis})));
  if (parts.size() == 1)
    return parts[0];
  return o::ConcatOp::create(n.builder, n.loc, n.unrankedLike(parts[0]), parts,
                             axis);
}

LogicalResult Importer::importControlFlow(OpBuilder &b, NodeContext &n) {
  StringRef op = n.node.op_type();
  if (op == "If")
    return importIf(b, n);
  if (op == "Loop")
    return importLoop(b, n);
  return importScan(b, n);
}

LogicalResult Importer::importIf(OpBuilder &b, NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  const auto *thenG = graphAttr(n, "then_branch");
  const auto *elseG = graphAttr(n, "else_branch");
  if (!thenG || !elseG || failed(settle(b)))
    return failure();
  Value cond = resolve(n.operand(0));
  if (auto known = constantScalar(cond)) {
    auto outs = inlineSubgraph(b, n, *known ? *thenG : *elseG, {});
    if (failed(outs))
      return failure();
    n.results = *outs;
    return success();
  }
  // A run-time condition: both branches, then a select per output. Each
  // pair must agree in type, or the select would broadcast.
  auto thenOuts = inlineSubgraph(b, n, *thenG, {});
  if (failed(thenOuts))
    return failure();
  auto elseOuts = inlineSubgraph(b, n, *elseG, {});
  if (failed(elseOuts) || failed(settle(b)))
    return failure();
  if (thenOuts->size() != elseOuts->size())
    return n.error("its branches give " + Twine(thenOuts->size()) + " and " +
                   Twine(elseOuts->size()) + " outputs");
  for (auto [thenOut, elseOut] : llvm::zip(*thenOuts, *elseOuts)) {
    Value t = resolve(thenOut), e = resolve(elseOut);
    auto tt = dyn_cast<RankedTensorType>(t.getType());
    if (!tt || !tt.hasStaticShape() || tt != e.getType()) {
      std::string a, c;
      llvm::raw_string_ostream(a) << t.getType();
      llvm::raw_string_ostream(c) << e.getType();
      return notConstant(n, cond,
                         "its branches give different types (" + a + " and " +
                             c + ") and its condition");
    }
    n.results.push_back(
        o::WhereOp::create(b, n.loc, n.unrankedLike(t), cond, t, e));
  }
  return success();
}

LogicalResult Importer::importLoop(OpBuilder &b, NodeContext &n) {
  // M and cond are both optional, but their places are not.
  if (n.node.input_size() < 2)
    return n.error("has " + Twine(n.node.input_size()) +
                   " inputs; it needs at least M and cond (either may be empty)");
  const auto *body = graphAttr(n, "body");
  if (!body || failed(settle(b)))
    return failure();
  Value trip = resolve(n.operand(0)), cond = n.operand(1);
  if (!trip && !cond)
    return n.error("has neither a trip count nor a condition: it never ends");
  std::optional<int64_t> tripCount;
  if (trip && !(tripCount = constantScalar(trip)))
    return notConstant(n, trip, "its trip count M");
  if (tripCount && *tripCount > kMaxLoopIterations)
    return n.error("runs " + Twine(*tripCount) + " iterations, more than the " +
                   Twine(kMaxLoopIterations) + " onnxcc unrolls");
  int64_t numCarried = (int64_t)n.operands.size() - 2;
  int64_t numScans = body->output_size() - 1 - numCarried;
  if (numScans < 0)
    return n.error("its body has " + Twine(body->output_size()) +
                   " outputs, fewer than 1 + " + Twine(numCarried) +
                   " loop-carried values");
  SmallVector<Value> carried(n.operands.begin() + 2, n.operands.end());
  SmallVector<SmallVector<Value>> scans(numScans);
  Type i64 = b.getI64Type(), i1 = b.getI1Type();
  Value condIn = cond ? cond : scalarConstant(n, i1, 1);
  int64_t it = 0;
  for (;; ++it) {
    if (tripCount && it >= *tripCount)
      break;
    if (cond) { // without a condition input, the body's is ignored
      condIn = resolve(condIn);
      auto go = constantScalar(condIn);
      if (!go)
        return notConstant(n, condIn, "its condition");
      if (!*go)
        break;
    }
    if (it >= kMaxLoopIterations)
      return n.error("runs more than " + Twine(kMaxLoopIterations) +
                     " iterations, the most onnxcc unrolls");
    SmallVector<Value> args{scalarConstant(n, i64, it), condIn};
    for (Value v : carried)
      args.push_back(resolve(v));
    auto outs = inlineSubgraph(b, n, *body, args);
    if (failed(outs))
      return failure();
    condIn = (*outs)[0];
    carried.assign(outs->begin() + 1, outs->begin() + 1 + numCarried);
    for (int64_t k = 0; k < numScans; ++k)
      scans[k].push_back((*outs)[1 + numCarried + k]);
    if (cond && failed(settle(b)))
      return failure();
  }
  if (numScans && it == 0)
    return n.error("runs no iteration, so its scan outputs have no shape");
  for (Value v : carried)
    n.results.push_back(resolve(v));
  for (auto &values : scans)
    n.results.push_back(stack(n, values, 0));
  return success();
}

/// `attr` (one entry per item) or `count` zeros.
static FailureOr<SmallVector<int64_t>>
perItem(NodeContext &n, StringRef attr, int64_t count) {
  SmallVector<int64_t> v = n.getInts(attr);
  if (!n.has(attr))
    v.assign(count, 0);
  if ((int64_t)v.size() != count)
    return n.error(attr + " has " + Twine(v.size()) + " entries for " +
                   Twine(count) + " values");
  return v;
}

LogicalResult Importer::unrollScan(
    OpBuilder &b, NodeContext &n, const ::onnx::GraphProto &body,
    SmallVector<Value> &states, ArrayRef<Value> scanInputs,
    ArrayRef<int64_t> inAxes, ArrayRef<int64_t> inDirs,
    ArrayRef<int64_t> outAxes, ArrayRef<int64_t> outDirs,
    SmallVector<Value> &scanOutputs) {
  // The sequence length: every scan input's extent along its axis.
  int64_t length = -1;
  SmallVector<int64_t> axes;
  for (auto [input, axis] : llvm::zip(scanInputs, inAxes)) {
    Value v = resolve(input);
    auto t = dyn_cast<RankedTensorType>(v.getType());
    int64_t rank = t ? t.getRank() : 0;
    if (!t || axis < -rank || axis >= rank)
      return n.error("scan input axis " + Twine(axis) +
                     " is outside a value of rank " + Twine(rank));
    int64_t a = axis < 0 ? axis + rank : axis;
    int64_t len = t.getDimSize(a);
    if (ShapedType::isDynamic(len) || (length >= 0 && len != length))
      return n.error("its scan inputs have different sequence lengths");
    length = len;
    axes.push_back(a);
  }
  if (length <= 0)
    return n.error("scans a sequence of length " + Twine(length) +
                   "; its outputs would have no shape");
  if (length > kMaxLoopIterations)
    return n.error("runs more than " + Twine(kMaxLoopIterations) +
                   " iterations, the most onnxcc unrolls");
  int64_t numStates = states.size();
  int64_t numOut = body.output_size() - numStates;
  if (numOut < 0 || (int64_t)outAxes.size() != numOut)
    return n.error("its body's outputs do not match its states and "
                   "scan_output_axes");
  SmallVector<SmallVector<Value>> outs(numOut);
  Type i64 = b.getI64Type();
  for (int64_t t = 0; t < length; ++t) {
    SmallVector<Value> args;
    for (Value s : states)
      args.push_back(resolve(s));
    for (auto [j, input] : llvm::enumerate(scanInputs)) {
      Value v = resolve(input);
      int64_t at = inDirs[j] ? length - 1 - t : t;
      args.push_back(o::GatherOp::create(b, n.loc, n.unrankedLike(v), v,
                                         scalarConstant(n, i64, at), axes[j]));
    }
    auto res = inlineSubgraph(b, n, body, args);
    if (failed(res))
      return failure();
    states.assign(res->begin(), res->begin() + numStates);
    for (int64_t k = 0; k < numOut; ++k)
      outs[k].push_back((*res)[numStates + k]);
  }
  for (int64_t k = 0; k < numOut; ++k) {
    if (outDirs[k])
      std::reverse(outs[k].begin(), outs[k].end());
    scanOutputs.push_back(stack(n, outs[k], outAxes[k]));
  }
  return success();
}

LogicalResult Importer::importScan(OpBuilder &b, NodeContext &n) {
  const auto *body = graphAttr(n, "body");
  if (!body || failed(settle(b)))
    return failure();
  int64_t numScanInputs = n.getInt("num_scan_inputs", -1);
  // Scan-8 has an optional sequence_lens first and a batch axis on every
  // value, which the body does not see.
  bool batched = n.opset < 9;
  unsigned first = batched ? 1 : 0;
  int64_t numInputs = (int64_t)n.operands.size() - first;
  if (numScanInputs < 1 || numScanInputs > numInputs)
    return n.error("num_scan_inputs " + Twine(numScanInputs) +
                   " must be between 1 and the " + Twine(numInputs) +
                   " inputs");
  for (Value v : ArrayRef<Value>(n.operands).drop_front(first))
    if (!v)
      return n.error("omits a state or scan input");
  int64_t numStates = numInputs - numScanInputs;
  int64_t numOut = body->output_size() - numStates;
  auto inDirs = perItem(n, batched ? "directions" : "scan_input_directions",
                        numScanInputs);
  if (failed(inDirs))
    return failure();
  SmallVector<int64_t> zerosIn(numScanInputs, 0), zerosOut(std::max<int64_t>(numOut, 0), 0);
  SmallVector<Value> states(n.operands.begin() + first,
                            n.operands.begin() + first + numStates);
  SmallVector<Value> scanInputs(n.operands.begin() + first + numStates,
                                n.operands.end());
  if (!batched) {
    auto inAxes = perItem(n, "scan_input_axes", numScanInputs);
    auto outAxes = perItem(n, "scan_output_axes", numOut);
    auto outDirs = perItem(n, "scan_output_directions", numOut);
    if (failed(inAxes) || failed(outAxes) || failed(outDirs))
      return failure();
    SmallVector<Value> scanOutputs;
    if (failed(unrollScan(b, n, *body, states, scanInputs, *inAxes, *inDirs,
                          *outAxes, *outDirs, scanOutputs)))
      return failure();
    for (Value v : states)
      n.results.push_back(resolve(v));
    n.results.append(scanOutputs.begin(), scanOutputs.end());
    return success();
  }
  if (n.operand(0))
    return n.error("Scan-8's sequence_lens is not supported (every sequence "
                   "must have the full length)");
  auto t = dyn_cast<RankedTensorType>(scanInputs[0].getType());
  if (!t || t.getRank() < 2 || ShapedType::isDynamic(t.getDimSize(0)))
    return n.error("Scan-8's inputs need a static batch axis");
  int64_t batch = t.getDimSize(0);
  if (batch > kMaxLoopIterations)
    return n.error("has a batch of " + Twine(batch) + ", more than onnxcc unrolls");
  Type i64 = b.getI64Type();
  SmallVector<SmallVector<Value>> finalStates(numStates), outputs(numOut);
  for (int64_t i = 0; i < batch; ++i) {
    auto row = [&](Value input) {
      Value v = resolve(input);
      return o::GatherOp::create(b, n.loc, n.unrankedLike(v), v,
                                 scalarConstant(n, i64, i), 0);
    };
    SmallVector<Value> s, x, scanOutputs;
    for (Value v : states)
      s.push_back(row(v));
    for (Value v : scanInputs)
      x.push_back(row(v));
    if (failed(settle(b)) ||
        failed(unrollScan(b, n, *body, s, x, zerosIn, *inDirs, zerosOut,
                          zerosOut, scanOutputs)))
      return failure();
    for (int64_t k = 0; k < numStates; ++k)
      finalStates[k].push_back(resolve(s[k]));
    for (int64_t k = 0; k < numOut; ++k)
      outputs[k].push_back(scanOutputs[k]);
  }
  for (auto &v : finalStates)
    n.results.push_back(stack(n, v, 0));
  for (auto &v : outputs)
    n.results.push_back(stack(n, v, 0));
  return success();
}

} // namespace onnxcc
