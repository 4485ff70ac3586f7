//===- OpImporters.cpp - one builder per ONNX operator --------------------===//
//
// Each builder reads the node's attributes (with ONNX's defaults), adapts
// older opsets to the form the dialect uses (attributes that later became
// inputs), and creates one onnx-dialect op with an unranked result.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/GraphInputs.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

const ::onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  consulted.insert(name);
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

using AttrType = ::onnx::AttributeProto::AttributeType;

/// Whether `a` holds a value of `type`. Models from before IR version 2
/// leave `type` unset; then the field of that type must be the one set.
static bool holds(const ::onnx::AttributeProto &a, AttrType type) {
  if (a.type() != ::onnx::AttributeProto::UNDEFINED)
    return a.type() == type;
  bool scalar = a.has_i() || a.has_f() || a.has_s() || a.has_t() || a.has_g();
  switch (type) {
  case ::onnx::AttributeProto::INT: return a.has_i() && !a.has_f() && !a.has_s();
  case ::onnx::AttributeProto::FLOAT: return a.has_f() && !a.has_i() && !a.has_s();
  case ::onnx::AttributeProto::STRING: return a.has_s() && !a.has_i() && !a.has_f();
  case ::onnx::AttributeProto::TENSOR: return a.has_t();
  case ::onnx::AttributeProto::INTS: return !scalar && !a.floats_size();
  case ::onnx::AttributeProto::FLOATS: return !scalar && !a.ints_size();
  default: return false;
  }
}

const ::onnx::AttributeProto *NodeContext::typedAttr(StringRef name,
                                                     AttrType type) const {
  const auto *a = attr(name);
  if (!a || holds(*a, type))
    return a;
  // Reading another field would give 0 or an empty list: a silent wrong
  // answer. Remember the first mismatch; the importer reports it.
  if (attributeError.empty())
    attributeError = "attribute '" + name.str() + "' must be " +
                     ::onnx::AttributeProto::AttributeType_Name(type) +
                     ", got " +
                     (::onnx::AttributeProto::AttributeType_IsValid(a->type())
                          ? ::onnx::AttributeProto::AttributeType_Name(
                                static_cast<AttrType>(a->type()))
                          : "type " + std::to_string(a->type()));
  return nullptr;
}
int64_t NodeContext::getInt(StringRef name, int64_t dflt) const {
  const auto *a = typedAttr(name, ::onnx::AttributeProto::INT);
  return a ? a->i() : dflt;
}
float NodeContext::getFloat(StringRef name, float dflt) const {
  const auto *a = typedAttr(name, ::onnx::AttributeProto::FLOAT);
  return a ? a->f() : dflt;
}
std::string NodeContext::getString(StringRef name,
                                   const std::string &dflt) const {
  const auto *a = typedAttr(name, ::onnx::AttributeProto::STRING);
  return a ? a->s() : dflt;
}
SmallVector<int64_t> NodeContext::getInts(StringRef name) const {
  SmallVector<int64_t> out;
  if (const auto *a = typedAttr(name, ::onnx::AttributeProto::INTS))
    out.assign(a->ints().begin(), a->ints().end());
  return out;
}
Type NodeContext::unranked(Type element) const {
  return UnrankedTensorType::get(element);
}
Type NodeContext::unrankedLike(Value v) const {
  return unranked(getElementTypeOrSelf(v.getType()));
}
Value NodeContext::i64Constant(ArrayRef<int64_t> values) const {
  auto type = RankedTensorType::get({(int64_t)values.size()},
                                    builder.getI64Type());
  return o::ConstantOp::create(builder, loc, type,
                               DenseElementsAttr::get(type, values));
}
Value NodeContext::f32Scalar(float v) const {
  auto type = RankedTensorType::get({}, builder.getF32Type());
  return o::ConstantOp::create(builder, loc, type,
                               DenseElementsAttr::get(type, v));
}
LogicalResult NodeContext::error(const Twine &message) const {
  // A builder that fails after reading a mistyped attribute usually fails
  // because of it: name the cause.
  if (!attributeError.empty())
    return emitError(loc) << attributeError;
  return emitError(loc) << message;
}

/// Attributes that cannot change an inference result: training-only
/// settings at their inference value, randomness seeds, and settings of
/// outputs the importers reject anyway.
static bool isInert(const ::onnx::AttributeProto &a) {
  StringRef name = a.name();
  if (name == "training_mode")
    return a.i() == 0;
  return name == "seed" || name == "momentum" || name == "ratio" ||
         name == "storage_order" || name == "spatial";
}

LogicalResult NodeContext::checkAttributes() const {
  if (!attributeError.empty())
    return error(attributeError);
  SmallVector<std::string> ignored;
  for (const auto &a : node.attribute())
    if (!consulted.contains(a.name()) && !isInert(a))
      ignored.push_back("'" + a.name() + "'");
  if (ignored.empty())
    return success();
  return error("unsupported attribute" + Twine(ignored.size() > 1 ? "s " : " ") +
               llvm::join(ignored, ", ") + " for " + node.op_type() +
               " in opset " + Twine(opset));
}

LogicalResult NodeContext::arity(unsigned min, unsigned max) const {
  unsigned got = operands.size();
  if (got < min || got > max)
    return error("expects " + Twine(min) +
                 (min == max ? "" : " to " + Twine(max)) + " inputs, got " +
                 Twine(got));
  for (unsigned i = 0; i < min; ++i)
    if (!operands[i])
      return error("required input " + Twine(i) + " is empty");
  return success();
}

static LogicalResult importBatchNorm(NodeContext &n) {
  if (failed(n.arity(5, 5)))
    return failure();
  if (n.node.output_size() > 1)
    return n.error("training-mode outputs (running mean/var) are not supported");
  n.results.push_back(o::BatchNormalizationOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3), n.operand(4),
      n.builder.getF32FloatAttr(n.getFloat("epsilon", 1e-5f))));
  return success();
}

static LogicalResult importSoftmax(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Value x = n.operand(0);
  if (n.opset >= 13) {
    n.results.push_back(o::SoftmaxOp::create(n.builder, n.loc, n.unrankedLike(x),
                                             x, n.getInt("axis", -1)));
    return success();
  }
  // Before opset 13 Softmax ran over all dimensions from `axis` on, as if
  // the input were flattened to 2-D there: Flatten, Softmax over the last
  // dimension, and Reshape back to the input's shape.
  Type i64 = n.builder.getI64Type();
  Value flat = o::FlattenOp::create(n.builder, n.loc, n.unrankedLike(x), x,
                                    n.getInt("axis", 1));
  Value soft =
      o::SoftmaxOp::create(n.builder, n.loc, n.unrankedLike(x), flat, -1);
  Value shape = o::ShapeOp::create(n.builder, n.loc, n.unranked(i64), x,
                                   /*start=*/0, /*end=*/IntegerAttr());
  n.results.push_back(o::ReshapeOp::create(n.builder, n.loc, n.unrankedLike(x),
                                           soft, shape, /*allowzero=*/0));
  return success();
}

static LogicalResult importShape(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  IntegerAttr end;
  if (n.has("end"))
    end = n.builder.getI64IntegerAttr(n.getInt("end", 0));
  auto op = o::ShapeOp::create(
      n.builder, n.loc, UnrankedTensorType::get(n.builder.getI64Type()),
      n.operand(0), n.getInt("start", 0), end);
  n.results.push_back(op);
  return success();
}

static LogicalResult importGather(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::GatherOp::create(n.builder, n.loc,
                                          n.unrankedLike(n.operand(0)),
                                          n.operand(0), n.operand(1),
                                          n.getInt("axis", 0)));
  return success();
}

static LogicalResult importConcat(NodeContext &n) {
  if (n.operands.empty() || llvm::is_contained(n.operands, Value()))
    return n.error("expects at least one non-empty input");
  if (!n.has("axis"))
    return n.error("missing required attribute 'axis'");
  n.results.push_back(o::ConcatOp::create(n.builder, n.loc,
                                          n.unrankedLike(n.operand(0)),
                                          n.operands, n.getInt("axis", 0)));
  return success();
}

static LogicalResult importReshape(NodeContext &n) {
  Value shape = n.operand(1);
  if (n.opset < 5) {
    if (failed(n.arity(1, 1)))
      return failure();
    shape = n.i64Constant(n.getInts("shape"));
  } else if (failed(n.arity(2, 2))) {
    return failure();
  }
  n.results.push_back(o::ReshapeOp::create(n.builder, n.loc,
                                           n.unrankedLike(n.operand(0)),
                                           n.operand(0), shape,
                                           n.getInt("allowzero", 0)));
  return success();
}

static LogicalResult importFlatten(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(o::FlattenOp::create(n.builder, n.loc,
                                           n.unrankedLike(n.operand(0)),
                                           n.operand(0), n.getInt("axis", 1)));
  return success();
}

static LogicalResult importUnsqueeze(NodeContext &n) {
  Value axes = n.operand(1);
  if (n.opset < 13) { // axes was an attribute before opset 13
    if (failed(n.arity(1, 1)))
      return failure();
    axes = n.i64Constant(n.getInts("axes"));
  } else if (failed(n.arity(2, 2))) {
    return failure();
  }
  n.results.push_back(o::UnsqueezeOp::create(n.builder, n.loc,
                                             n.unrankedLike(n.operand(0)),
                                             n.operand(0), axes));
  return success();
}

static LogicalResult importSqueeze(NodeContext &n) {
  Value axes = n.operand(1);
  if (n.opset < 13) {
    if (failed(n.arity(1, 1)))
      return failure();
    if (n.has("axes"))
      axes = n.i64Constant(n.getInts("axes"));
  } else if (failed(n.arity(1, 2))) {
    return failure();
  }
  n.results.push_back(o::SqueezeOp::create(n.builder, n.loc,
                                           n.unrankedLike(n.operand(0)),
                                           n.operand(0), axes));
  return success();
}

static LogicalResult importTranspose(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(o::TransposeOp::create(n.builder, n.loc,
                                             n.unrankedLike(n.operand(0)),
                                             n.operand(0), n.getInts("perm")));
  return success();
}

static LogicalResult importConstant(NodeContext &n) {
  if (failed(n.arity(0, 0)))
    return failure();
  Builder &b = n.builder;
  ElementsAttr value;
  if (const auto *a = n.typedAttr("value", ::onnx::AttributeProto::TENSOR)) {
    std::string err;
    value = importTensor(b.getContext(), a->t(), n.external, err,
                         kInlineConstantBytes);
    if (!value)
      return n.error(err);
  } else if (const auto *a = n.typedAttr("value_float",
                                          ::onnx::AttributeProto::FLOAT)) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   a->f());
  } else if (const auto *a = n.typedAttr("value_floats",
                                          ::onnx::AttributeProto::FLOATS)) {
    SmallVector<float> v(a->floats().begin(), a->floats().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)v.size()}, b.getF32Type()),
        ArrayRef<float>(v));
  } else if (const auto *a = n.typedAttr("value_int",
                                          ::onnx::AttributeProto::INT)) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   a->i());
  } else if (const auto *a = n.typedAttr("value_ints",
                                          ::onnx::AttributeProto::INTS)) {
    SmallVector<int64_t> v(a->ints().begin(), a->ints().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)v.size()}, b.getI64Type()),
        ArrayRef<int64_t>(v));
  } else {
    return n.error("needs a value, value_float(s) or value_int(s) attribute");
  }
  n.results.push_back(
      o::ConstantOp::create(n.builder, n.loc, value.getType(), value));
  return success();
}

/// Dropout in inference is the identity on its first output.
static LogicalResult importIdentity(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(o::IdentityOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0)));
  return success();
}

/// Whether Dropout drops anything: in training mode (an attribute before
/// opset 7, the third input since opset 12) with a nonzero ratio it is
/// random, which is refused. A ratio of 0 keeps every element.
static FailureOr<bool> dropoutIsIdentity(NodeContext &n) {
  if (n.has("is_test") && n.getInt("is_test", 1) == 0) // before opset 7
    return n.error("Dropout in training mode (random) is not supported");
  Value training = n.operand(2);
  if (!training)
    return true;
  std::vector<int64_t> mode;
  ElementsAttr e = getConstantElements(training);
  if (!e || !readAsInt64s(e, mode) || mode.size() != 1) {
    std::string input = graphInputName(training);
    return n.error("Dropout's training_mode must be a constant" +
                   (input.empty() ? "" : constInputHint(input)));
  }
  if (!mode[0])
    return true;
  std::vector<double> ratio;
  ElementsAttr r = n.operand(1) ? getConstantElements(n.operand(1)) : nullptr;
  if (r && readAsDoubles(r, ratio) && ratio.size() == 1 && ratio[0] == 0)
    return true;
  std::string input = r ? "" : graphInputName(n.operand(1));
  return n.error("Dropout in training mode (random) is not supported unless "
                 "its ratio is a constant 0" +
                 (input.empty() ? "" : constInputHint(input)));
}

/// Dropout that keeps every element is the identity on its first output,
/// and its optional mask output is all true.
static LogicalResult importDropout(NodeContext &n) {
  if (failed(n.arity(1, 3)) || failed(dropoutIsIdentity(n)))
    return failure();
  Value x = n.operand(0);
  n.results.push_back(
      o::IdentityOp::create(n.builder, n.loc, n.unrankedLike(x), x));
  if (n.node.output_size() < 2 || n.node.output(1).empty())
    return success();
  Type i1 = n.builder.getI1Type();
  Value shape = o::ShapeOp::create(n.builder, n.loc,
                                   n.unranked(n.builder.getI64Type()), x,
                                   /*start=*/0, /*end=*/IntegerAttr());
  auto keep = DenseElementsAttr::get(RankedTensorType::get({1}, i1), true);
  n.results.push_back(o::ConstantOfShapeOp::create(n.builder, n.loc,
                                                   n.unranked(i1), shape, keep));
  return success();
}

const llvm::StringMap<OpImportFn> &opImporters() {
  static const llvm::StringMap<OpImportFn> table = [] {
    llvm::StringMap<OpImportFn> t = {
        {"BatchNormalization", importBatchNorm},
        {"Concat", importConcat},
        {"Constant", importConstant},
        {"Dropout", importDropout},
        {"Flatten", importFlatten},
        {"Gather", importGather},
        {"Identity", importIdentity},
        {"Reshape", importReshape},
        {"Shape", importShape},
        {"Softmax", importSoftmax},
        {"Squeeze", importSqueeze},
        {"Transpose", importTranspose},
        {"Unsqueeze", importUnsqueeze},
    };
    addElementwiseImporters(t);
    addLinalgImporters(t);
    addConvPoolImporters(t);
    addRecurrentImporters(t);
    addQuantizationImporters(t);
    addDataMovementImporters(t);
    addNormalizationImporters(t);
    addReductionImporters(t);
    addImageImporters(t);
    addAttentionImporters(t);
    addSignalImporters(t);
    addRefusedImporters(t);
    addLossImporters(t);
    addRotaryImporters(t);
    addMlImporters(t);
    return t;
  }();
  return table;
}

} // namespace onnxcc
