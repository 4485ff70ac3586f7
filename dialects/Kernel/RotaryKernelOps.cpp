//===- RotaryKernelOps.cpp - verifier of kernel.rotary_embedding ----------===//
#include "dialects/Kernel/KernelOps.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace onnxcc::kernel;

static ArrayRef<int64_t> shape(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

LogicalResult RotaryEmbeddingOp::verify() {
  ArrayRef<int64_t> x = shape(getInput()), cos = shape(getCosCache());
  int64_t heads = getHeads(), rot = getRotaryDim();
  size_t rank = getPacked() ? 3 : 4;
  if (x.size() != rank)
    return emitOpError() << "input must have rank " << rank << ", got "
                         << x.size();
  if (heads <= 0 || (getPacked() ? x[2] % heads : x[1] != heads))
    return emitOpError() << "heads " << heads << " does not fit the input";
  int64_t batch = x[0], seq = getPacked() ? x[1] : x[2];
  int64_t headSize = getPacked() ? x[2] / heads : x[3];
  if (rot <= 0 || rot % 2 || rot > headSize)
    return emitOpError() << "rotary_dim " << rot << " must be even and in (0, "
                         << headSize << "]";
  Type element = getElementTypeOrSelf(getInput().getType());
  if (!isa<FloatType>(element) ||
      getElementTypeOrSelf(getCosCache().getType()) != element ||
      getElementTypeOrSelf(getSinCache().getType()) != element ||
      getOutput().getType() != getInput().getType())
    return emitOpError() << "input, caches and output must share one float "
                            "element type (and the output the input's shape)";
  if (shape(getSinCache()) != cos)
    return emitOpError() << "cos and sin caches differ in shape";
  if (Value p = getPositionIds()) {
    if (shape(p) != ArrayRef<int64_t>{batch, seq} ||
        !getElementTypeOrSelf(p.getType()).isInteger(64))
      return emitOpError() << "position_ids must be i64 [batch, seq]";
    if (cos.size() != 2 || cos[0] < 1 || cos[1] != rot / 2)
      return emitOpError() << "caches must be [positions, rotary_dim / 2]";
  } else if (cos != ArrayRef<int64_t>{batch, seq, rot / 2}) {
    return emitOpError() << "caches must be [batch, seq, rotary_dim / 2]";
  }
  return success();
}
