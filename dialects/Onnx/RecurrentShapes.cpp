//===- RecurrentShapes.cpp - shape rules of RNN, GRU, LSTM ----------------===//
#include "dialects/Onnx/RecurrentShapes.h"

#include "dialects/Onnx/InferTypes.h"
#include "dialects/Onnx/ShapeFunctions.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace onnxcc {

static constexpr int64_t kDyn = ShapedType::kDynamic;

int64_t recurrentDirections(StringRef direction) {
  return llvm::StringSwitch<int64_t>(direction)
      .Case("forward", 1)
      .Case("reverse", 1)
      .Case("bidirectional", 2)
      .Default(0);
}

StringRef canonicalActivation(StringRef name) {
  static const char *const kNames[] = {
      "Relu",     "Tanh",        "Sigmoid", "Affine",   "LeakyRelu",
      "ThresholdedRelu", "ScaledTanh", "HardSigmoid", "Elu", "Softsign",
      "Softplus"};
  for (const char *n : kNames)
    if (name.equals_insensitive(n))
      return n;
  return "";
}

bool activationTakesAlpha(StringRef a) {
  return a == "Affine" || a == "LeakyRelu" || a == "ThresholdedRelu" ||
         a == "ScaledTanh" || a == "HardSigmoid" || a == "Elu";
}
bool activationTakesBeta(StringRef a) {
  return a == "Affine" || a == "ScaledTanh" || a == "HardSigmoid";
}
float defaultActivationAlpha(StringRef a) {
  return llvm::StringSwitch<float>(a)
      .Case("LeakyRelu", 0.01f)
      .Case("HardSigmoid", 0.2f)
      .Default(1.0f); // Affine, ThresholdedRelu, ScaledTanh, Elu
}
float defaultActivationBeta(StringRef a) {
  return llvm::StringSwitch<float>(a)
      .Case("HardSigmoid", 0.5f)
      .Case("ScaledTanh", 1.0f)
      .Default(0.0f); // Affine
}

namespace {

/// Collects one dimension from every operand that states it; fails when
/// two static statements differ, naming both.
class Dim {
public:
  Dim(OptLoc loc, StringRef name) : loc(loc), name(name) {}
  LogicalResult operator()(int64_t d, StringRef where) {
    if (d == kDyn)
      return success();
    if (value != kDyn && value != d)
      return emitOptionalError(loc, name, " is ", value, " (from ", source,
                               ") but ", where, " gives ", d);
    if (value == kDyn) {
      value = d;
      source = where.str();
    }
    return success();
  }
  int64_t value = kDyn;

private:
  OptLoc loc;
  StringRef name;
  std::string source;
};

} // namespace

LogicalResult inferRecurrentTypes(OptLoc loc, const RecurrentSpec &spec,
                                  Value x, Value w, Value r, Value b,
                                  Value sequenceLens, Value initialH,
                                  Value initialC, Value p,
                                  SmallVectorImpl<Type> &types) {
  int64_t dirs = recurrentDirections(spec.direction);
  if (!dirs)
    return emitOptionalError(loc, "direction must be forward, reverse or "
                                  "bidirectional, got '",
                             spec.direction, "'");
  if (spec.layout != 0 && spec.layout != 1)
    return emitOptionalError(loc, "layout must be 0 or 1, got ", spec.layout);
  if (spec.flag != 0 && spec.flag != 1)
    return emitOptionalError(loc, spec.gates == 3 ? "linear_before_reset"
                                                  : "input_forget",
                             " must be 0 or 1, got ", spec.flag);
  int64_t wantActivations = spec.functions * dirs;
  if ((int64_t)spec.activations.size() != wantActivations)
    return emitOptionalError(loc, "expects ", wantActivations,
                             " activations (", spec.functions,
                             " per direction), got ",
                             spec.activations.size());
  for (Attribute a : spec.activations) {
    auto s = dyn_cast<StringAttr>(a);
    if (!s || canonicalActivation(s.getValue()) != s.getValue())
      return emitOptionalError(loc, "unknown activation ", a);
  }
  if ((int64_t)spec.alpha.size() != wantActivations ||
      (int64_t)spec.beta.size() != wantActivations)
    return emitOptionalError(loc, "expects one activation_alpha and "
                                  "activation_beta per activation (",
                             wantActivations, "), got ", spec.alpha.size(),
                             " and ", spec.beta.size());
  if (spec.clip) {
    double c = spec.clip->convertToDouble();
    if (!(c > 0)) // NaN too
      return emitOptionalError(loc, "clip must be positive, got ", c);
  }
  if (spec.hiddenSize &&
      (*spec.hiddenSize < 1 || *spec.hiddenSize > (uint64_t)kMaxDim))
    return emitOptionalError(loc, "hidden_size must be in [1, ", kMaxDim,
                             "], got ", (int64_t)*spec.hiddenSize);

  // Element types: one float type for all data, int32 sequence lengths.
  Type et = getElementTypeOrSelf(x.getType());
  if (!isa<FloatType>(et))
    return emitOptionalError(loc, "X must have float elements, got ", et);
  const char *names[] = {"W", "R", "B", "initial_h", "initial_c", "P"};
  Value data[] = {w, r, b, initialH, initialC, p};
  for (auto [name, v] : llvm::zip(names, data))
    if (v && getElementTypeOrSelf(v.getType()) != et)
      return emitOptionalError(loc, name, " has elements of type ",
                               getElementTypeOrSelf(v.getType()),
                               ", X has ", et);
  if (sequenceLens && !getElementTypeOrSelf(sequenceLens.getType()).isInteger(32))
    return emitOptionalError(loc, "sequence_lens must be int32, got ",
                             getElementTypeOrSelf(sequenceLens.getType()));

  // Ranks and dimensions.
  Dim seq(loc, "the sequence length"), batch(loc, "the batch size"),
      input(loc, "the input size"), hidden(loc, "hidden_size"),
      dirDim(loc, "the number of directions"), gatesH(loc, "gates * hidden");
  (void)dirDim(dirs, "direction '" + spec.direction.str() + "'");
  if (spec.hiddenSize)
    (void)hidden((int64_t)*spec.hiddenSize, "the hidden_size attribute");
  auto ranked = [&](Value v, StringRef name, int64_t rank)
      -> FailureOr<std::optional<ArrayRef<int64_t>>> {
    if (!v)
      return std::optional<ArrayRef<int64_t>>();
    auto s = shapeOf(v);
    if (s && (int64_t)s->size() != rank)
      return emitOptionalError(loc, name, " must have rank ", rank, ", got ",
                               s->size());
    return s;
  };
  bool batchFirst = spec.layout == 1;
  auto xs = ranked(x, "X", 3);
  if (failed(xs))
    return failure();
  if (*xs) {
    ArrayRef<int64_t> s = **xs;
    if (failed(seq(s[batchFirst ? 1 : 0], "X")) ||
        failed(batch(s[batchFirst ? 0 : 1], "X")) || failed(input(s[2], "X")))
      return failure();
  }
  // R fixes hidden_size: [dirs, gates * hidden, hidden].
  auto rs = ranked(r, "R", 3);
  if (failed(rs))
    return failure();
  if (*rs && (failed(dirDim((**rs)[0], "R")) ||
              failed(hidden((**rs)[2], "R")) || failed(gatesH((**rs)[1], "R"))))
    return failure();
  int64_t gh = kDyn;
  if (hidden.value != kDyn) {
    CheckedInt n = CheckedInt(spec.gates) * hidden.value;
    if (n.overflowed() || *n > kMaxDim)
      return emitOptionalError(loc, "hidden_size ", hidden.value,
                               " is too large");
    gh = *n;
    if (failed(gatesH(gh, spec.gates == 1 ? "hidden_size"
                                          : std::to_string(spec.gates) +
                                                " gates of hidden_size")))
      return failure();
  }
  auto ws = ranked(w, "W", 3);
  if (failed(ws))
    return failure();
  if (*ws && (failed(dirDim((**ws)[0], "W")) ||
              failed(gatesH((**ws)[1], "W")) || failed(input((**ws)[2], "W"))))
    return failure();
  if (hidden.value == kDyn && gatesH.value != kDyn) {
    if (gatesH.value % spec.gates)
      return emitOptionalError(loc, "W/R have ", gatesH.value,
                               " rows, not a multiple of the ", spec.gates,
                               " gates");
    (void)hidden(gatesH.value / spec.gates, "W");
  }
  auto bs = ranked(b, "B", 2);
  if (failed(bs))
    return failure();
  if (*bs) {
    if (failed(dirDim((**bs)[0], "B")))
      return failure();
    int64_t twice = (**bs)[1];
    if (twice != kDyn && gatesH.value != kDyn && twice != 2 * gatesH.value)
      return emitOptionalError(loc, "B must have ", 2 * gatesH.value,
                               " columns (Wb and Rb), got ", twice);
  }
  auto ss = ranked(sequenceLens, "sequence_lens", 1);
  if (failed(ss))
    return failure();
  if (*ss && failed(batch((**ss)[0], "sequence_lens")))
    return failure();
  for (auto [v, name] : {std::pair{initialH, "initial_h"},
                         std::pair{initialC, "initial_c"}}) {
    auto hs = ranked(v, name, 3);
    if (failed(hs))
      return failure();
    if (*hs && (failed(dirDim((**hs)[batchFirst ? 1 : 0], name)) ||
                failed(batch((**hs)[batchFirst ? 0 : 1], name)) ||
                failed(hidden((**hs)[2], name))))
      return failure();
  }
  auto ps = ranked(p, "P", 2);
  if (failed(ps))
    return failure();
  if (*ps) {
    if (failed(dirDim((**ps)[0], "P")))
      return failure();
    int64_t three = (**ps)[1];
    if (three != kDyn && hidden.value != kDyn && three != 3 * hidden.value)
      return emitOptionalError(loc, "P must have ", 3 * hidden.value,
                               " columns (3 peepholes of hidden_size), got ",
                               three);
  }

  int64_t s = seq.value, n = batch.value, h = hidden.value;
  Shape y = batchFirst ? Shape{n, s, dirs, h} : Shape{s, dirs, n, h};
  Shape state = batchFirst ? Shape{n, dirs, h} : Shape{dirs, n, h};
  types.push_back(RankedTensorType::get(y, et));
  types.push_back(RankedTensorType::get(state, et));
  if (spec.gates == 4)
    types.push_back(RankedTensorType::get(state, et));
  return success();
}

} // namespace onnxcc
