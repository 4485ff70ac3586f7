//===- ImageOps.cpp - verifiers of the resizing kernel ops ----------------===//
#include "dialects/Kernel/KernelOps.h"

#include <cmath>

using namespace mlir;
using namespace onnxcc::kernel;

LogicalResult ResizeAxisOp::verify() {
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getType());
  int64_t axis = getAxis(), taps = getTaps();
  if (axis < 0 || axis >= in.getRank() || in.getRank() != out.getRank())
    return emitOpError() << "axis " << axis << " is outside ranks " << in.getRank()
                         << " and " << out.getRank();
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (d != axis && in.getDimSize(d) != out.getDimSize(d))
      return emitOpError() << "changes dimension " << d << ", not only axis " << axis;
  int64_t width = out.getDimSize(axis), inWidth = in.getDimSize(axis);
  if (taps < 1 || (int64_t)getIndices().size() != width * taps)
    return emitOpError() << "has " << getIndices().size() << " indices for "
                         << width << " outputs of " << taps << " taps";
  for (int64_t j = 0; j < width * taps; ++j) {
    int64_t i = getIndices()[j];
    bool extrapolated = i == -1 && j % taps == 0;
    if (!extrapolated && (i < 0 || i >= inWidth))
      return emitOpError() << "index " << i << " is outside [0, " << inWidth << ")";
  }
  if (getWeights().empty()) {
    if (taps != 1 || in.getElementType() != out.getElementType())
      return emitOpError() << "gathers (no weights) with " << taps
                           << " taps or a change of element type";
    return success();
  }
  if (getWeights().size() != getIndices().size())
    return emitOpError() << "has " << getWeights().size() << " weights for "
                         << getIndices().size() << " indices";
  for (double w : getWeights())
    if (!std::isfinite(w))
      return emitOpError() << "has a weight of " << w;
  if (!isa<FloatType, IntegerType>(in.getElementType()) ||
      !isa<FloatType, IntegerType>(out.getElementType()) ||
      in.getElementType().isInteger(1) || out.getElementType().isInteger(1))
    return emitOpError() << "interpolates " << in.getElementType() << " into "
                         << out.getElementType() << ": numbers only";
  return success();
}
