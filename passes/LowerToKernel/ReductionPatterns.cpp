//===- ReductionPatterns.cpp - Reduce*, ArgMax/ArgMin, global pools ------===//
//
// Every reduction becomes one kernel.reduce over its (constant) axes, kept
// as dims of 1, followed by a kernel.view that drops them without
// keepdims. A reduction over one element per output (all reduced dims are
// 1, or noop_with_empty_axes) of sum, mean, max, min or prod is the
// identity: a view. GlobalLpPool with p other than 1 and 2 is |x|^p,
// summed, ^(1/p).
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/InferTypes.h"
#include "dialects/Onnx/ReductionShapes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

/// The element types a reduction takes.
enum class Accepts { Numbers, NumbersAndBool, Floats };

LogicalResult checkElement(Operation *op, PatternRewriter &rewriter, Type element,
                           Accepts accepts, StringRef onnxName) {
  bool ok = isa<FloatType>(element) ||
            (accepts != Accepts::Floats && isa<IntegerType>(element) &&
             !element.isInteger(1)) ||
            (accepts == Accepts::NumbersAndBool && element.isInteger(1));
  if (ok)
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
    d << "element type " << element << " is not supported by " << onnxName
      << (accepts == Accepts::Floats ? " (floats only)" : " (numbers only)");
  });
}

/// kernel.reduce of `x` over `axes` (sorted), then a view to `resultType`
/// when that drops the reduced dims.
Value buildReduce(PatternRewriter &rewriter, Location loc, Value x,
                  StringRef kind, ArrayRef<int64_t> axes, Type resultType) {
  auto xt = cast<RankedTensorType>(x.getType());
  auto kept = RankedTensorType::get(reducedShape(xt.getShape(), axes, true),
                                    xt.getElementType());
  bool oneElement = llvm::all_of(axes, [&](int64_t a) { return xt.getDimSize(a) == 1; });
  bool identity = oneElement && llvm::is_contained(
                                    {StringRef("sum"), StringRef("mean"),
                                     StringRef("max"), StringRef("min"),
                                     StringRef("prod")},
                                    kind);
  if (identity)
    return k::ViewOp::create(rewriter, loc, resultType, x);
  Value r = k::ReduceOp::create(rewriter, loc, kept, x, kind, axes);
  if (kept != resultType)
    r = k::ViewOp::create(rewriter, loc, resultType, r);
  return r;
}

template <typename OpTy> struct ReducePattern : OpRewritePattern<OpTy> {
  ReducePattern(MLIRContext *ctx, StringRef kind, Accepts accepts, StringRef onnxName)
      : OpRewritePattern<OpTy>(ctx), kind(kind), accepts(accepts), onnxName(onnxName) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    auto x = cast<RankedTensorType>(op.getData().getType());
    if (failed(checkElement(op, rewriter, x.getElementType(), accepts, onnxName)))
      return failure();
    std::vector<int64_t> list;
    if (Value axes = op.getAxes()) {
      auto values = constInts(axes);
      if (!values)
        return rewriter.notifyMatchFailure(op, "axes must be a constant");
      list = *values;
    }
    auto reduced = reducedAxes(std::nullopt, list, x.getRank(),
                               op.getNoopWithEmptyAxes() != 0);
    if (failed(reduced))
      return rewriter.notifyMatchFailure(op, "axes out of range or repeated");
    rewriter.replaceOp(op, buildReduce(rewriter, op.getLoc(), op.getData(), kind,
                                       *reduced, op.getType()));
    return success();
  }

  std::string kind;
  Accepts accepts;
  std::string onnxName;
};

template <typename OpTy> struct ArgReducePattern : OpRewritePattern<OpTy> {
  ArgReducePattern(MLIRContext *ctx, StringRef kind, StringRef onnxName)
      : OpRewritePattern<OpTy>(ctx), kind(kind), onnxName(onnxName) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    auto x = cast<RankedTensorType>(op.getData().getType());
    if (failed(checkElement(op, rewriter, x.getElementType(),
                            Accepts::NumbersAndBool, onnxName)))
      return failure();
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(), x.getRank());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    auto kept = RankedTensorType::get(reducedShape(x.getShape(), {*axis}, true),
                                      rewriter.getI64Type());
    Value r = k::ArgReduceOp::create(rewriter, op.getLoc(), kept, op.getData(),
                                     kind, *axis, op.getSelectLastIndex() != 0);
    if (kept != op.getType())
      r = k::ViewOp::create(rewriter, op.getLoc(), op.getType(), r);
    rewriter.replaceOp(op, r);
    return success();
  }

  std::string kind;
  std::string onnxName;
};

/// The spatial axes [2, rank) of an [N, C, ...] input.
SmallVector<int64_t> spatialAxes(Value x) {
  SmallVector<int64_t> axes;
  for (int64_t d = 2, e = cast<ShapedType>(x.getType()).getRank(); d < e; ++d)
    axes.push_back(d);
  return axes;
}

struct GlobalMaxPoolPattern : OpRewritePattern<o::GlobalMaxPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GlobalMaxPoolOp op,
                                PatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(op.getInput().getType());
    if (failed(checkElement(op, rewriter, element, Accepts::Floats, "GlobalMaxPool")))
      return failure();
    rewriter.replaceOp(op, buildReduce(rewriter, op.getLoc(), op.getInput(), "max",
                                       spatialAxes(op.getInput()), op.getType()));
    return success();
  }
};

struct GlobalLpPoolPattern : OpRewritePattern<o::GlobalLpPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GlobalLpPoolOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getInput();
    Type element = getElementTypeOrSelf(x.getType());
    if (failed(checkElement(op, rewriter, element, Accepts::Floats, "GlobalLpPool")))
      return failure();
    int64_t p = op.getP();
    if (p < 1)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
        d << "p " << p << " is not supported (p >= 1)";
      });
    Location loc = op.getLoc();
    SmallVector<int64_t> axes = spatialAxes(x);
    if (p <= 2) {
      rewriter.replaceOp(op, buildReduce(rewriter, loc, x, p == 1 ? "l1" : "l2",
                                         axes, op.getType()));
      return success();
    }
    // (sum |x|^p)^(1/p), the powers in the compute type.
    double pd = static_cast<double>(p);
    Value powered;
    {
      // buildElementwise leaves the insertion point inside the new body.
      OpBuilder::InsertionGuard guard(rewriter);
      powered = buildElementwise(
          rewriter, loc, x.getType(), {x},
          [&](ScalarBuilder &s, ValueRange a, TypeRange, Type) {
            return s.pow(s.abs(a[0]), s.constant(a[0].getType(), pd));
          });
    }
    Value sum = buildReduce(rewriter, loc, powered, "sum", axes, op.getType());
    rewriter.replaceOp(op, buildElementwise(
                               rewriter, loc, op.getType(), {sum},
                               [&](ScalarBuilder &s, ValueRange a, TypeRange, Type) {
                                 return s.pow(a[0], s.constant(a[0].getType(), 1.0 / pd));
                               }));
    return success();
  }
};

template <typename OpTy>
void addReduce(RewritePatternSet &patterns, StringRef kind, Accepts accepts,
               StringRef onnxName) {
  patterns.add<ReducePattern<OpTy>>(patterns.getContext(), kind, accepts, onnxName);
}

} // namespace

void populateReductionPatterns(RewritePatternSet &patterns) {
  const Accepts numbers = Accepts::Numbers, floats = Accepts::Floats,
                withBool = Accepts::NumbersAndBool;
  addReduce<o::ReduceL1Op>(patterns, "l1", numbers, "ReduceL1");
  addReduce<o::ReduceL2Op>(patterns, "l2", numbers, "ReduceL2");
  addReduce<o::ReduceLogSumOp>(patterns, "log_sum", floats, "ReduceLogSum");
  addReduce<o::ReduceLogSumExpOp>(patterns, "log_sum_exp", floats, "ReduceLogSumExp");
  addReduce<o::ReduceMaxOp>(patterns, "max", withBool, "ReduceMax");
  addReduce<o::ReduceMeanOp>(patterns, "mean", numbers, "ReduceMean");
  addReduce<o::ReduceMinOp>(patterns, "min", withBool, "ReduceMin");
  addReduce<o::ReduceProdOp>(patterns, "prod", numbers, "ReduceProd");
  addReduce<o::ReduceSumOp>(patterns, "sum", numbers, "ReduceSum");
  addReduce<o::ReduceSumSquareOp>(patterns, "sum_square", numbers, "ReduceSumSquare");
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ArgReducePattern<o::ArgMaxOp>>(ctx, "max", "ArgMax");
  patterns.add<ArgReducePattern<o::ArgMinOp>>(ctx, "min", "ArgMin");
  patterns.add<GlobalMaxPoolPattern, GlobalLpPoolPattern>(ctx);
}

} // namespace onnxcc
