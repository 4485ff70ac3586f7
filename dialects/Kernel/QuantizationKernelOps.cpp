//===- QuantizationKernelOps.cpp - integer product kernel ops -------------===//
//
// The verifiers check what the runtime's loops index with: matrix and
// batch shapes, window attributes, and how many zero points there are.
//
//===----------------------------------------------------------------------===//
#include "dialects/Kernel/KernelOps.h"

#include "dialects/Onnx/TensorLimits.h"

using namespace mlir;
using namespace onnxcc::kernel;

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<ShapedType>(v.getType()).getShape(); }
Type elementOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

/// 8-bit integers, the inputs ONNX's integer products take.
LogicalResult check8Bit(Operation *op, StringRef name, Value v) {
  if (elementOf(v).isInteger(8))
    return success();
  return op->emitOpError() << name << " must have int8 or uint8 elements, got "
                           << elementOf(v);
}

/// A zero point: `of`'s element type, `n` values or one.
LogicalResult checkZeroPoint(Operation *op, StringRef name, Value zp, Value of,
                             int64_t n) {
  if (!zp)
    return success();
  if (elementOf(zp) != elementOf(of))
    return op->emitOpError() << name << " has elements of type " << elementOf(zp)
                             << ", expected " << elementOf(of);
  auto t = cast<ShapedType>(zp.getType());
  if (t.getRank() > 1 || (t.getNumElements() != 1 && t.getNumElements() != n))
    return op->emitOpError() << name << " must hold 1 or " << n
                             << " values in at most one dimension, got " << t;
  return success();
}

} // namespace

LogicalResult MatMulIntegerOp::verify() {
  if (failed(check8Bit(*this, "a", getA())) || failed(check8Bit(*this, "b", getB())))
    return failure();
  if (!elementOf(getOutput()).isSignlessInteger(32) &&
      !elementOf(getOutput()).isSignedInteger(32))
    return emitOpError() << "result must be int32, got " << elementOf(getOutput());
  auto a = shapeOf(getA()), b = shapeOf(getB()), y = shapeOf(getOutput());
  if (a.size() < 2 || b.size() < 2 || y.size() != std::max(a.size(), b.size()))
    return emitOpError() << "expects a and b of rank >= 2 and a result of the "
                            "larger rank";
  int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k || y[y.size() - 2] != m || y.back() != n)
    return emitOpError() << "shapes do not form a product: a is " << m << "x"
                         << k << ", b is " << b[b.size() - 2] << "x" << n
                         << ", result is " << y[y.size() - 2] << "x" << y.back();
  // Batch dimensions, right-aligned: each operand's is 1 or the result's.
  size_t batch = y.size() - 2;
  for (auto [name, s] : {std::pair{"a", a}, std::pair{"b", b}}) {
    size_t sb = s.size() - 2;
    for (size_t i = 0; i < sb; ++i) {
      int64_t d = s[i], out = y[batch - sb + i];
      if (d != 1 && d != out)
        return emitOpError() << name << "'s batch dimension " << i << " (" << d
                             << ") does not broadcast to " << out;
    }
  }
  return failure(failed(checkZeroPoint(*this, "a_zero_point", getAZeroPoint(), getA(), m)) ||
                 failed(checkZeroPoint(*this, "b_zero_point", getBZeroPoint(), getB(), n)));
}

LogicalResult ConvIntegerOp::verify() {
  if (failed(check8Bit(*this, "input", getInput())) ||
      failed(check8Bit(*this, "weight", getWeight())))
    return failure();
  if (!elementOf(getOutput()).isSignlessInteger(32) &&
      !elementOf(getOutput()).isSignedInteger(32))
    return emitOpError() << "result must be int32, got " << elementOf(getOutput());
  auto x = shapeOf(getInput()), w = shapeOf(getWeight()), y = shapeOf(getOutput());
  if (x.size() != 4 || w.size() != 4 || y.size() != 4)
    return emitOpError() << "expects NCHW input, OIHW weight and result";
  auto p = getPads(), s = getStrides(), d = getDilations();
  if (p.size() != 4 || s.size() != 2 || d.size() != 2)
    return emitOpError() << "expects 4 pads, 2 strides and 2 dilations";
  for (int i = 0; i < 2; ++i)
    if (s[i] < 1 || d[i] < 1 || s[i] > onnxcc::kMaxDim || d[i] > onnxcc::kMaxDim)
      return emitOpError() << "strides and dilations must be in [1, "
                           << onnxcc::kMaxDim << "]";
  for (int64_t pad : p)
    if (pad < 0 || pad > onnxcc::kMaxDim)
      return emitOpError() << "pads must be in [0, " << onnxcc::kMaxDim << "]";
  int64_t g = getGroup();
  if (g < 1 || w[0] % g || x[1] != w[1] * g)
    return emitOpError() << "group " << g << " does not divide " << w[0]
                         << " output channels over " << x[1] << " input channels";
  if (y[0] != x[0] || y[1] != w[0])
    return emitOpError() << "result " << y[0] << "x" << y[1]
                         << " must be batch x output channels (" << x[0] << "x"
                         << w[0] << ")";
  return failure(
      failed(checkZeroPoint(*this, "x_zero_point", getXZeroPoint(), getInput(), 1)) ||
      failed(checkZeroPoint(*this, "w_zero_point", getWZeroPoint(), getWeight(), w[0])));
}

LogicalResult DynamicQuantParamsOp::verify() {
  auto s = cast<ShapedType>(getScale().getType());
  auto z = cast<ShapedType>(getZeroPoint().getType());
  if (!elementOf(getInput()).isF32() || !s.getElementType().isF32() ||
      !z.getElementType().isUnsignedInteger(8) || s.getRank() != 0 ||
      z.getRank() != 0)
    return emitOpError() << "expects f32 input, an f32 scalar scale and a "
                            "ui8 scalar zero point";
  return success();
}
