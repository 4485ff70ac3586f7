//===- ChooseThreads.cpp - which kernels run on the thread pool -----------===//
//
// Records on each kernel that splits its work how many threads take part
// (`threads`), so that the planner (one scratch copy per thread for a
// grouped im2col) and the emitter (the pool passed in) read one decision.
// See Passes.td for the rule.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/IR/TypeUtilities.h"

namespace onnxcc {
#define GEN_PASS_DEF_CHOOSETHREADS
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

int64_t elements(Value v) { return cast<ShapedType>(v.getType()).getNumElements(); }

/// Multiply-adds of a product: outputs times the reduced extent.
int64_t gemmMacs(kernel::GemmOp op) {
  auto a = cast<ShapedType>(op.getA().getType()).getShape();
  return elements(op.getResult()) * (op.getTransA() ? a[0] : a[1]);
}

int64_t convMacs(kernel::Conv2dOp op) { return op.getMacs(); }

/// Products of a batched product (the batch indices the threads split).
int64_t batchProducts(kernel::BatchMatMulOp op) {
  auto y = cast<ShapedType>(op.getOutput().getType()).getShape();
  int64_t products = 1;
  for (int64_t d : y.drop_back(2))
    products *= d;
  return products;
}

/// Multiply-adds of a batched product: outputs times the reduced extent.
int64_t batchMatMulMacs(kernel::BatchMatMulOp op) {
  auto a = cast<ShapedType>(op.getA().getType()).getShape();
  return elements(op.getOutput()) * a.back();
}

/// Rows of a softmax over its last axis; 0 for any other axis.
int64_t softmaxRows(kernel::SoftmaxOp op) {
  auto x = cast<ShapedType>(op.getOutput().getType());
  if (static_cast<int64_t>(op.getAxis()) != x.getRank() - 1 ||
      x.getShape().back() == 0)
    return 0;
  return x.getNumElements() / x.getShape().back();
}

/// Taps a pool reads: outputs times its window.
int64_t poolTaps(kernel::PoolOp op) {
  int64_t window = 1;
  for (int64_t k : op.getKernelShape())
    window *= k;
  return elements(op.getOutput()) * window;
}

/// Whether a threaded convolution splits its input channels: a pointwise
/// one of one group reading at least kSplitDepthRatio times as many
/// channels as it writes (see Passes.td).
constexpr int64_t kSplitDepthRatio = 3;
bool splitsDepth(kernel::Conv2dOp op) {
  if (op.getAlgorithm() != "pointwise" || op.getGroup() != 1)
    return false;
  auto x = cast<ShapedType>(op.getInput().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  return x[1] >= kSplitDepthRatio * y[1];
}

struct ChooseThreads : onnxcc::impl::ChooseThreadsBase<ChooseThreads> {
  using ChooseThreadsBase::ChooseThreadsBase;

  void runOnOperation() override {
    if (threads < 1 || threads > kernel::KernelDialect::kMaxThreads) {
      getOperation().emitError()
          << "--threads must be in [1, " << kernel::KernelDialect::kMaxThreads
          << "], got " << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    auto worth = [&](Operation *op, int64_t macs, int64_t least) {
      return getElementTypeOrSelf(op->getResult(0).getType()).isF32() &&
             macs >= least;
    };
    if (threads == 1)
      return; // every kernel's default
    getOperation().walk([&](Operation *op) {
      if (auto gemm = dyn_cast<kernel::GemmOp>(op)) {
        if (worth(op, gemmMacs(gemm), minMacs))
          gemm.setThreads(threads);
      } else if (auto conv = dyn_cast<kernel::Conv2dOp>(op)) {
        const bool depthwise = conv.getAlgorithm() == "depthwise";
        if (worth(op, convMacs(conv),
                  depthwise ? minDepthwiseMacs : minConvMacs)) {
          conv.setThreads(threads);
          if (splitsDepth(conv))
            conv.setSplitDepth(true);
        }
      } else if (auto pool = dyn_cast<kernel::PoolOp>(op)) {
        if (!pool.getIndices() && worth(op, poolTaps(pool), minPoolTaps))
          pool.setThreads(threads);
      } else if (auto bmm = dyn_cast<kernel::BatchMatMulOp>(op)) {
        if (batchProducts(bmm) >= 2 && worth(op, batchMatMulMacs(bmm), minMacs))
          bmm.setThreads(threads);
      } else if (auto softmax = dyn_cast<kernel::SoftmaxOp>(op)) {
        if (softmaxRows(softmax) >= 2 &&
            worth(op, elements(softmax.getOutput()), minSoftmaxElements))
          softmax.setThreads(threads);
      } else if (auto map = dyn_cast<kernel::ElementwiseOp>(op)) {
        if (map.isDenseFloatMap() &&
            worth(op, elements(map.getOutput()), minMapElements))
          map.setThreads(threads);
      }
    });
  }
};

} // namespace
