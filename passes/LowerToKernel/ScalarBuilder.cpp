//===- ScalarBuilder.cpp - typed scalar ops for fused bodies --------------===//
#include "passes/LowerToKernel/ScalarBuilder.h"

#include "dialects/Kernel/KernelOps.h"

using namespace mlir;

namespace onnxcc {

Value ScalarBuilder::constant(Type type, double value) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, value));
  auto it = cast<IntegerType>(type);
  int64_t v = static_cast<int64_t>(value);
  return arith::ConstantOp::create(
      b, loc, IntegerAttr::get(it, APInt(it.getWidth(), v, /*isSigned=*/true,
                                         /*implicitTrunc=*/true)));
}

Value ScalarBuilder::add(Value x, Value y) {
  return isFloat(x.getType()) ? Value(arith::AddFOp::create(b, loc, x, y))
                              : Value(arith::AddIOp::create(b, loc, x, y));
}
Value ScalarBuilder::sub(Value x, Value y) {
  return isFloat(x.getType()) ? Value(arith::SubFOp::create(b, loc, x, y))
                              : Value(arith::SubIOp::create(b, loc, x, y));
}
Value ScalarBuilder::mul(Value x, Value y) {
  return isFloat(x.getType()) ? Value(arith::MulFOp::create(b, loc, x, y))
                              : Value(arith::MulIOp::create(b, loc, x, y));
}
Value ScalarBuilder::div(Value x, Value y, bool isUnsigned) {
  if (isFloat(x.getType()))
    return arith::DivFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::DivUIOp::create(b, loc, x, y);
  return arith::DivSIOp::create(b, loc, x, y);
}
Value ScalarBuilder::rem(Value x, Value y, bool isUnsigned) {
  if (isFloat(x.getType()))
    return arith::RemFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::RemUIOp::create(b, loc, x, y);
  return arith::RemSIOp::create(b, loc, x, y);
}
Value ScalarBuilder::modFloor(Value x, Value y, bool isUnsigned) {
  Value r = rem(x, y, isUnsigned);
  if (isUnsigned)
    return r;
  if (isFloat(x.getType())) {
    // A zero result takes the sign of y; otherwise r + y where the signs of
    // r and y differ (ONNX Mod, fmod=0: A - floor(A / B) * B).
    Value zero = constant(x.getType(), 0);
    Value isZero = cmp(Cmp::eq, r, zero, false);
    Value differ = arith::XOrIOp::create(b, loc, cmp(Cmp::lt, r, zero, false),
                                         cmp(Cmp::lt, y, zero, false));
    Value fixed = select(differ, add(r, y), r);
    return select(isZero, math::CopySignOp::create(b, loc, zero, y), fixed);
  }
  // r != 0 and sign(r) != sign(y): r + y.
  Value zero = constant(x.getType(), 0);
  Value nonzero = cmp(Cmp::ne, r, zero, false);
  Value rNeg = cmp(Cmp::lt, r, zero, false), yNeg = cmp(Cmp::lt, y, zero, false);
  Value differ = arith::XOrIOp::create(b, loc, rNeg, yNeg);
  Value fix = arith::AndIOp::create(b, loc, nonzero, differ);
  return select(fix, add(r, y), r);
}
Value ScalarBuilder::neg(Value x) {
  if (isFloat(x.getType()))
    return arith::NegFOp::create(b, loc, x);
  return sub(constant(x.getType(), 0), x);
}
Value ScalarBuilder::abs(Value x) {
  if (isFloat(x.getType()))
    return math::AbsFOp::create(b, loc, x);
  return math::AbsIOp::create(b, loc, x);
}
Value ScalarBuilder::max(Value x, Value y, bool isUnsigned) {
  if (isFloat(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MaxUIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}
Value ScalarBuilder::min(Value x, Value y, bool isUnsigned) {
  if (isFloat(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MinUIOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}
Value ScalarBuilder::pow(Value x, Value y) {
  if (isFloat(x.getType()))
    return math::PowFOp::create(b, loc, x, y);
  return math::IPowIOp::create(b, loc, x, y);
}

Value ScalarBuilder::cmp(Cmp pred, Value x, Value y, bool isUnsigned) {
  if (isFloat(x.getType())) {
    arith::CmpFPredicate p;
    switch (pred) {
    case Cmp::eq: p = arith::CmpFPredicate::OEQ; break;
    case Cmp::ne: p = arith::CmpFPredicate::UNE; break;
    case Cmp::lt: p = arith::CmpFPredicate::OLT; break;
    case Cmp::le: p = arith::CmpFPredicate::OLE; break;
    case Cmp::gt: p = arith::CmpFPredicate::OGT; break;
    case Cmp::ge: p = arith::CmpFPredicate::OGE; break;
    }
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  arith::CmpIPredicate p;
  switch (pred) {
  case Cmp::eq: p = arith::CmpIPredicate::eq; break;
  case Cmp::ne: p = arith::CmpIPredicate::ne; break;
  case Cmp::lt: p = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
  case Cmp::le: p = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
  case Cmp::gt: p = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
  case Cmp::ge: p = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
  }
  return arith::CmpIOp::create(b, loc, p, x, y);
}
Value ScalarBuilder::select(Value cond, Value x, Value y) {
  return arith::SelectOp::create(b, loc, cond, x, y);
}

Value ScalarBuilder::bitAnd(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
Value ScalarBuilder::bitOr(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
Value ScalarBuilder::bitXor(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
Value ScalarBuilder::bitNot(Value x) {
  return arith::XOrIOp::create(b, loc, x, constant(x.getType(), -1));
}
Value ScalarBuilder::shiftLeft(Value x, Value y) {
  return arith::ShLIOp::create(b, loc, x, y);
}
Value ScalarBuilder::shiftRight(Value x, Value y, bool isUnsigned) {
  if (isUnsigned)
    return arith::ShRUIOp::create(b, loc, x, y);
  return arith::ShRSIOp::create(b, loc, x, y);
}

Value ScalarBuilder::convert(Value v, Type from, Type to) {
  Type src = kernel::computeType(from), dst = kernel::computeType(to);
  if (src == dst)
    return v;
  bool srcFloat = isFloat(src), dstFloat = isFloat(dst);
  if (dst.isInteger(1)) // any nonzero value (NaN included) is true
    return cmp(Cmp::ne, v, constant(src, 0), false);
  if (srcFloat && dstFloat)
    return src.getIntOrFloatBitWidth() < dst.getIntOrFloatBitWidth()
               ? Value(arith::ExtFOp::create(b, loc, dst, v))
               : Value(arith::TruncFOp::create(b, loc, dst, v));
  if (srcFloat && isa<IntegerType>(to) && to.getIntOrFloatBitWidth() < 8) {
    // To 4 or 2 bits: truncate toward zero, then wrap (numpy's astype);
    // the 8-bit compute value keeps the low bits the store takes.
    Value wide = arith::FPToSIOp::create(b, loc, b.getI32Type(), v);
    return arith::TruncIOp::create(b, loc, dst, wide);
  }
  if (srcFloat)
    return isUnsigned(to) ? Value(arith::FPToUIOp::create(b, loc, dst, v))
                          : Value(arith::FPToSIOp::create(b, loc, dst, v));
  if (dstFloat)
    return isUnsigned(from) ? Value(arith::UIToFPOp::create(b, loc, dst, v))
                            : Value(arith::SIToFPOp::create(b, loc, dst, v));
  unsigned sw = src.getIntOrFloatBitWidth(), dw = dst.getIntOrFloatBitWidth();
  if (sw > dw)
    return arith::TruncIOp::create(b, loc, dst, v);
  return isUnsigned(from) ? Value(arith::ExtUIOp::create(b, loc, dst, v))
                          : Value(arith::ExtSIOp::create(b, loc, dst, v));
}

bool ScalarBuilder::isSaturable(Type element) {
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType>(element);
}

Value ScalarBuilder::saturateTo(Value v, Type element) {
  const llvm::fltSemantics &sem = cast<FloatType>(element).getFloatSemantics();
  double largest = llvm::APFloat::getLargest(sem).convertToDouble();
  Type t = v.getType();
  return min(max(v, constant(t, -largest), false), constant(t, largest), false);
}

} // namespace onnxcc
