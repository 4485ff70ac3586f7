//===- ConvPoolPatterns.cpp - Conv, pools and their inverses to kernels ---===//
//
// Window attributes are resolved once (defaults, auto_pad) by the shape
// rules of ConvPoolShapes.cpp; the kernels take explicit lists. An f32
// Conv over 1 or 2 axes is kernel.conv2d (im2col + GEMM, fused epilogues;
// 1-D through views with H = 1); other Convs are the direct kernel.conv.
// Kernels that accumulate into their output (ConvTranspose, Col2Im) run
// 16-bit floats in f32 between two conversions.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ConvPoolShapes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

static ArrayRef<int64_t> dimsOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}
static Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

/// Fails unless `element` is a float type.
static LogicalResult requireFloat(Operation *op, Type element,
                                  PatternRewriter &rewriter) {
  if (isa<FloatType>(element))
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
    d << "elements of type " << element
      << " are not supported here (float types only)";
  });
}

/// Fails unless the window has 1 to 3 spatial axes (the kernels' limit).
static LogicalResult requireAxes(Operation *op, int64_t n,
                                 PatternRewriter &rewriter) {
  if (n >= 1 && n <= 3)
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
    d << "windows over " << n << " spatial axes are not supported (1-D to 3-D)";
  });
}

/// `v` viewed as `shape`.
static Value view(PatternRewriter &rewriter, Location loc, Value v,
                  ArrayRef<int64_t> shape) {
  if (dimsOf(v) == shape)
    return v;
  return k::ViewOp::create(rewriter, loc, RankedTensorType::get(shape, elementOf(v)), v);
}

/// `v` converted to elements of `element` (null stays null).
static Value convert(PatternRewriter &rewriter, Location loc, Value v,
                     Type element) {
  if (!v || elementOf(v) == element)
    return v;
  OpBuilder::InsertionGuard guard(rewriter);
  auto type = cast<RankedTensorType>(v.getType()).clone(element);
  return buildElementwise(
      rewriter, loc, type, v,
      [](ScalarBuilder &s, ValueRange args, TypeRange elements, Type result) {
        return s.convert(args[0], elements[0], result);
      });
}

/// The element type a scatter kernel accumulates in: f16 and bf16 in f32.
static Type accumulatorOf(Type element) {
  return element.isF16() || element.isBF16()
             ? Float32Type::get(element.getContext())
             : element;
}

namespace {

struct ConvPattern : OpRewritePattern<o::ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ConvOp op, PatternRewriter &rewriter) const override {
    Type et = elementOf(op.getInput());
    if (failed(requireFloat(op, et, rewriter)))
      return failure();
    auto x = dimsOf(op.getInput()), w = dimsOf(op.getWeight());
    auto win = resolveWindow(op.getLoc(), x, op.getAutoPad(), op.getKernelShape(),
                             op.getPads(), op.getStrides(), op.getDilations(),
                             w.drop_front(2));
    if (failed(win) || failed(requireAxes(op, win->rank(), rewriter)))
      return failure();
    if (!et.isF32() || win->rank() == 3) {
      rewriter.replaceOpWithNewOp<k::ConvOp>(
          op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
          win->pads, win->strides, win->dilations, op.getGroup());
      return success();
    }
    Location loc = op.getLoc();
    Value bias = op.getBias();
    if (!bias) { // the kernel always adds a bias: give it zeros
      auto t = RankedTensorType::get({w[0]}, et);
      bias = k::WeightOp::create(rewriter, loc, t, DenseElementsAttr::get(t, 0.0f));
    }
    if (win->rank() == 2) {
      rewriter.replaceOpWithNewOp<k::Conv2dOp>(
          op, op.getType(), op.getInput(), op.getWeight(), bias, win->pads,
          win->strides, win->dilations, op.getGroup());
      return success();
    }
    // 1-D: the 2-D kernel over images one row high.
    auto y = dimsOf(op.getResult());
    Value x2 = view(rewriter, loc, op.getInput(), {x[0], x[1], 1, x[2]});
    Value w2 = view(rewriter, loc, op.getWeight(), {w[0], w[1], 1, w[2]});
    auto y2 = RankedTensorType::get({y[0], y[1], 1, y[2]}, et);
    Value r = k::Conv2dOp::create(
        rewriter, loc, y2, x2, w2, bias,
        SmallVector<int64_t>{0, win->pads[0], 0, win->pads[1]},
        SmallVector<int64_t>{1, win->strides[0]},
        SmallVector<int64_t>{1, win->dilations[0]}, op.getGroup());
    rewriter.replaceOp(op, view(rewriter, loc, r, y));
    return success();
  }
};

struct ConvTransposePattern : OpRewritePattern<o::ConvTransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ConvTransposeOp op,
                                PatternRewriter &rewriter) const override {
    Type et = elementOf(op.getInput());
    if (failed(requireFloat(op, et, rewriter)))
      return failure();
    auto x = dimsOf(op.getInput()), w = dimsOf(op.getWeight());
    auto win = checkWindow(op.getLoc(), x.size() - 2, op.getKernelShape(),
                           op.getPads(), op.getStrides(), op.getDilations(),
                           w.drop_front(2));
    if (failed(win) ||
        failed(inferConvTransposeShape(op.getLoc(), x, w, op.getAutoPad(), *win,
                                       op.getOutputPadding(), op.getOutputShape(),
                                       op.getGroup())) ||
        failed(requireAxes(op, win->rank(), rewriter)))
      return failure();
    Location loc = op.getLoc();
    Type acc = accumulatorOf(et);
    auto type = cast<RankedTensorType>(op.getType());
    Value r = k::ConvTransposeOp::create(
        rewriter, loc, type.clone(acc), convert(rewriter, loc, op.getInput(), acc),
        convert(rewriter, loc, op.getWeight(), acc),
        convert(rewriter, loc, op.getBias(), acc), win->pads, win->strides,
        win->dilations, op.getGroup());
    rewriter.replaceOp(op, convert(rewriter, loc, r, et));
    return success();
  }
};

/// MaxPool, AveragePool and LpPool to kernel.pool. ceil_mode is already in
/// the static output shape; the kernel clamps windows that run past the
/// input. MaxPool's indices are computed only when something reads them.
template <typename PoolOp>
struct PoolPattern : OpRewritePattern<PoolOp> {
  PoolPattern(MLIRContext *ctx, StringRef kind)
      : OpRewritePattern<PoolOp>(ctx), kind(kind) {}
  LogicalResult matchAndRewrite(PoolOp op, PatternRewriter &rewriter) const override {
    Type et = elementOf(op.getInput());
    bool integerMax = kind == "max" && et.isInteger() && !et.isInteger(1);
    if (!integerMax && failed(requireFloat(op, et, rewriter)))
      return failure();
    auto x = dimsOf(op.getInput());
    auto win = resolveWindow(op.getLoc(), x, op.getAutoPad(), op.getKernelShape(),
                             op.getPads(), op.getStrides(), op.getDilations());
    if (failed(win) || failed(requireAxes(op, win->rank(), rewriter)))
      return failure();
    bool countIncludePad = false, withIndices = false;
    int64_t p = 2, storageOrder = 0;
    if constexpr (std::is_same_v<PoolOp, o::AveragePoolOp>)
      countIncludePad = op.getCountIncludePad() != 0;
    if constexpr (std::is_same_v<PoolOp, o::LpPoolOp>)
      p = op.getP();
    if constexpr (std::is_same_v<PoolOp, o::MaxPoolOp>) {
      withIndices = !op.getIndices().use_empty();
      storageOrder = op.getStorageOrder();
    }
    SmallVector<Type> types{op->getResult(0).getType()};
    if (withIndices)
      types.push_back(op->getResult(1).getType());
    auto pool = k::PoolOp::create(
        rewriter, op.getLoc(), types, op.getInput(), kind, win->kernel,
        win->pads, win->strides, win->dilations, countIncludePad, p,
        storageOrder);
    rewriter.replaceAllUsesWith(op->getResult(0), pool.getOutput());
    if (withIndices)
      rewriter.replaceAllUsesWith(op->getResult(1), pool.getIndices());
    rewriter.eraseOp(op);
    return success();
  }
  std::string kind;
};

struct DeformConvPattern : OpRewritePattern<o::DeformConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::DeformConvOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(requireFloat(op, elementOf(op.getInput()), rewriter)))
      return failure();
    auto x = dimsOf(op.getInput()), w = dimsOf(op.getWeight());
    auto win = resolveWindow(op.getLoc(), x, "NOTSET", op.getKernelShape(),
                             op.getPads(), op.getStrides(), op.getDilations(),
                             w.drop_front(2));
    if (failed(win))
      return failure();
    if (win->rank() != 2)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
        d << "DeformConv over " << win->rank()
          << " spatial axes is not supported (2-D only)";
      });
    rewriter.replaceOpWithNewOp<k::DeformConv2dOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getOffset(),
        op.getBias(), op.getMask(), win->pads, win->strides, win->dilations,
        op.getGroup(), op.getOffsetGroup());
    return success();
  }
};

// GlobalMaxPool and GlobalLpPool lower as reductions (ReductionPatterns.cpp).
struct GlobalAveragePoolPattern : OpRewritePattern<o::GlobalAveragePoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GlobalAveragePoolOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(requireFloat(op, elementOf(op.getInput()), rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<k::GlobalPoolOp>(op, op.getType(), op.getInput(),
                                                 "avg", /*p=*/2);
    return success();
  }
};

struct MaxUnpoolPattern : OpRewritePattern<o::MaxUnpoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::MaxUnpoolOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(requireFloat(op, elementOf(op.getInput()), rewriter)))
      return failure();
    auto x = dimsOf(op.getInput());
    auto win = checkWindow(op.getLoc(), x.size() - 2, op.getKernelShape(),
                           op.getPads(), op.getStrides(), /*dilations=*/{});
    if (failed(win))
      return failure();
    auto unpooled = inferMaxUnpoolShape(op.getLoc(), x, *win, std::nullopt);
    if (failed(unpooled))
      return failure();
    rewriter.replaceOpWithNewOp<k::MaxUnpoolOp>(op, op.getType(), op.getInput(),
                                                op.getIndices(), *unpooled);
    return success();
  }
};

struct Col2ImPattern : OpRewritePattern<o::Col2ImOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::Col2ImOp op, PatternRewriter &rewriter) const override {
    Type et = elementOf(op.getInput());
    if (failed(requireFloat(op, et, rewriter)))
      return failure();
    auto y = dimsOf(op.getResult());
    auto blockValues = constInts(op.getBlockShape());
    if (!blockValues)
      return rewriter.notifyMatchFailure(op, "block_shape is not a constant");
    auto win = checkWindow(op.getLoc(), y.size() - 2, *blockValues, op.getPads(),
                           op.getStrides(), op.getDilations());
    if (failed(win) || failed(requireAxes(op, win->rank(), rewriter)))
      return failure();
    Location loc = op.getLoc();
    Type acc = accumulatorOf(et);
    auto type = cast<RankedTensorType>(op.getType());
    Value r = k::Col2ImOp::create(rewriter, loc, type.clone(acc),
                                  convert(rewriter, loc, op.getInput(), acc),
                                  win->kernel, win->pads, win->strides,
                                  win->dilations);
    rewriter.replaceOp(op, convert(rewriter, loc, r, et));
    return success();
  }
};

} // namespace

void populateConvPoolPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConvPattern, DeformConvPattern, ConvTransposePattern,
               MaxUnpoolPattern, Col2ImPattern>(ctx);
  patterns.add<PoolPattern<o::MaxPoolOp>>(ctx, "max");
  patterns.add<PoolPattern<o::AveragePoolOp>>(ctx, "avg");
  patterns.add<PoolPattern<o::LpPoolOp>>(ctx, "lp");
  patterns.add<GlobalAveragePoolPattern>(ctx);
}

} // namespace onnxcc
