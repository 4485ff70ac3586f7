//===- ConstantEval.cpp - compile-time arithmetic on constants ------------===//
#include "dialects/Onnx/ConstantEval.h"

#include "dialects/Onnx/ConstantData.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace onnxcc {

std::vector<int64_t> broadcastIndices(ArrayRef<int64_t> out, ArrayRef<int64_t> in) {
  int64_t rank = out.size(), offset = rank - (int64_t)in.size();
  // Stride of `in` along each output dimension (0 where it broadcasts).
  SmallVector<int64_t> strides(rank, 0);
  for (int64_t d = (int64_t)in.size() - 1, s = 1; d >= 0; --d) {
    strides[d + offset] = in[d] == 1 ? 0 : s;
    s *= in[d];
  }
  int64_t total = 1;
  for (int64_t d : out)
    total *= d;
  std::vector<int64_t> indices;
  indices.reserve(total);
  SmallVector<int64_t> idx(rank, 0);
  int64_t at = 0;
  for (int64_t i = 0; i < total; ++i) {
    indices.push_back(at);
    for (int64_t d = rank - 1; d >= 0; --d) { // odometer
      at += strides[d];
      if (++idx[d] < out[d])
        break;
      at -= strides[d] * out[d];
      idx[d] = 0;
    }
  }
  return indices;
}

// Integers wrap around in two's complement (computed on uint64_t, where
// overflow is defined), as numpy and the generated code do.
static std::optional<int64_t> intOp(BinaryKind kind, int64_t x, int64_t y,
                                    bool isUnsigned) {
  uint64_t ux = x, uy = y;
  switch (kind) {
  case BinaryKind::Add: return static_cast<int64_t>(ux + uy);
  case BinaryKind::Sub: return static_cast<int64_t>(ux - uy);
  case BinaryKind::Mul: return static_cast<int64_t>(ux * uy);
  case BinaryKind::Div:
    if (y == 0)
      return std::nullopt;
    if (isUnsigned)
      return static_cast<int64_t>(ux / uy);
    if (x == INT64_MIN && y == -1) // overflows (a trap on x86): wraps
      return x;
    return x / y; // ONNX integer Div truncates toward zero, like C++
  }
  return std::nullopt;
}

static double floatOp(BinaryKind kind, double x, double y) {
  switch (kind) {
  case BinaryKind::Add: return x + y;
  case BinaryKind::Sub: return x - y;
  case BinaryKind::Mul: return x * y;
  case BinaryKind::Div: return x / y;
  }
  return 0;
}

ElementsAttr evalBinary(BinaryKind kind, ElementsAttr a, ElementsAttr b,
                        RankedTensorType type) {
  auto ai = broadcastIndices(type.getShape(), cast<ShapedType>(a.getType()).getShape());
  auto bi = broadcastIndices(type.getShape(), cast<ShapedType>(b.getType()).getShape());
  size_t n = ai.size();
  if (auto it = dyn_cast<IntegerType>(type.getElementType())) {
    std::vector<int64_t> av, bv, out(n);
    if (!readAsInt64s(a, av) || !readAsInt64s(b, bv))
      return {};
    for (size_t i = 0; i < n; ++i) {
      std::optional<int64_t> r = intOp(kind, av[ai[i]], bv[bi[i]], it.isUnsigned());
      if (!r)
        return {};
      out[i] = *r;
    }
    return makeElements(type, ArrayRef<int64_t>(out));
  }
  std::vector<double> av, bv, out(n);
  if (!readAsDoubles(a, av) || !readAsDoubles(b, bv))
    return {};
  for (size_t i = 0; i < n; ++i)
    out[i] = floatOp(kind, av[ai[i]], bv[bi[i]]);
  return makeElements(type, ArrayRef<double>(out));
}

} // namespace onnxcc

namespace onnxcc {

namespace {
enum class IntOp {
  Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or, Xor, Not, Neg,
  Abs, Sign, Mod, Max, Min, Where
};

std::optional<IntOp> intOpNamed(StringRef name) {
  return llvm::StringSwitch<std::optional<IntOp>>(name)
      .Case("onnx.equal", IntOp::Equal)
      .Case("onnx.less", IntOp::Less)
      .Case("onnx.less_or_equal", IntOp::LessOrEqual)
      .Case("onnx.greater", IntOp::Greater)
      .Case("onnx.greater_or_equal", IntOp::GreaterOrEqual)
      .Case("onnx.and", IntOp::And)
      .Case("onnx.or", IntOp::Or)
      .Case("onnx.xor", IntOp::Xor)
      .Case("onnx.not", IntOp::Not)
      .Case("onnx.neg", IntOp::Neg)
      .Case("onnx.abs", IntOp::Abs)
      .Case("onnx.sign", IntOp::Sign)
      .Case("onnx.mod", IntOp::Mod)
      .Case("onnx.max", IntOp::Max)
      .Case("onnx.min", IntOp::Min)
      .Case("onnx.where", IntOp::Where)
      .Default(std::nullopt);
}

/// One element. Values are int64 (unsigned types compared as uint64);
/// arithmetic wraps like the generated code.
std::optional<int64_t> intElement(IntOp op, ArrayRef<int64_t> x, bool isUnsigned,
                                  bool fmod) {
  auto lt = [&](int64_t a, int64_t b) {
    return isUnsigned ? uint64_t(a) < uint64_t(b) : a < b;
  };
  int64_t a = x[0], b = x.size() > 1 ? x[1] : 0;
  switch (op) {
  case IntOp::Equal: return a == b;
  case IntOp::Less: return lt(a, b);
  case IntOp::LessOrEqual: return !lt(b, a);
  case IntOp::Greater: return lt(b, a);
  case IntOp::GreaterOrEqual: return !lt(a, b);
  case IntOp::And: return (a != 0) && (b != 0);
  case IntOp::Or: return (a != 0) || (b != 0);
  case IntOp::Xor: return (a != 0) != (b != 0);
  case IntOp::Not: return a == 0;
  case IntOp::Neg: return int64_t(0 - uint64_t(a));
  case IntOp::Abs: return isUnsigned || a >= 0 ? a : int64_t(0 - uint64_t(a));
  case IntOp::Sign: return isUnsigned ? int64_t(a != 0) : int64_t((a > 0) - (a < 0));
  case IntOp::Mod: {
    if (b == 0)
      return std::nullopt;
    if (isUnsigned)
      return int64_t(uint64_t(a) % uint64_t(b));
    if (b == -1) // INT64_MIN % -1 traps in C++; the remainder is 0
      return 0;
    int64_t r = a % b; // fmod: the sign of the dividend, like C
    if (!fmod && r != 0 && ((r < 0) != (b < 0)))
      r += b; // Python's %: the sign of the divisor
    return r;
  }
  case IntOp::Max:
  case IntOp::Min: {
    int64_t best = x[0];
    for (int64_t v : x.drop_front())
      if (op == IntOp::Max ? lt(best, v) : lt(v, best))
        best = v;
    return best;
  }
  case IntOp::Where: return x[0] ? x[1] : x[2];
  }
  return std::nullopt;
}
} // namespace

ElementsAttr evalIntElementwise(StringRef opName, ArrayRef<ElementsAttr> operands,
                                RankedTensorType type, bool fmod) {
  std::optional<IntOp> op = intOpNamed(opName);
  if (!op || operands.empty() || !type.hasStaticShape() ||
      !isa<IntegerType>(type.getElementType()))
    return {};
  // Comparisons and Where read operands of another type than they give:
  // every operand must be an integer or bool (Where's branches too).
  bool isUnsigned = false;
  std::vector<std::vector<int64_t>> values(operands.size());
  std::vector<std::vector<int64_t>> index(operands.size());
  for (size_t k = 0; k < operands.size(); ++k) {
    auto t = cast<ShapedType>(operands[k].getType());
    auto it = dyn_cast<IntegerType>(t.getElementType());
    if (!it || !readAsInt64s(operands[k], values[k]))
      return {};
    if (!(*op == IntOp::Where && k == 0))
      isUnsigned = isUnsigned || it.isUnsigned();
    index[k] = broadcastIndices(type.getShape(), t.getShape());
  }
  int64_t n = type.getNumElements();
  std::vector<int64_t> out(n);
  SmallVector<int64_t> x(operands.size());
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < operands.size(); ++k)
      x[k] = values[k][index[k][i]];
    std::optional<int64_t> r = intElement(*op, x, isUnsigned, fmod);
    if (!r)
      return {};
    out[i] = *r;
  }
  return makeElements(type, ArrayRef<int64_t>(out));
}

} // namespace onnxcc
