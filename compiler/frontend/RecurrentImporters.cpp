//===- RecurrentImporters.cpp - builders of RNN, GRU and LSTM -------------===//
//
// The importer normalises what ONNX leaves implicit, so that later stages
// read one form: `activations` lists every function of every direction
// (ONNX's defaults, or one direction's list given for a bidirectional
// layer, repeated), and `activation_alpha` / `activation_beta` give one
// value per function. ONNX's alpha and beta lists are consumed in order by
// the functions that take a value (LeakyRelu, Affine, ...), as onnxruntime
// reads them; a function whose value is missing gets ONNX's default.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/RecurrentShapes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

/// The normalised attributes shared by the three layers.
struct RecurrentAttrs {
  ArrayAttr activations;
  DenseF32ArrayAttr alpha, beta;
  FloatAttr clip;
  StringAttr direction;
  IntegerAttr hiddenSize, layout;
};

FailureOr<RecurrentAttrs> readRecurrentAttrs(NodeContext &n,
                                             ArrayRef<StringRef> defaults) {
  Builder &b = n.builder;
  RecurrentAttrs a;
  std::string direction = n.getString("direction", "forward");
  int64_t dirs = recurrentDirections(direction);
  if (!dirs)
    return n.error("direction must be forward, reverse or bidirectional, got '" +
                   direction + "'");
  // Before opset 7 `output_sequence` said whether Y is produced; Y is always
  // computed here (an unused output costs a buffer, not a wrong answer).
  (void)n.getInt("output_sequence", 0);

  size_t functions = defaults.size();
  SmallVector<std::string> names;
  if (const auto *attr = n.typedAttr("activations", ::onnx::AttributeProto::STRINGS))
    names.assign(attr->strings().begin(), attr->strings().end());
  if (names.empty())
    names.assign(defaults.begin(), defaults.end());
  if (names.size() == functions && dirs == 2)
    names.append(SmallVector<std::string>(names)); // the same for reverse
  if (names.size() != functions * dirs)
    return n.error("expects " + Twine(functions * dirs) + " activations (" +
                   Twine(functions) + " per direction), got " +
                   Twine(names.size()));
  SmallVector<float> alphaIn, betaIn;
  if (const auto *attr = n.typedAttr("activation_alpha", ::onnx::AttributeProto::FLOATS))
    alphaIn.assign(attr->floats().begin(), attr->floats().end());
  if (const auto *attr = n.typedAttr("activation_beta", ::onnx::AttributeProto::FLOATS))
    betaIn.assign(attr->floats().begin(), attr->floats().end());
  SmallVector<StringRef> canonical;
  SmallVector<float> alpha, beta;
  size_t nextAlpha = 0, nextBeta = 0;
  for (const std::string &name : names) {
    StringRef c = canonicalActivation(name);
    if (c.empty())
      return n.error("unknown activation '" + name + "'");
    canonical.push_back(c);
    float al = 0, be = 0;
    if (activationTakesAlpha(c))
      al = nextAlpha < alphaIn.size() ? alphaIn[nextAlpha++]
                                      : defaultActivationAlpha(c);
    if (activationTakesBeta(c))
      be = nextBeta < betaIn.size() ? betaIn[nextBeta++]
                                    : defaultActivationBeta(c);
    alpha.push_back(al);
    beta.push_back(be);
  }
  a.activations = b.getStrArrayAttr(canonical);
  a.alpha = b.getDenseF32ArrayAttr(alpha);
  a.beta = b.getDenseF32ArrayAttr(beta);
  if (n.has("clip"))
    a.clip = b.getF32FloatAttr(n.getFloat("clip", 0));
  a.direction = b.getStringAttr(direction);
  if (n.has("hidden_size"))
    a.hiddenSize = b.getI64IntegerAttr(n.getInt("hidden_size", 0));
  a.layout = b.getI64IntegerAttr(n.getInt("layout", 0));
  return a;
}

LogicalResult importRNN(NodeContext &n) {
  if (failed(n.arity(3, 6)))
    return failure();
  auto a = readRecurrentAttrs(n, {"Tanh"});
  if (failed(a))
    return failure();
  Type t = n.unrankedLike(n.operand(0));
  auto op = o::RNNOp::create(n.builder, n.loc, t, t, n.operand(0), n.operand(1),
                             n.operand(2), n.operand(3), n.operand(4),
                             n.operand(5), a->activations, a->alpha, a->beta,
                             a->clip, a->direction, a->hiddenSize, a->layout);
  n.results.append(op->result_begin(), op->result_end());
  return success();
}

LogicalResult importGRU(NodeContext &n) {
  if (failed(n.arity(3, 6)))
    return failure();
  auto a = readRecurrentAttrs(n, {"Sigmoid", "Tanh"});
  if (failed(a))
    return failure();
  Type t = n.unrankedLike(n.operand(0));
  auto op = o::GRUOp::create(
      n.builder, n.loc, t, t, n.operand(0), n.operand(1), n.operand(2),
      n.operand(3), n.operand(4), n.operand(5), a->activations, a->alpha,
      a->beta, a->clip, a->direction, a->hiddenSize, a->layout,
      n.builder.getI64IntegerAttr(n.getInt("linear_before_reset", 0)));
  n.results.append(op->result_begin(), op->result_end());
  return success();
}

LogicalResult importLSTM(NodeContext &n) {
  if (failed(n.arity(3, 8)))
    return failure();
  auto a = readRecurrentAttrs(n, {"Sigmoid", "Tanh", "Tanh"});
  if (failed(a))
    return failure();
  Type t = n.unrankedLike(n.operand(0));
  auto op = o::LSTMOp::create(
      n.builder, n.loc, t, t, t, n.operand(0), n.operand(1), n.operand(2),
      n.operand(3), n.operand(4), n.operand(5), n.operand(6), n.operand(7),
      a->activations, a->alpha, a->beta, a->clip, a->direction, a->hiddenSize,
      a->layout, n.builder.getI64IntegerAttr(n.getInt("input_forget", 0)));
  n.results.append(op->result_begin(), op->result_end());
  return success();
}

} // namespace

void addRecurrentImporters(llvm::StringMap<OpImportFn> &t) {
  t["RNN"] = importRNN;
  t["GRU"] = importGRU;
  t["LSTM"] = importLSTM;
}

} // namespace onnxcc
