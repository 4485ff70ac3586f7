//===- ReductionKernelOps.cpp - verifiers of the reduction kernels -------===//
#include "dialects/Kernel/KernelOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace onnxcc::kernel;

/// `in` with the dims of `axes` set to 1.
static SmallVector<int64_t> keptShape(ArrayRef<int64_t> in, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> out(in);
  for (int64_t a : axes)
    out[a] = 1;
  return out;
}

LogicalResult ReduceOp::verify() {
  static const StringRef kinds[] = {"sum", "mean",    "max",         "min",
                                    "prod", "l1",      "l2",          "log_sum",
                                    "log_sum_exp", "sum_square"};
  if (!llvm::is_contained(kinds, getKind()))
    return emitOpError() << "unknown reduction kind \"" << getKind() << "\"";
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getType());
  int64_t rank = in.getRank(), last = -1;
  for (int64_t a : getAxes()) {
    if (a <= last || a >= rank)
      return emitOpError() << "axes must increase inside [0, " << rank
                           << "), got " << a << " after " << last;
    last = a;
  }
  if (in.getElementType() != out.getElementType() ||
      out.getShape() != ArrayRef<int64_t>(keptShape(in.getShape(), getAxes())))
    return emitOpError() << "result " << out << " is not " << in
                         << " with the reduced axes set to 1";
  return success();
}

LogicalResult ArgReduceOp::verify() {
  if (getKind() != "max" && getKind() != "min")
    return emitOpError() << "kind must be \"max\" or \"min\", got \""
                         << getKind() << "\"";
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= in.getRank())
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << in.getRank();
  if (!out.getElementType().isInteger(64) ||
      out.getShape() != ArrayRef<int64_t>(keptShape(in.getShape(), {axis})))
    return emitOpError() << "result " << out << " is not an i64 tensor of "
                         << in.getShape().size() << " dims with axis " << axis
                         << " set to 1";
  return success();
}
