//===- MlImporters.cpp - builders of the ai.onnx.ml domain ----------------===//
//
// Classic ML operators (scikit-learn, XGBoost, LightGBM exports). Those that
// are linear algebra (Scaler, Normalizer, LinearRegressor,
// LinearClassifier, Binarizer, Imputer, OneHotEncoder, LabelEncoder) are
// built from core ops here, so they fuse and plan like any other graph.
// Tree ensembles and SVM classifiers become onnx.ml_* ops whose attributes
// are normalised into constant operands: the node arrays are laid out,
// checked (child ids, feature ids, class ids, no cycles) and their depth
// computed here, once, so the kernels need no bounds test.
//
// Registered under "ai.onnx.ml.<OpType>"; NodeContext::opset is then the
// model's ai.onnx.ml opset.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "compiler/frontend/MlLabels.h"
#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

using AttrProto = ::onnx::AttributeProto;

/// Caps that keep a hostile model's attributes from asking for absurd
/// kernels: nodes of one ensemble, classes of an SVM (its kernel keeps
/// C x C floats on the stack for probabilities).
constexpr int64_t kMaxTreeNodes = int64_t(1) << 24;
/// Targets (classes) of an ensemble: the kernel keeps one accumulator per
/// target on the stack.
constexpr int64_t kMaxTreeTargets = 4096;
constexpr int64_t kMaxSvmClasses = 64;

//===----------------------------------------------------------------------===//
// Attribute readers
//===----------------------------------------------------------------------===//

std::vector<double> getFloats(const NodeContext &n, StringRef name) {
  std::vector<double> out;
  if (const auto *a = n.typedAttr(name, AttrProto::FLOATS))
    out.assign(a->floats().begin(), a->floats().end());
  return out;
}

std::vector<std::string> getStrings(const NodeContext &n, StringRef name) {
  std::vector<std::string> out;
  if (const auto *a = n.typedAttr(name, AttrProto::STRINGS))
    out.assign(a->strings().begin(), a->strings().end());
  return out;
}

/// A TENSOR attribute's values as doubles; false (with `err`) when it
/// cannot be read. `present` says whether the node has it.
bool getTensorValues(const NodeContext &n, StringRef name,
                     std::vector<double> &out, bool &present,
                     std::string &err) {
  present = false;
  const auto *a = n.typedAttr(name, AttrProto::TENSOR);
  if (!a)
    return true;
  present = true;
  ElementsAttr value =
      importTensor(n.builder.getContext(), a->t(), n.external, err);
  if (!value)
    return false;
  if (!readAsDoubles(value, out)) {
    err = "attribute '" + name.str() + "' has unreadable values";
    return false;
  }
  return true;
}

/// `name` (FLOATS) or its `name_as_tensor` twin (ml opset 3), not both.
FailureOr<std::vector<double>> getFloatsOrTensor(const NodeContext &n,
                                                 StringRef name) {
  std::vector<double> floats = getFloats(n, name), tensor;
  bool present;
  std::string err;
  if (!getTensorValues(n, (name + "_as_tensor").str(), tensor, present, err))
    return n.error(err);
  if (present && !floats.empty())
    return n.error("both '" + name + "' and '" + name + "_as_tensor' are set");
  return present ? tensor : floats;
}

/// post_transform by name (ml opsets 1-4) as the runtime numbers it.
FailureOr<int64_t> postTransform(const NodeContext &n) {
  std::string p = n.getString("post_transform", "NONE");
  int64_t v = llvm::StringSwitch<int64_t>(p)
                  .Case("NONE", 0)
                  .Case("LOGISTIC", 1)
                  .Case("SOFTMAX", 2)
                  .Case("SOFTMAX_ZERO", 3)
                  .Case("PROBIT", 4)
                  .Default(-1);
  if (v < 0)
    return n.error("unsupported post_transform '" + p + "'");
  return v;
}

//===----------------------------------------------------------------------===//
// Small graph builders
//===----------------------------------------------------------------------===//

Value constant(const NodeContext &n, Type element, ArrayRef<int64_t> shape,
               ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, element);
  DenseElementsAttr attr;
  if (element.isF64()) {
    attr = DenseElementsAttr::get(type, values);
  } else if (element.isF32()) {
    std::vector<float> f(values.begin(), values.end());
    attr = DenseElementsAttr::get(type, ArrayRef<float>(f));
  } else if (element.isInteger(32)) {
    std::vector<int32_t> v(values.begin(), values.end());
    attr = DenseElementsAttr::get(type, ArrayRef<int32_t>(v));
  } else {
    std::vector<int64_t> v(values.begin(), values.end());
    attr = DenseElementsAttr::get(type, ArrayRef<int64_t>(v));
  }
  return o::ConstantOp::create(n.builder, n.loc, type, attr);
}

Value i32Constant(const NodeContext &n, ArrayRef<int64_t> shape,
                  ArrayRef<int32_t> values) {
  auto type = RankedTensorType::get(shape, n.builder.getI32Type());
  return o::ConstantOp::create(n.builder, n.loc, type,
                               DenseElementsAttr::get(type, values));
}

Value i64Vector(const NodeContext &n, ArrayRef<int64_t> values) {
  return n.i64Constant(values);
}

Value castTo(const NodeContext &n, Value v, Type element) {
  if (getElementTypeOrSelf(v.getType()) == element)
    return v;
  return o::CastOp::create(n.builder, n.loc, n.unranked(element), v,
                           TypeAttr::get(element));
}

Value f32(const NodeContext &n, Value v) {
  return castTo(n, v, n.builder.getF32Type());
}

/// The post transforms core ops express; SOFTMAX_ZERO and PROBIT are
/// refused (the tree and SVM kernels do them).
FailureOr<Value> applyPost(const NodeContext &n, Value scores, int64_t post) {
  switch (post) {
  case 0: return scores;
  case 1: return Value(o::SigmoidOp::create(n.builder, n.loc,
                                            n.unrankedLike(scores), scores));
  case 2: return Value(o::SoftmaxOp::create(n.builder, n.loc,
                                            n.unrankedLike(scores), scores, -1));
  default:
    return n.error("post_transform " +
                   std::string(post == 3 ? "SOFTMAX_ZERO" : "PROBIT") +
                   " is not supported for " + n.node.op_type());
  }
}

/// labels[argmax(scores, axis 1)] as i64 [N].
Value argmaxLabel(const NodeContext &n, Value scores, ArrayRef<int64_t> labels) {
  Type i64 = n.builder.getI64Type();
  const int64_t axis = 1, keepdims = 0, selectLast = 0, tableAxis = 0;
  Value idx = o::ArgMaxOp::create(n.builder, n.loc, n.unranked(i64), scores,
                                  axis, keepdims, selectLast);
  return o::GatherOp::create(n.builder, n.loc, n.unranked(i64),
                             i64Vector(n, labels), idx, tableAxis);
}

//===----------------------------------------------------------------------===//
// Linear operators
//===----------------------------------------------------------------------===//

LogicalResult importScaler(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  std::vector<double> offset = getFloats(n, "offset"),
                      scale = getFloats(n, "scale");
  Type f = n.builder.getF32Type();
  Value x = f32(n, n.operand(0));
  if (!offset.empty())
    x = o::SubOp::create(n.builder, n.loc, n.unranked(f), x,
                         constant(n, f, {(int64_t)offset.size()}, offset));
  if (!scale.empty())
    x = o::MulOp::create(n.builder, n.loc, n.unranked(f), x,
                         constant(n, f, {(int64_t)scale.size()}, scale));
  n.results.push_back(x);
  return success();
}

LogicalResult importNormalizer(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  std::string norm = n.getString("norm", "MAX");
  Type f = n.builder.getF32Type();
  Value x = f32(n, n.operand(0));
  Value axes = i64Vector(n, {1});
  const int64_t keep = 1, noop = 0;
  Value div;
  if (norm == "MAX")
    return n.error("norm MAX is not supported: onnxruntime divides by the "
                   "largest value, onnx.reference by the largest magnitude");
  if (norm == "L1")
    div = o::ReduceL1Op::create(n.builder, n.loc, n.unranked(f), x, axes, keep,
                                noop);
  else if (norm == "L2")
    div = o::ReduceL2Op::create(n.builder, n.loc, n.unranked(f), x, axes, keep,
                                noop);
  else
    return n.error("unsupported norm '" + norm + "' (MAX, L1 or L2)");
  // As onnx.reference: a zero norm divides by 1e-30 instead.
  Value floor = constant(n, f, {}, {1e-30});
  div = o::MaxOp::create(n.builder, n.loc, n.unranked(f),
                         ValueRange{div, floor});
  n.results.push_back(o::DivOp::create(n.builder, n.loc, n.unranked(f), x, div));
  return success();
}

/// X [N, F] times coefficients [rows * F] (as [rows, F]) plus intercepts.
FailureOr<Value> linearScores(NodeContext &n, int64_t rows) {
  std::vector<double> coef = getFloats(n, "coefficients"),
                      icpt = getFloats(n, "intercepts");
  if (rows <= 0 || coef.empty() || coef.size() % rows)
    return n.error(Twine(coef.size()) + " coefficients do not split into " +
                   Twine(rows) + " rows");
  int64_t features = coef.size() / rows;
  if (!icpt.empty() && (int64_t)icpt.size() != rows)
    return n.error(Twine(icpt.size()) + " intercepts for " + Twine(rows) +
                   " outputs");
  Type f = n.builder.getF32Type();
  Value w = constant(n, f, {rows, features}, coef);
  Value b = icpt.empty() ? Value() : constant(n, f, {rows}, icpt);
  return Value(o::GemmOp::create(
      n.builder, n.loc, n.unranked(f), f32(n, n.operand(0)), w, b,
      n.builder.getF32FloatAttr(1.0f), n.builder.getF32FloatAttr(1.0f),
      n.builder.getI64IntegerAttr(0), n.builder.getI64IntegerAttr(1)));
}

LogicalResult importLinearRegressor(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  auto post = postTransform(n);
  if (failed(post))
    return failure();
  int64_t targets = n.getInt("targets", 1);
  auto scores = linearScores(n, targets);
  if (failed(scores))
    return failure();
  auto y = applyPost(n, *scores, *post);
  if (failed(y))
    return failure();
  n.results.push_back(*y);
  return success();
}

LogicalResult importLinearClassifier(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  auto post = postTransform(n);
  auto labels = classLabels(n, "classlabels_ints", "classlabels_strings");
  if (failed(post) || failed(labels))
    return failure();
  (void)n.getInt("multi_class", 0); // onnx.reference and ORT ignore it
  std::vector<double> icpt = getFloats(n, "intercepts");
  int64_t rows = icpt.empty() ? std::max<int64_t>(labels->size(), 1)
                              : (int64_t)icpt.size();
  auto scores = linearScores(n, rows);
  if (failed(scores))
    return failure();
  Value s = *scores;
  Type f = n.builder.getF32Type();
  int64_t classes = labels->size();
  if (rows == 1 && classes == 2 && *post != 1)
    return n.error("one score column for two classes is supported with "
                   "post_transform LOGISTIC only (onnxruntime and "
                   "onnx.reference disagree otherwise)");
  if (rows == 1 && classes == 2) {
    // One score column for two classes: [-s, s].
    Value neg = o::NegOp::create(n.builder, n.loc, n.unranked(f), s);
    s = o::ConcatOp::create(n.builder, n.loc, n.unranked(f),
                            ValueRange{neg, s}, 1);
    rows = 2;
  }
  if (rows == 1)
    return n.error("a LinearClassifier with one score column and " +
                   Twine(classes) + " class labels is not supported");
  if (classes && classes != rows)
    return n.error(Twine(classes) + " class labels for " + Twine(rows) +
                   " score columns");
  auto y = applyPost(n, s, *post);
  if (failed(y))
    return failure();
  std::vector<int64_t> table = labels->ints;
  if (table.empty())
    for (int64_t i = 0; i < rows; ++i)
      table.push_back(i);
  // The label comes from the raw scores, as in ORT: the transforms keep
  // the order, but a saturated LOGISTIC could tie.
  n.results.push_back(labelOutput(n, argmaxLabel(n, s, table), *labels));
  n.results.push_back(*y);
  return success();
}

LogicalResult importBinarizer(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Value x = n.operand(0);
  Type et = getElementTypeOrSelf(x.getType());
  Type f64 = n.builder.getF64Type();
  double threshold = n.getFloat("threshold", 0.0f);
  Value gt = o::GreaterOp::create(n.builder, n.loc,
                                  n.unranked(n.builder.getI1Type()),
                                  castTo(n, x, f64),
                                  constant(n, f64, {}, {threshold}));
  n.results.push_back(castTo(n, gt, et));
  return success();
}

LogicalResult importImputer(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Value x = n.operand(0);
  Type et = getElementTypeOrSelf(x.getType());
  Type i1 = n.builder.getI1Type();
  std::vector<double> floats = getFloats(n, "imputed_value_floats");
  SmallVector<int64_t> ints = n.getInts("imputed_value_int64s");
  float replacedF = n.getFloat("replaced_value_float", 0.0f);
  int64_t replacedI = n.getInt("replaced_value_int64", 0);
  Value hit, fill;
  if (isa<FloatType>(et)) {
    if (floats.empty())
      return n.error("a float input needs imputed_value_floats");
    Type f = n.builder.getF32Type();
    Value xf = f32(n, x);
    hit = std::isnan(replacedF)
              ? Value(o::IsNaNOp::create(n.builder, n.loc, n.unranked(i1), xf))
              : Value(o::EqualOp::create(n.builder, n.loc, n.unranked(i1), xf,
                                         constant(n, f, {}, {replacedF})));
    fill = constant(n, f, {(int64_t)floats.size()}, floats);
    x = xf;
  } else if (et.isInteger(64) || et.isInteger(32)) {
    if (ints.empty())
      return n.error("an integer input needs imputed_value_int64s");
    Type i64 = n.builder.getI64Type();
    x = castTo(n, x, i64);
    hit = o::EqualOp::create(n.builder, n.loc, n.unranked(i1), x,
                             constant(n, i64, {}, {double(replacedI)}));
    std::vector<double> v(ints.begin(), ints.end());
    fill = constant(n, i64, {(int64_t)v.size()}, v);
  } else {
    return n.error("Imputer input of type " +
                   std::string(llvm::isa<IntegerType>(et) ? "integer" : "other") +
                   " is not supported");
  }
  n.results.push_back(
      o::WhereOp::create(n.builder, n.loc, n.unrankedLike(x), hit, fill, x));
  return success();
}

/// OneHotEncoder with int64 categories: [..., C] f32 of x == cats[c].
LogicalResult importOneHotEncoder(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  SmallVector<int64_t> cats = n.getInts("cats_int64s");
  if (!getStrings(n, "cats_strings").empty())
    return n.error("string categories (cats_strings) are not supported");
  if (cats.empty())
    return n.error("OneHotEncoder needs cats_int64s");
  if (n.getInt("zeros", 1) != 1)
    return n.error("zeros=0 (fail on an unknown category) is not supported");
  Type i64 = n.builder.getI64Type(), f = n.builder.getF32Type();
  Value x = castTo(n, n.operand(0), i64);
  Value xu = o::UnsqueezeOp::create(n.builder, n.loc, n.unranked(i64), x,
                                    i64Vector(n, {-1}));
  Value eq = o::EqualOp::create(n.builder, n.loc,
                                n.unranked(n.builder.getI1Type()), xu,
                                i64Vector(n, cats));
  n.results.push_back(castTo(n, eq, f));
  return success();
}

/// LabelEncoder with numeric keys and values: a match against every key.
LogicalResult importLabelEncoder(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  // Strings anywhere (and ml opset 1's classes_strings): MlLabelImporters.
  auto stringTensor = [&](StringRef name) {
    const auto *a = n.typedAttr(name, AttrProto::TENSOR);
    return a && a->t().data_type() == ::onnx::TensorProto::STRING;
  };
  if (n.has("keys_strings") || n.has("values_strings") ||
      n.has("classes_strings") || stringTensor("keys_tensor") ||
      stringTensor("values_tensor") ||
      (n.operand(0) && isStringTensor(n.operand(0).getType())))
    return importStringLabelEncoder(n);
  std::vector<double> keys, values, dflt;
  Type keyType, valueType;
  Type i64 = n.builder.getI64Type(), f = n.builder.getF32Type();
  SmallVector<int64_t> ki = n.getInts("keys_int64s"), vi = n.getInts("values_int64s");
  std::vector<double> kf = getFloats(n, "keys_floats"),
                      vf = getFloats(n, "values_floats");
  bool kt, vt, dt;
  std::string err;
  std::vector<double> ktv, vtv;
  if (!getTensorValues(n, "keys_tensor", ktv, kt, err) ||
      !getTensorValues(n, "values_tensor", vtv, vt, err) ||
      !getTensorValues(n, "default_tensor", dflt, dt, err))
    return n.error(err);
  if (kt || vt || dt)
    return n.error("keys_tensor/values_tensor/default_tensor are not supported");
  if (!ki.empty()) {
    keys.assign(ki.begin(), ki.end());
    keyType = i64;
  } else if (!kf.empty()) {
    keys = kf;
    keyType = f;
  } else {
    return n.error("LabelEncoder needs keys_int64s or keys_floats");
  }
  double dv;
  if (!vi.empty()) {
    values.assign(vi.begin(), vi.end());
    valueType = i64;
    dv = n.getInt("default_int64", -1);
  } else if (!vf.empty()) {
    values = vf;
    valueType = f;
    dv = n.getFloat("default_float", -0.0f);
  } else {
    return n.error("LabelEncoder needs values_int64s or values_floats");
  }
  (void)n.getString("default_string", "_Unused");
  if (keys.size() != values.size())
    return n.error(Twine(keys.size()) + " keys for " + Twine(values.size()) +
                   " values");
  // A NaN key (which ORT matches to NaN inputs) or a repeated key (whose
  // winner is an implementation detail) would not mean the same here.
  std::set<double> seen;
  for (double key : keys) {
    if (std::isnan(key))
      return n.error("NaN keys are not supported");
    if (!seen.insert(key).second)
      return n.error("key " + std::to_string(key) + " is listed twice");
  }
  Value x = n.operand(0);
  if (getElementTypeOrSelf(x.getType()) != keyType)
    return n.error("the input's type differs from the keys'");
  int64_t k = keys.size();
  Type i1 = n.builder.getI1Type();
  Value xu = o::UnsqueezeOp::create(n.builder, n.loc, n.unrankedLike(x), x,
                                    i64Vector(n, {-1}));
  Value eq = o::EqualOp::create(n.builder, n.loc, n.unranked(i1), xu,
                                constant(n, keyType, {k}, keys));
  // The first matching key (ArgMax of the matches), or the default where
  // none matches.
  const int64_t last = -1, keep = 0, selectLast = 0, tableAxis = 0;
  Value eqf = castTo(n, eq, f);
  Value idx = o::ArgMaxOp::create(n.builder, n.loc, n.unranked(i64), eqf, last,
                                  keep, selectLast);
  Value found = o::ReduceMaxOp::create(n.builder, n.loc, n.unranked(f), eqf,
                                       i64Vector(n, {-1}), keep, selectLast);
  Value mapped =
      o::GatherOp::create(n.builder, n.loc, n.unranked(valueType),
                          constant(n, valueType, {k}, values), idx, tableAxis);
  n.results.push_back(o::WhereOp::create(
      n.builder, n.loc, n.unranked(valueType), castTo(n, found, i1), mapped,
      constant(n, valueType, {}, {dv})));
  return success();
}

LogicalResult importArrayFeatureExtractor(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::MlArrayFeatureExtractorOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1)));
  return success();
}

/// FeatureVectorizer: each input reshaped to [N, inputdimensions[i]] (a
/// size mismatch, which ORT would truncate or pad, is a shape error
/// instead), cast to f32 and concatenated.
LogicalResult importFeatureVectorizer(NodeContext &n) {
  SmallVector<int64_t> dims = n.getInts("inputdimensions");
  if (n.operands.empty() || llvm::is_contained(n.operands, Value()))
    return n.error("expects at least one non-empty input");
  if (dims.size() != n.operands.size())
    return n.error(Twine(dims.size()) + " inputdimensions for " +
                   Twine(n.operands.size()) + " inputs");
  Type f = n.builder.getF32Type();
  SmallVector<Value> parts;
  const int64_t allowzero = 0;
  for (auto [v, d] : llvm::zip(n.operands, dims)) {
    if (d < 1 || d > kMaxDim)
      return n.error("input dimension " + Twine(d) + " is out of range");
    Value shaped = o::ReshapeOp::create(n.builder, n.loc, n.unrankedLike(v), v,
                                        i64Vector(n, {0, d}), allowzero);
    parts.push_back(f32(n, shaped));
  }
  n.results.push_back(
      o::ConcatOp::create(n.builder, n.loc, n.unranked(f), parts, 1));
  return success();
}

LogicalResult importZipMap(NodeContext &n) {
  return n.error("ZipMap outputs a sequence of maps, which onnxcc does not "
                 "compile: convert the model with zipmap=False (skl2onnx: "
                 "options={'zipmap': False})");
}

//===----------------------------------------------------------------------===//
// Tree ensembles
//===----------------------------------------------------------------------===//

/// An ensemble laid out for ml_tree_ensemble (see ml.h's node fields).
struct TreeLayout {
  std::vector<int32_t> nodes; ///< 6 per node
  std::vector<double> thresholds, members, weights;
  std::vector<int32_t> roots, targets;
  int64_t depth = 0, maxFeature = 0;
  int64_t branchMode = 0; ///< the one branch mode, 0 for mixed / MEMBER
  bool missing = false;   ///< some non-NEQ node sends NaN to true
  bool dense = false;     ///< every leaf: one weight per target, in order
  size_t count() const { return nodes.size() / 6; }
};

/// Checks children and features and computes the depth: the longest walk
/// from a root to a leaf, refusing cycles.
LogicalResult finishLayout(const NodeContext &n, TreeLayout &t) {
  int64_t count = t.count();
  std::vector<int64_t> depth(count, -1);
  std::vector<char> state(count, 0); // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<int64_t, int>> stack;
  for (int32_t root : t.roots) {
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto &[i, step] = stack.back();
      const int32_t *nd = &t.nodes[i * 6];
      bool leaf = nd[1] & 0xff ? false : true;
      if (step == 0) {
        if (state[i] == 2) {
          stack.pop_back();
          continue;
        }
        state[i] = 1;
        if (leaf) {
          depth[i] = 0;
          state[i] = 2;
          stack.pop_back();
          continue;
        }
      }
      if (step < 2) {
        int32_t child = nd[2 + step];
        ++step;
        if (state[child] == 1)
          return n.error("the trees have a cycle through node " +
                         Twine(child));
        if (state[child] == 0)
          stack.push_back({child, 0});
        continue;
      }
      depth[i] = 1 + std::max(depth[nd[2]], depth[nd[3]]);
      state[i] = 2;
      stack.pop_back();
    }
    t.depth = std::max(t.depth, depth[root]);
  }
  // Leaves become their own children (a fixed-length walk may pass them);
  // the branch modes decide whether the kernel's lockstep walk applies.
  int64_t mode = -1;
  for (int64_t i = 0; i < count; ++i) {
    int32_t *nd = &t.nodes[i * 6];
    int m = nd[1] & 0xff;
    if (m == 0) {
      nd[0] = 0;
      nd[2] = nd[3] = int32_t(i);
      continue;
    }
    t.maxFeature = std::max<int64_t>(t.maxFeature, nd[0]);
    mode = m == 7 || (mode >= 0 && mode != m) ? 0 : m;
    if (((nd[1] >> 8) & 1) && m != 6)
      t.missing = true;
  }
  t.branchMode = mode < 0 ? 1 : mode;
  if (t.thresholds.empty())
    t.thresholds.push_back(0);
  if (t.members.empty())
    t.members.push_back(0); // no zero-size weights
  if (t.targets.empty()) {
    t.targets.push_back(0);
    t.weights.push_back(0);
  }
  return success();
}

/// TreeEnsembleClassifier / TreeEnsembleRegressor (ml opsets 1 and 3):
/// nodes named by (tree id, node id), leaf weights listed separately.
LogicalResult layoutClassic(const NodeContext &n, StringRef leafPrefix,
                            int64_t nTargets, TreeLayout &t,
                            std::set<int64_t> &leafTargets) {
  SmallVector<int64_t> treeIds = n.getInts("nodes_treeids"),
                       nodeIds = n.getInts("nodes_nodeids"),
                       features = n.getInts("nodes_featureids"),
                       trueIds = n.getInts("nodes_truenodeids"),
                       falseIds = n.getInts("nodes_falsenodeids"),
                       missing = n.getInts("nodes_missing_value_tracks_true");
  std::vector<std::string> modes = getStrings(n, "nodes_modes");
  auto values = getFloatsOrTensor(n, "nodes_values");
  auto hitrates = getFloatsOrTensor(n, "nodes_hitrates"); // no effect
  if (failed(values) || failed(hitrates))
    return failure();
  size_t count = nodeIds.size();
  if (count == 0)
    return n.error("the ensemble has no nodes");
  if ((int64_t)count > kMaxTreeNodes)
    return n.error(Twine(count) + " nodes exceed the limit of " +
                   Twine(kMaxTreeNodes));
  auto sized = [&](size_t s) { return s == count; };
  if (!sized(treeIds.size()) || !sized(features.size()) ||
      !sized(trueIds.size()) || !sized(falseIds.size()) ||
      !sized(modes.size()) || (!values->empty() && !sized(values->size())) ||
      (!missing.empty() && !sized(missing.size())))
    return n.error("the nodes_* attributes have different lengths (" +
                   Twine(count) + " node ids)");
  std::map<std::pair<int64_t, int64_t>, int32_t> index;
  std::map<int64_t, int32_t> rootOf;
  for (size_t i = 0; i < count; ++i) {
    if (!index.insert({{treeIds[i], nodeIds[i]}, (int32_t)i}).second)
      return n.error("node " + Twine(nodeIds[i]) + " of tree " +
                     Twine(treeIds[i]) + " is defined twice");
    rootOf.insert({treeIds[i], (int32_t)i});
  }
  for (auto &[tree, root] : rootOf)
    t.roots.push_back(root);
  t.nodes.assign(count * 6, 0);
  t.thresholds.assign(count, 0);
  for (size_t i = 0; i < count; ++i) {
    int mode = llvm::StringSwitch<int>(modes[i])
                   .Case("LEAF", 0)
                   .Case("BRANCH_LEQ", 1)
                   .Case("BRANCH_LT", 2)
                   .Case("BRANCH_GTE", 3)
                   .Case("BRANCH_GT", 4)
                   .Case("BRANCH_EQ", 5)
                   .Case("BRANCH_NEQ", 6)
                   .Default(-1);
    if (mode < 0)
      return n.error("unsupported node mode '" + modes[i] + "'");
    int32_t *nd = &t.nodes[i * 6];
    // As ORT: a NaN takes the true branch where it tracks true, and always
    // at a NEQ node (NaN != threshold); onnx.reference's older ops send it
    // false there.
    bool tracks = (!missing.empty() && missing[i]) || mode == 6;
    nd[1] = mode | (tracks ? 1 << 8 : 0);
    if (!values->empty())
      t.thresholds[i] = (*values)[i];
    if (mode == 0)
      continue;
    if (features[i] < 0 || features[i] > INT32_MAX)
      return n.error("node " + Twine(nodeIds[i]) + " of tree " +
                     Twine(treeIds[i]) + " reads feature " + Twine(features[i]));
    nd[0] = features[i];
    for (int side = 0; side < 2; ++side) {
      int64_t child = side ? falseIds[i] : trueIds[i];
      auto it = index.find({treeIds[i], child});
      if (it == index.end())
        return n.error("node " + Twine(nodeIds[i]) + " of tree " +
                       Twine(treeIds[i]) + " branches to missing node " +
                       Twine(child));
      nd[2 + side] = it->second;
    }
  }
  // Leaf weights, grouped by leaf in their listed order.
  SmallVector<int64_t> lTrees = n.getInts((leafPrefix + "_treeids").str()),
                       lNodes = n.getInts((leafPrefix + "_nodeids").str()),
                       lIds = n.getInts((leafPrefix + "_ids").str());
  auto lWeights = getFloatsOrTensor(n, (leafPrefix + "_weights").str());
  if (failed(lWeights))
    return failure();
  size_t leaves = lIds.size();
  if (lTrees.size() != leaves || lNodes.size() != leaves ||
      lWeights->size() != leaves)
    return n.error("the " + leafPrefix + "_* attributes have different lengths");
  std::vector<std::vector<size_t>> byNode(count);
  for (size_t k = 0; k < leaves; ++k) {
    auto it = index.find({lTrees[k], lNodes[k]});
    if (it == index.end())
      return n.error(leafPrefix + " weight " + Twine(k) + " names missing node " +
                     Twine(lNodes[k]) + " of tree " + Twine(lTrees[k]));
    if (lIds[k] < 0 || lIds[k] >= nTargets)
      return n.error(leafPrefix + " id " + Twine(lIds[k]) + " is outside [0, " +
                     Twine(nTargets) + ")");
    byNode[it->second].push_back(k);
    leafTargets.insert(lIds[k]);
  }
  for (size_t i = 0; i < count; ++i) {
    int32_t *nd = &t.nodes[i * 6];
    nd[4] = t.targets.size();
    if ((nd[1] & 0xff) == 0)
      for (size_t k : byNode[i]) {
        t.targets.push_back(lIds[k]);
        t.weights.push_back((*lWeights)[k]);
      }
    nd[5] = t.targets.size();
  }
  return finishLayout(n, t);
}

/// The threshold type: f64 for f64 inputs, else f32 (as ORT and
/// onnx.reference compare).
Type thresholdType(const NodeContext &n) {
  Type et = getElementTypeOrSelf(n.operand(0).getType());
  return et.isF64() ? Type(n.builder.getF64Type()) : n.builder.getF32Type();
}

/// Whether every leaf lists one weight per target, targets 0 to n - 1 in
/// order (scikit-learn's forests and boosted trees do), so the kernel can
/// add a leaf's weights without reading their targets.
static bool denseLeaves(const TreeLayout &t, int64_t nTargets) {
  for (size_t i = 0; i < t.count(); ++i) {
    const int32_t *nd = &t.nodes[i * 6];
    if (nd[1] & 0xff)
      continue;
    if (nd[5] - nd[4] != nTargets)
      return false;
    for (int64_t c = 0; c < nTargets; ++c)
      if (t.targets[nd[4] + c] != c)
        return false;
  }
  return true;
}

Value buildEnsemble(const NodeContext &n, const TreeLayout &t,
                    int64_t nTargets, Type outType, ArrayRef<double> base,
                    int64_t aggregate, int64_t post, bool binary) {
  Type tt = thresholdType(n);
  int64_t count = t.count();
  auto i64 = [&](int64_t v) { return n.builder.getI64IntegerAttr(v); };
  return o::MlTreeEnsembleOp::create(
      n.builder, n.loc, n.unranked(outType), n.operand(0),
      i32Constant(n, {count, 6}, t.nodes),
      constant(n, tt, {count}, t.thresholds),
      constant(n, tt, {(int64_t)t.members.size()}, t.members),
      i32Constant(n, {(int64_t)t.roots.size()}, t.roots),
      i32Constant(n, {(int64_t)t.targets.size()}, t.targets),
      constant(n, tt, {(int64_t)t.weights.size()}, t.weights),
      constant(n, outType, {nTargets}, base), i64(nTargets), i64(t.depth),
      i64(aggregate), i64(post), n.builder.getBoolAttr(binary),
      i64(t.maxFeature), i64(t.branchMode), n.builder.getBoolAttr(t.missing),
      n.builder.getBoolAttr(denseLeaves(t, nTargets)));
}

/// base_values: one per target; a classifier's single value applies to
/// every class (onnx.reference broadcasts it; binary exports write one).
FailureOr<std::vector<double>> baseValues(const NodeContext &n,
                                          int64_t nTargets,
                                          bool broadcast = false) {
  auto base = getFloatsOrTensor(n, "base_values");
  if (failed(base))
    return failure();
  if (base->empty())
    base->assign(nTargets, 0.0);
  if (broadcast && base->size() == 1)
    base->assign(nTargets, (*base)[0]);
  if ((int64_t)base->size() != nTargets)
    return n.error(Twine(base->size()) + " base_values for " + Twine(nTargets) +
                   " targets");
  return *base;
}

LogicalResult importTreeEnsembleRegressor(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  auto post = postTransform(n);
  if (failed(post))
    return failure();
  int64_t nTargets = n.getInt("n_targets", 1);
  if (nTargets < 1 || nTargets > kMaxTreeTargets)
    return n.error("n_targets " + Twine(nTargets) + " is out of range");
  std::string agg = n.getString("aggregate_function", "SUM");
  int64_t aggregate = llvm::StringSwitch<int64_t>(agg)
                          .Case("SUM", 0)
                          .Case("AVERAGE", 1)
                          .Case("MIN", 2)
                          .Case("MAX", 3)
                          .Default(-1);
  if (aggregate < 0)
    return n.error("unsupported aggregate_function '" + agg + "'");
  if (*post == 4 && nTargets != 1)
    return n.error("post_transform PROBIT needs one target, got " +
                   Twine(nTargets));
  TreeLayout t;
  std::set<int64_t> used;
  if (failed(layoutClassic(n, "target", nTargets, t, used)))
    return failure();
  auto base = baseValues(n, nTargets);
  if (failed(base))
    return failure();
  n.results.push_back(buildEnsemble(n, t, nTargets, n.builder.getF32Type(),
                                    *base, aggregate, *post, false));
  return success();
}

LogicalResult importTreeEnsembleClassifier(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  auto post = postTransform(n);
  auto labels = classLabels(n, "classlabels_int64s", "classlabels_strings");
  if (failed(post) || failed(labels))
    return failure();
  // ORT takes the label before the transform, onnx.reference after: with
  // PROBIT's infinities they differ.
  if (*post == 4)
    return n.error("post_transform PROBIT is not supported for "
                   "TreeEnsembleClassifier (onnxruntime and onnx.reference "
                   "disagree on its labels)");
  int64_t classes = labels->size();
  if (classes < 1 || classes > kMaxTreeTargets)
    return n.error(Twine(classes) + " class labels, outside 1 to " +
                   Twine(kMaxTreeTargets));
  TreeLayout t;
  std::set<int64_t> used;
  if (failed(layoutClassic(n, "class", classes, t, used)))
    return failure();
  auto base = baseValues(n, classes, /*broadcast=*/true);
  if (failed(base))
    return failure();
  // onnx.reference: one class id in use means a binary classifier whose
  // ensemble stores one score.
  bool binary = used.size() == 1;
  if (binary && *used.begin() != 0)
    return n.error("every weight is for class " + Twine(*used.begin()) +
                   ", which onnxruntime and onnx.reference read differently; "
                   "store them as class 0");
  // onnxruntime and onnx.reference agree on binary classifiers only for
  // NONE with non-negative weights (probabilities) and LOGISTIC with
  // weights of both signs (boosted margins); ORT thresholds the others'
  // labels and scores its own way.
  bool allPositive = llvm::all_of(t.weights, [](double w) { return w >= 0; });
  if (binary && !((*post == 0 && allPositive) || (*post == 1 && !allPositive)))
    return n.error(
        "a binary classifier storing one class is supported with "
        "post_transform NONE and non-negative weights or LOGISTIC and weights "
        "of both signs (onnxruntime and onnx.reference disagree otherwise)");
  int64_t cols = binary ? std::max<int64_t>(classes, 2) : classes;
  std::vector<int64_t> table = labels->ints;
  if (classes == 1 && labels->areStrings())
    return n.error("a single string class label is not supported (the "
                   "label of the other class is unknown)");
  if (classes == 1) {
    if (!binary || table[0] != 1)
      return n.error("a single class label must be 1, got " + Twine(table[0]));
    table = {0, 1};
  }
  Value scores = buildEnsemble(n, t, classes, n.builder.getF32Type(), *base,
                               0, *post, binary);
  (void)cols;
  n.results.push_back(labelOutput(n, argmaxLabel(n, scores, table), *labels));
  n.results.push_back(scores);
  return success();
}

/// TreeEnsemble (ml opset 5): nodes and leaves in separate arrays, each
/// child named by (index, is-leaf); BRANCH_MEMBER sets in membership_values,
/// NaN-separated, in node order.
LogicalResult importTreeEnsemble(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Type et = getElementTypeOrSelf(n.operand(0).getType());
  if (!et.isF32() && !et.isF64())
    return n.error("TreeEnsemble input must be f32 or f64 here");
  SmallVector<int64_t> features = n.getInts("nodes_featureids"),
                       trueIds = n.getInts("nodes_truenodeids"),
                       trueLeaf = n.getInts("nodes_trueleafs"),
                       falseIds = n.getInts("nodes_falsenodeids"),
                       falseLeaf = n.getInts("nodes_falseleafs"),
                       missing = n.getInts("nodes_missing_value_tracks_true"),
                       leafTargets = n.getInts("leaf_targetids"),
                       roots = n.getInts("tree_roots");
  std::vector<double> splits, modes, weights, members, hitrates;
  bool present;
  std::string err;
  if (!getTensorValues(n, "nodes_splits", splits, present, err) ||
      !getTensorValues(n, "nodes_modes", modes, present, err) ||
      !getTensorValues(n, "leaf_weights", weights, present, err) ||
      !getTensorValues(n, "membership_values", members, present, err) ||
      !getTensorValues(n, "nodes_hitrates", hitrates, present, err))
    return n.error(err);
  int64_t nTargets = n.getInt("n_targets", 0);
  int64_t aggV5 = n.getInt("aggregate_function", 1);
  int64_t postV5 = n.getInt("post_transform", 0);
  if (nTargets < 1 || nTargets > kMaxTreeTargets)
    return n.error("n_targets " + Twine(nTargets) + " is out of range");
  static const int64_t aggMap[] = {1, 0, 2, 3}, postMap[] = {0, 2, 1, 3, 4};
  if (aggV5 < 0 || aggV5 > 3)
    return n.error("unsupported aggregate_function " + Twine(aggV5));
  if (postV5 < 0 || postV5 > 4)
    return n.error("unsupported post_transform " + Twine(postV5));
  if (aggV5 >= 2)
    return n.error("aggregate_function MIN and MAX are not supported yet");
  size_t count = features.size(), leaves = leafTargets.size();
  if (count == 0 || leaves == 0 || roots.empty())
    return n.error("the ensemble has no nodes, leaves or roots");
  if ((int64_t)(count + leaves) > kMaxTreeNodes)
    return n.error(Twine(count + leaves) + " nodes exceed the limit of " +
                   Twine(kMaxTreeNodes));
  if (splits.size() != count || modes.size() != count ||
      trueIds.size() != count || trueLeaf.size() != count ||
      falseIds.size() != count || falseLeaf.size() != count ||
      (!missing.empty() && missing.size() != count))
    return n.error("the nodes_* attributes have different lengths (" +
                   Twine(count) + " feature ids)");
  if (weights.size() != leaves)
    return n.error(Twine(weights.size()) + " leaf_weights for " +
                   Twine(leaves) + " leaf_targetids");
  TreeLayout t;
  t.nodes.assign((count + leaves) * 6, 0);
  t.thresholds.assign(count + leaves, 0);
  size_t nextMember = 0;
  for (size_t i = 0; i < count; ++i) {
    int32_t *nd = &t.nodes[i * 6];
    double m = modes[i];
    if (!(m >= 0 && m <= 6) || m != std::floor(m))
      return n.error("unsupported node mode " + std::to_string(m) + " at node " +
                     Twine(i));
    int mode = int(m) + 1;
    bool tracks = !missing.empty() && missing[i];
    // NaN != split is true, so a NaN always takes a NEQ node's true branch.
    if (mode == 6)
      tracks = true;
    nd[1] = mode | (tracks ? 1 << 8 : 0);
    if (features[i] < 0 || features[i] > INT32_MAX)
      return n.error("node " + Twine(i) + " reads feature " +
                     Twine(features[i]));
    nd[0] = features[i];
    t.thresholds[i] = splits[i];
    for (int side = 0; side < 2; ++side) {
      int64_t child = side ? falseIds[i] : trueIds[i];
      bool leaf = side ? falseLeaf[i] : trueLeaf[i];
      if (child < 0 || child >= int64_t(leaf ? leaves : count))
        return n.error("node " + Twine(i) + " branches to missing " +
                       (leaf ? "leaf " : "node ") + Twine(child));
      nd[2 + side] = leaf ? int32_t(count + child) : int32_t(child);
    }
    if (mode == 7) {
      nd[4] = t.members.size();
      for (; nextMember < members.size() && !std::isnan(members[nextMember]);
           ++nextMember)
        t.members.push_back(members[nextMember]);
      ++nextMember; // the NaN that ends the set
      nd[5] = t.members.size();
    }
  }
  for (size_t l = 0; l < leaves; ++l) {
    int32_t *nd = &t.nodes[(count + l) * 6];
    if (leafTargets[l] < 0 || leafTargets[l] >= nTargets)
      return n.error("leaf target " + Twine(leafTargets[l]) +
                     " is outside [0, " + Twine(nTargets) + ")");
    nd[4] = t.targets.size();
    t.targets.push_back(leafTargets[l]);
    t.weights.push_back(weights[l]);
    nd[5] = t.targets.size();
  }
  for (int64_t r : roots) {
    if (r < 0 || r >= (int64_t)count)
      return n.error("tree root " + Twine(r) + " is not a node");
    bool isLeaf = trueLeaf[r] && falseLeaf[r] && trueIds[r] == falseIds[r];
    if (isLeaf && r >= (int64_t)leaves)
      return n.error("tree root " + Twine(r) + " is not a leaf");
    t.roots.push_back(isLeaf ? int32_t(count + r) : int32_t(r));
  }
  if (failed(finishLayout(n, t)))
    return failure();
  std::vector<double> base(nTargets, 0.0);
  n.results.push_back(buildEnsemble(n, t, nTargets, et, base, aggMap[aggV5],
                                    postMap[postV5], false));
  return success();
}

//===----------------------------------------------------------------------===//
// SVM classifier
//===----------------------------------------------------------------------===//

/// kernel_type and kernel_params of SVMClassifier / SVMRegressor.
struct SvmKernel {
  int64_t kernel; ///< 0 linear, 1 poly, 2 rbf, 3 sigmoid (rt::ml_svm_kernel)
  float gamma, coef0;
  int64_t degree;
};

FailureOr<SvmKernel> svmKernel(const NodeContext &n) {
  std::string kt = n.getString("kernel_type", "LINEAR");
  int64_t kernel = llvm::StringSwitch<int64_t>(kt)
                       .Case("LINEAR", 0)
                       .Case("POLY", 1)
                       .Case("RBF", 2)
                       .Case("SIGMOID", 3)
                       .Default(-1);
  if (kernel < 0)
    return n.error("unsupported kernel_type '" + kt + "'");
  std::vector<double> params = getFloats(n, "kernel_params");
  double degree = params.size() > 2 ? params[2] : 0.0;
  if (!(degree >= 0 && degree <= 64))
    return n.error("kernel degree " + std::to_string(degree) +
                   " is outside [0, 64]");
  return SvmKernel{kernel, params.size() > 0 ? float(params[0]) : 0.0f,
                   params.size() > 1 ? float(params[1]) : 0.0f,
                   int64_t(degree)};
}

LogicalResult importSVMClassifier(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  auto post = postTransform(n);
  auto labels = classLabels(n, "classlabels_ints", "classlabels_strings");
  if (failed(post) || failed(labels))
    return failure();
  std::vector<double> coefs = getFloats(n, "coefficients"),
                      probA = getFloats(n, "prob_a"),
                      probB = getFloats(n, "prob_b"), rho = getFloats(n, "rho"),
                      sv = getFloats(n, "support_vectors");
  SmallVector<int64_t> perClass = n.getInts("vectors_per_class");
  auto svm = svmKernel(n);
  if (failed(svm))
    return failure();
  auto [kernel, gamma, coef0, degree] = *svm;
  int64_t classes = std::max<int64_t>(labels->size(), 1);
  if (classes > kMaxSvmClasses)
    return n.error(Twine(classes) + " classes exceed the limit of " +
                   Twine(kMaxSvmClasses));
  int64_t vectors = 0;
  std::vector<int32_t> starts{0};
  for (int64_t v : perClass) {
    if (v < 0 || v > kMaxTreeNodes)
      return n.error("vectors_per_class " + Twine(v) + " is out of range");
    vectors += v;
    starts.push_back(vectors);
  }
  if (coefs.empty() || rho.empty())
    return n.error("the classifier has no coefficients or rho");
  Type f = n.builder.getF32Type();
  int64_t features, nScores;
  bool proba = false;
  Value svValue;
  if (vectors > 0) {
    if ((int64_t)perClass.size() != classes)
      return n.error(Twine(perClass.size()) + " vectors_per_class for " +
                     Twine(classes) + " classes");
    if (classes < 2)
      return n.error("a support vector classifier needs two classes");
    int64_t pairs = classes * (classes - 1) / 2;
    if (sv.empty() || sv.size() % vectors)
      return n.error(Twine(sv.size()) + " support vector values for " +
                     Twine(vectors) + " vectors");
    features = sv.size() / vectors;
    if ((int64_t)coefs.size() != (classes - 1) * vectors)
      return n.error(Twine(coefs.size()) + " coefficients for " +
                     Twine(classes - 1) + " x " + Twine(vectors) + " expected");
    if ((int64_t)rho.size() != pairs)
      return n.error(Twine(rho.size()) + " rho for " + Twine(pairs) +
                     " class pairs");
    proba = !probA.empty();
    if (proba && ((int64_t)probA.size() != pairs ||
                  (int64_t)probB.size() != pairs))
      return n.error("prob_a and prob_b need " + Twine(pairs) + " values");
    nScores = proba ? classes : pairs;
    svValue = constant(n, f, {vectors, features}, sv);
  } else {
    // onnxruntime labels such a machine by the sign of its larger score,
    // onnx.reference by the score's position.
    if (labels->size() == 2)
      return n.error("a two-class SVMClassifier without support vectors is "
                     "not supported (onnxruntime and onnx.reference disagree "
                     "on its labels); export it as a LinearClassifier");
    if (coefs.size() % classes)
      return n.error(Twine(coefs.size()) + " coefficients for " +
                     Twine(classes) + " classes");
    features = coefs.size() / classes;
    nScores = classes;
    kernel = 0;
    svValue = constant(n, f, {1, features}, std::vector<double>(features, 0));
    starts.assign(classes + 1, 0);
  }
  bool allPositive =
      *std::min_element(coefs.begin(), coefs.end()) >= 0;
  int64_t labelMode = 0, scoreMode = 0;
  if (rho.size() == 1) {
    if (labels->size() == 2) {
      // onnx.reference then answers labels[1] whenever a class wins a vote;
      // onnxruntime does not.
      if (!proba && allPositive)
        return n.error("a two-class SVM without probabilities and with no "
                       "negative coefficient is not supported (onnxruntime "
                       "and onnx.reference disagree on its labels)");
      if (*post != 0 && *post != 1)
        return n.error("a two-class SVM supports post_transform NONE and "
                       "LOGISTIC (onnxruntime and onnx.reference disagree "
                       "otherwise)");
      scoreMode = 1;
    } else {
      labelMode = 2;
    }
  }
  int64_t columns = nScores >= 2 ? nScores
                    : *post == 4 ? 1
                    : scoreMode == 1 ? 2
                                     : 1;
  if (labelMode == 2 && labels->areStrings())
    return n.error("string class labels need two classes or one rho per "
                   "class pair, got " + Twine(labels->size()) + " labels and " +
                   Twine(rho.size()) + " rho");
  std::vector<int64_t> table = labels->ints;
  if (table.empty())
    for (int64_t i = 0; i < classes; ++i)
      table.push_back(i);
  if (probA.empty())
    probA.assign(1, 0), probB.assign(1, 0);
  auto i64 = [&](int64_t v) { return n.builder.getI64IntegerAttr(v); };
  auto op = o::MlSvmClassifierOp::create(
      n.builder, n.loc,
      TypeRange{n.unranked(n.builder.getI64Type()), n.unranked(f)},
      n.operand(0), svValue,
      constant(n, f, {(int64_t)coefs.size()}, coefs),
      constant(n, f, {(int64_t)rho.size()}, rho),
      i32Constant(n, {classes + 1}, starts),
      constant(n, f, {(int64_t)probA.size()}, probA),
      constant(n, f, {(int64_t)probB.size()}, probB), i64Vector(n, table),
      i64(classes), i64(vectors), i64(nScores), i64(columns), i64(kernel),
      i64((int64_t)degree), n.builder.getF32FloatAttr(gamma),
      n.builder.getF32FloatAttr(coef0), i64(*post),
      n.builder.getBoolAttr(proba), i64(labelMode), i64(scoreMode));
  n.results.push_back(labelOutput(n, op.getLabel(), *labels));
  n.results.push_back(op.getScores());
  return success();
}

/// SVMRegressor: the classifier kernel with two classes whose first holds
/// every support vector (so the one pair's decision is rho[0] + sum of
/// coefficient x kernel), or with one class in linear mode; one_class
/// thresholds the score to +-1 with core ops.
LogicalResult importSVMRegressor(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  auto post = postTransform(n);
  if (failed(post))
    return failure();
  if (*post != 0 && *post != 4)
    return n.error("SVMRegressor supports post_transform NONE and PROBIT");
  std::vector<double> coefs = getFloats(n, "coefficients"),
                      rho = getFloats(n, "rho"),
                      sv = getFloats(n, "support_vectors");
  int64_t supports = n.getInt("n_supports", 0);
  int64_t oneClass = n.getInt("one_class", 0);
  auto svm = svmKernel(n);
  if (failed(svm))
    return failure();
  auto [kernel, gamma, coef0, degree] = *svm;
  if (supports < 0 || supports > kMaxTreeNodes)
    return n.error("n_supports " + Twine(supports) + " is out of range");
  if (coefs.empty() || rho.size() != 1)
    return n.error("SVMRegressor needs coefficients and one rho, got " +
                   Twine(coefs.size()) + " and " + Twine(rho.size()));
  Type f = n.builder.getF32Type();
  int64_t classes, features;
  std::vector<int32_t> starts;
  Value svValue;
  if (supports > 0) {
    if (sv.empty() || sv.size() % supports)
      return n.error(Twine(sv.size()) + " support vector values for " +
                     Twine(supports) + " vectors");
    if ((int64_t)coefs.size() != supports)
      return n.error(Twine(coefs.size()) + " coefficients for " +
                     Twine(supports) + " support vectors");
    features = sv.size() / supports;
    classes = 2;
    starts = {0, int32_t(supports), int32_t(supports)};
    svValue = constant(n, f, {supports, features}, sv);
  } else {
    features = coefs.size();
    classes = 1;
    kernel = 0;
    starts = {0, 0};
    svValue = constant(n, f, {1, features}, std::vector<double>(features, 0));
  }
  auto i64 = [&](int64_t v) { return n.builder.getI64IntegerAttr(v); };
  std::vector<double> zero{0.0};
  std::vector<int64_t> table(classes, 0);
  auto op = o::MlSvmClassifierOp::create(
      n.builder, n.loc,
      TypeRange{n.unranked(n.builder.getI64Type()), n.unranked(f)},
      n.operand(0), svValue, constant(n, f, {(int64_t)coefs.size()}, coefs),
      constant(n, f, {1}, rho), i32Constant(n, {classes + 1}, starts),
      constant(n, f, {1}, zero), constant(n, f, {1}, zero),
      i64Vector(n, table), i64(classes), i64(supports), i64(1), i64(1),
      i64(kernel), i64((int64_t)degree), n.builder.getF32FloatAttr(gamma),
      n.builder.getF32FloatAttr(coef0), i64(*post),
      n.builder.getBoolAttr(false), i64(0), i64(0));
  Value y = op.getScores();
  if (oneClass) {
    Value pos = o::GreaterOp::create(n.builder, n.loc,
                                     n.unranked(n.builder.getI1Type()), y,
                                     constant(n, f, {}, {0.0}));
    y = o::WhereOp::create(n.builder, n.loc, n.unranked(f), pos,
                           constant(n, f, {}, {1.0}),
                           constant(n, f, {}, {-1.0}));
  }
  n.results.push_back(y);
  return success();
}

} // namespace

void addMlImporters(llvm::StringMap<OpImportFn> &t) {
  t["ai.onnx.ml.ArrayFeatureExtractor"] = importArrayFeatureExtractor;
  t["ai.onnx.ml.Binarizer"] = importBinarizer;
  t["ai.onnx.ml.FeatureVectorizer"] = importFeatureVectorizer;
  t["ai.onnx.ml.Imputer"] = importImputer;
  t["ai.onnx.ml.LabelEncoder"] = importLabelEncoder;
  t["ai.onnx.ml.LinearClassifier"] = importLinearClassifier;
  t["ai.onnx.ml.LinearRegressor"] = importLinearRegressor;
  t["ai.onnx.ml.Normalizer"] = importNormalizer;
  t["ai.onnx.ml.OneHotEncoder"] = importOneHotEncoder;
  t["ai.onnx.ml.Scaler"] = importScaler;
  t["ai.onnx.ml.SVMClassifier"] = importSVMClassifier;
  t["ai.onnx.ml.SVMRegressor"] = importSVMRegressor;
  t["ai.onnx.ml.TreeEnsemble"] = importTreeEnsemble;
  t["ai.onnx.ml.TreeEnsembleClassifier"] = importTreeEnsembleClassifier;
  t["ai.onnx.ml.TreeEnsembleRegressor"] = importTreeEnsembleRegressor;
  t["ai.onnx.ml.ZipMap"] = importZipMap;
}

} // namespace onnxcc
