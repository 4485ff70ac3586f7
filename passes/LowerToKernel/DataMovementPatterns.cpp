//===- DataMovementPatterns.cpp - views, transposes, concats --------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ShapeFunctions.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

/// Reshape-like ops reinterpret a contiguous buffer: an aliasing view.
template <typename OpTy>
struct ViewPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::ViewOp>(op, op->getResult(0).getType(),
                                           op->getOperand(0));
    return success();
  }
};

struct TransposePattern : OpRewritePattern<o::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::TransposeOp t, PatternRewriter &rewriter) const override {
    SmallVector<int64_t> perm(t.getPerm());
    if (perm.empty())
      for (int64_t i = cast<ShapedType>(t.getType()).getRank() - 1; i >= 0; --i)
        perm.push_back(i);
    rewriter.replaceOpWithNewOp<k::TransposeOp>(t, t.getType(), t.getInput(), perm);
    return success();
  }
};

struct ConcatPattern : OpRewritePattern<o::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ConcatOp c, PatternRewriter &rewriter) const override {
    int64_t rank = cast<ShapedType>(c.getType()).getRank();
    auto axis = normalizeAxis(std::nullopt, (int64_t)c.getAxis(), rank);
    if (failed(axis))
      return rewriter.notifyMatchFailure(c, "axis out of range");
    rewriter.replaceOpWithNewOp<k::ConcatOp>(c, c.getType(), c.getInputs(), *axis);
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ViewPattern<o::ReshapeOp>, ViewPattern<o::FlattenOp>,
               ViewPattern<o::SqueezeOp>, ViewPattern<o::UnsqueezeOp>,
               ViewPattern<o::IdentityOp>, TransposePattern, ConcatPattern>(ctx);
}

} // namespace onnxcc
