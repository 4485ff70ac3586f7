//===- ConvPoolOps.cpp - type rules of convolution and pooling ------------===//
//
// Each hook answers an unranked result while a shape it needs is unknown
// (an operand, or a constant operand that is not constant yet), then
// resolves the window and calls its shape rule in ConvPoolShapes.cpp.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/ConvPoolShapes.h"
#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/TensorLimits.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace onnxcc;
using namespace onnxcc::onnx;

static Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

static LogicalResult unranked(SmallVectorImpl<Type> &types, Type element,
                              unsigned count = 1) {
  types.append(count, UnrankedTensorType::get(element));
  return success();
}

static LogicalResult pushShape(SmallVectorImpl<Type> &types,
                               FailureOr<Shape> shape, Type element) {
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, element));
  return success();
}

/// Fails unless the present operands share `x`'s element type.
static LogicalResult sameElements(OptLoc l, Value x,
                                  std::initializer_list<Value> others) {
  for (Value v : others)
    if (v && elementOf(v) != elementOf(x))
      return emitOptionalError(l, "operand element types differ: ",
                               elementOf(x), " and ", elementOf(v));
  return success();
}

/// The spatial dims of a weight, the default kernel_shape.
static ArrayRef<int64_t> spatialOf(ArrayRef<int64_t> w) {
  return w.size() >= 2 ? w.drop_front(2) : ArrayRef<int64_t>();
}

/// Fails when a shape-giving operand is a graph input: its values, and so
/// the result's shape, are only known at run time.
static LogicalResult requireNotInput(OptLoc l, Value v, StringRef what) {
  if (v && isa<BlockArgument>(v))
    return emitOptionalError(l, what, " is a graph input: the output shape "
                                      "would depend on its values (a "
                                      "data-dependent shape), which is not "
                                      "supported");
  return success();
}

/// Checks that an optional bias is [channels].
static LogicalResult checkBias(OptLoc l, Value bias, int64_t channels) {
  if (!bias)
    return success();
  auto b = shapeOf(bias);
  if (b && (b->size() != 1 || ((*b)[0] != channels &&
                               !ShapedType::isDynamic((*b)[0]) &&
                               !ShapedType::isDynamic(channels))))
    return emitOptionalError(l, "bias must have shape [", channels, "], got ",
                             formatShape(*b));
  return success();
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *, std::optional<Location> l,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  if (failed(sameElements(l, adaptor.getInput(),
                          {adaptor.getWeight(), adaptor.getBias()})))
    return failure();
  auto x = shapeOf(adaptor.getInput()), w = shapeOf(adaptor.getWeight());
  if (!x || !w)
    return unranked(types, et);
  auto win = resolveWindow(l, *x, adaptor.getAutoPad(), adaptor.getKernelShape(),
                           adaptor.getPads(), adaptor.getStrides(),
                           adaptor.getDilations(), spatialOf(*w));
  if (failed(win))
    return failure();
  auto shape = inferConvShape(l, *x, *w, *win, adaptor.getGroup());
  if (failed(shape) || failed(checkBias(l, adaptor.getBias(), (*w)[0])))
    return failure();
  return pushShape(types, shape, et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(ConvOp)

LogicalResult DeformConvOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> l,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  if (failed(sameElements(l, adaptor.getInput(),
                          {adaptor.getWeight(), adaptor.getOffset(),
                           adaptor.getBias(), adaptor.getMask()})))
    return failure();
  auto x = shapeOf(adaptor.getInput()), w = shapeOf(adaptor.getWeight());
  if (!x || !w)
    return unranked(types, et);
  auto win = resolveWindow(l, *x, "NOTSET", adaptor.getKernelShape(),
                           adaptor.getPads(), adaptor.getStrides(),
                           adaptor.getDilations(), spatialOf(*w));
  if (failed(win))
    return failure();
  auto shape = inferConvShape(l, *x, *w, *win, adaptor.getGroup());
  if (failed(shape) || failed(checkBias(l, adaptor.getBias(), (*w)[0])))
    return failure();
  int64_t og = adaptor.getOffsetGroup();
  if (og < 1 || ShapedType::isDynamic((*x)[1]) || (*x)[1] % og != 0)
    return emitOptionalError(l, "offset_group ", og, " must be >= 1 and divide the ",
                             (*x)[1], " input channels");
  // offset: [N, og * taps * axes, out...], mask: [N, og * taps, out...].
  CheckedInt taps = CheckedInt(og);
  for (int64_t k : win->kernel)
    taps = taps * k;
  auto expect = [&](Value v, CheckedInt channels, StringRef what) -> LogicalResult {
    if (channels.overflowed())
      return emitOptionalError(l, "offset_group ", og, " times kernel_shape ",
                               formatShape(win->kernel), " is too large");
    auto s = v ? shapeOf(v) : std::nullopt;
    if (!s)
      return success();
    Shape want(*shape);
    want[1] = *channels;
    bool ok = s->size() == want.size();
    for (size_t i = 0; ok && i < want.size(); ++i)
      ok = (*s)[i] == want[i] || ShapedType::isDynamic((*s)[i]) ||
           ShapedType::isDynamic(want[i]);
    if (ok)
      return success();
    return emitOptionalError(l, what, " ", formatShape(*s), " must be ",
                             formatShape(want), " for offset_group ", og,
                             " and kernel_shape ", formatShape(win->kernel));
  };
  if (failed(expect(adaptor.getOffset(), taps * win->rank(), "offset")) ||
      failed(expect(adaptor.getMask(), taps, "mask")))
    return failure();
  return pushShape(types, shape, et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(DeformConvOp)

LogicalResult ConvTransposeOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> l,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  if (failed(sameElements(l, adaptor.getInput(),
                          {adaptor.getWeight(), adaptor.getBias()})))
    return failure();
  auto x = shapeOf(adaptor.getInput()), w = shapeOf(adaptor.getWeight());
  if (!x || !w)
    return unranked(types, et);
  if (x->size() < 3)
    return emitOptionalError(l, "expects an input of rank >= 3 (N, C, "
                                "spatial...), got ", formatShape(*x));
  auto win = checkWindow(l, x->size() - 2, adaptor.getKernelShape(),
                         adaptor.getPads(), adaptor.getStrides(),
                         adaptor.getDilations(), spatialOf(*w));
  if (failed(win))
    return failure();
  auto shape = inferConvTransposeShape(l, *x, *w, adaptor.getAutoPad(), *win,
                                       adaptor.getOutputPadding(),
                                       adaptor.getOutputShape(),
                                       adaptor.getGroup());
  if (failed(shape) || failed(checkBias(l, adaptor.getBias(), (*shape)[1])))
    return failure();
  return pushShape(types, shape, et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(ConvTransposeOp)

/// The output shape of a windowed pool.
template <typename Adaptor>
static FailureOr<Shape> poolShape(OptLoc l, ArrayRef<int64_t> x,
                                  Adaptor adaptor) {
  auto win = resolveWindow(l, x, adaptor.getAutoPad(), adaptor.getKernelShape(),
                           adaptor.getPads(), adaptor.getStrides(),
                           adaptor.getDilations());
  if (failed(win))
    return failure();
  return inferPoolShape(l, x, *win, adaptor.getCeilMode() != 0);
}

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location> l,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput()), i64 = IntegerType::get(ctx, 64);
  if (adaptor.getStorageOrder() != 0 && adaptor.getStorageOrder() != 1)
    return emitOptionalError(l, "storage_order ", adaptor.getStorageOrder(),
                             " must be 0 (row major) or 1 (column major)");
  auto x = shapeOf(adaptor.getInput());
  if (!x) {
    types.push_back(UnrankedTensorType::get(et));
    return unranked(types, i64);
  }
  auto shape = poolShape(l, *x, adaptor);
  if (failed(pushShape(types, shape, et)))
    return failure();
  return pushShape(types, shape, i64);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(MaxPoolOp)

LogicalResult AveragePoolOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> l,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  auto x = shapeOf(adaptor.getInput());
  if (!x)
    return unranked(types, et);
  return pushShape(types, poolShape(l, *x, adaptor), et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(AveragePoolOp)

/// Lp pooling raises |x| to p: 1 and up.
static LogicalResult checkP(OptLoc l, int64_t p) {
  if (p < 1 || p > 1024)
    return emitOptionalError(l, "p ", p, " must be in [1, 1024]");
  return success();
}

LogicalResult LpPoolOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> l,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  if (failed(checkP(l, adaptor.getP())))
    return failure();
  auto x = shapeOf(adaptor.getInput());
  if (!x)
    return unranked(types, et);
  return pushShape(types, poolShape(l, *x, adaptor), et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(LpPoolOp)

/// Global pools: [N, C, 1, ...].
static LogicalResult globalPool(OptLoc l, Value input,
                                SmallVectorImpl<Type> &types) {
  Type et = elementOf(input);
  auto x = shapeOf(input);
  if (!x)
    return unranked(types, et);
  if (x->size() < 3)
    return emitOptionalError(l, "expects rank >= 3 (N, C, spatial...), got ",
                             formatShape(*x));
  Shape out(x->begin(), x->begin() + 2);
  out.append(x->size() - 2, 1);
  return pushShape(types, out, et);
}

LogicalResult GlobalAveragePoolOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> l, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  return globalPool(l, adaptor.getInput(), types);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(GlobalAveragePoolOp)

LogicalResult MaxUnpoolOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> l,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  if (!elementOf(adaptor.getIndices()).isInteger(64))
    return emitOptionalError(l, "indices must be int64, got ",
                             elementOf(adaptor.getIndices()));
  if (failed(requireNotInput(l, adaptor.getOutputShape(), "output_shape")))
    return failure();
  auto x = shapeOf(adaptor.getInput()), i = shapeOf(adaptor.getIndices());
  std::optional<std::vector<int64_t>> outputShape;
  if (adaptor.getOutputShape()) {
    outputShape = constInts(adaptor.getOutputShape());
    if (!outputShape) // data-dependent until it folds to a constant
      return unranked(types, et);
  }
  if (!x)
    return unranked(types, et);
  if (i && failed(verifyCompatibleShape(*x, *i)))
    return emitOptionalError(l, "indices ", formatShape(*i),
                             " must have the input's shape ", formatShape(*x));
  if (adaptor.getKernelShape().empty())
    return emitOptionalError(l, "needs a kernel_shape");
  if (x->size() < 3)
    return emitOptionalError(l, "expects an input of rank >= 3 (N, C, "
                                "spatial...), got ", formatShape(*x));
  auto win = checkWindow(l, x->size() - 2, adaptor.getKernelShape(),
                         adaptor.getPads(), adaptor.getStrides(),
                         /*dilations=*/{});
  if (failed(win))
    return failure();
  std::optional<ArrayRef<int64_t>> wanted;
  if (outputShape)
    wanted = ArrayRef<int64_t>(*outputShape);
  return pushShape(types, inferMaxUnpoolShape(l, *x, *win, wanted), et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(MaxUnpoolOp)

LogicalResult Col2ImOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> l,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  Type et = elementOf(adaptor.getInput());
  if (failed(requireNotInput(l, adaptor.getImageShape(), "image_shape")) ||
      failed(requireNotInput(l, adaptor.getBlockShape(), "block_shape")))
    return failure();
  auto image = constInts(adaptor.getImageShape());
  auto block = constInts(adaptor.getBlockShape());
  auto x = shapeOf(adaptor.getInput());
  if (!image || !block || !x)
    return unranked(types, et);
  if (image->size() != block->size() || image->empty())
    return emitOptionalError(l, "image_shape ", formatValues(*image),
                             " and block_shape ", formatValues(*block),
                             " must have one value per spatial axis");
  auto win = checkWindow(l, image->size(), *block, adaptor.getPads(),
                         adaptor.getStrides(), adaptor.getDilations());
  if (failed(win))
    return failure();
  return pushShape(types, inferCol2ImShape(l, *x, *image, *win), et);
}
ONNXCC_COMPATIBLE_RETURN_TYPES(Col2ImOp)
