//===- ScalarBodyEmitter.cpp - scalar regions as C++ lambdas --------------===//
#include "codegen/cpu/ScalarBodyEmitter.h"

#include "dialects/Kernel/KernelOps.h"
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

std::string emitScalarLambda(Block &body) {
  llvm::DenseMap<Value, std::string> names;
  std::string params, stmts;
  for (BlockArgument arg : body.getArguments()) {
    std::string n = "a" + std::to_string(arg.getArgNumber());
    names[arg] = n;
    params += (params.empty() ? "auto " : ", auto ") + n;
  }
  int next = 0;
  auto bin = [&](Operation *op, const char *infix) {
    return "(" + names[op->getOperand(0)] + " " + infix + " " +
           names[op->getOperand(1)] + ")";
  };
  auto call = [&](Operation *op, const char *fn) {
    std::string s = std::string("onnxcc::rt::") + fn + "(";
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      s += (i ? ", " : "") + names[op->getOperand(i)];
    return s + ")";
  };
  std::string result;
  for (Operation &op : body) {
    if (auto yield = dyn_cast<kernel::YieldOp>(op)) {
      result = names[yield.getValue()];
      break;
    }
    std::string expr =
        TypeSwitch<Operation *, std::string>(&op)
            .Case([&](arith::ConstantOp c) {
              auto f = dyn_cast<FloatAttr>(c.getValue());
              return f ? "V(" + formatFloat(f.getValueAsDouble()) + ")"
                       : std::string();
            })
            .Case([&](arith::AddFOp o) { return bin(o, "+"); })
            .Case([&](arith::SubFOp o) { return bin(o, "-"); })
            .Case([&](arith::MulFOp o) { return bin(o, "*"); })
            .Case([&](arith::DivFOp o) { return bin(o, "/"); })
            .Case([&](arith::NegFOp o) { return "(-" + names[o.getOperand()] + ")"; })
            .Case([&](arith::MaximumFOp o) { return call(o, "vmax"); })
            .Case([&](arith::MinimumFOp o) { return call(o, "vmin"); })
            .Case([&](math::ExpOp o) { return call(o, "vexp"); })
            .Case([&](math::TanhOp o) { return call(o, "vtanh"); })
            .Case([&](math::SqrtOp o) { return call(o, "vsqrt"); })
            .Case([&](math::AbsFOp o) { return call(o, "vabs"); })
            .Default([](Operation *) { return std::string(); });
    if (expr.empty())
      expr = "V(0)\n#error \"onnxcc: no C++ spelling for " +
             op.getName().getStringRef().str() + "\"\n";
    std::string n = "t" + std::to_string(next++);
    names[op.getResult(0)] = n;
    stmts += " const V " + n + " = " + expr + ";";
  }
  std::string first = body.getNumArguments() ? "a0" : "0.0f";
  return "[](" + params + ") { using V = decltype(" + first + ");" + stmts +
         " return " + result + "; }";
}

} // namespace onnxcc
