//===- QuantizationPatterns.cpp - quantised ops to kernels ----------------===//
//
// (De)quantisation is elementwise: scale and zero point become broadcast
// inputs of one kernel.elementwise (viewed as [1, .., D, .., 1] per axis;
// per block, x is viewed as [.., D/B, B, ..] and the scale as
// [.., D/B, 1, ..]), so it fuses with its neighbours like any other body.
// The integer products become kernel.matmul_integer / kernel.conv_integer
// (int32), and the QLinear forms add one elementwise requantisation:
//   y = saturate(round_half_even(acc * (s_in * s_w / s_y)) + zp_y)
// computed in f32 as onnxruntime does. Rounding is half to even and every
// result saturates to its type's range, as the ONNX spec says.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ConvPoolShapes.h"
#include "dialects/Onnx/QuantizationShapes.h"
#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<ShapedType>(v.getType()).getShape(); }
Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

/// `v` (null stays null) viewed with `shape` when that differs.
Value viewAs(PatternRewriter &rewriter, Location loc, Value v,
             ArrayRef<int64_t> shape) {
  if (!v || shapeOf(v) == shape)
    return v;
  return k::ViewOp::create(rewriter, loc,
                           RankedTensorType::get(shape, elementOf(v)), v);
}

/// The representable range of an integer element type.
std::pair<double, double> intRange(Type t) {
  unsigned w = t.getIntOrFloatBitWidth();
  if (t.isUnsignedInteger())
    return {0.0, std::ldexp(1.0, w) - 1};
  return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1) - 1};
}

/// round_half_even(v) + zp, clamped to `out`'s range and converted to it.
/// `v` and `zp` are in compute type `f`; `zp` may be null.
Value saturateRound(ScalarBuilder &s, Value v, Value zp, Type out) {
  Value q = s.math<math::RoundEvenOp>(v);
  if (zp)
    q = s.add(q, zp);
  auto [lo, hi] = intRange(out);
  Type f = v.getType();
  q = s.min(s.max(q, s.constant(f, lo), false), s.constant(f, hi), false);
  return s.convert(q, f, out);
}

/// The float type (de)quantisation computes in: f64 when a float operand or
/// the result is f64, or for int32 input (exact up to 2^53, as the ONNX
/// reference computes it), else f32.
Type computeFloat(Builder &b, ArrayRef<Type> types) {
  for (Type t : types)
    if (t.isF64() || t.isInteger(32))
      return b.getF64Type();
  return b.getF32Type();
}

/// Views x, scale and zero point of a (de)quantisation so that one
/// elementwise broadcast covers its layout. `work` is the shape the loop
/// runs over (x's, or x's split into blocks).
struct QuantOperands {
  Value x, scale, zeroPoint;
  SmallVector<int64_t> work;
};

FailureOr<QuantOperands> quantOperands(Operation *op, PatternRewriter &rewriter,
                                       Value x, Value scale, Value zeroPoint,
                                       int64_t axis, int64_t blockSize) {
  Location loc = op->getLoc();
  ArrayRef<int64_t> xs = shapeOf(x);
  auto layout = quantLayout(std::nullopt, xs, shapeOf(scale), axis, blockSize);
  if (failed(layout))
    return rewriter.notifyMatchFailure(op, "scale does not fit x");
  QuantOperands q{x, scale, zeroPoint, SmallVector<int64_t>(xs)};
  SmallVector<int64_t> paramShape;
  switch (*layout) {
  case QuantLayout::PerTensor:
    // A scalar broadcasts; a one-element scale or zero point of rank 1
    // (x may be a scalar) is viewed as one.
    q.scale = viewAs(rewriter, loc, scale, {});
    q.zeroPoint = viewAs(rewriter, loc, zeroPoint, {});
    return q;
  case QuantLayout::PerAxis:
    paramShape.assign(xs.size(), 1);
    paramShape[axis] = xs[axis];
    break;
  case QuantLayout::Blocked: {
    int64_t d = xs[axis], blocks = shapeOf(scale)[axis];
    paramShape.assign(shapeOf(scale).begin(), shapeOf(scale).end());
    if (blocks == 1) // one block: the scale broadcasts along the axis
      break;
    if (d % blockSize)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "blocked quantization with block_size " << blockSize
             << " not dividing axis " << axis << " of size " << d
             << " is not supported";
      });
    q.work.assign(xs.begin(), xs.begin() + axis);
    q.work.append({blocks, blockSize});
    q.work.append(xs.begin() + axis + 1, xs.end());
    paramShape = q.work;
    paramShape[axis + 1] = 1;
    q.x = viewAs(rewriter, loc, x, q.work);
    break;
  }
  }
  q.scale = viewAs(rewriter, loc, scale, paramShape);
  q.zeroPoint = viewAs(rewriter, loc, zeroPoint, paramShape);
  return q;
}

/// Builds the elementwise loop of a (de)quantisation over `q` and views
/// its result back to `resultType`'s shape.
template <typename Body>
Value buildQuantLoop(PatternRewriter &rewriter, Location loc, Type resultType,
                     const QuantOperands &q, Body body) {
  SmallVector<Value> inputs{q.x, q.scale};
  if (q.zeroPoint)
    inputs.push_back(q.zeroPoint);
  Type out = getElementTypeOrSelf(resultType);
  Value r;
  {
    // buildElementwise leaves the insertion point inside the new body.
    OpBuilder::InsertionGuard guard(rewriter);
    r = buildElementwise(
        rewriter, loc, RankedTensorType::get(q.work, out), inputs,
        [&](ScalarBuilder &s, ValueRange a, TypeRange e, Type result) {
          return body(s, a, e, result);
        });
  }
  return viewAs(rewriter, loc, r, cast<ShapedType>(resultType).getShape());
}

/// y = saturate(round(x / scale) + zero_point); to a float type (float8,
/// float4) x / scale converted as ONNX's reference does: float8 has no zero
/// point (the caller drops it) and clamps with `saturate`, float4 adds it.
Value quantizeBody(ScalarBuilder &s, ValueRange a, TypeRange e, Type result,
                   bool saturate) {
  Type f = computeFloat(s.builder(), {e[0], e[1]});
  // One statement per conversion: argument evaluation order is unspecified,
  // and the IR (so the generated code) must not depend on the compiler.
  Value x = s.convert(a[0], e[0], f);
  Value scale = s.convert(a[1], e[1], f);
  Value v = s.div(x, scale, false);
  if (isa<FloatType>(result)) {
    if (a.size() > 2)
      v = s.add(v, s.convert(a[2], e[2], f));
    v = s.convert(v, f, result);
    if (saturate && ScalarBuilder::isSaturable(result))
      v = s.saturateTo(v, result);
    return v;
  }
  Value zp = a.size() > 2 ? s.convert(a[2], e[2], f) : Value();
  return saturateRound(s, v, zp, result);
}

struct QuantizeLinearPattern : OpRewritePattern<o::QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::QuantizeLinearOp op,
                                PatternRewriter &rewriter) const override {
    auto q = quantOperands(op, rewriter, op.getX(), op.getScale(),
                           op.getZeroPoint(), op.getAxis(), op.getBlockSize());
    if (failed(q))
      return failure();
    bool saturate = op.getSaturate();
    // Float8 ignores the zero point (ONNX's reference; it must be 0): not
    // an input of the loop, whose body would leave it unused.
    if (ScalarBuilder::isSaturable(getElementTypeOrSelf(op.getType())))
      q->zeroPoint = Value();
    auto body = [&](ScalarBuilder &s, ValueRange a, TypeRange e, Type result) {
      return quantizeBody(s, a, e, result, saturate);
    };
    rewriter.replaceOp(op, buildQuantLoop(rewriter, op.getLoc(), op.getType(),
                                          *q, body));
    return success();
  }
};

struct DequantizeLinearPattern : OpRewritePattern<o::DequantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::DequantizeLinearOp op,
                                PatternRewriter &rewriter) const override {
    auto q = quantOperands(op, rewriter, op.getX(), op.getScale(),
                           op.getZeroPoint(), op.getAxis(), op.getBlockSize());
    if (failed(q))
      return failure();
    auto body = [](ScalarBuilder &s, ValueRange a, TypeRange e, Type result) {
      // (x - zero_point) * scale: exact subtraction (f64 for int32 x).
      Type f = computeFloat(s.builder(), {e[0], e[1], result});
      Value v = s.convert(a[0], e[0], f);
      if (a.size() > 2)
        v = s.sub(v, s.convert(a[2], e[2], f));
      v = s.mul(v, s.convert(a[1], e[1], f));
      return s.convert(v, f, result);
    };
    rewriter.replaceOp(op, buildQuantLoop(rewriter, op.getLoc(), op.getType(),
                                          *q, body));
    return success();
  }
};

struct DynamicQuantizeLinearPattern : OpRewritePattern<o::DynamicQuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::DynamicQuantizeLinearOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto params = k::DynamicQuantParamsOp::create(
        rewriter, loc, op.getYScale().getType(), op.getYZeroPoint().getType(),
        op.getX());
    QuantOperands q{op.getX(), params.getScale(), params.getZeroPoint(),
                    SmallVector<int64_t>(shapeOf(op.getX()))};
    Value y = buildQuantLoop(
        rewriter, loc, op.getY().getType(), q,
        [](ScalarBuilder &s, ValueRange a, TypeRange e, Type result) {
          return quantizeBody(s, a, e, result, /*saturate=*/true);
        });
    rewriter.replaceOp(op, {y, params.getScale(), params.getZeroPoint()});
    return success();
  }
};

/// kernel.matmul_integer for ONNX MatMul shapes: 1-D operands are viewed
/// as [1, K] / [K, 1]. The product keeps that [..., M, N] form (the caller
/// views it back to ONNX's result shape), so that per-row and per-column
/// parameters broadcast along its last two dimensions.
Value buildMatMulInteger(PatternRewriter &rewriter, Location loc, Value a,
                         Value b, Value aZeroPoint, Value bZeroPoint) {
  if (shapeOf(a).size() == 1)
    a = viewAs(rewriter, loc, a, {1, shapeOf(a)[0]});
  if (shapeOf(b).size() == 1)
    b = viewAs(rewriter, loc, b, {shapeOf(b)[0], 1});
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b);
  auto batch = inferBroadcastShape(std::nullopt, as.drop_back(2), bs.drop_back(2));
  Shape y = *batch; // the op's shape rule checked the batch dims
  y.append({as[as.size() - 2], bs.back()});
  return k::MatMulIntegerOp::create(
      rewriter, loc, RankedTensorType::get(y, rewriter.getI32Type()), a, b,
      aZeroPoint, bZeroPoint);
}

struct MatMulIntegerPattern : OpRewritePattern<o::MatMulIntegerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::MatMulIntegerOp op,
                                PatternRewriter &rewriter) const override {
    Value y = buildMatMulInteger(rewriter, op.getLoc(), op.getA(), op.getB(),
                                 op.getAZeroPoint(), op.getBZeroPoint());
    rewriter.replaceOp(op, viewAs(rewriter, op.getLoc(), y, shapeOf(op.getY())));
    return success();
  }
};

/// A scale or zero point with one value viewed as a scalar, else as
/// `shape` (its values along one axis of the product).
Value paramView(PatternRewriter &rewriter, Location loc, Value v,
                ArrayRef<int64_t> shape) {
  if (cast<ShapedType>(v.getType()).getNumElements() == 1)
    return viewAs(rewriter, loc, v, {});
  return viewAs(rewriter, loc, v, shape);
}

/// The requantisation of an int32 product: inputs are (acc, [bias,]
/// scale_in, scale_w, scale_y, zero_point_y).
Value requantize(PatternRewriter &rewriter, Location loc, Type resultType,
                 ArrayRef<Value> inputs, bool hasBias) {
  // buildElementwise leaves the insertion point inside the new body.
  OpBuilder::InsertionGuard guard(rewriter);
  return buildElementwise(
      rewriter, loc, resultType, inputs,
      [&](ScalarBuilder &s, ValueRange a, TypeRange e, Type result) {
        Type f = s.builder().getF32Type();
        Value acc = hasBias ? s.add(a[0], a[1]) : a[0]; // int32, wrapping
        unsigned i = hasBias ? 2 : 1;
        // One statement per conversion (see quantizeBody).
        Value scaleIn = s.convert(a[i], e[i], f);
        Value scaleW = s.convert(a[i + 1], e[i + 1], f);
        Value scaleY = s.convert(a[i + 2], e[i + 2], f);
        Value multiplier = s.div(s.mul(scaleIn, scaleW), scaleY, false);
        Value v = s.mul(s.convert(acc, e[0], f), multiplier);
        return saturateRound(s, v, s.convert(a[i + 3], e[i + 3], f), result);
      });
}

struct QLinearMatMulPattern : OpRewritePattern<o::QLinearMatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::QLinearMatMulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto y = cast<ShapedType>(op.getType());
    Value acc = buildMatMulInteger(
        rewriter, loc, op.getA(), op.getB(),
        paramView(rewriter, loc, op.getAZeroPoint(), shapeOf(op.getAZeroPoint())),
        paramView(rewriter, loc, op.getBZeroPoint(), shapeOf(op.getBZeroPoint())));
    // acc is [..., M, N]: a's values run along the rows, b's along the
    // columns (one value each when a or b is 1-D; the shape rule checked).
    ArrayRef<int64_t> accShape = shapeOf(acc);
    int64_t m = accShape[accShape.size() - 2], n = accShape.back();
    Value inputs[] = {acc,
                      paramView(rewriter, loc, op.getAScale(), {m, 1}),
                      paramView(rewriter, loc, op.getBScale(), {n}),
                      paramView(rewriter, loc, op.getYScale(), {}),
                      paramView(rewriter, loc, op.getYZeroPoint(), {})};
    Value r = requantize(rewriter, loc,
                         RankedTensorType::get(accShape, y.getElementType()),
                         inputs, false);
    rewriter.replaceOp(op, viewAs(rewriter, loc, r, y.getShape()));
    return success();
  }
};

/// kernel.conv_integer with auto_pad resolved; zero points of one value
/// viewed as scalars.
template <typename OpTy>
FailureOr<Value> buildConvInteger(OpTy op, PatternRewriter &rewriter, Value x,
                                  Value w, Value xZeroPoint, Value wZeroPoint) {
  auto pads = resolveAutoPad(op.getLoc(), op.getAutoPad(), shapeOf(x),
                             op.getKernelShape(), op.getPads(), op.getStrides(),
                             op.getDilations());
  if (failed(pads))
    return failure();
  Location loc = op.getLoc();
  auto yt = RankedTensorType::get(shapeOf(op.getY()), rewriter.getI32Type());
  if (xZeroPoint)
    xZeroPoint = paramView(rewriter, loc, xZeroPoint, shapeOf(xZeroPoint));
  if (wZeroPoint)
    wZeroPoint = paramView(rewriter, loc, wZeroPoint, shapeOf(wZeroPoint));
  return k::ConvIntegerOp::create(rewriter, loc, yt, x, w, xZeroPoint,
                                  wZeroPoint, *pads, op.getStrides(),
                                  op.getDilations(), op.getGroup())
      .getResult();
}

struct ConvIntegerPattern : OpRewritePattern<o::ConvIntegerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ConvIntegerOp op,
                                PatternRewriter &rewriter) const override {
    auto y = buildConvInteger(op, rewriter, op.getX(), op.getW(),
                              op.getXZeroPoint(), op.getWZeroPoint());
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }
};

struct QLinearConvPattern : OpRewritePattern<o::QLinearConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::QLinearConvOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto acc = buildConvInteger(op, rewriter, op.getX(), op.getW(),
                                op.getXZeroPoint(), op.getWZeroPoint());
    if (failed(acc))
      return failure();
    // Per output channel values broadcast as [1, M, 1, 1].
    int64_t outC = shapeOf(op.getW())[0];
    SmallVector<int64_t> perChannel = {1, outC, 1, 1};
    SmallVector<Value> inputs{*acc};
    if (op.getBias())
      inputs.push_back(viewAs(rewriter, loc, op.getBias(), perChannel));
    inputs.append({paramView(rewriter, loc, op.getXScale(), {}),
                   paramView(rewriter, loc, op.getWScale(), perChannel),
                   paramView(rewriter, loc, op.getYScale(), {}),
                   paramView(rewriter, loc, op.getYZeroPoint(), {})});
    rewriter.replaceOp(op, requantize(rewriter, loc, op.getType(), inputs,
                                      (bool)op.getBias()));
    return success();
  }
};

} // namespace

void populateQuantizationPatterns(RewritePatternSet &patterns) {
  patterns.add<QuantizeLinearPattern, DequantizeLinearPattern,
               DynamicQuantizeLinearPattern, MatMulIntegerPattern,
               QLinearMatMulPattern, ConvIntegerPattern, QLinearConvPattern>(
      patterns.getContext());
}

} // namespace onnxcc
