//===- ChooseConvAlgorithm.cpp - which kernel runs each convolution -------===//
//
// Records the choice in kernel.conv2d's `algorithm` so that the memory
// planner (scratch) and the emitter (the runtime call) read one decision.
// See Passes.td for the rule; Conv2dOp::canUse says what each needs.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace onnxcc {
#define GEN_PASS_DEF_CHOOSECONVALGORITHM
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {
struct ChooseConvAlgorithm
    : onnxcc::impl::ChooseConvAlgorithmBase<ChooseConvAlgorithm> {
  void runOnOperation() override {
    getOperation().walk([](kernel::Conv2dOp op) {
      // Cheapest first: no copy at all, then the general. A 1x1 depthwise
      // convolution is a per-channel scale: depthwise, not one GEMM of a
      // row per channel.
      for (StringRef algorithm : {"depthwise", "pointwise", "im2col"})
        if (op.canUse(algorithm)) {
          op.setAlgorithm(algorithm);
          return;
        }
    });
  }
};
} // namespace
