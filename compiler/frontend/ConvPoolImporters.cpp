//===- ConvPoolImporters.cpp - builders of convolution and pooling ops ----===//
//
// Window lists are passed on as the node gives them: an absent list stays
// empty and the shape rules fill ONNX's default once they know the rank.
// Attributes an opset did not have yet are not read, so a node that sets
// one is refused as unsupported rather than silently honoured.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

/// kernel_shape, pads, strides and dilations as the node gives them.
struct WindowAttrs {
  SmallVector<int64_t> kernel, pads, strides, dilations;
};

WindowAttrs readWindow(NodeContext &n, bool withDilations = true) {
  WindowAttrs w;
  w.kernel = n.getInts("kernel_shape");
  w.pads = n.getInts("pads");
  w.strides = n.getInts("strides");
  if (withDilations)
    w.dilations = n.getInts("dilations");
  return w;
}

std::string autoPad(NodeContext &n) { return n.getString("auto_pad", "NOTSET"); }

LogicalResult importConv(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  WindowAttrs w = readWindow(n);
  n.results.push_back(o::ConvOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), w.kernel, w.pads, w.strides, w.dilations,
      n.getInt("group", 1), autoPad(n)));
  return success();
}

LogicalResult importDeformConv(NodeContext &n) {
  if (failed(n.arity(3, 5)))
    return failure();
  WindowAttrs w = readWindow(n);
  n.results.push_back(o::DeformConvOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3), n.operand(4), w.kernel, w.pads,
      w.strides, w.dilations, n.getInt("group", 1), n.getInt("offset_group", 1)));
  return success();
}

LogicalResult importConvTranspose(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  WindowAttrs w = readWindow(n);
  n.results.push_back(o::ConvTransposeOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), w.kernel, w.pads, w.strides, w.dilations,
      n.getInts("output_padding"), n.getInts("output_shape"),
      n.getInt("group", 1), autoPad(n)));
  return success();
}

/// The window of a pool, which must name its kernel.
FailureOr<WindowAttrs> readPoolWindow(NodeContext &n, bool withDilations) {
  if (failed(n.arity(1, 1)))
    return failure();
  if (!n.has("kernel_shape"))
    return n.error("missing required attribute 'kernel_shape'");
  return readWindow(n, withDilations);
}

LogicalResult importMaxPool(NodeContext &n) {
  // ceil_mode and dilations came with opset 10, Indices with opset 8.
  auto w = readPoolWindow(n, /*withDilations=*/n.opset >= 10);
  if (failed(w))
    return failure();
  if (n.opset < 8 && n.node.output_size() > 1)
    return n.error("MaxPool has no Indices output before opset 8");
  auto op = o::MaxPoolOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)),
      n.unranked(n.builder.getI64Type()), n.operand(0), w->kernel, w->pads,
      w->strides, w->dilations, n.opset >= 10 ? n.getInt("ceil_mode", 0) : 0,
      autoPad(n), n.opset >= 8 ? n.getInt("storage_order", 0) : 0);
  n.results.append({op.getOutput(), op.getIndices()});
  return success();
}

LogicalResult importAveragePool(NodeContext &n) {
  // count_include_pad came with opset 7, ceil_mode 10, dilations 19.
  auto w = readPoolWindow(n, /*withDilations=*/n.opset >= 19);
  if (failed(w))
    return failure();
  n.results.push_back(o::AveragePoolOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), w->kernel,
      w->pads, w->strides, w->dilations,
      n.opset >= 10 ? n.getInt("ceil_mode", 0) : 0, autoPad(n),
      n.opset >= 7 ? n.getInt("count_include_pad", 0) : 0));
  return success();
}

/// LpPool's p: a float in opset 1, an integer since.
FailureOr<int64_t> readP(NodeContext &n) {
  if (n.opset >= 2)
    return n.getInt("p", 2);
  float p = n.getFloat("p", 2.0f);
  if (!(p >= 1.0f && p <= 1024.0f) || p != static_cast<float>(static_cast<int64_t>(p)))
    return n.error("p " + std::to_string(p) + " must be a whole number in [1, 1024]");
  return static_cast<int64_t>(p);
}

LogicalResult importLpPool(NodeContext &n) {
  // ceil_mode and dilations came with opset 18.
  auto w = readPoolWindow(n, /*withDilations=*/n.opset >= 18);
  if (failed(w))
    return failure();
  auto p = readP(n);
  if (failed(p))
    return failure();
  n.results.push_back(o::LpPoolOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), w->kernel,
      w->pads, w->strides, w->dilations,
      n.opset >= 18 ? n.getInt("ceil_mode", 0) : 0, autoPad(n), *p));
  return success();
}

LogicalResult importGlobalAveragePool(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(o::GlobalAveragePoolOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0)));
  return success();
}

LogicalResult importMaxUnpool(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  if (!n.has("kernel_shape"))
    return n.error("missing required attribute 'kernel_shape'");
  WindowAttrs w = readWindow(n, /*withDilations=*/false);
  n.results.push_back(o::MaxUnpoolOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), w.kernel, w.pads, w.strides));
  return success();
}

LogicalResult importCol2Im(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  WindowAttrs w = readWindow(n);
  n.results.push_back(o::Col2ImOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), w.pads, w.strides, w.dilations));
  return success();
}

} // namespace

void addConvPoolImporters(llvm::StringMap<OpImportFn> &t) {
  t["AveragePool"] = importAveragePool;
  t["Col2Im"] = importCol2Im;
  t["Conv"] = importConv;
  t["ConvTranspose"] = importConvTranspose;
  t["DeformConv"] = importDeformConv;
  t["GlobalAveragePool"] = importGlobalAveragePool;
  t["LpPool"] = importLpPool;
  t["MaxPool"] = importMaxPool;
  t["MaxUnpool"] = importMaxUnpool;
}

} // namespace onnxcc
