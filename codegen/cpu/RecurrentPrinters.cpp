//===- RecurrentPrinters.cpp - RNN, GRU, LSTM calls -----------------------===//
//
// One call of onnxcc::rt::rnn / gru / lstm (runtime-support/onnxcc/
// recurrent.h) per layer: the sizes as an rnn_shape, optional inputs as
// nullptr, the scratch the planner reserved, and each direction's
// activation functions as functors with their alpha/beta.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

namespace {

/// `onnxcc::rt::act::leaky_relu{0.01f}` for one activation.
std::string activation(StringRef name, float alpha, float beta) {
  struct Spelling {
    const char *functor;
    int params; // 0, 1 (alpha) or 2 (alpha, beta)
  };
  Spelling s = llvm::StringSwitch<Spelling>(name)
                   .Case("Relu", {"relu", 0})
                   .Case("Tanh", {"tanh", 0})
                   .Case("Sigmoid", {"sigmoid", 0})
                   .Case("Affine", {"affine", 2})
                   .Case("LeakyRelu", {"leaky_relu", 1})
                   .Case("ThresholdedRelu", {"thresholded_relu", 1})
                   .Case("ScaledTanh", {"scaled_tanh", 2})
                   .Case("HardSigmoid", {"hard_sigmoid", 2})
                   .Case("Elu", {"elu", 1})
                   .Case("Softsign", {"softsign", 0})
                   .Default({"softplus", 0}); // the verifier allows no other
  std::string out = std::string("onnxcc::rt::act::") + s.functor + "{";
  if (s.params >= 1)
    out += formatFloat(alpha);
  if (s.params == 2)
    out += ", " + formatFloat(beta);
  return out + "}";
}

/// The functions of direction `d`: `onnxcc::rt::rnn_acts<F, G, H>{f, g, h}`.
template <typename OpTy> std::string directionActs(OpTy op, int64_t d) {
  int64_t nf = op.getNumFunctions();
  SmallVector<std::string> types, values;
  for (int64_t i = d * nf; i < (d + 1) * nf; ++i) {
    StringRef name = cast<StringAttr>(op.getActivations()[i]).getValue();
    std::string v = activation(name, op.getActivationAlpha()[i],
                               op.getActivationBeta()[i]);
    types.push_back(v.substr(0, v.find('{')));
    values.push_back(v);
  }
  return "onnxcc::rt::rnn_acts<" + llvm::join(types, ", ") + ">{" +
         llvm::join(values, ", ") + "}";
}

/// Prints the call; `extraInputs` / `extraOutputs` are the LSTM's.
template <typename OpTy>
LogicalResult printRecurrent(PrintContext &c, raw_indented_ostream &os, OpTy op,
                             StringRef fn, ArrayRef<Value> extraInputs,
                             ArrayRef<Value> extraOutputs, bool flag,
                             StringRef flagName) {
  auto x = staticShape(op.getX());
  bool batchFirst = op.getLayout() == 1;
  int direction = op.getDirection() == "forward"   ? 0
                  : op.getDirection() == "reverse" ? 1
                                                   : 2;
  std::string element = elementOf(op.getX());
  bool f64 = element == "double";
  auto opt = [&](Value v) { return v ? c.ptr(v) : std::string("nullptr"); };
  os << "onnxcc::rt::" << fn << "<onnxcc::rt::rnn_shape<"
     << x[batchFirst ? 1 : 0] << ", " << x[batchFirst ? 0 : 1] << ", " << x[2]
     << ", " << op.getHiddenSize() << ", " << direction << ", "
     << (batchFirst ? "true" : "false") << ", "
     << (op.getWTransposed() ? "true" : "false") << ", "
     << (op.getRTransposed() ? "true" : "false") << ">, " << element << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getX()) << ", " << c.ptr(op.getW()) << ", " << c.ptr(op.getR())
     << ",\n"
     << opt(op.getB()) << ", " << opt(op.getSequenceLens()) << ", "
     << opt(op.getInitialH());
  for (Value v : extraInputs)
    os << ", " << opt(v);
  os << ",\n" << c.ptr(op.getY()) << ", " << c.ptr(op.getYH());
  for (Value v : extraOutputs)
    os << ", " << c.ptr(v);
  os << ",\n"
     << c.scratch(op, f64 ? "double" : "float") << ", "
     << "/*clip=*/"
     << (op.getClip() ? formatFloat(op.getClip()->convertToFloat())
                      : std::string("0.0f"));
  if (!flagName.empty())
    os << ", /*" << flagName << "=*/" << (flag ? "true" : "false");
  std::string acts0 = directionActs(op, 0);
  os << ",\n" << acts0 << ",\n"
     << (direction == 2 ? directionActs(op, 1) : acts0) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printRNN(PrintContext &c, raw_indented_ostream &os, k::RNNOp op) {
  return printRecurrent(c, os, op, "rnn", {}, {}, false, /*flagName=*/"");
}

LogicalResult printGRU(PrintContext &c, raw_indented_ostream &os, k::GRUOp op) {
  return printRecurrent(c, os, op, "gru", {}, {}, op.getLinearBeforeReset(),
                        "linear_before_reset");
}

LogicalResult printLSTM(PrintContext &c, raw_indented_ostream &os, k::LSTMOp op) {
  return printRecurrent(c, os, op, "lstm", {op.getInitialC(), op.getP()},
                        {op.getYC()}, op.getInputForget(), "input_forget");
}

} // namespace

void addRecurrentPrinters(KernelPrinterTable &t) {
  addPrinter<k::RNNOp>(t, printRNN);
  addPrinter<k::GRUOp>(t, printGRU);
  addPrinter<k::LSTMOp>(t, printLSTM);
}

} // namespace onnxcc
