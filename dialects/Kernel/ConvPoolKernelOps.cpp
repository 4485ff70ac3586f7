//===- ConvPoolKernelOps.cpp - verifiers of the windowed kernels ----------===//
//
// The runtime kernels clamp every window to the image, so a wrong shape
// cannot make them read out of bounds; these verifiers still check the
// geometry so that a lowering bug shows as an error, not a wrong answer.
//
//===----------------------------------------------------------------------===//
#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
using namespace onnxcc::kernel;

static ShapedType typeOf(Value v) { return cast<ShapedType>(v.getType()); }

/// Checks that the op's window lists describe `n` spatial axes, 1 to 3, and
/// that strides, dilations (and kernel, when given) are positive.
static LogicalResult verifyWindow(Operation *op, int64_t rank,
                                  ArrayRef<int64_t> kernel,
                                  ArrayRef<int64_t> pads,
                                  ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> dilations,
                                  bool hasKernel = true) {
  int64_t n = rank - 2;
  if (n < 1 || n > 3)
    return op->emitOpError() << "expects 1 to 3 spatial axes, got rank " << rank;
  if ((hasKernel && (int64_t)kernel.size() != n) ||
      (int64_t)pads.size() != 2 * n || (int64_t)strides.size() != n ||
      (int64_t)dilations.size() != n)
    return op->emitOpError() << "window lists do not describe " << n
                             << " spatial axes";
  auto positive = [](ArrayRef<int64_t> v) {
    return llvm::all_of(v, [](int64_t x) { return x >= 1; });
  };
  if (!positive(strides) || !positive(dilations) || (hasKernel && !positive(kernel)))
    return op->emitOpError() << "kernel, strides and dilations must be >= 1";
  return success();
}

/// floor((in + pads - dil*(k-1) - 1)/stride) + 1, the extent a window
/// slides over (no overflow: the values come from checked shapes).
static int64_t slideExtent(int64_t in, int64_t k, int64_t pb, int64_t pe,
                           int64_t s, int64_t d) {
  int64_t span = in + pb + pe - d * (k - 1) - 1;
  return span < 0 ? 0 : span / s + 1;
}

LogicalResult ConvOp::verify() {
  auto x = typeOf(getInput()).getShape(), w = typeOf(getWeight()).getShape(),
       y = typeOf(getOutput()).getShape();
  Type et = typeOf(getInput()).getElementType();
  if (typeOf(getWeight()).getElementType() != et ||
      typeOf(getOutput()).getElementType() != et ||
      (getBias() && typeOf(getBias()).getElementType() != et))
    return emitOpError() << "operands and result must share one element type";
  if (w.size() != x.size() || y.size() != x.size())
    return emitOpError() << "input, weight and result ranks differ";
  if (failed(verifyWindow(*this, x.size(), w.drop_front(2), getPads(),
                          getStrides(), getDilations())))
    return failure();
  int64_t g = getGroup(), n = x.size() - 2;
  if (g < 1 || w[0] % g != 0 || x[1] != w[1] * g || y[0] != x[0] || y[1] != w[0])
    return emitOpError() << "channels do not match: input " << x[1]
                         << ", weight " << w[0] << "x" << w[1] << ", group " << g;
  if (getBias() && typeOf(getBias()).getShape() != ArrayRef<int64_t>{w[0]})
    return emitOpError() << "bias must be [" << w[0] << "]";
  for (int64_t i = 0; i < n; ++i)
    if (y[2 + i] != slideExtent(x[2 + i], w[2 + i], getPads()[i],
                                getPads()[n + i], getStrides()[i],
                                getDilations()[i]))
      return emitOpError() << "output extent " << y[2 + i] << " of axis " << i
                           << " does not match the window";
  return success();
}

LogicalResult DeformConv2dOp::verify() {
  auto x = typeOf(getInput()).getShape(), w = typeOf(getWeight()).getShape(),
       y = typeOf(getOutput()).getShape();
  Type et = typeOf(getInput()).getElementType();
  if (!isa<FloatType>(et))
    return emitOpError() << "expects float elements, got " << et;
  for (Value v : {getWeight(), getOffset(), getBias(), getMask(), getOutput()})
    if (v && typeOf(v).getElementType() != et)
      return emitOpError() << "operands and result must share one element type";
  if (x.size() != 4 || w.size() != 4 || y.size() != 4)
    return emitOpError() << "expects rank-4 input, weight and result";
  if (failed(verifyWindow(*this, 4, w.drop_front(2), getPads(), getStrides(),
                          getDilations())))
    return failure();
  int64_t g = getGroup(), og = getOffsetGroup();
  if (g < 1 || w[0] % g != 0 || x[1] != w[1] * g || y[0] != x[0] ||
      y[1] != w[0] || og < 1 || x[1] % og != 0)
    return emitOpError() << "channels do not match: input " << x[1]
                         << ", weight " << w[0] << "x" << w[1] << ", group "
                         << g << ", offset_group " << og;
  int64_t taps = og * w[2] * w[3];
  auto expect = [&](Value v, int64_t channels) {
    return !v || typeOf(v).getShape() ==
                     ArrayRef<int64_t>{y[0], channels, y[2], y[3]};
  };
  if (!expect(getOffset(), 2 * taps) || !expect(getMask(), taps))
    return emitOpError() << "offset or mask shape does not match the window";
  if (getBias() && typeOf(getBias()).getShape() != ArrayRef<int64_t>{w[0]})
    return emitOpError() << "bias must be [" << w[0] << "]";
  for (int64_t i = 0; i < 2; ++i)
    if (y[2 + i] != slideExtent(x[2 + i], w[2 + i], getPads()[i],
                                getPads()[2 + i], getStrides()[i],
                                getDilations()[i]))
      return emitOpError() << "output extent " << y[2 + i] << " of axis " << i
                           << " does not match the window";
  return success();
}

LogicalResult ConvTransposeOp::verify() {
  auto x = typeOf(getInput()).getShape(), w = typeOf(getWeight()).getShape(),
       y = typeOf(getOutput()).getShape();
  Type et = typeOf(getInput()).getElementType();
  if (!et.isF32() && !et.isF64())
    return emitOpError() << "expects f32 or f64 elements, got " << et;
  if (typeOf(getWeight()).getElementType() != et ||
      typeOf(getOutput()).getElementType() != et ||
      (getBias() && typeOf(getBias()).getElementType() != et))
    return emitOpError() << "operands and result must share one element type";
  if (w.size() != x.size() || y.size() != x.size())
    return emitOpError() << "input, weight and result ranks differ";
  if (failed(verifyWindow(*this, x.size(), w.drop_front(2), getPads(),
                          getStrides(), getDilations())))
    return failure();
  int64_t g = getGroup();
  if (g < 1 || x[1] != w[0] || x[1] % g != 0 || y[0] != x[0] || y[1] != w[1] * g)
    return emitOpError() << "channels do not match: input " << x[1]
                         << ", weight " << w[0] << "x" << w[1] << ", group " << g;
  if (getBias() && typeOf(getBias()).getShape() != ArrayRef<int64_t>{y[1]})
    return emitOpError() << "bias must be [" << y[1] << "]";
  return success();
}

LogicalResult PoolOp::verify() {
  StringRef kind = getKind();
  if (kind != "max" && kind != "avg" && kind != "lp")
    return emitOpError() << "kind must be \"max\", \"avg\" or \"lp\", got \""
                         << kind << "\"";
  auto x = typeOf(getInput()), y = typeOf(getOutput());
  if (x.getElementType() != y.getElementType() || x.getRank() != y.getRank() ||
      x.getDimSize(0) != y.getDimSize(0) || x.getDimSize(1) != y.getDimSize(1))
    return emitOpError() << "result must keep the input's element type, N and C";
  if (failed(verifyWindow(*this, x.getRank(), getKernelShape(), getPads(),
                          getStrides(), getDilations())))
    return failure();
  if (getIndices()) {
    auto i = typeOf(getIndices());
    if (kind != "max" || !i.getElementType().isInteger(64) ||
        i.getShape() != y.getShape())
      return emitOpError() << "indices must be an i64 result of a max pool, "
                              "shaped like the output";
    if (getThreads() > 1)
      return emitOpError() << "a pool with indices runs on one thread";
  }
  if (getP() < 1 || getStorageOrder() < 0 || getStorageOrder() > 1)
    return emitOpError() << "p must be >= 1 and storage_order 0 or 1";
  return success();
}

LogicalResult GlobalPoolOp::verify() {
  StringRef kind = getKind();
  if (kind != "max" && kind != "avg" && kind != "lp")
    return emitOpError() << "kind must be \"max\", \"avg\" or \"lp\", got \""
                         << kind << "\"";
  auto x = typeOf(getInput()), y = typeOf(getOutput());
  if (x.getRank() < 3 || y.getRank() != x.getRank() ||
      x.getElementType() != y.getElementType() ||
      y.getNumElements() != x.getDimSize(0) * x.getDimSize(1) || getP() < 1)
    return emitOpError() << "expects [N, C, spatial...] -> [N, C, 1...] and p >= 1";
  return success();
}

LogicalResult MaxUnpoolOp::verify() {
  auto x = typeOf(getInput()), i = typeOf(getIndices()), y = typeOf(getOutput());
  ArrayRef<int64_t> unpooled = getUnpooledShape();
  if (x.getElementType() != y.getElementType() ||
      !i.getElementType().isInteger(64) || i.getShape() != x.getShape())
    return emitOpError() << "expects i64 indices shaped like the input and a "
                            "result of the input's element type";
  if ((int64_t)unpooled.size() != y.getRank())
    return emitOpError() << "unpooled_shape must have the result's rank";
  for (auto [u, d] : llvm::zip(unpooled, y.getShape()))
    if (u < 0 || u > d)
      return emitOpError() << "the result must contain unpooled_shape";
  return success();
}

LogicalResult Col2ImOp::verify() {
  auto x = typeOf(getInput()).getShape(), y = typeOf(getOutput()).getShape();
  if (typeOf(getInput()).getElementType() != typeOf(getOutput()).getElementType())
    return emitOpError() << "input and result element types differ";
  ArrayRef<int64_t> block = getBlockShape();
  if (x.size() != 3)
    return emitOpError() << "expects an input [N, C x block, blocks]";
  if (failed(verifyWindow(*this, y.size(), block, getPads(), getStrides(),
                          getDilations())))
    return failure();
  int64_t n = y.size() - 2, blockSize = 1, blocks = 1;
  for (int64_t i = 0; i < n; ++i) {
    blockSize *= block[i];
    blocks *= slideExtent(y[2 + i], block[i], getPads()[i], getPads()[n + i],
                          getStrides()[i], getDilations()[i]);
  }
  if (x[0] != y[0] || x[1] != y[1] * blockSize || x[2] != blocks)
    return emitOpError() << "input [" << x[0] << ", " << x[1] << ", " << x[2]
                         << "] does not hold " << blocks << " blocks of "
                         << blockSize << " for the result";
  return success();
}
