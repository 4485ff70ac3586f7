//===- LinalgImporters.cpp - builders of Gemm, MatMul and Einsum ----------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

LogicalResult importGemm(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  // Before opset 7 `broadcast` said whether C may broadcast; a C that need
  // not is a special case of one that may.
  if (n.opset < 7)
    (void)n.getInt("broadcast", 0);
  n.results.push_back(o::GemmOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2),
      n.builder.getF32FloatAttr(n.getFloat("alpha", 1.0f)),
      n.builder.getF32FloatAttr(n.getFloat("beta", 1.0f)),
      n.builder.getI64IntegerAttr(n.getInt("transA", 0)),
      n.builder.getI64IntegerAttr(n.getInt("transB", 0))));
  return success();
}

LogicalResult importMatMul(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::MatMulOp::create(n.builder, n.loc,
                                          n.unrankedLike(n.operand(0)),
                                          n.operand(0), n.operand(1)));
  return success();
}

LogicalResult importEinsum(NodeContext &n) {
  if (n.operands.empty() || llvm::is_contained(n.operands, Value()))
    return n.error("expects at least one non-empty input");
  if (!n.has("equation"))
    return n.error("missing required attribute 'equation'");
  n.results.push_back(o::EinsumOp::create(n.builder, n.loc,
                                          n.unrankedLike(n.operand(0)),
                                          n.operands, n.getString("equation", "")));
  return success();
}

} // namespace

void addLinalgImporters(llvm::StringMap<OpImportFn> &t) {
  t["Einsum"] = importEinsum;
  t["Gemm"] = importGemm;
  t["MatMul"] = importMatMul;
}

} // namespace onnxcc
