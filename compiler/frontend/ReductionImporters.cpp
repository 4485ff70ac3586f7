//===- ReductionImporters.cpp - builders of Reduce*, ArgMax/ArgMin -------===//
//
// Reductions take `axes` as an attribute before opset 18 (13 for
// ReduceSum) and as an optional input since; the attribute becomes a
// constant operand. An `axes` input must fold to a constant: one that is a
// graph input is refused here, naming it (unless it has shape [0]: then it
// is empty whatever the data). GlobalMaxPool and GlobalLpPool
// are reductions over the spatial axes.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/GraphInputs.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

/// Reduce* with `axes` an input since opset `axesInputSince`.
template <typename OpTy, int64_t axesInputSince>
LogicalResult importReduce(NodeContext &n) {
  Value axes;
  int64_t noop = 0;
  if (n.opset < axesInputSince) {
    if (failed(n.arity(1, 1)))
      return failure();
    SmallVector<int64_t> list = n.getInts("axes");
    if (!list.empty()) // an empty list reduces over everything, as none does
      axes = n.i64Constant(list);
  } else {
    if (failed(n.arity(1, 2)))
      return failure();
    axes = n.operand(1);
    noop = n.getInt("noop_with_empty_axes", 0);
    // A graph input of shape [0] holds no value to wait for: no axes.
    auto axesType = axes ? dyn_cast<RankedTensorType>(axes.getType()) : nullptr;
    if (isa_and_nonnull<BlockArgument>(axes) && axesType &&
        axesType.getShape() == ArrayRef<int64_t>{0})
      axes = n.i64Constant({});
    else if (isa_and_nonnull<BlockArgument>(axes))
      return n.error("axes come from graph input '" + n.node.input(1) +
                     "': data-dependent axes are not supported (they must be "
                     "a constant)" + constInputHint(n.node.input(1)));
  }
  n.results.push_back(OpTy::create(n.builder, n.loc, n.unrankedLike(n.operand(0)),
                                   n.operand(0), axes, n.getInt("keepdims", 1),
                                   noop));
  return success();
}

template <typename OpTy> LogicalResult importArgReduce(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(OpTy::create(
      n.builder, n.loc, n.unranked(n.builder.getI64Type()), n.operand(0),
      n.getInt("axis", 0), n.getInt("keepdims", 1),
      n.getInt("select_last_index", 0)));
  return success();
}

/// GlobalMaxPool and GlobalLpPool: a reduction over every axis from 2 on.
template <typename OpTy, typename... Attrs>
LogicalResult importGlobalPool(NodeContext &n, Attrs... attrs) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(OpTy::create(n.builder, n.loc, n.unrankedLike(n.operand(0)),
                                   n.operand(0), attrs...));
  return success();
}

} // namespace

void addReductionImporters(llvm::StringMap<OpImportFn> &t) {
  t["ReduceL1"] = importReduce<o::ReduceL1Op, 18>;
  t["ReduceL2"] = importReduce<o::ReduceL2Op, 18>;
  t["ReduceLogSum"] = importReduce<o::ReduceLogSumOp, 18>;
  t["ReduceLogSumExp"] = importReduce<o::ReduceLogSumExpOp, 18>;
  t["ReduceMax"] = importReduce<o::ReduceMaxOp, 18>;
  t["ReduceMean"] = importReduce<o::ReduceMeanOp, 18>;
  t["ReduceMin"] = importReduce<o::ReduceMinOp, 18>;
  t["ReduceProd"] = importReduce<o::ReduceProdOp, 18>;
  t["ReduceSum"] = importReduce<o::ReduceSumOp, 13>;
  t["ReduceSumSquare"] = importReduce<o::ReduceSumSquareOp, 18>;
  t["ArgMax"] = importArgReduce<o::ArgMaxOp>;
  t["ArgMin"] = importArgReduce<o::ArgMinOp>;
  t["GlobalMaxPool"] = [](NodeContext &n) {
    return importGlobalPool<o::GlobalMaxPoolOp>(n);
  };
  t["GlobalLpPool"] = [](NodeContext &n) -> LogicalResult {
    if (n.opset >= 2)
      return importGlobalPool<o::GlobalLpPoolOp>(n, n.getInt("p", 2));
    float p = n.getFloat("p", 2.0f); // a float before opset 2
    if (!(p >= 1 && p <= 64 && p == std::floor(p)))
      return n.error("p " + std::to_string(p) +
                     " is not supported (an integer in [1, 64])");
    return importGlobalPool<o::GlobalLpPoolOp>(n, static_cast<int64_t>(p));
  };
}

} // namespace onnxcc
