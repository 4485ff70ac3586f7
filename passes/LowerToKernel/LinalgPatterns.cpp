//===- LinalgPatterns.cpp - Gemm and MatMul to kernel.gemm ----------------===//
#include "passes/LowerToKernel/Patterns.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

struct GemmPattern : OpRewritePattern<o::GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GemmOp g, PatternRewriter &rewriter) const override {
    if (failed(requireF32(g, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<k::GemmOp>(
        g, g.getType(), g.getA(), g.getB(), g.getC(), g.getAlpha(), g.getBeta(),
        g.getTransA() != 0, g.getTransB() != 0);
    return success();
  }
};

/// [..., M, K] x [K, N]: the leading dims fold into M around a 2-D GEMM.
struct MatMulPattern : OpRewritePattern<o::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::MatMulOp op, PatternRewriter &rewriter) const override {
    if (failed(requireF32(op, rewriter)))
      return failure();
    auto a = cast<RankedTensorType>(op.getA().getType());
    auto bt = cast<RankedTensorType>(op.getB().getType());
    auto y = cast<RankedTensorType>(op.getType());
    if (bt.getRank() != 2 || a.getRank() < 2)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
        d << "MatMul of " << a << " and " << bt
          << " (only [..., K] x [K, N] is supported)";
      });
    // M is the product of the leading dims (not elements / K: K may be 0).
    int64_t kDim = a.getShape().back(), n = bt.getDimSize(1), m = 1;
    for (int64_t d : a.getShape().drop_back())
      m *= d;
    Location loc = op.getLoc();
    auto a2 = RankedTensorType::get({m, kDim}, a.getElementType());
    auto y2 = RankedTensorType::get({m, n}, a.getElementType());
    Value lhs = op.getA();
    if (a.getRank() != 2)
      lhs = k::ViewOp::create(rewriter, loc, a2, lhs);
    Value r = k::GemmOp::create(rewriter, loc, y2, lhs, op.getB(), Value(),
                                /*alpha=*/rewriter.getF32FloatAttr(1.0f),
                                /*beta=*/rewriter.getF32FloatAttr(1.0f),
                                /*trans_a=*/rewriter.getBoolAttr(false),
                                /*trans_b=*/rewriter.getBoolAttr(false));
    if (y.getRank() != 2)
      r = k::ViewOp::create(rewriter, loc, y, r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void populateLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GemmPattern, MatMulPattern>(patterns.getContext());
}

} // namespace onnxcc
