//===- LowerToKernel.cpp - onnx dialect to kernel calls -------------------===//
//
// Rewrite patterns, one set per op family (Patterns.h), applied to one
// onnx op at a time so that an op no pattern can lower is reported with
// the reason its pattern gave (an element type it does not take, a rank it
// does not handle) or "no kernel"; every such op is reported, not just the
// first. Constants that kernels still read become kernel.weight, so that
// emitters read only the kernel dialect.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "passes/LowerToKernel/Patterns.h"
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/GraphInputs.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace onnxcc {
#define GEN_PASS_DEF_LOWERTOKERNEL
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;
namespace k = ::onnxcc::kernel;

LogicalResult onnxcc::requireF32(Operation *op, PatternRewriter &rewriter) {
  for (Value v : op->getOperands()) {
    Type element = cast<ShapedType>(v.getType()).getElementType();
    if (!element.isF32())
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
        d << "elements of type " << element << " are not supported here (f32 only)";
      });
  }
  return success();
}

Value onnxcc::transposedWeight(PatternRewriter &rewriter, Location loc,
                               Value v) {
  ElementsAttr attr = getConstantElements(v);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  std::vector<double> values;
  if (!attr || !type || type.getRank() < 2 ||
      !isa<FloatType>(type.getElementType()) || !readAsDoubles(attr, values))
    return Value();
  ArrayRef<int64_t> dims = type.getShape();
  int64_t rows = dims[dims.size() - 2], cols = dims.back();
  int64_t matrices = rows * cols ? int64_t(values.size()) / (rows * cols) : 0;
  std::vector<double> t(values.size());
  for (int64_t m = 0; m < matrices; ++m)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        t[(m * cols + c) * rows + r] = values[(m * rows + r) * cols + c];
  SmallVector<int64_t> shape(dims);
  std::swap(shape[shape.size() - 2], shape.back());
  auto tType = RankedTensorType::get(shape, type.getElementType());
  return k::WeightOp::create(rewriter, loc, tType, makeElements(tType, t));
}

namespace {

/// Keeps the last reason a pattern gave for not lowering each op.
struct FailureReasons : RewriterBase::Listener {
  void notifyMatchFailure(Location,
                          function_ref<void(Diagnostic &)> reason) override {
    if (!current)
      return;
    Diagnostic d(current->getLoc(), DiagnosticSeverity::Remark);
    reason(d);
    reasons[current] = d.str();
  }
  Operation *current = nullptr;
  llvm::DenseMap<Operation *, std::string> reasons;
};

/// The graph inputs whose values may decide `op`'s result shape: operands
/// of rank 0 or 1 read straight from a graph input (shape, scales, starts,
/// repeats, k, ...). Operand 0 is data unless it is the only candidate.
SmallVector<std::string> shapeGivingInputs(Operation *op) {
  SmallVector<std::string> names;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    std::string name = graphInputName(v);
    if (!name.empty() && t && t.getRank() <= 1 && !llvm::is_contained(names, name))
      names.push_back(name);
  }
  if (names.size() > 1 && op->getNumOperands() &&
      graphInputName(op->getOperand(0)) == names.front())
    names.erase(names.begin());
  return names;
}

/// Every value a kernel touches must have a static shape by now.
LogicalResult checkStatic(Operation *op) {
  // Shape operands of view-like ops (Reshape's target, axes) are constants
  // that are not read at run time.
  bool viewLike = isa<onnx::ReshapeOp, onnx::UnsqueezeOp, onnx::SqueezeOp>(op);
  SmallVector<Type> types(op->getResultTypes());
  for (auto [i, t] : llvm::enumerate(op->getOperandTypes()))
    if (!viewLike || i == 0)
      types.push_back(t);
  for (Type t : types) {
    auto st = dyn_cast<RankedTensorType>(t);
    if (st && st.hasStaticShape())
      continue;
    // All operands are static (an op reading a dynamic value is skipped),
    // so a graph input's value decides this shape.
    SmallVector<std::string> inputs = shapeGivingInputs(op);
    if (!inputs.empty())
      return op->emitError()
             << "cannot compile: the shape of a result depends on the value "
                "of graph input '"
             << inputs.front() << "'" << constInputHint(inputs.front());
    return op->emitError() << "cannot compile: shape " << t
                           << " is not static after shape inference";
  }
  return success();
}

struct LowerToKernelPass : onnxcc::impl::LowerToKernelBase<LowerToKernelPass> {
  using LowerToKernelBase::LowerToKernelBase;
  void runOnOperation() override;
};

void LowerToKernelPass::runOnOperation() {
  func::FuncOp func = getOperation();
  MLIRContext *ctx = &getContext();

  // Report every op with a dynamic shape, but not the ones that only follow
  // from another: an op reading a value that already failed is skipped.
  bool ok = true;
  llvm::DenseSet<Value> failedValues;
  for (Operation &op : func.getBody().front()) {
    if (!isa<onnx::OnnxDialect>(op.getDialect()) ||
        op.hasTrait<OpTrait::ConstantLike>())
      continue;
    bool follows = llvm::any_of(op.getOperands(), [&](Value v) {
      return failedValues.contains(v);
    });
    if (follows || failed(checkStatic(&op))) {
      ok = false;
      failedValues.insert(op.result_begin(), op.result_end());
    }
  }
  if (!ok)
    return signalPassFailure();

  RewritePatternSet patterns(ctx);
  populateElementwisePatterns(patterns);
  populateLinalgPatterns(patterns, layoutRows);
  populateConvPoolPatterns(patterns);
  populateDataMovementPatterns(patterns);
  populateNormalizationPatterns(patterns);
  populateRecurrentPatterns(patterns, layoutRows);
  populateQuantizationPatterns(patterns);
  populateReductionPatterns(patterns);
  populateImagePatterns(patterns);
  populateAttentionPatterns(patterns);
  populateRotaryPatterns(patterns);
  populateMlPatterns(patterns);
  FrozenRewritePatternSet frozen(std::move(patterns));

  // Ops are lowered one at a time so that each failure keeps its reason.
  FailureReasons reasons;
  GreedyRewriteConfig config;
  config.setListener(&reasons);
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  SmallVector<Operation *> toLower;
  for (Operation &op : func.getBody().front())
    if (isa<onnx::OnnxDialect>(op.getDialect()) &&
        !op.hasTrait<OpTrait::ConstantLike>())
      toLower.push_back(&op);
  llvm::DenseSet<Value> unlowered;
  for (Operation *op : toLower) {
    reasons.current = op;
    bool follows = llvm::any_of(op->getOperands(), [&](Value v) {
      return unlowered.contains(v);
    });
    bool erased = false;
    if (!follows)
      (void)applyOpPatternsGreedily(op, frozen, config, /*changed=*/nullptr,
                                    &erased);
    if (erased) {
      reasons.reasons.erase(op); // the op is gone; so is its key
      continue;
    }
    ok = false;
    unlowered.insert(op->result_begin(), op->result_end());
    if (follows)
      continue;
    auto it = reasons.reasons.find(op);
    op->emitError() << "cannot compile: "
                    << (it != reasons.reasons.end()
                            ? it->second
                            : "no kernel for '" +
                                  op->getName().getStringRef().str() + "'");
  }
  if (!ok)
    return signalPassFailure();

  // Constants that kernels read become weights; the others are dead.
  OpBuilder b(ctx);
  for (Operation &op : llvm::make_early_inc_range(func.getBody().front())) {
    auto c = dyn_cast<onnx::ConstantOp>(op);
    if (!c)
      continue;
    if (!c.use_empty()) {
      b.setInsertionPoint(c);
      c.replaceAllUsesWith(
          k::WeightOp::create(b, c.getLoc(), c.getType(), c.getValue())
              .getResult());
    }
    c.erase();
  }
}
} // namespace
