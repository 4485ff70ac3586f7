//===- ElementwisePatterns.cpp - elementwise ops to kernel.elementwise ----===//
//
// Every elementwise ONNX op becomes one `kernel.elementwise` whose body is
// written here, once, for all the element types the op takes: the table
// below is the single place that says what Softplus or Mod means.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ConstantData.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

Value buildElementwise(OpBuilder &b, Location loc, Type resultType,
                       ValueRange inputs, const ScalarBodyFn &body) {
  auto op = k::ElementwiseOp::create(b, loc, resultType, inputs);
  // createBlock moves the insertion point into the body: the caller's
  // point must come back after it, so the guard goes first.
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&op.getBody());
  SmallVector<Type> elements;
  for (Value in : inputs) {
    Type element = getElementTypeOrSelf(in.getType());
    elements.push_back(element);
    block->addArgument(k::computeType(element), loc);
  }
  b.setInsertionPointToStart(block);
  ScalarBuilder s(b, loc);
  Value r = body(s, block->getArguments(), elements,
                 getElementTypeOrSelf(resultType));
  k::YieldOp::create(b, loc, r);
  return op.getResult();
}

namespace {

/// Element type classes an op accepts (ONNX's type constraints).
enum TypeClass : unsigned {
  Float = 1,
  SignedInt = 2,
  UnsignedInt = 4,
  Bool = 8,
  Int = SignedInt | UnsignedInt,
  Numeric = Float | Int,
  Any = Numeric | Bool,
};

unsigned classOf(Type t) {
  if (isa<FloatType>(t))
    return Float;
  if (t.isInteger(1))
    return Bool;
  if (t.isUnsignedInteger())
    return UnsignedInt;
  return isa<IntegerType>(t) ? SignedInt : 0;
}

template <typename OpTy>
using TypedBody =
    std::function<Value(OpTy, ScalarBuilder &, ValueRange, TypeRange, Type)>;

/// Lowers OpTy to kernel.elementwise with `body`, when all its operands are
/// in `accepted`.
template <typename OpTy>
struct ElementwisePattern : OpRewritePattern<OpTy> {
  ElementwisePattern(MLIRContext *ctx, unsigned accepted, TypedBody<OpTy> body)
      : OpRewritePattern<OpTy>(ctx), accepted(accepted), body(std::move(body)) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    for (Value v : op->getOperands()) {
      Type element = getElementTypeOrSelf(v.getType());
      if (!(classOf(element) & accepted))
        return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
          d << "elements of type " << element << " are not supported here";
        });
    }
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), op->getOperands(),
        [&](ScalarBuilder &s, ValueRange args, TypeRange elements, Type result) {
          return body(op, s, args, elements, result);
        });
    rewriter.replaceOp(op, r);
    return success();
  }

  unsigned accepted;
  TypedBody<OpTy> body;
};

template <typename OpTy>
void add(RewritePatternSet &patterns, unsigned accepted, TypedBody<OpTy> body) {
  patterns.add<ElementwisePattern<OpTy>>(patterns.getContext(), accepted,
                                         std::move(body));
}

/// A float math function of one operand (exp, sin, ...).
template <typename OpTy, typename MathOp>
void addMath(RewritePatternSet &patterns) {
  add<OpTy>(patterns, Float, [](OpTy, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.math<MathOp>(a[0]);
  });
}

bool isUnsigned(TypeRange elements) {
  return ScalarBuilder::isUnsigned(elements[0]);
}

Value fconst(ScalarBuilder &s, Value like, double v) {
  return s.constant(like.getType(), v);
}

Value sigmoid(ScalarBuilder &s, Value x) {
  Value one = fconst(s, x, 1);
  return s.div(one, s.add(one, s.math<math::ExpOp>(s.neg(x))), false);
}

/// log(1 + exp(x)) as max(x, 0) + log1p(exp(-|x|)): no overflow for large x.
Value softplus(ScalarBuilder &s, Value x) {
  Value e = s.math<math::ExpOp>(s.neg(s.abs(x)));
  return s.add(s.max(x, fconst(s, x, 0), false), s.math<math::Log1pOp>(e));
}

void populateUnary(RewritePatternSet &p) {
  add<o::AbsOp>(p, Numeric, [](auto, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    return ScalarBuilder::isUnsigned(e[0]) ? a[0] : s.abs(a[0]);
  });
  add<o::NegOp>(p, Float | SignedInt, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.neg(a[0]);
  });
  add<o::ReluOp>(p, Float | SignedInt, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.max(a[0], fconst(s, a[0], 0), false);
  });
  add<o::ReciprocalOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.div(fconst(s, a[0], 1), a[0], false);
  });
  add<o::SigmoidOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return sigmoid(s, a[0]);
  });
  add<o::SignOp>(p, Numeric, [](auto, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    bool u = ScalarBuilder::isUnsigned(e[0]);
    Value x = a[0], zero = fconst(s, x, 0);
    Value neg = s.select(s.cmp(ScalarBuilder::Cmp::lt, x, zero, u), fconst(s, x, -1), x);
    return s.select(s.cmp(ScalarBuilder::Cmp::gt, x, zero, u), fconst(s, x, 1), neg);
  });
  addMath<o::AcosOp, math::AcosOp>(p);
  addMath<o::AcoshOp, math::AcoshOp>(p);
  addMath<o::AsinOp, math::AsinOp>(p);
  addMath<o::AsinhOp, math::AsinhOp>(p);
  addMath<o::AtanOp, math::AtanOp>(p);
  addMath<o::AtanhOp, math::AtanhOp>(p);
  addMath<o::CeilOp, math::CeilOp>(p);
  addMath<o::CosOp, math::CosOp>(p);
  addMath<o::CoshOp, math::CoshOp>(p);
  addMath<o::ErfOp, math::ErfOp>(p);
  addMath<o::ExpOp, math::ExpOp>(p);
  addMath<o::FloorOp, math::FloorOp>(p);
  addMath<o::LogOp, math::LogOp>(p);
  addMath<o::RoundOp, math::RoundEvenOp>(p);
  addMath<o::SinOp, math::SinOp>(p);
  addMath<o::SinhOp, math::SinhOp>(p);
  addMath<o::SqrtOp, math::SqrtOp>(p);
  addMath<o::TanOp, math::TanOp>(p);
  addMath<o::TanhOp, math::TanhOp>(p);
  add<o::SoftplusOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return softplus(s, a[0]);
  });
  add<o::SoftsignOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.div(a[0], s.add(fconst(s, a[0], 1), s.abs(a[0])), false);
  });
  add<o::MishOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.mul(a[0], s.math<math::TanhOp>(softplus(s, a[0])));
  });
  add<o::HardSwishOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    Value t = s.add(s.mul(x, fconst(s, x, 1.0 / 6.0)), fconst(s, x, 0.5));
    return s.mul(x, s.max(fconst(s, x, 0), s.min(fconst(s, x, 1), t, false), false));
  });
  add<o::HardSigmoidOp>(p, Float, [](o::HardSigmoidOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    Value t = s.add(s.mul(x, fconst(s, x, op.getAlpha().convertToDouble())),
                    fconst(s, x, op.getBeta().convertToDouble()));
    return s.max(fconst(s, x, 0), s.min(fconst(s, x, 1), t, false), false);
  });
  add<o::LeakyReluOp>(p, Float, [](o::LeakyReluOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    Value scaled = s.mul(x, fconst(s, x, op.getAlpha().convertToDouble()));
    return s.select(s.cmp(ScalarBuilder::Cmp::lt, x, fconst(s, x, 0), false), scaled, x);
  });
  add<o::EluOp>(p, Float, [](o::EluOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    Value negative = s.mul(fconst(s, x, op.getAlpha().convertToDouble()),
                           s.sub(s.math<math::ExpOp>(x), fconst(s, x, 1)));
    return s.select(s.cmp(ScalarBuilder::Cmp::lt, x, fconst(s, x, 0), false), negative, x);
  });
  add<o::SeluOp>(p, Float, [](o::SeluOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    Value alpha = fconst(s, x, op.getAlpha().convertToDouble());
    Value gamma = fconst(s, x, op.getGamma().convertToDouble());
    Value negative = s.sub(s.mul(alpha, s.math<math::ExpOp>(x)), alpha);
    Value r = s.select(s.cmp(ScalarBuilder::Cmp::le, x, fconst(s, x, 0), false), negative, x);
    return s.mul(gamma, r);
  });
  add<o::CeluOp>(p, Float, [](o::CeluOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0], alpha = fconst(s, x, op.getAlpha().convertToDouble());
    Value e = s.sub(s.math<math::ExpOp>(s.div(x, alpha, false)), fconst(s, x, 1));
    return s.add(s.max(fconst(s, x, 0), x, false),
                 s.min(fconst(s, x, 0), s.mul(alpha, e), false));
  });
  add<o::ThresholdedReluOp>(p, Float, [](o::ThresholdedReluOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    Value above = s.cmp(ScalarBuilder::Cmp::gt, x,
                        fconst(s, x, op.getAlpha().convertToDouble()), false);
    return s.select(above, x, fconst(s, x, 0));
  });
  add<o::SwishOp>(p, Float, [](o::SwishOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.mul(a[0], sigmoid(s, s.mul(a[0], fconst(s, a[0], op.getAlpha().convertToDouble()))));
  });
  add<o::ShrinkOp>(p, Numeric, [](o::ShrinkOp op, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    bool u = ScalarBuilder::isUnsigned(e[0]);
    Value x = a[0];
    double lambd = op.getLambd().convertToDouble(), bias = op.getBias().convertToDouble();
    Value below = s.cmp(ScalarBuilder::Cmp::lt, x, fconst(s, x, -lambd), u);
    Value above = s.cmp(ScalarBuilder::Cmp::gt, x, fconst(s, x, lambd), u);
    Value high = s.select(above, s.sub(x, fconst(s, x, bias)), fconst(s, x, 0));
    return s.select(below, s.add(x, fconst(s, x, bias)), high);
  });
  add<o::GeluOp>(p, Float, [](o::GeluOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0], half = fconst(s, x, 0.5), one = fconst(s, x, 1);
    Value inner;
    if (op.getApproximate() == "tanh") {
      Value cube = s.mul(s.mul(x, x), x);
      Value t = s.add(x, s.mul(fconst(s, x, 0.044715), cube));
      inner = s.math<math::TanhOp>(s.mul(fconst(s, x, std::sqrt(2.0 / M_PI)), t));
    } else {
      inner = s.math<math::ErfOp>(s.mul(x, fconst(s, x, M_SQRT1_2)));
    }
    return s.mul(s.mul(half, x), s.add(one, inner));
  });
  add<o::NotOp>(p, Bool, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitNot(a[0]);
  });
  add<o::BitwiseNotOp>(p, Int, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitNot(a[0]);
  });
  add<o::IsNaNOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.cmp(ScalarBuilder::Cmp::ne, a[0], a[0], false);
  });
  add<o::IsInfOp>(p, Float, [](o::IsInfOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    Value pos = s.cmp(ScalarBuilder::Cmp::eq, x, fconst(s, x, INFINITY), false);
    Value neg = s.cmp(ScalarBuilder::Cmp::eq, x, fconst(s, x, -INFINITY), false);
    Value no = s.constant(s.builder().getI1Type(), 0);
    return s.bitOr(op.getDetectPositive() ? pos : no, op.getDetectNegative() ? neg : no);
  });
}

void populateBinary(RewritePatternSet &p) {
  add<o::AddOp>(p, Numeric, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.add(a[0], a[1]);
  });
  add<o::SubOp>(p, Numeric, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.sub(a[0], a[1]);
  });
  add<o::MulOp>(p, Numeric, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.mul(a[0], a[1]);
  });
  add<o::DivOp>(p, Numeric, [](auto, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    return s.div(a[0], a[1], isUnsigned(e));
  });
  add<o::ModOp>(p, Numeric, [](o::ModOp op, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    return op.getFmod() ? s.rem(a[0], a[1], isUnsigned(e))
                        : s.modFloor(a[0], a[1], isUnsigned(e));
  });
  add<o::PowOp>(p, Numeric, [](auto, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    // Float bases take any exponent (converted); an integer base with a
    // float exponent computes in double and converts back, like numpy.
    Type base = e[0], exponent = e[1];
    if (isa<FloatType>(base))
      return s.pow(a[0], s.convert(a[1], exponent, base));
    if (isa<FloatType>(exponent)) {
      Type f64 = s.builder().getF64Type();
      Value r = s.pow(s.convert(a[0], base, f64), s.convert(a[1], exponent, f64));
      return s.convert(r, f64, base);
    }
    return s.pow(a[0], s.convert(a[1], exponent, base));
  });
  add<o::PReluOp>(p, Float | SignedInt, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value x = a[0];
    return s.select(s.cmp(ScalarBuilder::Cmp::lt, x, fconst(s, x, 0), false),
                    s.mul(x, a[1]), x);
  });
  // Signed types since opset 28: right shifts are arithmetic. A shift by
  // the width or more (or a negative one) gives the sign fill: the
  // runtime's shl/shr_s/shr_u define exactly that.
  add<o::SwiGLUOp>(p, Float, [](o::SwiGLUOp op, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value gate = s.mul(a[0], fconst(s, a[0], op.getAlpha().convertToDouble()));
    return s.mul(s.mul(a[0], sigmoid(s, gate)), a[1]);
  });
  add<o::BitShiftOp>(p, Int, [](o::BitShiftOp op, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    return op.getDirection() == "LEFT" ? s.shiftLeft(a[0], a[1])
                                       : s.shiftRight(a[0], a[1], isUnsigned(e));
  });
  add<o::BitwiseAndOp>(p, Int | Bool, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitAnd(a[0], a[1]);
  });
  add<o::BitwiseOrOp>(p, Int | Bool, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitOr(a[0], a[1]);
  });
  add<o::BitwiseXorOp>(p, Int | Bool, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitXor(a[0], a[1]);
  });
  add<o::AndOp>(p, Bool, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitAnd(a[0], a[1]);
  });
  add<o::OrOp>(p, Bool, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitOr(a[0], a[1]);
  });
  add<o::XorOp>(p, Bool, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    return s.bitXor(a[0], a[1]);
  });
  using Cmp = ScalarBuilder::Cmp;
  auto compare = [](Cmp pred) {
    return [pred](auto, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
      return s.cmp(pred, a[0], a[1], isUnsigned(e));
    };
  };
  add<o::EqualOp>(p, Any, compare(Cmp::eq));
  add<o::GreaterOp>(p, Numeric, compare(Cmp::gt));
  add<o::GreaterOrEqualOp>(p, Numeric, compare(Cmp::ge));
  add<o::LessOp>(p, Numeric, compare(Cmp::lt));
  add<o::LessOrEqualOp>(p, Numeric, compare(Cmp::le));
}

void populateVariadic(RewritePatternSet &p) {
  auto fold = [](auto combine) {
    return [combine](auto, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
      Value r = a[0];
      for (Value v : a.drop_front())
        r = combine(s, r, v, isUnsigned(e));
      return r;
    };
  };
  add<o::SumOp>(p, Numeric, fold([](ScalarBuilder &s, Value x, Value y, bool) { return s.add(x, y); }));
  add<o::MaxOp>(p, Numeric, fold([](ScalarBuilder &s, Value x, Value y, bool u) { return s.max(x, y, u); }));
  add<o::MinOp>(p, Numeric, fold([](ScalarBuilder &s, Value x, Value y, bool u) { return s.min(x, y, u); }));
  add<o::MeanOp>(p, Float, [](auto, ScalarBuilder &s, ValueRange a, TypeRange, Type) {
    Value r = a[0];
    for (Value v : a.drop_front())
      r = s.add(r, v);
    return s.div(r, fconst(s, r, a.size()), false);
  });
}

void populateSelectAndConvert(RewritePatternSet &p) {
  add<o::WhereOp>(p, Any, [](auto, ScalarBuilder &s, ValueRange a, TypeRange e, Type) {
    return s.select(s.convert(a[0], e[0], s.builder().getI1Type()), a[1], a[2]);
  });
  add<o::CastOp>(p, Any, [](auto op, ScalarBuilder &s, ValueRange a, TypeRange e, Type result) {
    Value v = s.convert(a[0], e[0], result);
    // saturate=1 to float8: clamp before the (overflowing) store.
    if (op.getSaturate() && ScalarBuilder::isSaturable(result))
      v = s.saturateTo(v, result);
    return v;
  });
}

/// BitCast reinterprets the bytes: an aliasing view with another element
/// type of the same width.
struct BitCastPattern : OpRewritePattern<o::BitCastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::BitCastOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::ViewOp>(op, op.getType(), op.getInput());
    return success();
  }
};

/// Clip with constant bounds folds them into the body; bounds computed at
/// run time become broadcast inputs.
struct ClipPattern : OpRewritePattern<o::ClipOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ClipOp op, PatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(op.getType());
    if (!(classOf(element) & Numeric))
      return rewriter.notifyMatchFailure(op, "Clip needs numeric elements");
    bool u = ScalarBuilder::isUnsigned(element);
    SmallVector<Value> inputs{op.getInput()};
    std::optional<double> lo, hi;
    auto bound = [&](Value v, std::optional<double> &c) {
      if (!v)
        return;
      std::vector<double> vals;
      ElementsAttr e = getConstantElements(v);
      if (e && readAsDoubles(e, vals) && vals.size() == 1)
        c = vals[0];
      else
        inputs.push_back(v);
    };
    bound(op.getMin(), lo);
    bound(op.getMax(), hi);
    bool loIsInput = op.getMin() && !lo, hiIsInput = op.getMax() && !hi;
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), inputs,
        [&](ScalarBuilder &s, ValueRange a, TypeRange, Type) {
          Value x = a[0];
          unsigned next = 1;
          if (op.getMin())
            x = s.max(x, loIsInput ? a[next++] : fconst(s, x, *lo), u);
          if (op.getMax())
            x = s.min(x, hiIsInput ? a[next++] : fconst(s, x, *hi), u);
          return x;
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns) {
  populateUnary(patterns);
  populateBinary(patterns);
  populateVariadic(patterns);
  populateSelectAndConvert(patterns);
  patterns.add<ClipPattern, BitCastPattern>(patterns.getContext());
}

} // namespace onnxcc
