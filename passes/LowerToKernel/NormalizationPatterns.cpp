//===- NormalizationPatterns.cpp - Softmax and normalisations -------------===//
//
// Each normalisation is one kernel. Parameters that only broadcast to the
// shape the kernel reads (LayerNormalization's scale of [1, D], a
// GroupNormalization-18 scale per group) are first expanded by a small
// elementwise copy, usually of a weight.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

struct SoftmaxPattern : OpRewritePattern<o::SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::SoftmaxOp s, PatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(s.getType());
    if (!isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(s, "Softmax needs float elements");
    auto axis = normalizeAxis(std::nullopt, (int64_t)s.getAxis(), type.getRank());
    if (failed(axis))
      return rewriter.notifyMatchFailure(s, "axis out of range");
    rewriter.replaceOpWithNewOp<k::SoftmaxOp>(s, type, s.getInput(), *axis);
    return success();
  }
};

/// Fails unless `v` has float elements (f16, bf16, f32, f64).
LogicalResult requireFloat(Operation *op, PatternRewriter &rewriter, Value v) {
  Type element = getElementTypeOrSelf(v.getType());
  if (isa<FloatType>(element))
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
    d << "element type " << element << " is not supported (floats only)";
  });
}

/// `p` as a tensor of `shape`: viewed when it has as many elements,
/// otherwise broadcast (numpy rules, `shape` fixed) by an elementwise copy.
Value expandTo(PatternRewriter &rewriter, Location loc, Value p,
               ArrayRef<int64_t> shape) {
  auto pt = cast<RankedTensorType>(p.getType());
  auto target = RankedTensorType::get(shape, pt.getElementType());
  if (pt == target)
    return p;
  if (pt.getNumElements() == target.getNumElements())
    return k::ViewOp::create(rewriter, loc, target, p);
  if (pt.getRank() > target.getRank()) // leading dims of 1 (checked by the shape rule)
    p = k::ViewOp::create(rewriter, loc,
                          RankedTensorType::get(pt.getShape().take_back(target.getRank()),
                                                pt.getElementType()),
                          p);
  // buildElementwise leaves the insertion point inside the new body.
  OpBuilder::InsertionGuard guard(rewriter);
  return buildElementwise(rewriter, loc, target, {p},
                          [](ScalarBuilder &, ValueRange a, TypeRange, Type) {
                            return a[0];
                          });
}

/// LayerNormalization's scale or bias as the kernel reads it: the row's
/// shape (x.shape[axis:]) when it does not vary over the leading dims,
/// else the input's shape.
Value layerNormParam(PatternRewriter &rewriter, Location loc, Value p,
                     ArrayRef<int64_t> x, int64_t axis) {
  ArrayRef<int64_t> ps = cast<ShapedType>(p.getType()).getShape();
  int64_t lead = (int64_t)x.size() - (int64_t)ps.size(); // dims p does not have
  bool perRow = true;
  for (int64_t d = 0; d < axis; ++d)
    if (d >= lead && ps[d - lead] != 1)
      perRow = false;
  return expandTo(rewriter, loc, p, perRow ? x.drop_front(axis) : x);
}

/// LayerNormalization and RMSNormalization.
template <typename OpTy, bool Rms>
struct LayerNormPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    Value x = op.getInput();
    if (failed(requireFloat(op, rewriter, x)) ||
        failed(requireFloat(op, rewriter, op.getScale())))
      return failure();
    auto xt = cast<RankedTensorType>(x.getType());
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(), xt.getRank());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    Location loc = op.getLoc();
    Value scale = layerNormParam(rewriter, loc, op.getScale(), xt.getShape(), *axis);
    Value bias;
    SmallVector<Type> types{xt};
    if constexpr (!Rms) {
      if (op.getBias()) {
        if (getElementTypeOrSelf(op.getBias().getType()) !=
            getElementTypeOrSelf(op.getScale().getType()))
          return rewriter.notifyMatchFailure(op, "scale and bias differ in element type");
        bias = layerNormParam(rewriter, loc, op.getBias(), xt.getShape(), *axis);
      }
      if (!op.getMean().use_empty() || !op.getInvStdDev().use_empty())
        types.append({op.getMean().getType(), op.getInvStdDev().getType()});
    }
    auto norm = k::LayerNormOp::create(rewriter, loc, types, x, /*skip=*/Value(),
                                       scale, bias, *axis,
                                       op.getEpsilon(), Rms);
    rewriter.replaceAllUsesWith(op->getResult(0), norm.getOutput());
    if constexpr (!Rms) {
      if (!norm.getStats().empty()) {
        rewriter.replaceAllUsesWith(op.getMean(), norm.getStats()[0]);
        rewriter.replaceAllUsesWith(op.getInvStdDev(), norm.getStats()[1]);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// GroupNormalization (opset 18: scale and bias per group; 21: per
/// channel) and InstanceNormalization (one channel per group).
template <typename OpTy>
struct GroupNormPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    Value x = op.getInput();
    if (failed(requireFloat(op, rewriter, x)))
      return failure();
    auto xs = cast<ShapedType>(x.getType()).getShape();
    int64_t channels = xs[1], groups = channels;
    if constexpr (std::is_same<OpTy, o::GroupNormalizationOp>::value)
      groups = op.getNumGroups();
    if (groups < 1 || channels % groups != 0)
      return rewriter.notifyMatchFailure(op, "num_groups does not divide the channels");
    Location loc = op.getLoc();
    auto perChannel = [&](Value p) -> Value {
      auto pt = cast<RankedTensorType>(p.getType());
      if (pt.getDimSize(0) == channels)
        return p;
      // One value per group: repeat it for each of the group's channels.
      Type et = pt.getElementType();
      Value column = k::ViewOp::create(
          rewriter, loc, RankedTensorType::get({groups, 1}, et), p);
      Value spread = expandTo(rewriter, loc, column, {groups, channels / groups});
      return k::ViewOp::create(rewriter, loc, RankedTensorType::get({channels}, et),
                               spread);
    };
    for (Value p : {op.getScale(), op.getBias()}) {
      auto pt = cast<RankedTensorType>(p.getType());
      if (pt.getElementType() != cast<ShapedType>(x.getType()).getElementType() ||
          pt.getRank() != 1 || (pt.getDimSize(0) != channels && pt.getDimSize(0) != groups))
        return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
          d << "scale and bias must be " << channels << " or " << groups
            << " values of the input's element type, got " << pt;
        });
    }
    Value scale = perChannel(op.getScale()), bias = perChannel(op.getBias());
    rewriter.replaceOpWithNewOp<k::GroupNormOp>(op, x.getType(), x, scale, bias,
                                                groups, op.getEpsilon());
    return success();
  }
};

struct LRNPattern : OpRewritePattern<o::LRNOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::LRNOp op, PatternRewriter &rewriter) const override {
    if (failed(requireFloat(op, rewriter, op.getInput())))
      return failure();
    rewriter.replaceOpWithNewOp<k::LRNOp>(op, op.getType(), op.getInput(),
                                          (int64_t)op.getSize(), op.getAlpha(),
                                          op.getBeta(), op.getBias());
    return success();
  }
};

/// LogSoftmax and Hardmax: kernel.axis_norm of `kind`.
template <typename OpTy>
struct AxisNormPattern : OpRewritePattern<OpTy> {
  AxisNormPattern(MLIRContext *ctx, StringRef kind)
      : OpRewritePattern<OpTy>(ctx), kind(kind) {}
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    if (failed(requireFloat(op, rewriter, op.getInput())))
      return failure();
    auto type = cast<ShapedType>(op.getType());
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(), type.getRank());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    rewriter.replaceOpWithNewOp<k::AxisNormOp>(op, type, op.getInput(), kind, *axis);
    return success();
  }
  std::string kind;
};

} // namespace

void populateNormalizationPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SoftmaxPattern, LRNPattern,
               LayerNormPattern<o::LayerNormalizationOp, /*Rms=*/false>,
               LayerNormPattern<o::RMSNormalizationOp, /*Rms=*/true>,
               GroupNormPattern<o::GroupNormalizationOp>,
               GroupNormPattern<o::InstanceNormalizationOp>>(ctx);
  patterns.add<AxisNormPattern<o::LogSoftmaxOp>>(ctx, "log_softmax");
  patterns.add<AxisNormPattern<o::HardmaxOp>>(ctx, "hardmax");
}

} // namespace onnxcc
