//===- MlKernelOps.cpp - verifiers of the ai.onnx.ml kernels --------------===//
#include "dialects/Kernel/KernelOps.h"

#include "dialects/Onnx/MlStrings.h"

using namespace mlir;
using namespace onnxcc::kernel;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}
static Type elementOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}
static bool isI32Vector(Value v) {
  return shapeOf(v).size() == 1 && elementOf(v).isInteger(32);
}

LogicalResult MlTreeEnsembleOp::verify() {
  auto x = shapeOf(getX()), nodes = shapeOf(getNodes()),
       scores = shapeOf(getScores());
  if (x.size() != 2 || scores.size() != 2 || scores[0] != x[0])
    return emitOpError() << "expects x [N, F] and scores [N, columns], got ranks "
                         << x.size() << " and " << scores.size();
  if (int64_t(getMaxFeature()) < 0 || int64_t(getMaxFeature()) >= x[1])
    return emitOpError() << "reads feature " << int64_t(getMaxFeature()) << " of "
                         << x[1];
  if (nodes.size() != 2 || nodes[1] != 6 || !elementOf(getNodes()).isInteger(32))
    return emitOpError() << "expects nodes of i32 [nodes, 6]";
  Type tt = elementOf(getThresholds());
  if (shapeOf(getThresholds()) != ArrayRef<int64_t>{nodes[0]} ||
      !isa<Float32Type, Float64Type>(tt) || elementOf(getMembers()) != tt ||
      elementOf(getWeights()) != tt)
    return emitOpError() << "expects f32 or f64 thresholds [" << nodes[0]
                         << "], members and weights of one type";
  if (!isI32Vector(getRoots()) || !isI32Vector(getTargets()) ||
      shapeOf(getWeights()) != shapeOf(getTargets()))
    return emitOpError() << "expects i32 roots, i32 targets and as many weights";
  int64_t c = int64_t(getNTargets());
  int64_t cols = getBinary() ? std::max<int64_t>(c, 2) : c;
  Type out = elementOf(getScores());
  if (!isa<Float32Type, Float64Type>(out) || elementOf(getBase()) != out)
    return emitOpError() << "expects f32 or f64 base and scores of one type";
  if (shapeOf(getBase()) != ArrayRef<int64_t>{c} || scores[1] != cols)
    return emitOpError() << "expects base [" << c << "] and " << cols
                         << " score columns, got " << scores[1];
  if (int64_t(getDepth()) < 0 || int64_t(getAggregate()) < 0 || int64_t(getAggregate()) > 3 ||
      int64_t(getPostTransform()) < 0 || int64_t(getPostTransform()) > 4)
    return emitOpError() << "invalid depth " << int64_t(getDepth()) << ", aggregate "
                         << int64_t(getAggregate()) << " or post_transform "
                         << int64_t(getPostTransform());
  return success();
}

LogicalResult MlSvmClassifierOp::verify() {
  auto x = shapeOf(getX()), sv = shapeOf(getSupportVectors());
  int64_t c = int64_t(getClasses()), s = int64_t(getNScores()), cols = int64_t(getColumns());
  if (x.size() != 2 || sv.size() != 2 || sv[0] != x[1] ||
      sv[1] != std::max<int64_t>(int64_t(getVectors()), 1))
    return emitOpError() << "expects x [N, F] and support vectors [F, max("
                         << int64_t(getVectors()) << ", 1)]";
  if (shapeOf(getLabel()) != ArrayRef<int64_t>{x[0]} ||
      shapeOf(getScores()) != ArrayRef<int64_t>{x[0], cols})
    return emitOpError() << "expects labels [N] and scores [N, " << cols << "]";
  if (c < 1 || s < 1 || shapeOf(getStarts()) != ArrayRef<int64_t>{c + 1} ||
      shapeOf(getLabels()) != ArrayRef<int64_t>{c})
    return emitOpError() << "expects " << c << " labels and " << c + 1
                         << " class starts";
  if (int64_t(getKernel()) < 0 || int64_t(getKernel()) > 3 || int64_t(getPostTransform()) < 0 ||
      int64_t(getPostTransform()) > 4 || int64_t(getDegree()) < 0)
    return emitOpError() << "invalid kernel " << int64_t(getKernel())
                         << ", post_transform " << int64_t(getPostTransform())
                         << " or degree " << int64_t(getDegree());
  return success();
}

LogicalResult MlStringTableOp::verify() {
  return onnxcc::verifyStringTable(*this, getIndices(), getOutput(),
                                   getLabels());
}

LogicalResult MlStringLookupOp::verify() {
  return onnxcc::verifyStringLookup(*this, getInput(), getOutput(), getKeys());
}
