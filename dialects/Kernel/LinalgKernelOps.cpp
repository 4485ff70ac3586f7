//===- LinalgKernelOps.cpp - verifiers of batch_matmul and strided_copy ---===//
#include "dialects/Kernel/KernelOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace onnxcc::kernel;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

LogicalResult BatchMatMulOp::verify() {
  auto a = shapeOf(getA()), b = shapeOf(getB()), y = shapeOf(getOutput());
  Type et = cast<ShapedType>(getA().getType()).getElementType();
  if (cast<ShapedType>(getB().getType()).getElementType() != et ||
      cast<ShapedType>(getType()).getElementType() != et)
    return emitOpError() << "operands and result must share one element type";
  if (a.size() < 3 || b.size() != a.size() || y.size() != a.size())
    return emitOpError() << "expects operands and result of one rank >= 3, got "
                         << a.size() << ", " << b.size() << " and " << y.size();
  size_t r = a.size() - 2;
  if (a[r + 1] != b[r] || y[r] != a[r] || y[r + 1] != b[r + 1])
    return emitOpError() << "shapes do not form a product: [" << a[r] << ", "
                         << a[r + 1] << "] x [" << b[r] << ", " << b[r + 1]
                         << "] -> [" << y[r] << ", " << y[r + 1] << "]";
  for (size_t d = 0; d < r; ++d) {
    int64_t want = a[d] == 1 ? b[d] : a[d];
    if ((a[d] != 1 && b[d] != 1 && a[d] != b[d]) || y[d] != want)
      return emitOpError() << "batch dim " << d << " (" << a[d] << " and "
                           << b[d] << ") does not broadcast to " << y[d];
  }
  return success();
}

LogicalResult StridedCopyOp::verify() {
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getType());
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "input and result element types differ";
  ArrayRef<int64_t> strides = getStrides();
  if ((int64_t)strides.size() != out.getRank() || out.getRank() == 0)
    return emitOpError() << "expects one stride per result dim (rank >= 1), got "
                         << strides.size() << " for rank " << out.getRank();
  if (out.getNumElements() == 0)
    return success();
  // The last element read must lie inside the input.
  int64_t last = 0;
  for (auto [d, s] : llvm::zip(out.getShape(), strides)) {
    if (s < 0 || s > in.getNumElements())
      return emitOpError() << "stride " << s << " is outside [0, "
                           << in.getNumElements() << "]";
    int64_t step;
    if (llvm::MulOverflow(d - 1, s, step) || llvm::AddOverflow(last, step, last))
      return emitOpError() << "strides overflow";
  }
  if (last >= in.getNumElements())
    return emitOpError() << "reads element " << last << " of an input of "
                         << in.getNumElements();
  return success();
}
