//===- QuantizationImporters.cpp - builders of the quantised ops ----------===//
//
// QuantizeLinear and DequantizeLinear get their output element type
// resolved here (zero point, output_dtype, or ONNX's default), so the
// dialect op carries it as `output_type`. The integer convolutions read
// Conv's window attributes with Conv's defaults.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

/// output_dtype (opset 21+) as an element type; null when absent (0).
FailureOr<Type> outputDtype(NodeContext &n) {
  int64_t dtype = n.getInt("output_dtype", 0);
  if (!dtype)
    return Type();
  Type t = elementTypeFor(n.builder.getContext(), dtype);
  if (!t)
    return n.error("output_dtype " + onnxTypeName(dtype) + " is not supported");
  return t;
}

LogicalResult importQuantizeLinear(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  auto dtype = outputDtype(n);
  if (failed(dtype))
    return failure();
  Type out = *dtype;
  if (Value zp = n.operand(2)) {
    if (out && out != elementOf(zp))
      return n.error("output_dtype " + onnxTypeName(n.getInt("output_dtype", 0)) +
                     " differs from the zero point's type");
    out = elementOf(zp);
  }
  if (!out)
    out = IntegerType::get(n.builder.getContext(), 8, IntegerType::Unsigned);
  // `saturate` only changes float8 targets.
  bool saturate = n.getInt("saturate", 1) != 0;
  // `precision` (opset 23): the type x / scale is computed in. f32 is what
  // the kernels use; another one would round differently.
  int64_t precision = n.getInt("precision", 0);
  if (precision != 0 && precision != ::onnx::TensorProto::FLOAT)
    return n.error("precision " + onnxTypeName(precision) +
                   " is not supported (FLOAT only)");
  n.results.push_back(o::QuantizeLinearOp::create(
      n.builder, n.loc, n.unranked(out), n.operand(0), n.operand(1),
      n.operand(2), n.getInt("axis", 1), n.getInt("block_size", 0), out,
      saturate));
  return success();
}

LogicalResult importDequantizeLinear(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  auto dtype = outputDtype(n);
  if (failed(dtype))
    return failure();
  Type out = *dtype ? *dtype : elementOf(n.operand(1));
  n.results.push_back(o::DequantizeLinearOp::create(
      n.builder, n.loc, n.unranked(out), n.operand(0), n.operand(1),
      n.operand(2), n.getInt("axis", 1), n.getInt("block_size", 0), out));
  return success();
}

LogicalResult importDynamicQuantizeLinear(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  MLIRContext *ctx = n.builder.getContext();
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto op = o::DynamicQuantizeLinearOp::create(
      n.builder, n.loc, n.unranked(u8), n.unranked(Float32Type::get(ctx)),
      n.unranked(u8), n.operand(0));
  n.results.append(op->result_begin(), op->result_end());
  return success();
}

LogicalResult importMatMulInteger(NodeContext &n) {
  if (failed(n.arity(2, 4)))
    return failure();
  n.results.push_back(o::MatMulIntegerOp::create(
      n.builder, n.loc, n.unranked(n.builder.getI32Type()), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3)));
  return success();
}

LogicalResult importQLinearMatMul(NodeContext &n) {
  if (failed(n.arity(8, 8)))
    return failure();
  n.results.push_back(o::QLinearMatMulOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(7)), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3), n.operand(4), n.operand(5),
      n.operand(6), n.operand(7)));
  return success();
}

/// Conv's window attributes with its defaults (2-D only, like Conv).
struct Window {
  SmallVector<int64_t> kernel, pads, strides, dilations;
};
FailureOr<Window> readWindow(NodeContext &n, Value weight) {
  Window w;
  w.kernel = n.getInts("kernel_shape");
  if (w.kernel.empty())
    if (auto t = dyn_cast<RankedTensorType>(weight.getType()))
      if (t.getRank() >= 3)
        w.kernel.assign(t.getShape().begin() + 2, t.getShape().end());
  if (w.kernel.empty())
    return n.error("kernel_shape is absent and the weight's shape is not "
                   "known at import (give kernel_shape)");
  if (w.kernel.size() != 2)
    return n.error("only 2-D windows are supported, got kernel_shape of rank " +
                   Twine(w.kernel.size()));
  w.pads = n.getInts("pads");
  if (w.pads.empty())
    w.pads.assign(4, 0);
  w.strides = n.getInts("strides");
  if (w.strides.empty())
    w.strides.assign(2, 1);
  w.dilations = n.getInts("dilations");
  if (w.dilations.empty())
    w.dilations.assign(2, 1);
  return w;
}

LogicalResult importConvInteger(NodeContext &n) {
  if (failed(n.arity(2, 4)))
    return failure();
  auto w = readWindow(n, n.operand(1));
  if (failed(w))
    return failure();
  n.results.push_back(o::ConvIntegerOp::create(
      n.builder, n.loc, n.unranked(n.builder.getI32Type()), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3), w->kernel, w->pads,
      w->strides, w->dilations, n.getInt("group", 1),
      n.getString("auto_pad", "NOTSET")));
  return success();
}

LogicalResult importQLinearConv(NodeContext &n) {
  if (failed(n.arity(8, 9)))
    return failure();
  auto w = readWindow(n, n.operand(3));
  if (failed(w))
    return failure();
  n.results.push_back(o::QLinearConvOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(7)), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3), n.operand(4), n.operand(5),
      n.operand(6), n.operand(7), n.operand(8), w->kernel, w->pads,
      w->strides, w->dilations, n.getInt("group", 1),
      n.getString("auto_pad", "NOTSET")));
  return success();
}

} // namespace

void addQuantizationImporters(llvm::StringMap<OpImportFn> &t) {
  t["QuantizeLinear"] = importQuantizeLinear;
  t["DequantizeLinear"] = importDequantizeLinear;
  t["DynamicQuantizeLinear"] = importDynamicQuantizeLinear;
  t["MatMulInteger"] = importMatMulInteger;
  t["QLinearMatMul"] = importQLinearMatMul;
  t["ConvInteger"] = importConvInteger;
  t["QLinearConv"] = importQLinearConv;
}

} // namespace onnxcc
