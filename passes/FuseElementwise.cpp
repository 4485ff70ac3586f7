//===- FuseElementwise.cpp - one loop per elementwise chain ---------------===//
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace onnxcc {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;
namespace k = ::onnxcc::kernel;

namespace {

/// Clones the ops of `body` (not its terminator) with `map` holding its
/// block arguments; returns the mapped yielded value.
static Value inlineBody(OpBuilder &b, Region &body, IRMapping &map) {
  Block &block = body.front();
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  return map.lookup(cast<k::YieldOp>(block.getTerminator()).getValue());
}

/// Merges a single-use elementwise producer into its elementwise consumer
/// when both run over the same shape. Returns the fused op, or null.
static k::ElementwiseOp fuseProducer(k::ElementwiseOp consumer, OpBuilder &b) {
  for (auto [idx, in] : llvm::enumerate(consumer.getInputs())) {
    auto producer = in.getDefiningOp<k::ElementwiseOp>();
    if (!producer || !producer->hasOneUse() ||
        producer.getType() != consumer.getType())
      continue;
    SmallVector<Value> inputs;
    for (auto [j, v] : llvm::enumerate(consumer.getInputs()))
      if (j != idx)
        inputs.push_back(v);
    size_t firstProducerArg = inputs.size();
    llvm::append_range(inputs, producer.getInputs());

    b.setInsertionPoint(consumer);
    Location loc = b.getFusedLoc({producer.getLoc(), consumer.getLoc()});
    auto fused = k::ElementwiseOp::create(b, loc, consumer.getType(), inputs);
    Block *block = b.createBlock(&fused.getBody());
    for (Value v : inputs)
      block->addArgument(getElementTypeOrSelf(v.getType()), loc);
    b.setInsertionPointToStart(block);
    IRMapping map;
    Block &pb = producer.getBody().front();
    for (unsigned j = 0; j < pb.getNumArguments(); ++j)
      map.map(pb.getArgument(j), block->getArgument(firstProducerArg + j));
    Value produced = inlineBody(b, producer.getBody(), map);
    Block &cb = consumer.getBody().front();
    unsigned next = 0;
    for (unsigned j = 0; j < cb.getNumArguments(); ++j)
      map.map(cb.getArgument(j),
              j == idx ? produced : block->getArgument(next++));
    k::YieldOp::create(b, loc, inlineBody(b, consumer.getBody(), map));
    consumer.getResult().replaceAllUsesWith(fused.getResult());
    consumer.erase();
    producer.erase();
    return fused;
  }
  return {};
}

/// Moves a unary elementwise op into the epilogue of the GEMM or
/// convolution that feeds it.
static bool fuseIntoEpilogue(k::ElementwiseOp ew, OpBuilder &b) {
  if (ew.getInputs().size() != 1)
    return false;
  Operation *producer = ew.getInputs()[0].getDefiningOp();
  if (!producer || !isa<k::GemmOp, k::Conv2dOp>(producer) ||
      !producer->hasOneUse() || producer->getResult(0).getType() != ew.getType())
    return false;
  Region &epilogue = producer->getRegion(0);
  Location loc = b.getFusedLoc({producer->getLoc(), ew.getLoc()});
  if (epilogue.empty()) {
    Block *block = b.createBlock(&epilogue);
    block->addArgument(getElementTypeOrSelf(ew.getType()), loc);
    b.setInsertionPointToStart(block);
    k::YieldOp::create(b, loc, block->getArgument(0));
  }
  // epilogue' = ew.body(epilogue(x)): append the body before the old yield.
  Block &block = epilogue.front();
  auto oldYield = cast<k::YieldOp>(block.getTerminator());
  b.setInsertionPoint(oldYield);
  IRMapping map;
  map.map(ew.getBody().front().getArgument(0), oldYield.getValue());
  Value r = inlineBody(b, ew.getBody(), map);
  k::YieldOp::create(b, loc, r);
  oldYield.erase();
  producer->setLoc(loc);
  ew.getResult().replaceAllUsesWith(producer->getResult(0));
  ew.erase();
  return true;
}

struct FuseElementwisePass : onnxcc::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    // One sweep in program order: when an op is reached, everything before
    // it is fully fused, so merging its producers until none is left, then
    // trying its producer's epilogue, reaches the fixed point. A producer
    // merged here was visited earlier, so the list never yields an erased op.
    SmallVector<k::ElementwiseOp> ops;
    getOperation().walk([&](k::ElementwiseOp op) { ops.push_back(op); });
    for (k::ElementwiseOp op : ops) {
      while (k::ElementwiseOp fused = fuseProducer(op, b))
        op = fused;
      fuseIntoEpilogue(op, b);
    }
  }
};
} // namespace
