//===- ConvPoolPatterns.cpp - Conv and pools to kernel calls --------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ShapeFunctions.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

struct ConvPattern : OpRewritePattern<o::ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ConvOp op, PatternRewriter &rewriter) const override {
    if (failed(requireF32(op, rewriter)))
      return failure();
    auto x = cast<RankedTensorType>(op.getInput().getType());
    auto pads = resolveAutoPad(op.getLoc(), op.getAutoPad(), x.getShape(),
                               op.getKernelShape(), op.getPads(), op.getStrides(),
                               op.getDilations());
    if (failed(pads))
      return failure();
    Value bias = op.getBias();
    if (!bias) { // the kernel always adds a bias: give it zeros
      int64_t outC = cast<ShapedType>(op.getWeight().getType()).getDimSize(0);
      auto t = RankedTensorType::get({outC}, rewriter.getF32Type());
      bias = k::WeightOp::create(rewriter, op.getLoc(), t,
                                 DenseElementsAttr::get(t, 0.0f));
    }
    rewriter.replaceOpWithNewOp<k::Conv2dOp>(
        op, op.getType(), op.getInput(), op.getWeight(), bias, *pads,
        op.getStrides(), op.getDilations(), op.getGroup());
    return success();
  }
};

/// ceil_mode is already in the static output shape; the kernel clamps
/// windows that run past the input.
template <typename PoolOp>
struct PoolPattern : OpRewritePattern<PoolOp> {
  PoolPattern(MLIRContext *ctx, StringRef kind)
      : OpRewritePattern<PoolOp>(ctx), kind(kind) {}
  LogicalResult matchAndRewrite(PoolOp op, PatternRewriter &rewriter) const override {
    if (failed(requireF32(op, rewriter)))
      return failure();
    auto x = cast<RankedTensorType>(op.getInput().getType());
    auto pads = resolveAutoPad(op.getLoc(), op.getAutoPad(), x.getShape(),
                               op.getKernelShape(), op.getPads(), op.getStrides(),
                               op.getDilations());
    if (failed(pads))
      return failure();
    rewriter.replaceOpWithNewOp<k::Pool2dOp>(
        op, op.getType(), op.getInput(), kind, op.getKernelShape(), *pads,
        op.getStrides(), op.getDilations(), op.getCountIncludePad() != 0);
    return success();
  }
  std::string kind;
};

struct GlobalAveragePoolPattern : OpRewritePattern<o::GlobalAveragePoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GlobalAveragePoolOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(requireF32(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<k::GlobalAvgPoolOp>(op, op.getType(), op.getInput());
    return success();
  }
};

} // namespace

void populateConvPoolPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConvPattern, GlobalAveragePoolPattern>(ctx);
  patterns.add<PoolPattern<o::MaxPoolOp>>(ctx, "max");
  patterns.add<PoolPattern<o::AveragePoolOp>>(ctx, "avg");
}

} // namespace onnxcc
