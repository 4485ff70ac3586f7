//===- TensorLimits.cpp - the one cap on tensor sizes ---------------------===//
#include "dialects/Onnx/TensorLimits.h"

#include "dialects/Onnx/OnnxTypes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

namespace onnxcc {

int64_t elementBytes(Type elementType) {
  // A string element is a `const char *` in generated code; the plan
  // assumes 64-bit pointers (runtime-support/onnxcc/ml_strings.h checks).
  if (isa<onnx::StringType>(elementType))
    return 8;
  if (elementType.isIntOrFloat())
    return (elementType.getIntOrFloatBitWidth() + 7) / 8;
  return 0;
}

std::optional<int64_t> checkedElementCount(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      continue;
    std::optional<int64_t> next = llvm::checkedMul(n, d);
    if (!next)
      return std::nullopt;
    n = *next;
  }
  return n;
}

std::optional<int64_t> checkedTensorBytes(ShapedType type) {
  std::optional<int64_t> n = checkedElementCount(type.getShape());
  if (!n)
    return std::nullopt;
  return llvm::checkedMul(*n, elementBytes(type.getElementType()));
}

LogicalResult checkTensorSize(std::optional<Location> loc, ShapedType type,
                              StringRef what) {
  if (!type.hasRank())
    return success();
  if (type.getRank() > kMaxRank)
    return emitOptionalError(loc, what, " has rank ", type.getRank(),
                             ", more than the limit of ", kMaxRank);
  for (int64_t d : type.getShape())
    if (!ShapedType::isDynamic(d) && (d < 0 || d > kMaxDim))
      return emitOptionalError(loc, what, " ", type, " has dimension ", d,
                               ", outside [0, ", kMaxDim, "]");
  std::optional<int64_t> bytes = checkedTensorBytes(type);
  if (bytes && *bytes <= kMaxTensorBytes)
    return success();
  // The figure, exactly, even where it does not fit in 64 bits: each of at
  // most kMaxRank dimensions is below 2^33.
  llvm::APInt exact(64 * (kMaxRank + 2), elementBytes(type.getElementType()));
  for (int64_t d : type.getShape())
    if (!ShapedType::isDynamic(d))
      exact *= llvm::APInt(exact.getBitWidth(), d);
  return emitOptionalError(loc, what, " ", type, " needs ",
                           llvm::toString(exact, 10, /*Signed=*/false),
                           " bytes, more than the limit of ", kMaxTensorBytes,
                           " bytes (4 GiB)");
}

} // namespace onnxcc
