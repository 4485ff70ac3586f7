//===- ImageShapes.cpp - type rules of the resizing ops -------------------===//
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/OnnxOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {

template <typename T> static ResizeAttrs readResizeAttrs(T op) {
  ResizeAttrs a;
  a.mode = op.getMode().str();
  a.coordinateMode = op.getCoordinateTransformationMode().str();
  a.nearestMode = op.getNearestMode().str();
  a.aspectPolicy = op.getKeepAspectRatioPolicy().str();
  a.cubicCoeffA = op.getCubicCoeffA().convertToDouble();
  a.excludeOutside = op.getExcludeOutside() != 0;
  a.antialias = op.getAntialias() != 0;
  a.extrapolationValue = op.getExtrapolationValue().convertToDouble();
  if (auto axes = op.getAxes())
    a.axes.assign(axes->begin(), axes->end());
  return a;
}

ResizeAttrs onnx::ResizeOp::getResizeAttrs() { return readResizeAttrs(*this); }

/// A constant operand's values as doubles: nullopt if absent or empty
/// (ONNX passes "" or an empty tensor for an unused roi/scales), failure if
/// present but not (yet) a constant.
static FailureOr<std::optional<std::vector<double>>> constDoubles(Value v) {
  if (!v)
    return std::optional<std::vector<double>>();
  ElementsAttr e = getConstantElements(v);
  std::vector<double> out;
  if (!e || !readAsDoubles(e, out))
    return failure();
  if (out.empty())
    return std::optional<std::vector<double>>();
  return std::optional<std::vector<double>>(out);
}

/// The plan of a Resize; nullopt while its input shape or its scales,
/// sizes and roi are not yet known.
static FailureOr<std::optional<ResizePlan>>
planOf(std::optional<Location> loc, onnx::ResizeOp::Adaptor adaptor) {
  auto unknown = [] { return std::optional<ResizePlan>(); };
  auto x = shapeOf(adaptor.getInput());
  auto roi = constDoubles(adaptor.getRoi());
  auto scales = constDoubles(adaptor.getScales());
  auto sizesD = constDoubles(adaptor.getSizes());
  if (!x || llvm::any_of(*x, ShapedType::isDynamic) || failed(roi) ||
      failed(scales) || failed(sizesD))
    return unknown();
  ResizeAttrs attrs = readResizeAttrs(adaptor);
  std::optional<std::vector<int64_t>> sizes;
  if (*sizesD)
    sizes = constInts(adaptor.getSizes());
  std::optional<ArrayRef<double>> scalesRef, roiRef;
  std::optional<ArrayRef<int64_t>> sizesRef;
  if (*scales)
    scalesRef = ArrayRef<double>(**scales);
  if (sizes)
    sizesRef = ArrayRef<int64_t>(*sizes);
  if (*roi)
    roiRef = ArrayRef<double>(**roi);
  if (scalesRef && sizesRef)
    return emitOptionalError(loc, "takes scales or sizes, not both");
  auto plan = planResize(loc, *x, attrs, scalesRef, sizesRef, roiRef);
  if (failed(plan))
    return failure();
  return std::optional<ResizePlan>(std::move(*plan));
}

FailureOr<ResizePlan> onnx::ResizeOp::getPlan() {
  auto plan = planOf(getLoc(), Adaptor(*this));
  if (failed(plan) || !*plan)
    return failure();
  return std::move(**plan);
}

LogicalResult inferResizeTypes(std::optional<Location> loc,
                               onnx::ResizeOp::Adaptor adaptor,
                               SmallVectorImpl<Type> &types) {
  Type element = getElementTypeOrSelf(adaptor.getInput().getType());
  auto plan = planOf(loc, adaptor);
  if (failed(plan))
    return failure();
  if (!*plan)
    types.push_back(UnrankedTensorType::get(element));
  else
    types.push_back(RankedTensorType::get((*plan)->outShape, element));
  return success();
}

LogicalResult inferGridSampleTypes(std::optional<Location> loc,
                                   onnx::GridSampleOp::Adaptor adaptor,
                                   SmallVectorImpl<Type> &types) {
  Type element = getElementTypeOrSelf(adaptor.getInput().getType());
  StringRef mode = adaptor.getMode(), pad = adaptor.getPaddingMode();
  if (mode != "linear" && mode != "nearest" && mode != "cubic")
    return emitOptionalError(loc, "mode '", mode,
                             "' is not linear, nearest or cubic");
  if (pad != "zeros" && pad != "border" && pad != "reflection")
    return emitOptionalError(loc, "padding_mode '", pad,
                             "' is not zeros, border or reflection");
  auto x = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
  auto g = dyn_cast<RankedTensorType>(adaptor.getGrid().getType());
  if (!x || !g) {
    types.push_back(UnrankedTensorType::get(element));
    return success();
  }
  int64_t spatial = x.getRank() - 2;
  if (spatial < 1 || spatial > 3 || g.getRank() != spatial + 2)
    return emitOptionalError(loc, "input of rank ", x.getRank(),
                             " and grid of rank ", g.getRank(),
                             ": expected 1 to 3 spatial dims and a grid of "
                             "rank spatial + 2");
  if (mode == "cubic" && spatial != 2)
    return emitOptionalError(loc, "cubic sampling is defined for 2 spatial "
                             "dims, not ", spatial);
  if (!isa<FloatType>(element) || !isa<FloatType>(g.getElementType()))
    return emitOptionalError(loc, "samples ", element, " at ",
                             g.getElementType(), " coordinates: floats only");
  if (x.getDimSize(0) != g.getDimSize(0) || g.getDimSize(g.getRank() - 1) != spatial)
    return emitOptionalError(loc, "grid [", g.getDimSize(0), ", ..., ",
                             g.getDimSize(g.getRank() - 1), "] does not match ",
                             x.getDimSize(0), " images of ", spatial,
                             " spatial dims");
  SmallVector<int64_t> shape{x.getDimSize(0), x.getDimSize(1)};
  for (int64_t d = 1; d <= spatial; ++d)
    shape.push_back(g.getDimSize(d));
  types.push_back(RankedTensorType::get(shape, element));
  return success();
}

} // namespace onnxcc
