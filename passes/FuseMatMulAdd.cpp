//===- FuseMatMulAdd.cpp - MatMul + bias Add into Gemm --------------------===//
#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxcc {
#define GEN_PASS_DEF_FUSEMATMULADD
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {
struct MatMulAddToGemm : OpRewritePattern<onnx::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(onnx::AddOp add,
                                PatternRewriter &rewriter) const override {
    Value mmValue = add.getLhs(), bias = add.getRhs();
    if (!mmValue.getDefiningOp<onnx::MatMulOp>())
      std::swap(mmValue, bias);
    auto mm = mmValue.getDefiningOp<onnx::MatMulOp>();
    if (!mm || !mm->hasOneUse())
      return rewriter.notifyMatchFailure(add, "no single-use MatMul operand");
    auto a = dyn_cast<RankedTensorType>(mm.getA().getType());
    auto b = dyn_cast<RankedTensorType>(mm.getB().getType());
    auto c = dyn_cast<RankedTensorType>(bias.getType());
    auto y = dyn_cast<RankedTensorType>(add.getType());
    if (!a || !b || !c || !y || a.getRank() != 2 || b.getRank() != 2 ||
        c.getRank() > 2 || y != mm.getType())
      return rewriter.notifyMatchFailure(add, "not a 2-D product with a bias");
    rewriter.replaceOpWithNewOp<onnx::GemmOp>(
        add, y, mm.getA(), mm.getB(), bias, /*alpha=*/rewriter.getF32FloatAttr(1.0f),
        /*beta=*/rewriter.getF32FloatAttr(1.0f),
        /*trans_a=*/rewriter.getI64IntegerAttr(0),
        /*trans_b=*/rewriter.getI64IntegerAttr(0));
    rewriter.eraseOp(mm);
    return success();
  }
};

struct FuseMatMulAddPass : onnxcc::impl::FuseMatMulAddBase<FuseMatMulAddPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MatMulAddToGemm>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
