//===- RotaryPatterns.cpp - RotaryEmbedding as one kernel -----------------===//
//
// A decomposition into Slice/Gather/Mul/Concat would be a dozen ops and
// copies per call; the kernel reads each element once.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

struct RotaryEmbeddingPattern : OpRewritePattern<o::RotaryEmbeddingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::RotaryEmbeddingOp op,
                                PatternRewriter &rewriter) const override {
    auto x = shapeOf(op.getInput()), c = shapeOf(op.getCosCache()),
         s = shapeOf(op.getSinCache());
    std::optional<ArrayRef<int64_t>> p;
    if (op.getPositionIds() && !(p = shapeOf(op.getPositionIds())))
      return rewriter.notifyMatchFailure(op, "position_ids shape is not known");
    if (!x || !c || !s)
      return rewriter.notifyMatchFailure(op, "shapes are not known");
    if (!isa<FloatType>(getElementTypeOrSelf(op.getInput().getType())))
      return rewriter.notifyMatchFailure(op, "RotaryEmbedding needs float "
                                             "elements");
    auto dims = rotaryDims(op.getLoc(), *x, *c, *s, p, op.getNumHeads(),
                           op.getRotaryEmbeddingDim());
    if (failed(dims))
      return rewriter.notifyMatchFailure(op, "shapes do not fit");
    rewriter.replaceOpWithNewOp<k::RotaryEmbeddingOp>(
        op, op.getType(), op.getInput(), op.getCosCache(), op.getSinCache(),
        op.getPositionIds(), rewriter.getI64IntegerAttr(dims->heads),
        rewriter.getI64IntegerAttr(dims->rotaryDim),
        rewriter.getBoolAttr(op.getInterleaved() != 0),
        rewriter.getBoolAttr(dims->packed));
    return success();
  }
};

} // namespace

void populateRotaryPatterns(RewritePatternSet &patterns) {
  patterns.add<RotaryEmbeddingPattern>(patterns.getContext());
}

} // namespace onnxcc
