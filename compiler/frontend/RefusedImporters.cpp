//===- RefusedImporters.cpp - ops without a static, deterministic meaning -===//
//
// Some operators cannot be compiled into a fixed-shape predict() without a
// heap: their output shape depends on the data, or their result on a random
// generator. Each gets one line that says why, so a user (and the
// conformance categories) tell them apart from ops not written yet.
// (Unique, NonZero, Compress, sequences, optionals and strings are refused
// in DataMovementImporters.cpp, beside the constant cases they do fold.)
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

using namespace mlir;

namespace onnxcc {
namespace {

LogicalResult refuseDataDependent(NodeContext &n) {
  StringRef why = n.node.op_type() == "NonMaxSuppression"
                      ? "it selects as many boxes as pass its thresholds"
                      : "the decoded image's size is in the encoded bytes";
  return n.error("data-dependent output shape: " + n.node.op_type() + ": " +
                 why + " (onnxcc compiles static shapes only)");
}

LogicalResult refuseRandom(NodeContext &n) {
  return n.error(n.node.op_type() +
                 " draws random numbers: onnxcc compiles deterministic "
                 "inference only");
}

} // namespace

void addRefusedImporters(llvm::StringMap<OpImportFn> &t) {
  for (const char *op : {"NonMaxSuppression", "ImageDecoder"})
    t[op] = refuseDataDependent;
  for (const char *op : {"Bernoulli", "Multinomial", "RandomNormal",
                         "RandomNormalLike", "RandomUniform", "RandomUniformLike"})
    t[op] = refuseRandom;
}

} // namespace onnxcc
