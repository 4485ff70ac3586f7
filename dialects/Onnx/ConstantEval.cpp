//===- ConstantEval.cpp - compile-time arithmetic on constants ------------===//
#include "dialects/Onnx/ConstantEval.h"

#include "dialects/Onnx/ConstantData.h"

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
