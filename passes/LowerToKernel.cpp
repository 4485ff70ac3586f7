//===- LowerToKernel.cpp - onnx dialect to kernel calls -------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace onnxcc {
#define GEN_PASS_DEF_LOWERTOKERNEL
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;
namespace k = ::onnxcc::kernel;

namespace {

using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// Builds `kernel.elementwise` over `inputs` whose body is `body`.
static Value buildElementwise(OpBuilder &b, Location loc, Type resultType,
                              ValueRange inputs, BodyFn body) {
  auto op = k::ElementwiseOp::create(b, loc, resultType, inputs);
  Block *block = b.createBlock(&op.getBody());
  for (Value in : inputs)
    block->addArgument(getElementTypeOrSelf(in.getType()), loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  Value r = body(b, loc, block->getArguments());
  k::YieldOp::create(b, loc, r);
  b.setInsertionPointAfter(op);
  return op.getResult();
}

static Value fconst(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr((float)v));
}

/// The scalar body of each elementwise onnx op (f32 only for now).
static std::optional<std::function<Value(OpBuilder &, Location, ValueRange)>>
scalarBody(Operation *op) {
  using R = std::function<Value(OpBuilder &, Location, ValueRange)>;
  return TypeSwitch<Operation *, std::optional<R>>(op)
      .Case([](onnx::AddOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::AddFOp::create(b, l, a[0], a[1]);
        };
      })
      .Case([](onnx::SubOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::SubFOp::create(b, l, a[0], a[1]);
        };
      })
      .Case([](onnx::MulOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::MulFOp::create(b, l, a[0], a[1]);
        };
      })
      .Case([](onnx::DivOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::DivFOp::create(b, l, a[0], a[1]);
        };
      })
      .Case([](onnx::ReluOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::MaximumFOp::create(b, l, a[0], fconst(b, l, 0.0));
        };
      })
      .Case([](onnx::NegOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::NegFOp::create(b, l, a[0]);
        };
      })
      .Case([](onnx::AbsOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return math::AbsFOp::create(b, l, a[0]);
        };
      })
      .Case([](onnx::ExpOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return math::ExpOp::create(b, l, a[0]);
        };
      })
      .Case([](onnx::SqrtOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return math::SqrtOp::create(b, l, a[0]);
        };
      })
      .Case([](onnx::TanhOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return math::TanhOp::create(b, l, a[0]);
        };
      })
      .Case([](onnx::SigmoidOp) -> R {
        return [](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, a[0]));
          Value d = arith::AddFOp::create(b, l, fconst(b, l, 1.0), e);
          return arith::DivFOp::create(b, l, fconst(b, l, 1.0), d);
        };
      })
      .Default([](Operation *) { return std::nullopt; });
}

struct LowerToKernelPass : onnxcc::impl::LowerToKernelBase<LowerToKernelPass> {
  void runOnOperation() override;

private:
  LogicalResult lower(Operation *op, OpBuilder &b);
  LogicalResult lowerClip(onnx::ClipOp op, OpBuilder &b);
  LogicalResult lowerConv(onnx::ConvOp op, OpBuilder &b);
  LogicalResult lowerMatMul(onnx::MatMulOp op, OpBuilder &b);
  template <typename PoolOp>
  LogicalResult lowerPool(PoolOp op, StringRef kind, OpBuilder &b);
};

/// Every value the kernels touch must be a static f32 tensor (integer
/// tensors survive only as folded shape constants).
static LogicalResult checkTypes(Operation *op) {
  // Shape operands of view-like ops (Reshape's target, axes) are i64
  // constants that are not read at run time.
  bool viewLike = isa<onnx::ReshapeOp, onnx::UnsqueezeOp, onnx::SqueezeOp>(op);
  SmallVector<Type> types(op->getResultTypes());
  for (auto [i, t] : llvm::enumerate(op->getOperandTypes()))
    if (!viewLike || i == 0)
      types.push_back(t);
  for (Type t : types) {
    auto st = dyn_cast<RankedTensorType>(t);
    if (!st || !st.hasStaticShape())
      return op->emitError() << "cannot compile: shape " << t
                             << " is not static after shape inference";
    if (!st.getElementType().isF32())
      return op->emitError() << "cannot compile: only f32 kernels exist, got "
                             << t;
  }
  return success();
}

LogicalResult LowerToKernelPass::lowerClip(onnx::ClipOp op, OpBuilder &b) {
  // Constant bounds fold into the body; others become broadcast inputs.
  SmallVector<Value> inputs{op.getInput()};
  std::optional<double> lo, hi;
  auto bound = [&](Value v, std::optional<double> &c) {
    if (!v)
      return;
    std::vector<double> vals;
    ElementsAttr e = getConstantElements(v);
    if (e && readAsDoubles(e, vals) && vals.size() == 1)
      c = vals[0];
    else
      inputs.push_back(v);
  };
  bound(op.getMin(), lo);
  bound(op.getMax(), hi);
  bool loIsInput = op.getMin() && !lo, hiIsInput = op.getMax() && !hi;
  Value r = buildElementwise(
      b, op.getLoc(), op.getType(), inputs,
      [&](OpBuilder &b, Location l, ValueRange a) -> Value {
        Value x = a[0];
        unsigned next = 1;
        if (op.getMin())
          x = arith::MaximumFOp::create(b, l, x,
                                        loIsInput ? a[next++] : fconst(b, l, *lo));
        if (op.getMax())
          x = arith::MinimumFOp::create(b, l, x,
                                        hiIsInput ? a[next++] : fconst(b, l, *hi));
        return x;
      });
  op.getResult().replaceAllUsesWith(r);
  return success();
}

LogicalResult LowerToKernelPass::lowerConv(onnx::ConvOp op, OpBuilder &b) {
  auto x = cast<RankedTensorType>(op.getInput().getType());
  auto pads = resolveAutoPad(op.getLoc(), op.getAutoPad(), x.getShape(),
                             op.getKernelShape(), op.getPads(), op.getStrides(),
                             op.getDilations());
  if (failed(pads))
    return failure();
  Value bias = op.getBias();
  if (!bias) { // the kernel always adds a bias: give it zeros
    int64_t outC = cast<ShapedType>(op.getWeight().getType()).getDimSize(0);
    auto t = RankedTensorType::get({outC}, b.getF32Type());
    bias = onnx::ConstantOp::create(b, op.getLoc(), t,
                                    DenseElementsAttr::get(t, 0.0f));
  }
  auto conv = k::Conv2dOp::create(b, op.getLoc(), op.getType(), op.getInput(),
                                  op.getWeight(), bias, *pads, op.getStrides(),
                                  op.getDilations(), op.getGroup());
  op.getResult().replaceAllUsesWith(conv.getResult());
  return success();
}

LogicalResult LowerToKernelPass::lowerMatMul(onnx::MatMulOp op, OpBuilder &b) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto bt = cast<RankedTensorType>(op.getB().getType());
  auto y = cast<RankedTensorType>(op.getType());
  if (bt.getRank() != 2 || a.getRank() < 2)
    return op.emitError() << "cannot compile: MatMul of " << a << " and " << bt
                          << " (only [..., K] x [K, N] is supported)";
  // [..., M, K] x [K, N]: fold the leading dims into M around a 2-D GEMM.
  // M is the product of the leading dims (not elements / K: K may be 0).
  int64_t k = a.getShape().back(), n = bt.getDimSize(1), m = 1;
  for (int64_t d : a.getShape().drop_back())
    m *= d;
  auto a2 = RankedTensorType::get({m, k}, a.getElementType());
  auto y2 = RankedTensorType::get({m, n}, a.getElementType());
  Value lhs = op.getA();
  if (a.getRank() != 2)
    lhs = k::ViewOp::create(b, op.getLoc(), a2, lhs);
  Value r = k::GemmOp::create(b, op.getLoc(), y2, lhs, op.getB(), Value(),
                              /*alpha=*/b.getF32FloatAttr(1.0f),
                              /*beta=*/b.getF32FloatAttr(1.0f),
                              /*trans_a=*/b.getBoolAttr(false),
                              /*trans_b=*/b.getBoolAttr(false));
  if (y.getRank() != 2)
    r = k::ViewOp::create(b, op.getLoc(), y, r);
  op.getResult().replaceAllUsesWith(r);
  return success();
}

template <typename PoolOp>
LogicalResult LowerToKernelPass::lowerPool(PoolOp op, StringRef kind,
                                           OpBuilder &b) {
  auto x = cast<RankedTensorType>(op.getInput().getType());
  auto pads = resolveAutoPad(op.getLoc(), op.getAutoPad(), x.getShape(),
                             op.getKernelShape(), op.getPads(), op.getStrides(),
                             op.getDilations());
  if (failed(pads))
    return failure();
  // ceil_mode is already in the static output shape; the kernel clamps
  // windows that run past the input.
  auto pool = k::Pool2dOp::create(b, op.getLoc(), op.getType(), op.getInput(),
                                  kind, op.getKernelShape(), *pads,
                                  op.getStrides(), op.getDilations(),
                                  op.getCountIncludePad() != 0);
  op.getResult().replaceAllUsesWith(pool.getResult());
  return success();
}

LogicalResult LowerToKernelPass::lower(Operation *op, OpBuilder &b) {
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (auto body = scalarBody(op)) {
    Value r = buildElementwise(b, loc, op->getResult(0).getType(),
                               op->getOperands(), *body);
    op->getResult(0).replaceAllUsesWith(r);
    return success();
  }
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](onnx::ClipOp c) { return lowerClip(c, b); })
      .Case([&](onnx::ConvOp c) { return lowerConv(c, b); })
      .Case([&](onnx::MatMulOp m) { return lowerMatMul(m, b); })
      .Case([&](onnx::MaxPoolOp p) { return lowerPool(p, "max", b); })
      .Case([&](onnx::AveragePoolOp p) { return lowerPool(p, "avg", b); })
      .Case([&](onnx::GemmOp g) {
        Value r = k::GemmOp::create(
            b, loc, g.getType(), g.getA(), g.getB(), g.getC(), g.getAlpha(),
            g.getBeta(), g.getTransA() != 0, g.getTransB() != 0);
        g.getResult().replaceAllUsesWith(r);
        return success();
      })
      .Case([&](onnx::GlobalAveragePoolOp g) {
        g.getResult().replaceAllUsesWith(
            k::GlobalAvgPoolOp::create(b, loc, g.getType(), g.getInput()));
        return success();
      })
      .Case([&](onnx::SoftmaxOp s) {
        int64_t rank = cast<ShapedType>(s.getType()).getRank();
        auto axis = normalizeAxis(loc, (int64_t)s.getAxis(), rank);
        if (failed(axis))
          return failure();
        s.getResult().replaceAllUsesWith(
            k::SoftmaxOp::create(b, loc, s.getType(), s.getInput(), *axis));
        return success();
      })
      .Case([&](onnx::ConcatOp c) {
        int64_t rank = cast<ShapedType>(c.getType()).getRank();
        auto axis = normalizeAxis(loc, (int64_t)c.getAxis(), rank);
        if (failed(axis))
          return failure();
        c.getResult().replaceAllUsesWith(
            k::ConcatOp::create(b, loc, c.getType(), c.getInputs(), *axis));
        return success();
      })
      .Case([&](onnx::TransposeOp t) {
        SmallVector<int64_t> perm(t.getPerm());
        if (perm.empty())
          for (int64_t i = cast<ShapedType>(t.getType()).getRank() - 1; i >= 0; --i)
            perm.push_back(i);
        t.getResult().replaceAllUsesWith(
            k::TransposeOp::create(b, loc, t.getType(), t.getInput(), perm));
        return success();
      })
      .Case<onnx::ReshapeOp, onnx::FlattenOp, onnx::SqueezeOp,
            onnx::UnsqueezeOp, onnx::IdentityOp>([&](Operation *v) {
        v->getResult(0).replaceAllUsesWith(k::ViewOp::create(
            b, loc, v->getResult(0).getType(), v->getOperand(0)));
        return success();
      })
      .Default([&](Operation *other) {
        return other->emitError() << "cannot compile: no kernel for '"
                                  << other->getName() << "' here";
      });
}

void LowerToKernelPass::runOnOperation() {
  func::FuncOp func = getOperation();
  OpBuilder b(func.getContext());
  SmallVector<Operation *> toLower;
  for (Operation &op : func.getBody().front())
    if (isa<onnx::OnnxDialect>(op.getDialect()) &&
        !op.hasTrait<OpTrait::ConstantLike>())
      toLower.push_back(&op);
  // Report every failure, not just the first, but not the ones that follow
  // from another: an op reading a value that already failed is skipped.
  bool ok = true;
  llvm::DenseSet<Value> failedValues;
  for (Operation *op : toLower) {
    bool follows = llvm::any_of(op->getOperands(), [&](Value v) {
      return failedValues.contains(v);
    });
    if (follows || failed(checkTypes(op))) {
      ok = false;
      failedValues.insert(op->result_begin(), op->result_end());
    }
  }
  if (!ok)
    return signalPassFailure();
  for (Operation *op : toLower) {
    if (failed(lower(op, b))) {
      ok = false;
      continue;
    }
    op->erase();
  }
  if (!ok)
    return signalPassFailure();
}
} // namespace
