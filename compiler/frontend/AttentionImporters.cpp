//===- AttentionImporters.cpp - ONNX Attention -----------------------------===//
//
// Attention (opsets 23-25) maps to one onnx.attention; its attributes are
// checked here, its shapes by the type rule (AttentionShapes.cpp).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"
#include <cmath>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

LogicalResult importAttention(NodeContext &n) {
  if (n.opset < 23)
    return n.error("Attention needs opset 23 or newer, the model imports " +
                   Twine(n.opset));
  if (failed(n.arity(3, n.opset >= 24 ? 7 : 6)))
    return failure();
  Builder &b = n.builder;
  int64_t causal = n.getInt("is_causal", 0);
  int64_t mode = n.getInt("qk_matmul_output_mode", 0);
  int64_t qHeads = n.getInt("q_num_heads", 0);
  int64_t kvHeads = n.getInt("kv_num_heads", 0);
  float softcap = n.getFloat("softcap", 0.0f);
  // The softmax runs in float (double for f64) whatever is asked: at least
  // as precise as every type softmax_precision may name.
  int64_t precision = n.getInt("softmax_precision", 1);
  int64_t left = n.opset >= 25 ? n.getInt("left_window_size", -1) : -1;
  int64_t right = n.opset >= 25 ? n.getInt("right_window_size", -1) : -1;
  if (causal != 0 && causal != 1)
    return n.error("is_causal must be 0 or 1, got " + Twine(causal));
  if (mode < 0 || mode > 3)
    return n.error("qk_matmul_output_mode must be 0 to 3, got " + Twine(mode));
  if (!std::isfinite(softcap) || softcap < 0)
    return n.error("softcap must be a finite number >= 0, got " +
                   Twine(std::to_string(softcap)));
  if (precision != 1 && precision != 10 && precision != 11 && precision != 16)
    return n.error("softmax_precision " + Twine(precision) +
                   " is not a float type (1, 10, 11 or 16)");
  if (left < -1 || right < -1)
    return n.error("left_window_size " + Twine(left) + " and right_window_size " +
                   Twine(right) + " must be -1 or more");
  FloatAttr scale;
  if (n.has("scale")) {
    float s = n.getFloat("scale", 1.0f);
    if (!std::isfinite(s))
      return n.error("scale must be finite, got " + Twine(std::to_string(s)));
    scale = b.getF32FloatAttr(s);
  }
  Value past = n.operand(4), pastValue = n.operand(5);
  if (!past != !pastValue)
    return n.error("past_key and past_value must be given together");
  auto op = o::AttentionOp::create(
      n.builder, n.loc,
      TypeRange{n.unrankedLike(n.operand(0)), n.unrankedLike(n.operand(0)),
                n.unrankedLike(n.operand(2)), n.unrankedLike(n.operand(0))},
      n.operand(0), n.operand(1), n.operand(2), n.operand(3), past, pastValue,
      n.operand(6), b.getI64IntegerAttr(causal), b.getI64IntegerAttr(qHeads),
      b.getI64IntegerAttr(kvHeads), scale, b.getF32FloatAttr(softcap),
      b.getI64IntegerAttr(mode), b.getI64IntegerAttr(left),
      b.getI64IntegerAttr(right));
  n.results.append(op->result_begin(), op->result_end());
  return success();
}

} // namespace

void addAttentionImporters(llvm::StringMap<OpImportFn> &t) {
  t["Attention"] = importAttention;
}

} // namespace onnxcc
