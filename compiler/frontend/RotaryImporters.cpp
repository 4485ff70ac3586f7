//===- RotaryImporters.cpp - builder of RotaryEmbedding -------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

/// RotaryEmbedding (opset 23): input, cos_cache, sin_cache and optional
/// position_ids; the shape rule checks how they fit.
LogicalResult importRotaryEmbedding(NodeContext &n) {
  if (failed(n.arity(3, 4)))
    return failure();
  int64_t interleaved = n.getInt("interleaved", 0);
  if (interleaved != 0 && interleaved != 1)
    return n.error("interleaved must be 0 or 1, got " + Twine(interleaved));
  n.results.push_back(o::RotaryEmbeddingOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3), interleaved,
      n.getInt("num_heads", 0), n.getInt("rotary_embedding_dim", 0)));
  return success();
}

} // namespace

void addRotaryImporters(llvm::StringMap<OpImportFn> &t) {
  t["RotaryEmbedding"] = importRotaryEmbedding;
}

} // namespace onnxcc
