//===- NormalizationKernelOps.cpp - verifiers of the normalisations ------===//
#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
using namespace onnxcc::kernel;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

LogicalResult LayerNormOp::verify() {
  auto x = shapeOf(getInput());
  int64_t rank = x.size(), axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << rank;
  if (getOutput().getType() != getInput().getType())
    return emitOpError() << "result type " << getOutput().getType()
                         << " differs from the input's " << getInput().getType();
  if (getSkip() && getSkip().getType() != getInput().getType())
    return emitOpError() << "skip type " << getSkip().getType()
                         << " differs from the input's " << getInput().getType();
  ArrayRef<int64_t> row = x.drop_front(axis);
  for (Value p : {getScale(), getBias()})
    if (p && shapeOf(p) != row && shapeOf(p) != x)
      return emitOpError() << "scale and bias must have the row's shape or "
                              "the input's, got "
                           << p.getType();
  if (getStats().empty())
    return success();
  SmallVector<int64_t> statsShape(x.take_front(axis));
  statsShape.append(rank - axis, 1);
  auto statsType = RankedTensorType::get(statsShape, Float32Type::get(getContext()));
  if (getStats().size() != 2 || getStats()[0].getType() != statsType ||
      getStats()[1].getType() != statsType)
    return emitOpError() << "stats must be none or two " << statsType;
  return success();
}

LogicalResult GroupNormOp::verify() {
  auto x = shapeOf(getInput());
  if (x.size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got " << x.size();
  int64_t groups = getGroups();
  if (groups < 1 || x[1] % groups != 0)
    return emitOpError() << "groups " << groups << " does not divide the "
                         << x[1] << " channels";
  if (getType() != getInput().getType())
    return emitOpError() << "result type " << getType()
                         << " differs from the input's " << getInput().getType();
  for (Value p : {getScale(), getBias()})
    if (shapeOf(p) != ArrayRef<int64_t>{x[1]})
      return emitOpError() << "scale and bias must have one value per channel ("
                           << x[1] << "), got " << p.getType();
  return success();
}

LogicalResult LRNOp::verify() {
  if (shapeOf(getInput()).size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << shapeOf(getInput()).size();
  if (getSize() < 1)
    return emitOpError() << "size " << getSize() << " must be >= 1";
  if (getType() != getInput().getType())
    return emitOpError() << "result type differs from the input's";
  return success();
}

LogicalResult AxisNormOp::verify() {
  if (getKind() != "log_softmax" && getKind() != "hardmax")
    return emitOpError() << "kind must be \"log_softmax\" or \"hardmax\", got \""
                         << getKind() << "\"";
  int64_t rank = shapeOf(getInput()).size(), axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << rank;
  if (getType() != getInput().getType())
    return emitOpError() << "result type differs from the input's";
  return success();
}
