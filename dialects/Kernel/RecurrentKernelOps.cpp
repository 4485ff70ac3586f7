//===- RecurrentKernelOps.cpp - RNN, GRU, LSTM kernel ops -----------------===//
//
// The verifier checks every operand and result shape against the sizes
// X, R and the attributes give, so that the runtime (which trusts its
// template arguments) never reads or writes outside a buffer.
//
//===----------------------------------------------------------------------===//
#include "dialects/Kernel/KernelOps.h"

#include "dialects/Onnx/TensorLimits.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace onnxcc::kernel;

namespace {

/// The functions the runtime implements (runtime-support/onnxcc/recurrent.h).
bool isKnownActivation(StringRef name) {
  return llvm::is_contained(
      {"Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu",
       "ScaledTanh", "HardSigmoid", "Elu", "Softsign", "Softplus"},
      name);
}

std::string shapeStr(ArrayRef<int64_t> s) {
  return "[" + llvm::join(llvm::map_range(s, [](int64_t d) { return std::to_string(d); }), ", ") + "]";
}

/// The sizes of one layer: sequence, batch, input, hidden, directions.
struct Sizes {
  int64_t seq, batch, input, hidden, dirs;
};

template <typename OpTy>
LogicalResult verifyRecurrent(OpTy op, int64_t gates, int64_t functions,
                              Value initialC, Value p, Value yC) {
  int64_t dirs = op.getDirection() == "bidirectional" ? 2
                 : op.getDirection() == "forward" || op.getDirection() == "reverse"
                     ? 1
                     : 0;
  if (!dirs)
    return op.emitOpError() << "unknown direction '" << op.getDirection() << "'";
  if (op.getLayout() != 0 && op.getLayout() != 1)
    return op.emitOpError() << "layout must be 0 or 1, got " << op.getLayout();
  int64_t numActs = functions * dirs;
  if ((int64_t)op.getActivations().size() != numActs ||
      (int64_t)op.getActivationAlpha().size() != numActs ||
      (int64_t)op.getActivationBeta().size() != numActs)
    return op.emitOpError() << "expects " << numActs
                            << " activations with one alpha and beta each";
  for (Attribute a : op.getActivations())
    if (!isKnownActivation(cast<StringAttr>(a).getValue()))
      return op.emitOpError() << "unknown activation " << a;
  if (op.getClip() && !(op.getClip()->convertToDouble() > 0))
    return op.emitOpError() << "clip must be positive";

  auto shape = [](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
  Type et = cast<ShapedType>(op.getX().getType()).getElementType();
  if (!et.isF32() && !et.isF64() && !et.isF16() && !et.isBF16())
    return op.emitOpError() << "expects f16, bf16, f32 or f64 elements, got " << et;
  if (op.getRTransposed() && !et.isF32())
    return op.emitOpError() << "lays R out transposed only for f32, got " << et;
  auto x = shape(op.getX()), r = shape(op.getR());
  if (x.size() != 3 || r.size() != 3)
    return op.emitOpError() << "expects X and R of rank 3";
  bool batchFirst = op.getLayout() == 1;
  int64_t h = op.getHiddenSize();
  if (h < 1 || h > onnxcc::kMaxDim)
    return op.emitOpError() << "hidden_size must be in [1, " << onnxcc::kMaxDim
                            << "], got " << h;
  Sizes s{x[batchFirst ? 1 : 0], x[batchFirst ? 0 : 1], x[2], h, dirs};
  // Every tensor of the layer and the shape it must have.
  SmallVector<std::tuple<StringRef, Value, SmallVector<int64_t, 4>>> want = {
      {"W", op.getW(),
       op.getWTransposed() ? SmallVector<int64_t, 4>{dirs, s.input, gates * h}
                           : SmallVector<int64_t, 4>{dirs, gates * h, s.input}},
      {"R", op.getR(),
       op.getRTransposed() ? SmallVector<int64_t, 4>{dirs, h, gates * h}
                           : SmallVector<int64_t, 4>{dirs, gates * h, h}},
      {"B", op.getB(), {dirs, 2 * gates * h}},
      {"sequence_lens", op.getSequenceLens(), {s.batch}},
      {"initial_h", op.getInitialH(),
       batchFirst ? SmallVector<int64_t, 4>{s.batch, dirs, h}
                  : SmallVector<int64_t, 4>{dirs, s.batch, h}},
      {"initial_c", initialC,
       batchFirst ? SmallVector<int64_t, 4>{s.batch, dirs, h}
                  : SmallVector<int64_t, 4>{dirs, s.batch, h}},
      {"P", p, {dirs, 3 * h}},
      {"Y", op.getY(),
       batchFirst ? SmallVector<int64_t, 4>{s.batch, s.seq, dirs, h}
                  : SmallVector<int64_t, 4>{s.seq, dirs, s.batch, h}},
      {"Y_h", op.getYH(),
       batchFirst ? SmallVector<int64_t, 4>{s.batch, dirs, h}
                  : SmallVector<int64_t, 4>{dirs, s.batch, h}},
      {"Y_c", yC,
       batchFirst ? SmallVector<int64_t, 4>{s.batch, dirs, h}
                  : SmallVector<int64_t, 4>{dirs, s.batch, h}}};
  for (auto &[name, v, expected] : want) {
    if (!v)
      continue;
    Type vt = cast<ShapedType>(v.getType()).getElementType();
    bool isLens = name == "sequence_lens";
    if (isLens ? !vt.isInteger(32) : vt != et)
      return op.emitOpError() << name << " has elements of type " << vt
                              << ", expected " << (isLens ? "i32" : "the type of X");
    if (shape(v) != ArrayRef<int64_t>(expected))
      return op.emitOpError() << name << " has shape " << shapeStr(shape(v))
                              << ", expected " << shapeStr(expected);
  }
  return success();
}

/// Mirrors onnxcc::rt::recurrent_scratch_elements (recurrent.h): the input
/// projection of every step, one step's gates, the summed biases and four
/// [batch, hidden] state buffers, in the compute type (f64 for f64, else
/// f32). INT64_MAX when that overflows.
int64_t scratchBytes(Operation *op, Value x, int64_t gates, int64_t hidden,
                     int64_t layout) {
  auto type = cast<ShapedType>(x.getType());
  auto xs = type.getShape();
  int64_t seq = xs[layout ? 1 : 0], batch = xs[layout ? 0 : 1];
  onnxcc::CheckedInt gh = onnxcc::CheckedInt(gates) * hidden;
  onnxcc::CheckedInt n = (onnxcc::CheckedInt(seq) * batch + batch) * gh + gh +
                         hidden + onnxcc::CheckedInt(4) * batch * hidden;
  onnxcc::CheckedInt bytes = n * (type.getElementType().isF64() ? 8 : 4);
  (void)op;
  return bytes.overflowed() ? INT64_MAX : *bytes;
}

} // namespace

int64_t RNNOp::getNumGates() { return 1; }
int64_t RNNOp::getNumFunctions() { return 1; }
int64_t GRUOp::getNumGates() { return 3; }
int64_t GRUOp::getNumFunctions() { return 2; }
int64_t LSTMOp::getNumGates() { return 4; }
int64_t LSTMOp::getNumFunctions() { return 3; }

LogicalResult RNNOp::verify() {
  return verifyRecurrent(*this, 1, 1, Value(), Value(), Value());
}
LogicalResult GRUOp::verify() {
  return verifyRecurrent(*this, 3, 2, Value(), Value(), Value());
}
LogicalResult LSTMOp::verify() {
  return verifyRecurrent(*this, 4, 3, getInitialC(), getP(), getYC());
}

int64_t RNNOp::getScratchBytes() {
  return scratchBytes(*this, getX(), 1, getHiddenSize(), getLayout());
}
int64_t GRUOp::getScratchBytes() {
  return scratchBytes(*this, getX(), 3, getHiddenSize(), getLayout());
}
int64_t LSTMOp::getScratchBytes() {
  return scratchBytes(*this, getX(), 4, getHiddenSize(), getLayout());
}
