//===- QuantizationShapes.cpp - type rules of the quantised ops -----------===//
#include "dialects/Onnx/QuantizationShapes.h"

#include "dialects/Onnx/ConvPoolShapes.h"
#include "dialects/Onnx/InferTypes.h"
#include "dialects/Onnx/LinalgShapes.h"
#include "dialects/Onnx/ShapeFunctions.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {

static constexpr int64_t kDyn = ShapedType::kDynamic;

static Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

/// "[1, ?, 3]" for messages.
static std::string str(ArrayRef<int64_t> s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size() && i < 16; ++i)
    out += (i ? ", " : "") + (s[i] == kDyn ? std::string("?") : std::to_string(s[i]));
  return out + (s.size() > 16 ? ", ...]" : "]");
}

/// Whether a static shape holds exactly one element ([], [1], [1, 1], ...).
static bool isOneElement(ArrayRef<int64_t> shape) {
  return llvm::all_of(shape, [](int64_t d) { return d == 1; });
}

bool isQuantizedElement(Type t, bool allowInt32) {
  // The float8 formats and FLOAT4E2M1 (not E8M0, a scale type) are
  // quantised types too: storage computed in f32.
  if (isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
          Float8E5M2FNUZType, Float4E2M1FNType>(t))
    return true;
  auto it = dyn_cast<IntegerType>(t);
  if (!it)
    return false;
  unsigned w = it.getWidth();
  return w == 2 || w == 4 || w == 8 || w == 16 ||
         (allowInt32 && w == 32 && !it.isUnsigned());
}

FailureOr<QuantLayout> quantLayout(OptLoc loc, ArrayRef<int64_t> x,
                                   ArrayRef<int64_t> scale, int64_t &axis,
                                   int64_t blockSize) {
  if (blockSize < 0)
    return emitOptionalError(loc, "block_size must be >= 0, got ", blockSize);
  // One value covers everything, whatever block_size says (as the ONNX
  // reference reads a scalar scale).
  if (scale.empty() || (scale.size() == 1 && scale[0] == 1))
    return QuantLayout::PerTensor;
  auto ax = normalizeAxis(loc, axis, x.size());
  if (failed(ax))
    return failure();
  axis = *ax;
  if (blockSize == 0) {
    if (scale.size() != 1)
      return emitOptionalError(loc, "scale of shape ", str(scale),
                               " is neither a scalar nor 1-D along axis ",
                               axis, " of x ", str(x));
    if (scale[0] != kDyn && x[axis] != kDyn && scale[0] != x[axis])
      return emitOptionalError(loc, "scale has ", scale[0],
                               " elements, axis ", axis, " of x ", str(x),
                               " has ", x[axis]);
    return QuantLayout::PerAxis;
  }
  if (scale.size() != x.size())
    return emitOptionalError(loc, "blocked scale ", str(scale),
                             " must have the rank of x ", str(x));
  for (size_t d = 0; d < x.size(); ++d) {
    if (x[d] == kDyn || scale[d] == kDyn)
      continue;
    // ceil(x / blockSize) without overflow for a huge block_size.
    int64_t want = (int64_t)d != axis ? x[d]
                   : x[d] == 0        ? 0
                                      : (x[d] - 1) / blockSize + 1;
    if (scale[d] != want)
      return emitOptionalError(loc, "blocked scale ", str(scale), " does not fit x ",
                               str(x), " with block_size ", blockSize,
                               " along axis ", axis);
  }
  return QuantLayout::Blocked;
}

LogicalResult inferLinearQuantTypes(OptLoc loc, bool isQuantize, Value x,
                                    Value scale, Value zeroPoint, int64_t axis,
                                    int64_t blockSize, Type outputType,
                                    SmallVectorImpl<Type> &types) {
  Type xt = elementOf(x), st = elementOf(scale);
  if (!isa<FloatType>(st))
    return emitOptionalError(loc, "scale must have float elements, got ", st);
  if (isQuantize) {
    if (!isa<FloatType>(xt) && !xt.isInteger(32))
      return emitOptionalError(loc, "x must be float or int32, got ", xt);
    if (!isQuantizedElement(outputType))
      return emitOptionalError(loc, "cannot quantize to ", outputType,
                               " (2- to 16-bit integers, float8 and float4 are supported)");
    if (zeroPoint && elementOf(zeroPoint) != outputType)
      return emitOptionalError(loc, "zero point has elements of type ",
                               elementOf(zeroPoint), ", the output ",
                               outputType);
  } else {
    if (!isQuantizedElement(xt, /*allowInt32=*/true))
      return emitOptionalError(loc, "cannot dequantize elements of type ", xt,
                               " (2- to 16-bit integers, int32, float8 and float4 are supported)");
    if (!isa<FloatType>(outputType))
      return emitOptionalError(loc, "output type must be float, got ",
                               outputType);
    if (zeroPoint && elementOf(zeroPoint) != xt)
      return emitOptionalError(loc, "zero point has elements of type ",
                               elementOf(zeroPoint), ", x ", xt);
  }
  auto xs = shapeOf(x), ss = shapeOf(scale);
  if (xs && ss && failed(quantLayout(loc, *xs, *ss, axis, blockSize)))
    return failure();
  if (zeroPoint && ss)
    if (auto zs = shapeOf(zeroPoint))
      // A one-element zero point with a scalar scale (or the reverse) is
      // per tensor too, as ONNX's reference reads it.
      if (failed(verifyCompatibleShape(*zs, *ss)) &&
          !(isOneElement(*zs) && isOneElement(*ss)))
        return emitOptionalError(loc, "zero point of shape ", str(*zs),
                                 " differs from scale ", str(*ss));
  types.push_back(withElementType(x.getType(), outputType));
  return success();
}

LogicalResult inferDynamicQuantizeTypes(OptLoc loc, Value x,
                                        SmallVectorImpl<Type> &types) {
  if (!elementOf(x).isF32())
    return emitOptionalError(loc, "x must be float32, got ", elementOf(x));
  MLIRContext *ctx = x.getContext();
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  types.push_back(withElementType(x.getType(), u8));
  types.push_back(RankedTensorType::get({}, Float32Type::get(ctx)));
  types.push_back(RankedTensorType::get({}, u8));
  return success();
}

/// `v` (when given and ranked) is a scalar, a 1-element tensor or 1-D of
/// `n` (when n is not 0); its element type is `element` (when not null).
static LogicalResult checkParam(OptLoc loc, StringRef name, Value v,
                                int64_t n, StringRef perWhat, Type element) {
  if (!v)
    return success();
  if (element && elementOf(v) != element)
    return emitOptionalError(loc, name, " has elements of type ", elementOf(v),
                             ", expected ", element);
  if (!element && !isa<FloatType>(elementOf(v)))
    return emitOptionalError(loc, name, " must have float elements, got ",
                             elementOf(v));
  auto s = shapeOf(v);
  if (!s || s->empty() || (s->size() == 1 && ((*s)[0] == 1 || (*s)[0] == kDyn)))
    return success();
  if (s->size() == 1 && n != 0 && (n == kDyn || (*s)[0] == n))
    return success();
  return emitOptionalError(loc, name, " of shape ", str(*s),
                           n ? " must be a scalar or one per " + perWhat.str() +
                                   " ([" + (n == kDyn ? std::string("?") : std::to_string(n)) + "])"
                             : std::string(" must be a scalar"));
}

static LogicalResult checkInt8(OptLoc loc, StringRef name, Type t) {
  if (t.isInteger(8))
    return success();
  return emitOptionalError(loc, name, " must be int8 or uint8, got ", t);
}

LogicalResult inferMatMulIntegerTypes(OptLoc loc, Value a, Value b,
                                      Value aZeroPoint, Value bZeroPoint,
                                      Value aScale, Value bScale, Value yScale,
                                      Value yZeroPoint,
                                      SmallVectorImpl<Type> &types) {
  bool qlinear = yZeroPoint != nullptr;
  if (failed(checkInt8(loc, "a", elementOf(a))) ||
      failed(checkInt8(loc, "b", elementOf(b))))
    return failure();
  Type result = IntegerType::get(a.getContext(), 32);
  if (qlinear) {
    result = elementOf(yZeroPoint);
    if (failed(checkInt8(loc, "y_zero_point", result)))
      return failure();
  }
  auto as = shapeOf(a), bs = shapeOf(b);
  int64_t m = 0, n = 0; // 0: only a scalar is allowed
  if (as && as->size() >= 2)
    m = (*as)[as->size() - 2];
  if (bs && bs->size() >= 2)
    n = bs->back();
  if (!as && !bs)
    m = n = kDyn;
  if (failed(checkParam(loc, "a_zero_point", aZeroPoint, m, "row of a",
                        elementOf(a))) ||
      failed(checkParam(loc, "b_zero_point", bZeroPoint, n, "column of b",
                        elementOf(b))) ||
      failed(checkParam(loc, "a_scale", aScale, m, "row of a", Type())) ||
      failed(checkParam(loc, "b_scale", bScale, n, "column of b", Type())) ||
      failed(checkParam(loc, "y_scale", yScale, 0, "", Type())) ||
      failed(checkParam(loc, "y_zero_point", yZeroPoint, 0, "", result)))
    return failure();
  if (!as || !bs) {
    types.push_back(UnrankedTensorType::get(result));
    return success();
  }
  auto shape = inferMatMulShape(loc, *as, *bs);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, result));
  return success();
}

LogicalResult inferIntegerConvTypes(
    OptLoc loc, Value x, Value w, Value xZeroPoint, Value wZeroPoint,
    Value xScale, Value wScale, Value yScale, Value yZeroPoint, Value bias,
    ArrayRef<int64_t> kernel, ArrayRef<int64_t> pads, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> dilations, int64_t group, StringRef autoPad,
    SmallVectorImpl<Type> &types) {
  bool qlinear = yZeroPoint != nullptr;
  if (failed(checkInt8(loc, "x", elementOf(x))) ||
      failed(checkInt8(loc, "w", elementOf(w))))
    return failure();
  Type i32 = IntegerType::get(x.getContext(), 32);
  Type result = i32;
  if (qlinear) {
    result = elementOf(yZeroPoint);
    if (failed(checkInt8(loc, "y_zero_point", result)))
      return failure();
  }
  auto xs = shapeOf(x), ws = shapeOf(w);
  int64_t outC = ws && !ws->empty() ? (*ws)[0] : kDyn;
  if (failed(checkParam(loc, "x_zero_point", xZeroPoint, 0, "", elementOf(x))) ||
      failed(checkParam(loc, "w_zero_point", wZeroPoint, outC,
                        "output channel", elementOf(w))) ||
      failed(checkParam(loc, "x_scale", xScale, 0, "", Type())) ||
      failed(checkParam(loc, "w_scale", wScale, outC, "output channel", Type())) ||
      failed(checkParam(loc, "y_scale", yScale, 0, "", Type())) ||
      failed(checkParam(loc, "y_zero_point", yZeroPoint, 0, "", result)))
    return failure();
  if (bias) {
    if (elementOf(bias) != i32)
      return emitOptionalError(loc, "bias must be int32, got ", elementOf(bias));
    if (auto bs = shapeOf(bias))
      if (bs->size() != 1 || (outC != kDyn && (*bs)[0] != kDyn && (*bs)[0] != outC))
        return emitOptionalError(loc, "bias of shape ", str(*bs),
                                 " must be one per output channel ([", outC, "])");
  }
  if (!xs || !ws) {
    types.push_back(UnrankedTensorType::get(result));
    return success();
  }
  auto resolved = resolveAutoPad(loc, autoPad, *xs, kernel, pads, strides, dilations);
  if (failed(resolved))
    return failure();
  auto shape = inferConvShape(loc, *xs, *ws, kernel, *resolved, strides,
                              dilations, group);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, result));
  return success();
}

} // namespace onnxcc
