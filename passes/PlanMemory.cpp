//===- PlanMemory.cpp - liveness-based static memory planning -------------===//
//
// Decides where every kernel result lives, in this order:
//   1. views alias their source (no storage of their own);
//   2. a value returned by the graph is computed straight into the caller's
//      output buffer;
//   3. a concat along contiguous slices (everything before the axis is 1)
//      whose inputs have no other reader is planned in place: producers
//      write into their slice and the concat emits nothing;
//   4. an elementwise op may overwrite a same-shaped input that dies there;
//   5. the remaining buffers, and kernels' scratch (ScratchOpInterface),
//      go through planMemory();
//   6. if a kernel alternates the direction it reads its weight in
//      (kernel::alternatesSweep), one aligned slot after them keeps the
//      direction from call to call (kernel.call_state_offset).
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/TensorLimits.h"
#include "passes/MemoryPlanner.h"
#include "passes/Passes.h"
#include "passes/PlanMemory.h"

#include "mlir/IR/Builders.h"
#include "dialects/Onnx/ConstantData.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/MathExtras.h"
#include <deque>
#include <unordered_map>

namespace onnxcc {
#define GEN_PASS_DEF_PLANMEMORY
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;
namespace k = ::onnxcc::kernel;

namespace {

int64_t bytesOf(Value v) {
  auto t = cast<ShapedType>(v.getType());
  return t.getNumElements() * elementBytes(t.getElementType());
}

/// Where a value's storage is: inside `parent` at `offset` bytes, or its
/// own buffer (parent null), possibly a graph output.
struct Home {
  Value parent;
  int64_t offset = 0;
  int output = -1;
};

class Planner {
public:
  /// With `apply` false the planner only fills `layout` and leaves the
  /// IR as it is (layoutArena()).
  Planner(func::FuncOp func, int64_t alignment, bool apply)
      : func(func), alignment(alignment), apply(apply) {}
  void run();

  int64_t arenaBytes = 0, totalBytes = 0, peakBytes = 0, pairBytes = 0;
  ArenaLayout layout;

private:
  /// Results of kernel ops other than views and weights own storage.
  bool owns(Value v) {
    Operation *def = v.getDefiningOp();
    return def && isa<k::KernelDialect>(def->getDialect()) &&
           !isa<k::ViewOp, k::WeightOp>(def);
  }
  Value root(Value v) {
    while (auto view = v.getDefiningOp<k::ViewOp>())
      v = view.getInput();
    return v;
  }
  /// Every op reading `v` directly or through views.
  void readers(Value v, SmallVectorImpl<Operation *> &out) {
    for (Operation *user : v.getUsers()) {
      if (auto view = dyn_cast<k::ViewOp>(user))
        readers(view.getResult(), out);
      else
        out.push_back(user);
    }
  }
  /// Whether `v` is (so far) a buffer of its own in the arena: not placed
  /// inside another value and not a graph output.
  bool isIndependent(Value v) {
    auto it = homes.find(v);
    return it == homes.end() || (!it->second.parent && it->second.output < 0);
  }
  void placeOutputs();
  void placeConcats();
  void placeInPlaceElementwise();
  void assignOffsets();
  void reserveCallState();
  void recordLayout(const std::vector<BufferRequest> &reqs,
                    const MemoryPlan &plan, ArrayRef<Value> order,
                    ArrayRef<Operation *> scratchOps);
  /// The independent buffer `v` lives in, and `v`'s offset inside it.
  Value topOf(Value v, int64_t &offset) {
    offset = 0;
    while (homes.count(v) && homes[v].parent) {
      offset += homes[v].offset;
      v = homes[v].parent;
    }
    return v;
  }

  func::FuncOp func;
  int64_t alignment;
  bool apply;
  llvm::DenseMap<Operation *, int64_t> index;
  llvm::DenseMap<Value, int64_t> lastUse; // by storage root
  llvm::DenseMap<Value, Home> homes;
  SmallVector<Value> owned;
};

void Planner::placeOutputs() {
  Operation *ret = func.getBody().front().getTerminator();
  for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
    Value r = root(v);
    if (owns(r) && !homes.count(r))
      homes[r].output = i; // a second return of the same value is copied
  }
}

void Planner::placeConcats() {
  func.walk([&](k::ConcatOp concat) {
    auto type = cast<ShapedType>(concat.getType());
    int64_t outer = 1;
    for (int64_t d = 0; d < (int64_t)concat.getAxis(); ++d)
      outer *= type.getDimSize(d);
    if (outer != 1)
      return; // slices interleave: a copy is needed
    llvm::SmallPtrSet<Value, 4> seen;
    for (Value in : concat.getInputs()) {
      Value r = root(in);
      SmallVector<Operation *> rs;
      readers(r, rs);
      if (!owns(r) || homes.count(r) || !seen.insert(r).second ||
          rs.size() != 1 || rs[0] != concat)
        return;
    }
    int64_t offset = 0;
    for (Value in : concat.getInputs()) {
      homes[root(in)] = Home{concat.getResult(), offset, -1};
      offset += bytesOf(in);
    }
    if (apply)
      concat->setAttr(k::KernelDialect::kInPlaceAttr,
                      UnitAttr::get(func.getContext()));
  });
}

void Planner::placeInPlaceElementwise() {
  func.walk([&](k::ElementwiseOp ew) {
    if (homes.count(ew.getResult()))
      return;
    for (Value in : ew.getInputs()) {
      Value r = root(in);
      if (!owns(r) || !isIndependent(r) || in.getType() != ew.getType() ||
          lastUse[r] != index[ew])
        continue;
      // Overwrite the dying input: element i is read before it is written.
      homes[ew.getResult()] = Home{r, 0, -1};
      lastUse[r] = std::max(lastUse[r], lastUse[ew.getResult()]);
      return;
    }
  });
}

void Planner::assignOffsets() {
  // Independent buffers and their lifetimes (members extend their parent's).
  llvm::DenseMap<Value, BufferRequest> requests;
  SmallVector<Value> order;
  for (Value v : owned) {
    int64_t off;
    Value t = topOf(v, off);
    if (homes.count(t) && homes[t].output >= 0)
      continue;
    int64_t first = index[v.getDefiningOp()], last = lastUse[v];
    auto [it, inserted] = requests.try_emplace(t, BufferRequest{bytesOf(t), first, last});
    if (inserted)
      order.push_back(t);
    it->second.firstUse = std::min(it->second.firstUse, first);
    it->second.lastUse = std::max(it->second.lastUse, last);
  }
  std::vector<BufferRequest> reqs;
  for (Value v : order)
    reqs.push_back(requests[v]);
  SmallVector<Operation *> scratchOps;
  func.walk([&](k::ScratchOpInterface op) {
    if (int64_t bytes = op.getScratchBytes()) {
      reqs.push_back({bytes, index[op], index[op]});
      scratchOps.push_back(op);
    }
  });
  MemoryPlan plan = planMemory(reqs, alignment);
  arenaBytes = plan.arenaBytes;
  peakBytes = peakLiveBytes(reqs, alignment);
  pairBytes = largestLivePairBytes(reqs, alignment);
  for (const BufferRequest &r : reqs)
    totalBytes += alignedSize(r, alignment);

  llvm::DenseMap<Value, int64_t> topOffset;
  for (auto [i, v] : llvm::enumerate(order))
    topOffset[v] = plan.offsets[i];
  recordLayout(reqs, plan, order, scratchOps);
  if (!apply)
    return;

  Builder b(func.getContext());
  for (auto [i, op] : llvm::enumerate(scratchOps))
    op->setAttr(k::KernelDialect::kScratchAttr,
                  b.getI64IntegerAttr(plan.offsets[order.size() + i]));
  // Per result of each op: the buffer it lives in and the offset there.
  llvm::DenseMap<Operation *, std::pair<SmallVector<int64_t>, SmallVector<int64_t>>> plans;
  for (Value v : owned) {
    int64_t off;
    Value t = topOf(v, off);
    Operation *def = v.getDefiningOp();
    auto &[buffers, offsets] = plans[def];
    if (buffers.empty()) {
      buffers.assign(def->getNumResults(), -1);
      offsets.assign(def->getNumResults(), 0);
    }
    unsigned r = cast<OpResult>(v).getResultNumber();
    if (homes.count(t) && homes[t].output >= 0) {
      buffers[r] = homes[t].output;
      offsets[r] = off;
    } else {
      offsets[r] = topOffset[t] + off;
    }
  }
  for (auto &[op, plan] : plans) {
    op->setAttr(k::KernelDialect::kBuffersAttr, b.getDenseI64ArrayAttr(plan.first));
    op->setAttr(k::KernelDialect::kOffsetsAttr, b.getDenseI64ArrayAttr(plan.second));
  }
}

void Planner::recordLayout(const std::vector<BufferRequest> &reqs,
                           const MemoryPlan &plan, ArrayRef<Value> order,
                           ArrayRef<Operation *> scratchOps) {
  layout.arenaBytes = plan.arenaBytes;
  layout.peakLiveBytes = peakBytes;
  layout.peakPosition = peakLivePosition(reqs, alignment);
  layout.positions = index.size();
  llvm::DenseMap<Value, size_t> bufferOf;
  for (auto [i, r] : llvm::enumerate(reqs)) {
    bool scratch = i >= order.size();
    Operation *op = scratch ? scratchOps[i - order.size()]
                            : order[i].getDefiningOp();
    int result = scratch ? -1 : cast<OpResult>(order[i]).getResultNumber();
    layout.buffers.push_back(
        {op, result, r.size, plan.offsets[i], r.firstUse, r.lastUse});
    if (!scratch)
      bufferOf[order[i]] = i;
  }
  for (Value v : owned) {
    int64_t off;
    Value t = topOf(v, off);
    auto it = bufferOf.find(t);
    if (t != v && it != bufferOf.end())
      ++layout.buffers[it->second].hosted;
  }
}

void Planner::run() {
  Block &body = func.getBody().front();
  int64_t t = 0;
  for (Operation &op : body)
    index[&op] = t++;
  for (Operation &op : body)
    for (Value v : op.getResults())
      if (owns(v)) {
        owned.push_back(v);
        SmallVector<Operation *> rs;
        readers(v, rs);
        int64_t last = index[&op];
        for (Operation *r : rs)
          last = std::max(last, index[r]);
        lastUse[v] = last;
      }
  placeOutputs();
  placeConcats();
  placeInPlaceElementwise();
  assignOffsets();
  reserveCallState();
}

/// One byte carried from call to call, after every buffer (an aligned
/// slot, so the arena stays a whole number of them), if an op needs it.
void Planner::reserveCallState() {
  WalkResult found = func.walk([](Operation *op) {
    return k::alternatesSweep(op) ? WalkResult::interrupt()
                                  : WalkResult::advance();
  });
  if (!found.wasInterrupted())
    return;
  layout.callStateOffset = llvm::alignTo(arenaBytes, alignment);
  arenaBytes = layout.arenaBytes = layout.callStateOffset + alignment;
}

struct PlanMemoryPass : onnxcc::impl::PlanMemoryBase<PlanMemoryPass> {
  using PlanMemoryBase::PlanMemoryBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>("main");
    if (!func) {
      module.emitError() << "expects a func.func @main";
      return signalPassFailure();
    }
    if (alignment < 1 || (alignment & (alignment - 1))) {
      module.emitError() << "alignment " << alignment
                         << " is not a power of two";
      return signalPassFailure();
    }
    // Scratch (im2col, recurrent state) is derived from shapes no single
    // tensor has: bound it before it is planned.
    WalkResult scratch = func.walk([&](k::ScratchOpInterface op) {
      int64_t bytes = op.getScratchBytes();
      if (bytes <= kMaxTensorBytes)
        return WalkResult::advance();
      op->emitError() << op->getName() << " scratch needs " << bytes
                      << " bytes, more than the limit of " << kMaxTensorBytes
                      << " bytes (4 GiB)";
      return WalkResult::interrupt();
    });
    if (scratch.wasInterrupted())
      return signalPassFailure();
    FailureOr<int64_t> blobBytes = planWeights(func);
    if (failed(blobBytes))
      return signalPassFailure();
    Planner planner(func, alignment, /*apply=*/true);
    planner.run();
    if (planner.arenaBytes > kMaxTensorBytes) {
      module.emitError() << "the memory plan needs an arena of "
                         << planner.arenaBytes << " bytes, more than the limit of "
                         << kMaxTensorBytes << " bytes (4 GiB)";
      return signalPassFailure();
    }
    Builder b(module.getContext());
    module->setAttr(k::KernelDialect::kWorkspaceAttr,
                    b.getI64IntegerAttr(planner.arenaBytes));
    if (planner.layout.callStateOffset >= 0)
      module->setAttr(k::KernelDialect::kCallStateAttr,
                      b.getI64IntegerAttr(planner.layout.callStateOffset));
    module->setAttr(k::KernelDialect::kBlobBytesAttr,
                    b.getI64IntegerAttr(*blobBytes));
    module->setAttr(k::KernelDialect::kUnplannedAttr,
                    b.getI64IntegerAttr(planner.totalBytes));
    module->setAttr(k::KernelDialect::kPeakLiveAttr,
                    b.getI64IntegerAttr(planner.peakBytes));
    module->setAttr(k::KernelDialect::kLivePairAttr,
                    b.getI64IntegerAttr(planner.pairBytes));
  }
};
} // namespace

ArenaLayout onnxcc::layoutArena(func::FuncOp func, int64_t alignment) {
  Planner planner(func, alignment, /*apply=*/false);
  planner.run();
  return std::move(planner.layout);
}

namespace onnxcc {

/// Gives every kernel.weight its place in the weight blob: 64-byte aligned,
/// in program order, with identical contents (same type, same bytes)
/// sharing one place. Returns the blob's size, or failure for a constant
/// without a byte layout.
FailureOr<int64_t> planWeights(ArrayRef<func::FuncOp> funcs,
                               size_t compareBytes) {
  struct Placed {
    Type type;
    ArrayRef<char> bytes;
    int64_t offset;
  };
  std::unordered_map<size_t, SmallVector<Placed, 1>> byHash;
  llvm::DenseMap<Attribute, int64_t> byAttr;
  std::deque<std::vector<char>> copies; // bytes of constants not in memory
  int64_t total = 0;
  if (funcs.empty())
    return 0;
  Builder b(func::FuncOp(funcs.front()).getContext());
  auto place = [&](k::WeightOp w) {
    ElementsAttr value = w.getValue();
    if (auto it = byAttr.find(value); it != byAttr.end()) {
      w->setAttr(k::KernelDialect::kBlobOffsetAttr, b.getI64IntegerAttr(it->second));
      return WalkResult::advance();
    }
    ArrayRef<char> bytes;
    if (auto raw = rawBytes(value)) {
      bytes = *raw;
    } else {
      copies.emplace_back();
      if (!appendRawBytes(value, copies.back())) {
        w.emitError() << "cannot lay out constant " << value.getType();
        return WalkResult::interrupt();
      }
      bytes = copies.back();
    }
    int64_t offset = alignTo(total, 64);
    if (bytes.size() <= compareBytes) {
      size_t hash = llvm::hash_combine(
          w.getType().getAsOpaquePointer(),
          llvm::hash_value(StringRef(bytes.data(), bytes.size())));
      auto &same = byHash[hash];
      for (const Placed &p : same)
        if (p.type == w.getType() && p.bytes == bytes) {
          w->setAttr(k::KernelDialect::kBlobOffsetAttr, b.getI64IntegerAttr(p.offset));
          byAttr[value] = p.offset;
          return WalkResult::advance();
        }
      same.push_back({w.getType(), bytes, offset});
    }
    byAttr[value] = offset;
    total = offset + bytes.size();
    w->setAttr(k::KernelDialect::kBlobOffsetAttr, b.getI64IntegerAttr(offset));
    return WalkResult::advance();
  };
  for (func::FuncOp func : funcs)
    if (func.walk(place).wasInterrupted())
      return failure();
  return total;
}

} // namespace onnxcc
