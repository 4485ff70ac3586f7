//===- Compare.cpp - outputs against references, any element type --------===//
#include "compiler/Compare.h"

#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/TensorLimits.h"
#include "llvm/ADT/APFloat.h"
#include "mlir/IR/BuiltinTypes.h"
#include <cmath>
#include <cstring>

using namespace mlir;

namespace onnxcc {

/// Element `i` of a buffer of `element` values, as a double (exact for
/// integers up to 2^53; integers are compared through their bits too).
static double valueAt(Type element, const char *data, size_t i, uint64_t &bits) {
  int64_t width = elementBytes(element);
  bits = 0;
  std::memcpy(&bits, data + i * width, width);
  if (element.isF32()) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  if (element.isF64()) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (auto ft = dyn_cast<FloatType>(element))
    return llvm::APFloat(ft.getFloatSemantics(),
                         llvm::APInt(ft.getWidth(), bits))
        .convertToDouble();
  if (element.isUnsignedInteger() || element.isInteger(1) || width == 8)
    return element.isSignlessInteger(64) ? (double)(int64_t)bits : (double)bits;
  int shift = 64 - 8 * width; // sign-extend narrow signed integers
  return (double)((int64_t)(bits << shift) >> shift);
}

Comparison compareTensors(Type element, ArrayRef<char> got, ArrayRef<char> ref,
                          double atol, double rtol) {
  Comparison c;
  int64_t width = elementBytes(element);
  if (!width)
    return c;
  c.count = ref.size() / width;
  bool exact = !isa<FloatType>(element);
  for (size_t i = 0; i < c.count; ++i) {
    uint64_t gb, rb;
    double g = valueAt(element, got.data(), i, gb);
    double r = valueAt(element, ref.data(), i, rb);
    double diff;
    if (exact) // integers differ by at least 1, even beyond 2^53
      diff = gb == rb ? 0.0 : std::max(std::fabs(g - r), 1.0);
    else if (std::isnan(g) || std::isnan(r))
      diff = std::isnan(g) && std::isnan(r) ? 0.0 : INFINITY;
    else
      diff = g == r ? 0.0 : std::fabs(g - r); // equal infinities too
    double rel = diff / std::max(std::fabs(r), 1e-30);
    if (diff > c.maxAbs) {
      c.maxAbs = diff;
      c.worst = i;
    }
    c.maxRel = std::max(c.maxRel, rel);
    // NaN against NaN (whose tolerance is NaN) and equal infinities agree;
    // an infinite difference never does, though an infinite reference
    // makes the tolerance infinite too.
    bool ok = exact ? gb == rb
                    : diff == 0.0 || (std::isfinite(diff) &&
                                      diff <= atol + rtol * std::fabs(r));
    c.mismatches += !ok;
  }
  if (c.count) {
    uint64_t bits;
    auto show = [&](const char *data) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.9g", valueAt(element, data, c.worst, bits));
      return std::string(buf);
    };
    c.gotWorst = show(got.data());
    c.wantWorst = show(ref.data());
  }
  return c;
}

bool packStrings(ArrayRef<std::string> strings, std::vector<char> &out) {
  for (const std::string &s : strings) {
    if (s.find('\0') != std::string::npos)
      return false;
    out.insert(out.end(), s.begin(), s.end());
    out.push_back('\0');
  }
  return true;
}

Comparison compareStrings(ArrayRef<char> got, ArrayRef<std::string> ref) {
  Comparison c;
  c.count = ref.size();
  StringRef rest(got.data(), got.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    size_t end = rest.find('\0');
    bool present = end != StringRef::npos;
    StringRef g = present ? rest.take_front(end) : StringRef();
    rest = present ? rest.drop_front(end + 1) : StringRef();
    if (present && g == ref[i])
      continue;
    if (!c.mismatches++) {
      c.worst = i;
      c.gotWorst = present ? "'" + messageText(g) + "'" : "nothing";
      c.wantWorst = "'" + messageText(ref[i]) + "'";
    }
    c.maxAbs = c.maxRel = 1;
  }
  return c;
}

} // namespace onnxcc
