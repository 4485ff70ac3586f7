//===- ElementwiseImporters.cpp - builders of elementwise ONNX ops -------===//
//
// One table entry per operator. Attributes are read with their ONNX
// defaults and declared types (NodeContext), and older opsets are adapted
// where an attribute became an input (Clip's bounds in opset 11).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

/// y = OpTy(x, attrs...), the result typed like x.
template <typename OpTy, typename... Attrs>
LogicalResult unary(NodeContext &n, Attrs... attrs) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(OpTy::create(n.builder, n.loc, n.unrankedLike(n.operand(0)),
                                   n.operand(0), attrs...));
  return success();
}

/// A unary test with a bool result (IsNaN, IsInf).
template <typename OpTy, typename... Attrs>
LogicalResult predicate(NodeContext &n, Attrs... attrs) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(OpTy::create(n.builder, n.loc,
                                   n.unranked(n.builder.getI1Type()),
                                   n.operand(0), attrs...));
  return success();
}

template <typename OpTy, typename... Attrs>
LogicalResult binary(NodeContext &n, Attrs... attrs) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(OpTy::create(n.builder, n.loc, n.unrankedLike(n.operand(0)),
                                   n.operand(0), n.operand(1), attrs...));
  return success();
}

template <typename OpTy> LogicalResult compare(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(OpTy::create(n.builder, n.loc,
                                   n.unranked(n.builder.getI1Type()),
                                   n.operand(0), n.operand(1)));
  return success();
}

template <typename OpTy> LogicalResult variadic(NodeContext &n) {
  if (n.operands.empty() || llvm::is_contained(n.operands, Value()))
    return n.error("expects at least one non-empty input");
  n.results.push_back(OpTy::create(n.builder, n.loc, n.unrankedLike(n.operand(0)),
                                   n.operands));
  return success();
}

/// A float attribute with its ONNX default.
FloatAttr f32(NodeContext &n, StringRef name, float dflt) {
  return n.builder.getF32FloatAttr(n.getFloat(name, dflt));
}
IntegerAttr i64(NodeContext &n, StringRef name, int64_t dflt) {
  return n.builder.getI64IntegerAttr(n.getInt(name, dflt));
}

LogicalResult importClip(NodeContext &n) {
  if (failed(n.arity(1, 3)))
    return failure();
  Value lo = n.operand(1), hi = n.operand(2);
  if (n.opset < 11) { // bounds were attributes before opset 11
    if (n.has("min"))
      lo = n.f32Scalar(n.getFloat("min", 0));
    if (n.has("max"))
      hi = n.f32Scalar(n.getFloat("max", 0));
  } else if (n.has("min") || n.has("max")) {
    // Ignoring them would silently change the result.
    return n.error("min/max attributes are not defined for Clip in opset " +
                   Twine(n.opset) + " (bounds are inputs since opset 11)");
  }
  n.results.push_back(o::ClipOp::create(n.builder, n.loc,
                                        n.unrankedLike(n.operand(0)),
                                        n.operand(0), lo, hi));
  return success();
}

/// Cast/CastLike to `et` with their `saturate` and `round_mode` (opsets 19
/// and 25), which only change float8 targets. E8M0 takes the defaults
/// only (saturate=1, round_mode="up": what its storage type does).
LogicalResult castTo(NodeContext &n, Type et) {
  int64_t saturate = n.getInt("saturate", 1);
  std::string roundMode = n.getString("round_mode", "up");
  if (roundMode != "up" && roundMode != "down" && roundMode != "nearest")
    return n.error("round_mode '" + roundMode +
                   "' is not one of 'up', 'down', 'nearest'");
  if (isa<Float8E8M0FNUType>(et) && (saturate != 1 || roundMode != "up"))
    return n.error("cast to FLOAT8E8M0 with saturate=" +
                   std::to_string(saturate) + " round_mode='" + roundMode +
                   "' is not supported (saturate=1 round_mode='up' only)");
  n.results.push_back(o::CastOp::create(n.builder, n.loc, n.unranked(et),
                                        n.operand(0), et, saturate != 0));
  return success();
}

LogicalResult importCast(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  int64_t to = n.getInt("to", 0);
  Type et = elementTypeFor(n.builder.getContext(), to);
  if (!et)
    return n.error("cannot cast to " + onnxTypeName(to));
  return castTo(n, et);
}

LogicalResult importCastLike(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  return castTo(n, getElementTypeOrSelf(n.operand(1).getType()));
}

LogicalResult importWhere(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  n.results.push_back(o::WhereOp::create(n.builder, n.loc,
                                         n.unrankedLike(n.operand(1)),
                                         n.operand(0), n.operand(1), n.operand(2)));
  return success();
}

LogicalResult importBitShift(NodeContext &n) {
  std::string direction = n.getString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return n.error("direction must be LEFT or RIGHT, got '" + direction + "'");
  return binary<o::BitShiftOp>(n, n.builder.getStringAttr(direction));
}

LogicalResult importGelu(NodeContext &n) {
  std::string approximate = n.getString("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    return n.error("approximate must be none or tanh, got '" + approximate + "'");
  return unary<o::GeluOp>(n, n.builder.getStringAttr(approximate));
}

} // namespace

void addElementwiseImporters(llvm::StringMap<OpImportFn> &t) {
  // Unary math and activations.
  t["Abs"] = unary<o::AbsOp>;
  t["Acos"] = unary<o::AcosOp>;
  t["Acosh"] = unary<o::AcoshOp>;
  t["Asin"] = unary<o::AsinOp>;
  t["Asinh"] = unary<o::AsinhOp>;
  t["Atan"] = unary<o::AtanOp>;
  t["Atanh"] = unary<o::AtanhOp>;
  t["BitwiseNot"] = unary<o::BitwiseNotOp>;
  t["Ceil"] = unary<o::CeilOp>;
  t["Cos"] = unary<o::CosOp>;
  t["Cosh"] = unary<o::CoshOp>;
  t["Erf"] = unary<o::ErfOp>;
  t["Exp"] = unary<o::ExpOp>;
  t["Floor"] = unary<o::FloorOp>;
  t["HardSwish"] = unary<o::HardSwishOp>;
  t["Log"] = unary<o::LogOp>;
  t["Mish"] = unary<o::MishOp>;
  t["Neg"] = unary<o::NegOp>;
  t["Not"] = unary<o::NotOp>;
  t["Reciprocal"] = unary<o::ReciprocalOp>;
  t["Relu"] = unary<o::ReluOp>;
  t["Round"] = unary<o::RoundOp>;
  t["Sigmoid"] = unary<o::SigmoidOp>;
  t["Sign"] = unary<o::SignOp>;
  t["Sin"] = unary<o::SinOp>;
  t["Sinh"] = unary<o::SinhOp>;
  t["Softplus"] = unary<o::SoftplusOp>;
  t["Softsign"] = unary<o::SoftsignOp>;
  t["Sqrt"] = unary<o::SqrtOp>;
  t["Tan"] = unary<o::TanOp>;
  t["Tanh"] = unary<o::TanhOp>;
  t["Celu"] = [](NodeContext &n) {
    return unary<o::CeluOp>(n, f32(n, "alpha", 1.0f));
  };
  t["Elu"] = [](NodeContext &n) {
    return unary<o::EluOp>(n, f32(n, "alpha", 1.0f));
  };
  t["Gelu"] = importGelu;
  t["HardSigmoid"] = [](NodeContext &n) {
    return unary<o::HardSigmoidOp>(n, f32(n, "alpha", 0.2f), f32(n, "beta", 0.5f));
  };
  t["LeakyRelu"] = [](NodeContext &n) {
    return unary<o::LeakyReluOp>(n, f32(n, "alpha", 0.01f));
  };
  t["Selu"] = [](NodeContext &n) {
    return unary<o::SeluOp>(n, f32(n, "alpha", 1.67326319217681884765625f),
                            f32(n, "gamma", 1.05070102214813232421875f));
  };
  t["Shrink"] = [](NodeContext &n) {
    return unary<o::ShrinkOp>(n, f32(n, "bias", 0.0f), f32(n, "lambd", 0.5f));
  };
  t["Swish"] = [](NodeContext &n) {
    return unary<o::SwishOp>(n, f32(n, "alpha", 1.0f));
  };
  t["SwiGLU"] = [](NodeContext &n) {
    return binary<o::SwiGLUOp>(n, f32(n, "alpha", 1.0f));
  };
  t["BitCast"] = [](NodeContext &n) {
    if (failed(n.arity(1, 1)))
      return failure();
    int64_t to = n.getInt("to", 0);
    Type et = elementTypeFor(n.builder.getContext(), to);
    if (!et)
      return n.error("cannot bit-cast to " + onnxTypeName(to));
    n.results.push_back(o::BitCastOp::create(n.builder, n.loc, n.unranked(et),
                                             n.operand(0), et));
    return success();
  };
  t["ThresholdedRelu"] = [](NodeContext &n) {
    return unary<o::ThresholdedReluOp>(n, f32(n, "alpha", 1.0f));
  };
  t["IsNaN"] = predicate<o::IsNaNOp>;
  t["IsInf"] = [](NodeContext &n) {
    return predicate<o::IsInfOp>(n, i64(n, "detect_negative", 1),
                                 i64(n, "detect_positive", 1));
  };

  // Binary with broadcasting.
  t["Add"] = binary<o::AddOp>;
  t["Sub"] = binary<o::SubOp>;
  t["Mul"] = binary<o::MulOp>;
  t["Div"] = binary<o::DivOp>;
  t["Mod"] = [](NodeContext &n) { return binary<o::ModOp>(n, i64(n, "fmod", 0)); };
  t["Pow"] = binary<o::PowOp>;
  t["PRelu"] = binary<o::PReluOp>;
  t["BitShift"] = importBitShift;
  t["BitwiseAnd"] = binary<o::BitwiseAndOp>;
  t["BitwiseOr"] = binary<o::BitwiseOrOp>;
  t["BitwiseXor"] = binary<o::BitwiseXorOp>;
  t["And"] = binary<o::AndOp>;
  t["Or"] = binary<o::OrOp>;
  t["Xor"] = binary<o::XorOp>;
  t["Equal"] = compare<o::EqualOp>;
  t["Greater"] = compare<o::GreaterOp>;
  t["GreaterOrEqual"] = compare<o::GreaterOrEqualOp>;
  t["Less"] = compare<o::LessOp>;
  t["LessOrEqual"] = compare<o::LessOrEqualOp>;
  t["Max"] = variadic<o::MaxOp>;
  t["Mean"] = variadic<o::MeanOp>;
  t["Min"] = variadic<o::MinOp>;
  t["Sum"] = variadic<o::SumOp>;

  // Selection, clamping, conversion.
  t["Where"] = importWhere;
  t["Clip"] = importClip;
  t["Cast"] = importCast;
  t["CastLike"] = importCastLike;
}

} // namespace onnxcc
