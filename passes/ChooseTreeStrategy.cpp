//===- ChooseTreeStrategy.cpp - nested branches or a node-array walk ------===//
//
// Decides per kernel.ml_tree_ensemble whether the CPU emitter prints the
// trees as nested branches (`nested`) or calls the runtime's node-array
// walk; the emitter only follows the mark. See Passes.td for the rule.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/ConstantData.h"

namespace onnxcc {
#define GEN_PASS_DEF_CHOOSETREESTRATEGY
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

/// Nested braces per level; compilers allow 256 (clang's -fbracket-depth).
constexpr int64_t kMaxNestedDepth = 64;

bool canNest(kernel::MlTreeEnsembleOp op) {
  Type x = getElementTypeOrSelf(op.getX().getType());
  return op.getDepth() <= kMaxNestedDepth && (x.isF32() || x.isF64()) &&
         getConstantElements(op.getNodes()) &&
         getConstantElements(op.getThresholds()) &&
         getConstantElements(op.getMembers()) &&
         getConstantElements(op.getRoots()) &&
         getConstantElements(op.getTargets()) &&
         getConstantElements(op.getWeights());
}

struct ChooseTreeStrategy
    : onnxcc::impl::ChooseTreeStrategyBase<ChooseTreeStrategy> {
  using Base::Base;

  void runOnOperation() override {
    if (strategy != "auto" && strategy != "nested" && strategy != "array") {
      getOperation().emitError("unknown tree strategy '")
          << strategy << "' (expected auto, nested or array)";
      return signalPassFailure();
    }
    getOperation().walk([&](kernel::MlTreeEnsembleOp op) {
      int64_t nodes = cast<ShapedType>(op.getNodes().getType()).getDimSize(0);
      int64_t rows = cast<ShapedType>(op.getX().getType()).getDimSize(0);
      bool nest = strategy == "nested" ||
                  (strategy == "auto" && nodes <= nestedMaxNodes &&
                   rows <= nestedMaxRows);
      op.setNested(nest && canNest(op));
    });
  }
};

} // namespace
