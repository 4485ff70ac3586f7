//===- ScalarBuilder.h - typed scalar ops for fused bodies ------*- C++ -*-===//
//
// Lowering patterns describe an op's scalar meaning once, for every element
// type: `s.add(x, y)` becomes arith.addf for floats and arith.addi for
// integers. Values are in their compute type (kernel::computeType), which
// is signless; where signedness matters the caller passes the tensor
// element type it came from.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_PASSES_LOWERTOKERNEL_SCALARBUILDER_H
#define ONNXCC_PASSES_LOWERTOKERNEL_SCALARBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace onnxcc {

class ScalarBuilder {
public:
  ScalarBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  static bool isFloat(mlir::Type t) { return llvm::isa<mlir::FloatType>(t); }
  /// Whether tensor element type `element` reads as unsigned.
  static bool isUnsigned(mlir::Type element) {
    return element.isUnsignedInteger() || element.isInteger(1);
  }

  mlir::Value constant(mlir::Type type, double value);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value div(mlir::Value x, mlir::Value y, bool isUnsigned);
  /// Remainder with the sign of the divisor (Python, ONNX Mod fmod=0).
  mlir::Value modFloor(mlir::Value x, mlir::Value y, bool isUnsigned);
  /// Remainder with the sign of the dividend (C fmod, ONNX Mod fmod=1).
  mlir::Value rem(mlir::Value x, mlir::Value y, bool isUnsigned);
  mlir::Value neg(mlir::Value x);
  mlir::Value abs(mlir::Value x);
  mlir::Value max(mlir::Value x, mlir::Value y, bool isUnsigned);
  mlir::Value min(mlir::Value x, mlir::Value y, bool isUnsigned);
  mlir::Value pow(mlir::Value x, mlir::Value y);

  enum class Cmp { eq, ne, lt, le, gt, ge };
  /// An i1 comparison; floats compare ordered (false with a NaN) except ne.
  mlir::Value cmp(Cmp pred, mlir::Value x, mlir::Value y, bool isUnsigned);
  mlir::Value select(mlir::Value cond, mlir::Value x, mlir::Value y);

  mlir::Value bitAnd(mlir::Value x, mlir::Value y);
  mlir::Value bitOr(mlir::Value x, mlir::Value y);
  mlir::Value bitXor(mlir::Value x, mlir::Value y);
  mlir::Value bitNot(mlir::Value x);
  mlir::Value shiftLeft(mlir::Value x, mlir::Value y);
  mlir::Value shiftRight(mlir::Value x, mlir::Value y, bool isUnsigned);

  /// Converts a value of compute type computeType(from) to computeType(to),
  /// with ONNX Cast semantics: float to int truncates and saturates, to
  /// bool is `!= 0`, integers read signed or unsigned as `from` says.
  mlir::Value convert(mlir::Value v, mlir::Type from, mlir::Type to);

  /// Whether `element` is one of the float8 formats whose stores overflow
  /// to Inf/NaN (ONNX's `saturate` applies to them).
  static bool isSaturable(mlir::Type element);
  /// `v` (a float) clamped to +-the largest finite value of float8 type
  /// `element` (NaN stays NaN): ONNX's saturate=1 before a float8 store.
  mlir::Value saturateTo(mlir::Value v, mlir::Type element);

  /// A float math function (exp, log, ...) of one or two operands.
  template <typename OpTy, typename... Args> mlir::Value math(Args... args) {
    return OpTy::create(b, loc, args...);
  }

  mlir::OpBuilder &builder() { return b; }
  mlir::Location location() { return loc; }

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace onnxcc

#endif // ONNXCC_PASSES_LOWERTOKERNEL_SCALARBUILDER_H
