//===- FoldConstants.cpp - compile-time evaluation ------------------------===//
//
// The op folders evaluate small constants (shape arithmetic); this pass
// also evaluates elementwise arithmetic on larger constants (scaled
// weights), up to `max-elements` per result, with the same evaluator
// (ConstantEval.h), so both agree on broadcasting and integer rules.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/ConstantEval.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxcc {
#define GEN_PASS_DEF_FOLDCONSTANTS
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

template <typename OpTy>
struct FoldLargeBinary : OpRewritePattern<OpTy> {
  FoldLargeBinary(MLIRContext *ctx, int64_t maxElements, BinaryKind kind)
      : OpRewritePattern<OpTy>(ctx), maxElements(maxElements), kind(kind) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "result is not static");
    if (type.getNumElements() > maxElements)
      return rewriter.notifyMatchFailure(op, "result exceeds max-elements");
    ElementsAttr a = getConstantElements(op.getLhs());
    ElementsAttr b = getConstantElements(op.getRhs());
    if (!a || !b)
      return rewriter.notifyMatchFailure(op, "operands are not constants");
    ElementsAttr folded = evalBinary(kind, a, b, type);
    if (!folded)
      return rewriter.notifyMatchFailure(op, "not evaluated at compile time");
    rewriter.replaceOpWithNewOp<onnx::ConstantOp>(op, type, folded);
    return success();
  }
  int64_t maxElements;
  BinaryKind kind;
};

struct FoldConstantsPass : onnxcc::impl::FoldConstantsBase<FoldConstantsPass> {
  using FoldConstantsBase::FoldConstantsBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<FoldLargeBinary<onnx::AddOp>>(ctx, maxElements, BinaryKind::Add);
    patterns.add<FoldLargeBinary<onnx::SubOp>>(ctx, maxElements, BinaryKind::Sub);
    patterns.add<FoldLargeBinary<onnx::MulOp>>(ctx, maxElements, BinaryKind::Mul);
    patterns.add<FoldLargeBinary<onnx::DivOp>>(ctx, maxElements, BinaryKind::Div);
    // The greedy driver also runs every op's folder and erases dead ops.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
