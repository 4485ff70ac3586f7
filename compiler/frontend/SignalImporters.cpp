//===- SignalImporters.cpp - window functions and mel filter banks --------===//
//
// HannWindow, HammingWindow, BlackmanWindow and MelWeightMatrix produce a
// tensor that depends only on scalar inputs. With those constant (bound with
// --const-input when they are graph inputs) the whole op is a constant,
// computed here the way onnx.reference computes it (in double, then stored
// as output_datatype).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/GraphInputs.h"
#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include <cmath>

using namespace mlir;
namespace o = ::onnxcc::onnx;

namespace onnxcc {
namespace {

/// `d` as an error message prints it.
std::string num(double d) {
  std::string s;
  llvm::raw_string_ostream(s) << d;
  return s;
}

/// Input `i` as one constant number, or an error naming the graph input
/// to bind.
FailureOr<double> scalarInput(NodeContext &n, unsigned i, StringRef what) {
  Value v = n.operand(i);
  std::vector<double> values;
  ElementsAttr e = v ? getConstantElements(v) : nullptr;
  if (!e || !readAsDoubles(e, values) || values.size() != 1) {
    std::string input = v ? graphInputName(v) : "";
    return n.error(what + " must be a constant scalar" +
                   (input.empty() ? "" : constInputHint(input)));
  }
  return values[0];
}

/// The element type of `output_datatype` (float by default), or an error.
Type outputElementType(NodeContext &n) {
  int64_t dtype = n.getInt("output_datatype", ::onnx::TensorProto::FLOAT);
  Type t = elementTypeFor(n.builder.getContext(), (int32_t)dtype);
  if (!t || !(isa<FloatType>(t) || isa<IntegerType>(t)))
    (void)n.error("output_datatype " + Twine(dtype) + " is not supported");
  return t;
}

LogicalResult pushConstant(NodeContext &n, ArrayRef<int64_t> shape, Type element,
                           ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, element);
  ElementsAttr attr = makeElements(type, values);
  if (!attr)
    return n.error("cannot build a constant of " + Twine(values.size()) +
                   " elements");
  n.results.push_back(o::ConstantOp::create(n.builder, n.loc, type, attr));
  return success();
}

enum class Window { Hann, Hamming, Blackman };

template <Window kind> LogicalResult importWindow(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  FailureOr<double> size = scalarInput(n, 0, "the window size");
  Type element = outputElementType(n);
  if (failed(size) || !element)
    return failure();
  if (*size < 0 || *size > (double)kMaxDim || *size != std::floor(*size))
    return n.error("window size " + num(*size) + " is not a length");
  int64_t count = (int64_t)*size;
  // periodic (the default) divides by N, symmetric by N - 1.
  double denom = n.getInt("periodic", 1) ? (double)count : (double)count - 1;
  std::vector<double> w(count);
  for (int64_t i = 0; i < count; ++i) {
    double x = M_PI * (double)i / denom;
    switch (kind) {
    case Window::Hann:
      w[i] = std::sin(x) * std::sin(x);
      break;
    case Window::Hamming: {
      double alpha = 25.0 / 46.0;
      w[i] = alpha - (1 - alpha) * std::cos(2 * x);
      break;
    }
    case Window::Blackman:
      w[i] = 0.42 - 0.5 * std::cos(2 * x) + 0.08 * std::cos(4 * x);
      break;
    }
  }
  return pushConstant(n, {count}, element, w);
}

/// The triangular mel filters over the dft_length / 2 + 1 spectrogram bins.
LogicalResult importMelWeightMatrix(NodeContext &n) {
  if (failed(n.arity(5, 5)))
    return failure();
  FailureOr<double> bins = scalarInput(n, 0, "num_mel_bins"),
                    dft = scalarInput(n, 1, "dft_length"),
                    rate = scalarInput(n, 2, "sample_rate"),
                    lower = scalarInput(n, 3, "lower_edge_hertz"),
                    upper = scalarInput(n, 4, "upper_edge_hertz");
  Type element = outputElementType(n);
  if (failed(bins) || failed(dft) || failed(rate) || failed(lower) ||
      failed(upper) || !element)
    return failure();
  if (*bins < 1 || *bins > 1e6 || *dft < 1 || *dft > 1e8 || *rate <= 0 ||
      !(*lower >= 0) || !(*upper > *lower))
    return n.error("num_mel_bins " + num(*bins) + ", dft_length " +
                   num(*dft) + ", sample_rate " + num(*rate) +
                   ", edges " + num(*lower) + ".." + num(*upper) +
                   " do not describe a filter bank");
  int64_t numMel = (int64_t)*bins, length = (int64_t)*dft;
  int64_t spectrum = length / 2 + 1;
  auto toMel = [](double hz) { return 2595 * std::log1p(hz / 700) / std::log(10.0); };
  double lowMel = toMel(*lower), highMel = toMel(*upper);
  double step = (highMel - lowMel) / (double)(numMel + 2);
  std::vector<int64_t> edge(numMel + 2);
  for (int64_t i = 0; i < numMel + 2; ++i) {
    double hz = 700 * std::expm1(((double)i * step + lowMel) / 2595 * std::log(10.0));
    edge[i] = (int64_t)std::floor(((double)length + 1) * hz / *rate);
    // The last edge only bounds the last filter from above.
    int64_t limit = i == numMel + 1 ? spectrum + 1 : spectrum;
    if (edge[i] < 0 || edge[i] >= limit)
      return n.error("mel edge " + Twine(i) + " falls on spectrogram bin " +
                     Twine(edge[i]) + ", outside the " + Twine(spectrum) +
                     " bins of dft_length " + Twine(length));
  }
  std::vector<double> w(spectrum * numMel, 0.0);
  for (int64_t i = 0; i < numMel; ++i) {
    int64_t left = edge[i], center = edge[i + 1], right = edge[i + 2];
    if (center == left)
      w[center * numMel + i] = 1;
    else
      for (int64_t j = left; j <= center; ++j)
        w[j * numMel + i] = double(j - left) / double(center - left);
    for (int64_t j = center; j < right; ++j)
      w[j * numMel + i] = double(right - j) / double(right - center);
  }
  return pushConstant(n, {spectrum, numMel}, element, w);
}

} // namespace

void addSignalImporters(llvm::StringMap<OpImportFn> &t) {
  t["HannWindow"] = importWindow<Window::Hann>;
  t["HammingWindow"] = importWindow<Window::Hamming>;
  t["BlackmanWindow"] = importWindow<Window::Blackman>;
  t["MelWeightMatrix"] = importMelWeightMatrix;
}

} // namespace onnxcc
