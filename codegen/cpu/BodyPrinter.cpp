//===- BodyPrinter.cpp - fused scalar bodies as C++ lambdas ---------------===//
#include "codegen/cpu/BodyPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/OnnxTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <cstdio>

using namespace mlir;

namespace onnxcc {

std::string formatFloat(float v) {
  if (std::isnan(v))
    return "NAN";
  if (std::isinf(v))
    return v > 0 ? "INFINITY" : "(-INFINITY)";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  std::string s(buf);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s + "f";
}

std::string formatDouble(double v) {
  if (std::isnan(v))
    return "double(NAN)";
  if (std::isinf(v))
    return v > 0 ? "double(INFINITY)" : "double(-INFINITY)";
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  std::string s(buf);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

std::string cppElementType(Type t) {
  if (t.isF32()) return "float";
  // Strings are pointers into the caller's strings or constant tables.
  if (isa<onnx::StringType>(t)) return "const char *";
  if (t.isF64()) return "double";
  if (t.isF16()) return "onnxcc::rt::f16";
  if (t.isBF16()) return "onnxcc::rt::bf16";
  if (t.isInteger(1)) return "bool";
  // The 8/4/2-bit storage types (runtime-support/onnxcc/small_types.h).
  if (isa<Float8E4M3FNType>(t)) return "onnxcc::rt::f8e4m3fn";
  if (isa<Float8E4M3FNUZType>(t)) return "onnxcc::rt::f8e4m3fnuz";
  if (isa<Float8E5M2Type>(t)) return "onnxcc::rt::f8e5m2";
  if (isa<Float8E5M2FNUZType>(t)) return "onnxcc::rt::f8e5m2fnuz";
  if (isa<Float8E8M0FNUType>(t)) return "onnxcc::rt::f8e8m0";
  if (isa<Float4E2M1FNType>(t)) return "onnxcc::rt::f4e2m1";
  if (auto it = dyn_cast<IntegerType>(t)) {
    unsigned w = it.getWidth();
    if (w == 4 || w == 2)
      return std::string("onnxcc::rt::") + (it.isUnsigned() ? "u" : "i") +
             std::to_string(w);
    if (w != 8 && w != 16 && w != 32 && w != 64)
      return "";
    return (it.isUnsigned() ? "std::uint" : "std::int") + std::to_string(w) + "_t";
  }
  return "";
}

namespace {

/// Prints one body. Scalar bodies name each value's C++ type; vectorizable
/// ones write `auto` and let float or batch flow through.
class BodyPrinter {
public:
  BodyPrinter(Block &body)
      : body(body), vector(kernel::isVectorizableBody(body)) {}
  LogicalResult print(raw_indented_ostream &os);

private:
  std::string type(Value v) { return vector ? "auto" : cppElementType(v.getType()); }
  std::string name(Value v) { return names.lookup(v); }
  std::string call(StringRef fn, Operation *op, StringRef templateArgs = "") {
    std::string s = "onnxcc::rt::" + fn.str() + templateArgs.str() + "(";
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      s += (i ? ", " : "") + name(op->getOperand(i));
    return s + ")";
  }
  std::string infix(Operation *op, StringRef sym) {
    return "(" + name(op->getOperand(0)) + " " + sym.str() + " " +
           name(op->getOperand(1)) + ")";
  }
  /// `fn<T>(operands)` with T the C++ type of the op's first operand.
  std::string typed(StringRef fn, Operation *op) {
    return call(fn, op, "<" + cppElementType(op->getOperand(0).getType()) + ">");
  }
  std::string conversion(Operation *op, StringRef fn = "static_cast") {
    return fn.str() + "<" + cppElementType(op->getResult(0).getType()) + ">(" +
           name(op->getOperand(0)) + ")";
  }
  /// vmax / vmin, or vmax_num / vmin_num (one instruction on x86 and
  /// NEON) when an operand is a constant that is not NaN: the ReLU and
  /// Clip of nearly every convolution's epilogue. The NaN test of the
  /// general form cost three instructions per bound, half as much again
  /// as a 16-deep pointwise convolution's multiply-adds.
  std::string minMax(StringRef fn, Operation *op) {
    for (unsigned i : {1u, 0u}) {
      auto c = op->getOperand(i).getDefiningOp<arith::ConstantOp>();
      auto f = c ? dyn_cast<FloatAttr>(c.getValue()) : FloatAttr();
      if (f && !f.getValue().isNaN())
        return "onnxcc::rt::" + fn.str() + "_num(" +
               name(op->getOperand(1 - i)) + ", " + name(op->getOperand(i)) +
               ")";
    }
    return call(fn, op);
  }
  std::string constant(arith::ConstantOp c);
  FailureOr<std::string> expression(Operation *op);

  Block &body;
  bool vector;
  llvm::DenseMap<Value, std::string> names;
};

std::string BodyPrinter::constant(arith::ConstantOp c) {
  Type t = c.getType();
  if (auto f = dyn_cast<FloatAttr>(c.getValue())) {
    if (t.isF64())
      return formatDouble(f.getValueAsDouble());
    std::string lit = formatFloat(static_cast<float>(f.getValueAsDouble()));
    // In a vectorizable body the constant broadcasts to the values' type.
    return vector ? "V(" + lit + ")" : lit;
  }
  auto i = cast<IntegerAttr>(c.getValue());
  if (t.isInteger(1))
    return i.getValue().isZero() ? "false" : "true";
  int64_t v = i.getValue().getSExtValue();
  std::string lit = v == INT64_MIN ? "(-9223372036854775807 - 1)"
                                   : std::to_string(v);
  return cppElementType(t) + "(" + lit + ")";
}

FailureOr<std::string> BodyPrinter::expression(Operation *op) {
  using namespace arith;
  auto cmpf = [&](CmpFOp o) -> std::string {
    switch (o.getPredicate()) {
    case CmpFPredicate::OEQ: return infix(o, "==");
    case CmpFPredicate::UNE: return infix(o, "!=");
    case CmpFPredicate::OLT: return infix(o, "<");
    case CmpFPredicate::OLE: return infix(o, "<=");
    case CmpFPredicate::OGT: return infix(o, ">");
    case CmpFPredicate::OGE: return infix(o, ">=");
    default: return "";
    }
  };
  auto cmpi = [&](CmpIOp o) -> std::string {
    std::string a = name(o.getLhs()), b = name(o.getRhs());
    std::string t = "<" + cppElementType(o.getLhs().getType()) + ">";
    switch (o.getPredicate()) {
    case CmpIPredicate::eq: return infix(o, "==");
    case CmpIPredicate::ne: return infix(o, "!=");
    case CmpIPredicate::slt: return infix(o, "<");
    case CmpIPredicate::sle: return infix(o, "<=");
    case CmpIPredicate::sgt: return infix(o, ">");
    case CmpIPredicate::sge: return infix(o, ">=");
    case CmpIPredicate::ult: return "onnxcc::rt::lt_u" + t + "(" + a + ", " + b + ")";
    case CmpIPredicate::ule: return "onnxcc::rt::le_u" + t + "(" + a + ", " + b + ")";
    case CmpIPredicate::ugt: return "onnxcc::rt::lt_u" + t + "(" + b + ", " + a + ")";
    case CmpIPredicate::uge: return "onnxcc::rt::le_u" + t + "(" + b + ", " + a + ")";
    }
    return "";
  };
  auto bitwise = [&](Operation *o, StringRef sym) {
    if (o->getResult(0).getType().isInteger(1))
      return infix(o, sym == "&" ? "&&" : sym == "|" ? "||" : "!=");
    return cppElementType(o->getResult(0).getType()) + infix(o, sym);
  };
  auto fromBool = [&](Operation *o) {
    return o->getOperand(0).getType().isInteger(1);
  };
  std::string expr =
      TypeSwitch<Operation *, std::string>(op)
          .Case([&](ConstantOp c) { return constant(c); })
          .Case([&](AddFOp o) { return infix(o, "+"); })
          .Case([&](SubFOp o) { return infix(o, "-"); })
          .Case([&](MulFOp o) { return infix(o, "*"); })
          .Case([&](DivFOp o) { return infix(o, "/"); })
          .Case([&](NegFOp o) { return "(-" + name(o.getOperand()) + ")"; })
          .Case([&](RemFOp o) { return call("vfmod", o); })
          .Case([&](MaximumFOp o) { return minMax("vmax", o); })
          .Case([&](MinimumFOp o) { return minMax("vmin", o); })
          .Case([&](CmpFOp o) { return cmpf(o); })
          .Case([&](SelectOp o) { return call("vselect", o); })
          .Case([&](AddIOp o) { return typed("add_wrap", o); })
          .Case([&](SubIOp o) { return typed("sub_wrap", o); })
          .Case([&](MulIOp o) { return typed("mul_wrap", o); })
          .Case([&](DivSIOp o) { return typed("div_s", o); })
          .Case([&](DivUIOp o) { return typed("div_u", o); })
          .Case([&](RemSIOp o) { return typed("rem_s", o); })
          .Case([&](RemUIOp o) { return typed("rem_u", o); })
          .Case([&](MaxSIOp o) { return typed("max_s", o); })
          .Case([&](MinSIOp o) { return typed("min_s", o); })
          .Case([&](MaxUIOp o) { return typed("max_u", o); })
          .Case([&](MinUIOp o) { return typed("min_u", o); })
          .Case([&](ShLIOp o) { return typed("shl", o); })
          .Case([&](ShRSIOp o) { return typed("shr_s", o); })
          .Case([&](ShRUIOp o) { return typed("shr_u", o); })
          .Case([&](AndIOp o) { return bitwise(o, "&"); })
          .Case([&](OrIOp o) { return bitwise(o, "|"); })
          .Case([&](XOrIOp o) { return bitwise(o, "^"); })
          .Case([&](CmpIOp o) { return cmpi(o); })
          .Case<ExtFOp, TruncFOp, SIToFPOp, ExtSIOp, TruncIOp>(
              [&](Operation *o) { return conversion(o); })
          .Case([&](UIToFPOp o) {
            return fromBool(o) ? conversion(o)
                               : "onnxcc::rt::from_unsigned<" +
                                     cppElementType(o.getType()) + ">(" +
                                     name(o.getIn()) + ")";
          })
          .Case([&](ExtUIOp o) {
            return fromBool(o) ? conversion(o) : conversion(o, "onnxcc::rt::zext");
          })
          .Case([&](FPToSIOp o) {
            return "onnxcc::rt::to_int<" + cppElementType(o.getType()) +
                   ", false>(" + name(o.getIn()) + ")";
          })
          .Case([&](FPToUIOp o) {
            return "onnxcc::rt::to_int<" + cppElementType(o.getType()) +
                   ", true>(" + name(o.getIn()) + ")";
          })
          .Case([&](math::ExpOp o) { return call("vexp", o); })
          .Case([&](math::LogOp o) { return call("vlog", o); })
          .Case([&](math::Log1pOp o) { return call("vlog1p", o); })
          .Case([&](math::TanhOp o) { return call("vtanh", o); })
          .Case([&](math::SqrtOp o) { return call("vsqrt", o); })
          .Case([&](math::AbsFOp o) { return call("vabs", o); })
          .Case([&](math::SinOp o) { return call("vsin", o); })
          .Case([&](math::CosOp o) { return call("vcos", o); })
          .Case([&](math::TanOp o) { return call("vtan", o); })
          .Case([&](math::AsinOp o) { return call("vasin", o); })
          .Case([&](math::AcosOp o) { return call("vacos", o); })
          .Case([&](math::AtanOp o) { return call("vatan", o); })
          .Case([&](math::SinhOp o) { return call("vsinh", o); })
          .Case([&](math::CoshOp o) { return call("vcosh", o); })
          .Case([&](math::AsinhOp o) { return call("vasinh", o); })
          .Case([&](math::AcoshOp o) { return call("vacosh", o); })
          .Case([&](math::AtanhOp o) { return call("vatanh", o); })
          .Case([&](math::ErfOp o) { return call("verf", o); })
          .Case([&](math::FloorOp o) { return call("vfloor", o); })
          .Case([&](math::CeilOp o) { return call("vceil", o); })
          .Case([&](math::TruncOp o) { return call("vtrunc", o); })
          .Case([&](math::RoundEvenOp o) { return call("vround_even", o); })
          .Case([&](math::PowFOp o) { return call("vpow", o); })
          .Case([&](math::CopySignOp o) { return call("vcopysign", o); })
          .Case([&](math::AbsIOp o) { return typed("abs_i", o); })
          .Case([&](math::IPowIOp o) { return typed("ipow", o); })
          .Default([](Operation *) { return std::string(); });
  if (expr.empty() || (!vector && type(op->getResult(0)).empty()))
    return op->emitError() << "the C++ emitter has no spelling for '"
                           << op->getName() << "' on " << op->getResultTypes();
  return expr;
}

LogicalResult BodyPrinter::print(raw_indented_ostream &os) {
  SmallVector<std::string> params;
  for (BlockArgument arg : body.getArguments()) {
    std::string n = "a" + std::to_string(arg.getArgNumber());
    names[arg] = n;
    params.push_back("auto " + n);
  }
  os << "[](" << llvm::join(params, ", ") << ") {\n";
  os.indent();
  // Float constants broadcast to the arguments' type (float or batch).
  if (vector && llvm::any_of(body, [](Operation &op) { return isa<arith::ConstantOp>(op); }))
    os << "using V = decltype(a0);\n";
  int next = 0;
  for (Operation &op : body) {
    if (auto yield = dyn_cast<kernel::YieldOp>(op)) {
      os << "return " << name(yield.getValue()) << ";\n";
      break;
    }
    FailureOr<std::string> expr = expression(&op);
    if (failed(expr))
      return failure();
    std::string n = "t" + std::to_string(next++);
    names[op.getResult(0)] = n;
    os << "const " << type(op.getResult(0)) << " " << n << " = " << *expr << ";\n";
  }
  os.unindent();
  os << "}";
  return success();
}

} // namespace

LogicalResult printBodyLambda(raw_indented_ostream &os, Block &body) {
  return BodyPrinter(body).print(os);
}

} // namespace onnxcc
