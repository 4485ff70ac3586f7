//===- TensorLimits.h - the one cap on tensor sizes -------------*- C++ -*-===//
//
// Every size onnxcc derives from a model (element counts, byte sizes,
// window extents, the arena) is computed with overflow checks, and no
// tensor may exceed kMaxTensorBytes: a graph input or output, an
// initializer, an intermediate, or the arena as a whole. A model that asks
// for more is refused with the figure instead of being compiled into code
// whose sizes have wrapped around.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_TENSORLIMITS_H
#define ONNXCC_DIALECTS_ONNX_TENSORLIMITS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/MathExtras.h"
#include <cstdint>
#include <optional>

namespace onnxcc {

/// 4 GiB: the largest tensor, and the largest arena, a model may ask for.
constexpr int64_t kMaxTensorBytes = int64_t(1) << 32;
/// The largest single dimension (also bounded by kMaxTensorBytes once the
/// other dimensions are known; this bound keeps strides and offsets of
/// zero-element tensors small too).
constexpr int64_t kMaxDim = kMaxTensorBytes;

/// The highest rank a tensor may have: far above any real model, low
/// enough that per-dimension loops and messages stay small.
constexpr int64_t kMaxRank = 32;

/// int64 arithmetic that records overflow instead of wrapping, for sizes
/// derived from untrusted attributes: `(in + pads - dil * (k - 1) - 1)`
/// is written as usual and checked once at the end.
class CheckedInt {
public:
  CheckedInt(int64_t v) : value(v) {}
  bool overflowed() const { return !value; }
  /// The result; only valid when !overflowed().
  int64_t operator*() const { return *value; }
  friend CheckedInt operator+(CheckedInt a, CheckedInt b) {
    return a.combine(b, [](int64_t x, int64_t y, int64_t &r) {
      return llvm::AddOverflow(x, y, r);
    });
  }
  friend CheckedInt operator-(CheckedInt a, CheckedInt b) {
    return a.combine(b, [](int64_t x, int64_t y, int64_t &r) {
      return llvm::SubOverflow(x, y, r);
    });
  }
  friend CheckedInt operator*(CheckedInt a, CheckedInt b) {
    return a.combine(b, [](int64_t x, int64_t y, int64_t &r) {
      return llvm::MulOverflow(x, y, r);
    });
  }
  /// Division by a positive divisor (floor for non-negative dividends).
  friend CheckedInt operator/(CheckedInt a, CheckedInt b) {
    if (!a.value || !b.value || *b.value <= 0)
      return CheckedInt();
    return CheckedInt(*a.value / *b.value);
  }

private:
  CheckedInt() = default;
  template <typename Op> CheckedInt combine(CheckedInt b, Op op) const {
    int64_t r;
    if (!value || !b.value || op(*value, *b.value, r))
      return CheckedInt();
    return CheckedInt(r);
  }
  std::optional<int64_t> value;
};

/// Bytes one element of `elementType` takes in memory (i1 takes a byte).
int64_t elementBytes(mlir::Type elementType);

/// The product of the static dimensions of `shape` (dynamic ones are
/// skipped), or nullopt if it overflows int64_t.
std::optional<int64_t> checkedElementCount(llvm::ArrayRef<int64_t> shape);

/// The bytes of a tensor of `type` counting only its static dimensions, or
/// nullopt if that overflows int64_t.
std::optional<int64_t> checkedTensorBytes(mlir::ShapedType type);

/// Fails with "<what> <type> needs N bytes, more than the 4 GiB limit" (or
/// "...overflows") when a tensor of `type` is above kMaxTensorBytes or has
/// a dimension above kMaxDim, or a rank above kMaxRank.
mlir::LogicalResult checkTensorSize(std::optional<mlir::Location> loc,
                                    mlir::ShapedType type,
                                    llvm::StringRef what = "tensor");

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_TENSORLIMITS_H
