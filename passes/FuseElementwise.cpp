//===- FuseElementwise.cpp - one loop per elementwise chain ---------------===//
//
// Fusion moves ops, it never clones them: merging a consumer into its
// producer moves the consumer's few body ops into the producer's block, so
// a chain of n elementwise ops fuses in O(n) time and memory. Bodies stop
// growing at `max-body-ops` so that one loop stays a reasonable function
// for the C++ compiler (and registers).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/NodeLocation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"

namespace onnxcc {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;
namespace k = ::onnxcc::kernel;

namespace {

/// Ops in a body, terminator excluded; kept per op so that a size check is
/// O(1) instead of a walk over a growing block.
using BodySizes = llvm::DenseMap<Operation *, int64_t>;

static int64_t bodySize(BodySizes &sizes, k::ElementwiseOp op) {
  auto [it, inserted] = sizes.try_emplace(op, 0);
  if (inserted)
    it->second = op.getBody().front().getOperations().size() - 1;
  return it->second;
}

/// The block argument of `op` that reads `v`, adding an input if none does.
static BlockArgument argumentFor(k::ElementwiseOp op, Value v) {
  Block &block = op.getBody().front();
  for (auto [i, in] : llvm::enumerate(op.getInputs()))
    if (in == v)
      return block.getArgument(i);
  op->insertOperands(op->getNumOperands(), v);
  return block.addArgument(k::computeType(getElementTypeOrSelf(v.getType())),
                           op.getLoc());
}

/// Merges `consumer` into `producer`, which feeds its input `idx` and has
/// no other user: the producer moves to the consumer's place (its operands
/// dominate it there), takes the consumer's other inputs, and its yield
/// becomes the consumer's body applied to what it yielded.
static void mergeIntoProducer(k::ElementwiseOp consumer, unsigned idx,
                              k::ElementwiseOp producer) {
  producer->moveBefore(consumer);
  Block &pb = producer.getBody().front(), &cb = consumer.getBody().front();
  auto producerYield = cast<k::YieldOp>(pb.getTerminator());
  auto consumerYield = cast<k::YieldOp>(cb.getTerminator());
  for (auto [j, in] : llvm::enumerate(consumer.getInputs())) {
    Value replacement = j == idx ? producerYield.getValue()
                                 : Value(argumentFor(producer, in));
    cb.getArgument(j).replaceAllUsesWith(replacement);
  }
  pb.getOperations().splice(Block::iterator(producerYield), cb.getOperations(),
                            cb.begin(), Block::iterator(consumerYield));
  producerYield->setOperand(0, consumerYield.getValue());
  producer->setLoc(fusedNodeLocation(producer.getContext(),
                                     {producer.getLoc(), consumer.getLoc()}));
  consumer.getResult().replaceAllUsesWith(producer.getResult());
  consumer.erase();
}

/// The first input of `consumer` made by an elementwise op that only it
/// reads, over the same shape, small enough to merge with; or null.
static std::pair<k::ElementwiseOp, unsigned>
fusibleProducer(k::ElementwiseOp consumer, BodySizes &sizes, int64_t maxOps) {
  for (auto [idx, in] : llvm::enumerate(consumer.getInputs())) {
    auto producer = in.getDefiningOp<k::ElementwiseOp>();
    if (producer && producer->hasOneUse() &&
        producer.getType() == consumer.getType() &&
        bodySize(sizes, producer) + bodySize(sizes, consumer) <= maxOps)
      return {producer, idx};
  }
  return {nullptr, 0};
}

/// Moves a unary elementwise op into the epilogue of the GEMM or
/// convolution that feeds it, directly or through one view (a MatMul over
/// [1, seq, d] is a [seq, d] GEMM between two views): the epilogue maps
/// each element alone, so the shape it is seen in does not matter.
static bool fuseIntoEpilogue(k::ElementwiseOp ew, OpBuilder &b) {
  if (ew.getInputs().size() != 1)
    return false;
  Operation *producer = ew.getInputs()[0].getDefiningOp();
  auto view = dyn_cast_or_null<k::ViewOp>(producer);
  if (view) {
    if (!view->hasOneUse() || view.getType() != ew.getType())
      return false;
    producer = view.getInput().getDefiningOp();
  }
  // Epilogues run on SIMD batches inside the GEMM tiles.
  if (!producer || !isa<k::GemmOp, k::Conv2dOp>(producer) ||
      !producer->hasOneUse() ||
      (!view && producer->getResult(0).getType() != ew.getType()) ||
      !k::isVectorizableBody(ew.getBody().front()))
    return false;
  Region &epilogue = producer->getRegion(0);
  Location loc = fusedNodeLocation(b.getContext(), {producer->getLoc(), ew.getLoc()});
  if (epilogue.empty()) {
    Block *block = b.createBlock(&epilogue);
    block->addArgument(getElementTypeOrSelf(ew.getType()), loc);
    b.setInsertionPointToStart(block);
    k::YieldOp::create(b, loc, block->getArgument(0));
  }
  // epilogue' = ew.body(epilogue(x)): move the body before the old yield.
  Block &block = epilogue.front(), &body = ew.getBody().front();
  auto oldYield = cast<k::YieldOp>(block.getTerminator());
  auto bodyYield = cast<k::YieldOp>(body.getTerminator());
  body.getArgument(0).replaceAllUsesWith(oldYield.getValue());
  block.getOperations().splice(Block::iterator(oldYield), body.getOperations(),
                               body.begin(), Block::iterator(bodyYield));
  oldYield->setOperand(0, bodyYield.getValue());
  producer->setLoc(loc);
  ew.getResult().replaceAllUsesWith(view ? view.getResult() : producer->getResult(0));
  ew.erase();
  return true;
}

/// Folds a residual Add that only a layer norm reads into its `skip`
/// operand: an elementwise op of two inputs of the norm's type whose body
/// is one addf of its arguments (after the sweep above, so a longer fused
/// chain is left alone).
static bool fuseIntoSkipLayerNorm(k::LayerNormOp norm) {
  auto add = norm.getInput().getDefiningOp<k::ElementwiseOp>();
  Type type = norm.getOutput().getType();
  if (norm.getSkip() || !add || !add->hasOneUse() ||
      add.getInputs().size() != 2 ||
      !llvm::all_of(add.getInputs(), [&](Value in) { return in.getType() == type; }))
    return false;
  Block &body = add.getBody().front();
  if (body.getOperations().size() != 2)
    return false;
  auto sum = dyn_cast<arith::AddFOp>(body.front());
  auto yield = cast<k::YieldOp>(body.getTerminator());
  if (!sum || yield.getValue() != sum.getResult() ||
      !llvm::is_contained(body.getArguments(), sum.getLhs()) ||
      !llvm::is_contained(body.getArguments(), sum.getRhs()) ||
      sum.getLhs() == sum.getRhs())
    return false;
  auto input = [&](Value arg) {
    return add.getInputs()[cast<BlockArgument>(arg).getArgNumber()];
  };
  norm.getInputMutable().assign(input(sum.getLhs()));
  norm.getSkipMutable().assign(input(sum.getRhs()));
  norm->setLoc(fusedNodeLocation(norm.getContext(), {add.getLoc(), norm.getLoc()}));
  add.erase();
  return true;
}

struct FuseElementwisePass : onnxcc::impl::FuseElementwiseBase<FuseElementwisePass> {
  using FuseElementwiseBase::FuseElementwiseBase;

  void runOnOperation() override {
    OpBuilder b(&getContext());
    BodySizes sizes;
    // One sweep in program order: when an op is reached, everything before
    // it is fully fused. It merges into its producers until none is left
    // (the survivor is the producer, moved to its place), then the result
    // may become an epilogue. Merged-away ops are erased only after they
    // were visited, so the list never yields an erased op.
    SmallVector<k::ElementwiseOp> ops;
    getOperation().walk([&](k::ElementwiseOp op) { ops.push_back(op); });
    for (k::ElementwiseOp op : ops) {
      while (true) {
        auto [producer, idx] = fusibleProducer(op, sizes, maxBodyOps);
        if (!producer)
          break;
        int64_t merged = bodySize(sizes, producer) + bodySize(sizes, op);
        sizes.erase(op);
        mergeIntoProducer(op, idx, producer);
        sizes[producer] = merged;
        op = producer;
      }
      fuseIntoEpilogue(op, b);
    }
    getOperation().walk([](k::LayerNormOp norm) { fuseIntoSkipLayerNorm(norm); });
  }
};
} // namespace
