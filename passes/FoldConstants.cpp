//===- FoldConstants.cpp - compile-time evaluation ------------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/ConstantData.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxcc {
#define GEN_PASS_DEF_FOLDCONSTANTS
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

/// Folds Mul/Add/Sub/Div of two constants of any size up to a limit, which
/// the ops' own folders refuse (they stop at small shape tensors).
template <typename OpTy>
struct FoldLargeBinary : OpRewritePattern<OpTy> {
  FoldLargeBinary(MLIRContext *ctx, int64_t maxElements,
                  double (*fn)(double, double))
      : OpRewritePattern<OpTy>(ctx), maxElements(maxElements), fn(fn) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape() || !isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(op, "result is not a static float tensor");
    if (type.getNumElements() > maxElements)
      return rewriter.notifyMatchFailure(op, "result exceeds max-elements");
    ElementsAttr a = getConstantElements(op.getLhs());
    ElementsAttr b = getConstantElements(op.getRhs());
    if (!a || !b)
      return rewriter.notifyMatchFailure(op, "operands are not constants");
    // Only the cheap, common case: same shape or a scalar operand.
    bool aScalar = a.getNumElements() == 1, bScalar = b.getNumElements() == 1;
    if (!(a.getType() == type || aScalar) || !(b.getType() == type || bScalar))
      return rewriter.notifyMatchFailure(op, "needs general broadcasting");
    std::vector<double> av, bv;
    if (!readAsDoubles(a, av) || !readAsDoubles(b, bv))
      return rewriter.notifyMatchFailure(op, "unreadable constant");
    std::vector<double> out(type.getNumElements());
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = fn(av[aScalar ? 0 : i], bv[bScalar ? 0 : i]);
    rewriter.replaceOpWithNewOp<onnx::ConstantOp>(
        op, type, makeElements(type, ArrayRef<double>(out)));
    return success();
  }
  int64_t maxElements;
  double (*fn)(double, double);
};

struct FoldConstantsPass : onnxcc::impl::FoldConstantsBase<FoldConstantsPass> {
  using FoldConstantsBase::FoldConstantsBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<FoldLargeBinary<onnx::AddOp>>(ctx, maxElements,
                                               [](double x, double y) { return x + y; });
    patterns.add<FoldLargeBinary<onnx::SubOp>>(ctx, maxElements,
                                               [](double x, double y) { return x - y; });
    patterns.add<FoldLargeBinary<onnx::MulOp>>(ctx, maxElements,
                                               [](double x, double y) { return x * y; });
    patterns.add<FoldLargeBinary<onnx::DivOp>>(ctx, maxElements,
                                               [](double x, double y) { return x / y; });
    // The greedy driver also runs every op's folder and erases dead ops.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
