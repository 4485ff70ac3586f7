//===- OnnxOps.cpp - ONNX graph dialect -----------------------------------===//
//
// Dialect registration and the InferTypeOpInterface hooks. Each hook reads
// the operand shapes, calls the matching rule in ShapeFunctions.cpp and
// answers an unranked tensor while an input shape is still unknown.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/OnnxOps.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/MlStrings.h"
#include "dialects/Onnx/NormalizationShapes.h"
#include "dialects/Onnx/QuantizationShapes.h"
#include "dialects/Onnx/RecurrentShapes.h"
#include "dialects/Onnx/ReductionShapes.h"
#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace onnxcc;
using namespace onnxcc::onnx;

#include "dialects/Onnx/OnnxDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Onnx/OnnxTypes.cpp.inc"

void OnnxDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Onnx/OnnxTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/Onnx/OnnxOps.cpp.inc"
      >();
}

bool onnxcc::isStringTensor(Type t) {
  return isa<StringType>(getElementTypeOrSelf(t));
}

Operation *OnnxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// Shared inference helpers
//===----------------------------------------------------------------------===//

static Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

static Type unranked(Type element) { return UnrankedTensorType::get(element); }

/// Pushes the tensor type for `shape`, or fails if the rule failed.
static LogicalResult pushShape(SmallVectorImpl<Type> &types,
                               FailureOr<Shape> shape, Type element) {
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, element));
  return success();
}

/// Reads a small constant i64 operand (Reshape's shape, Unsqueeze's axes).
#define ONNXCC_COMPATIBLE(Op) ONNXCC_COMPATIBLE_RETURN_TYPES(Op)

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> l,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  if (auto x = shapeOf(adaptor.getInput()))
    if (failed(normalizeAxis(l, (int64_t)adaptor.getAxis(), x->size())))
      return failure();
  types.push_back(adaptor.getInput().getType());
  return success();
}
ONNXCC_COMPATIBLE(SoftmaxOp)

/// ONNX BatchNormalization (inference): scale, bias, mean and variance are
/// one value per channel, [C] for an input of [N, C, ...].
LogicalResult BatchNormalizationOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> l, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  Type input = adaptor.getInput().getType();
  auto x = shapeOf(adaptor.getInput());
  if (x && x->size() < 2)
    return emitOptionalError(l, "expects an input of rank >= 2 (N, C, ...), "
                                "got rank ", x->size());
  int64_t channels = x ? (*x)[1] : ShapedType::kDynamic;
  const char *names[] = {"scale", "bias", "mean", "variance"};
  Value params[] = {adaptor.getScale(), adaptor.getBias(), adaptor.getMean(),
                    adaptor.getVariance()};
  for (auto [name, v] : llvm::zip(names, params)) {
    auto p = shapeOf(v);
    if (!p)
      continue;
    if (p->size() != 1 || (!ShapedType::isDynamic(channels) &&
                           !ShapedType::isDynamic((*p)[0]) &&
                           (*p)[0] != channels))
      return emitOptionalError(l, name, " must have shape [", channels,
                               "] (one value per channel), got rank ",
                               p->size(), p->size() == 1 ? " of size " : "",
                               p->size() == 1 ? std::to_string((*p)[0]) : "");
  }
  types.push_back(input);
  return success();
}
ONNXCC_COMPATIBLE(BatchNormalizationOp)

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult ShapeOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location> l,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  Type i64 = IntegerType::get(ctx, 64);
  auto x = shapeOf(adaptor.getInput());
  if (!x) {
    types.push_back(RankedTensorType::get({ShapedType::kDynamic}, i64));
    return success();
  }
  int64_t rank = x->size();
  int64_t start = std::clamp<int64_t>(
      (int64_t)adaptor.getStart() < 0 ? (int64_t)adaptor.getStart() + rank
                                      : (int64_t)adaptor.getStart(),
      0, rank);
  int64_t end = rank;
  if (adaptor.getEnd()) {
    int64_t e = (int64_t)*adaptor.getEnd();
    end = std::clamp<int64_t>(e < 0 ? e + rank : e, 0, rank);
  }
  return pushShape(types, Shape{std::max<int64_t>(0, end - start)}, i64);
}
ONNXCC_COMPATIBLE(ShapeOp)

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> l,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getData());
  auto d = shapeOf(adaptor.getData()), i = shapeOf(adaptor.getIndices());
  if (!d || !i) {
    types.push_back(unranked(et));
    return success();
  }
  auto shape = inferGatherShape(l, *d, *i, (int64_t)adaptor.getAxis());
  if (failed(shape))
    return failure();
  // Constant indices are checked here, where the error can name them;
  // ONNX leaves an out-of-range index undefined.
  auto indices = constInts(adaptor.getIndices());
  int64_t axis = (int64_t)adaptor.getAxis();
  int64_t extent = (*d)[axis < 0 ? axis + (int64_t)d->size() : axis];
  if (indices && !ShapedType::isDynamic(extent))
    for (int64_t idx : *indices)
      if (idx < -extent || idx >= extent)
        return emitOptionalError(l, "index ", idx, " is out of range for axis ",
                                 axis, " of size ", extent);
  return pushShape(types, shape, et);
}
ONNXCC_COMPATIBLE(GatherOp)

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> l,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(l, "expects at least one input");
  Type et = elementOf(adaptor.getInputs()[0]);
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : adaptor.getInputs()) {
    auto s = shapeOf(v);
    if (!s) {
      types.push_back(unranked(et));
      return success();
    }
    shapes.push_back(*s);
  }
  return pushShape(types, inferConcatShape(l, shapes, (int64_t)adaptor.getAxis()),
                   et);
}
ONNXCC_COMPATIBLE(ConcatOp)

LogicalResult ConcatOp::verify() {
  Type et = elementOf(getInputs()[0]);
  for (Value v : getInputs())
    if (elementOf(v) != et)
      return emitOpError() << "inputs differ in element type: " << et << " and "
                           << elementOf(v);
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> l,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getData());
  auto x = shapeOf(adaptor.getData());
  auto target = constInts(adaptor.getShape());
  if (!x || !target) {
    types.push_back(unranked(et));
    return success();
  }
  return pushShape(types,
                   inferReshapeShape(l, *x, *target, adaptor.getAllowzero() != 0),
                   et);
}
ONNXCC_COMPATIBLE(ReshapeOp)

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> l,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  auto x = shapeOf(adaptor.getInput());
  if (!x) {
    types.push_back(unranked(et));
    return success();
  }
  return pushShape(types, inferFlattenShape(l, *x, (int64_t)adaptor.getAxis()),
                   et);
}
ONNXCC_COMPATIBLE(FlattenOp)

LogicalResult UnsqueezeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> l,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getData());
  auto x = shapeOf(adaptor.getData());
  auto axes = constInts(adaptor.getAxes());
  if (!x || !axes) {
    types.push_back(unranked(et));
    return success();
  }
  return pushShape(types, inferUnsqueezeShape(l, *x, *axes), et);
}
ONNXCC_COMPATIBLE(UnsqueezeOp)

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> l,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getData());
  auto x = shapeOf(adaptor.getData());
  std::optional<std::vector<int64_t>> axes;
  if (adaptor.getAxes()) {
    axes = constInts(adaptor.getAxes());
    if (!axes) {
      types.push_back(unranked(et));
      return success();
    }
  }
  if (!x) {
    types.push_back(unranked(et));
    return success();
  }
  std::optional<ArrayRef<int64_t>> axesRef;
  if (axes)
    axesRef = ArrayRef<int64_t>(*axes);
  return pushShape(types, inferSqueezeShape(l, *x, axesRef), et);
}
ONNXCC_COMPATIBLE(SqueezeOp)

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> l,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  auto x = shapeOf(adaptor.getInput());
  if (!x) {
    types.push_back(unranked(et));
    return success();
  }
  return pushShape(types, inferTransposeShape(l, *x, adaptor.getPerm()), et);
}
ONNXCC_COMPATIBLE(TransposeOp)

LogicalResult MlStringTableOp::verify() {
  return verifyStringTable(*this, getIndices(), getOutput(), getLabels());
}

LogicalResult MlStringLookupOp::verify() {
  return verifyStringLookup(*this, getInput(), getOutput(), getKeys());
}

#define GET_OP_CLASSES
#include "dialects/Onnx/OnnxOps.cpp.inc"
