//===- MlLabelImporters.cpp - string labels of the ai.onnx.ml ops ---------===//
//
// Class names (classlabels_strings) and LabelEncoder string keys and
// values. The strings are untrusted model data: they become attributes of
// onnx.ml_string_table / onnx.ml_string_lookup, checked by
// stringTableProblem() (no NUL byte, bounded), and reach generated C++
// only as escaped literals.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MlLabels.h"

#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/MlStrings.h"
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>
#include <set>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

using AttrProto = ::onnx::AttributeProto;

static std::vector<std::string> stringsOf(const NodeContext &n, StringRef name) {
  std::vector<std::string> out;
  if (const auto *a = n.typedAttr(name, AttrProto::STRINGS))
    out.assign(a->strings().begin(), a->strings().end());
  return out;
}

static ArrayAttr stringArray(const NodeContext &n,
                             ArrayRef<std::string> strings) {
  SmallVector<StringRef> refs(strings.begin(), strings.end());
  return n.builder.getStrArrayAttr(refs);
}

FailureOr<ClassLabels> classLabels(const NodeContext &n, StringRef intsName,
                                   StringRef stringsName) {
  ClassLabels labels;
  SmallVector<int64_t> ints = n.getInts(intsName);
  labels.strings = stringsOf(n, stringsName);
  if (!labels.areStrings()) {
    labels.ints.assign(ints.begin(), ints.end());
    return labels;
  }
  if (!ints.empty())
    return n.error("both '" + intsName + "' and '" + stringsName + "' are set");
  std::string problem = stringTableProblem(labels.strings, /*distinct=*/false);
  if (!problem.empty())
    return n.error(stringsName + ": " + problem);
  for (size_t i = 0; i < labels.strings.size(); ++i)
    labels.ints.push_back(i);
  return labels;
}

Value labelOutput(const NodeContext &n, Value label, const ClassLabels &labels) {
  if (!labels.areStrings())
    return label;
  return o::MlStringTableOp::create(
      n.builder, n.loc, n.unranked(o::StringType::get(n.builder.getContext())),
      label, stringArray(n, labels.strings));
}

//===----------------------------------------------------------------------===//
// LabelEncoder with strings
//===----------------------------------------------------------------------===//

namespace {

/// The keys, the values or the default of a LabelEncoder: strings, or
/// numbers of `type` (integers in `ints`, floats in `floats`).
struct Column {
  Type type; ///< !onnx.string, an integer or a float type
  std::vector<std::string> strings;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  bool isStrings() const { return isa<o::StringType>(type); }
  size_t size() const {
    return isStrings() ? strings.size()
                       : isa<IntegerType>(type) ? ints.size() : floats.size();
  }
  void append(const Column &c) {
    llvm::append_range(strings, c.strings);
    llvm::append_range(ints, c.ints);
    llvm::append_range(floats, c.floats);
  }
};

/// A TENSOR attribute as a column; `present` says whether the node has it.
LogicalResult tensorColumn(const NodeContext &n, StringRef name, Column &c,
                           bool &present) {
  const auto *a = n.typedAttr(name, AttrProto::TENSOR);
  present = a != nullptr;
  if (!a)
    return success();
  MLIRContext *ctx = n.builder.getContext();
  std::string err;
  if (a->t().data_type() == ::onnx::TensorProto::STRING) {
    c.type = o::StringType::get(ctx);
    c.strings.assign(a->t().string_data().begin(), a->t().string_data().end());
    return success();
  }
  ElementsAttr value = importTensor(ctx, a->t(), n.external, err);
  if (!value)
    return n.error(name + ": " + err);
  c.type = value.getElementType();
  bool ok = isa<IntegerType>(c.type) && !c.type.isInteger(1)
                ? readAsInt64s(value, c.ints)
                : isa<FloatType>(c.type) && readAsDoubles(value, c.floats);
  if (!ok)
    return n.error(name + " has unsupported element type " +
                   onnxTypeName(a->t().data_type()));
  return success();
}

/// keys_* or values_* (`prefix`): one of the strings, int64s, floats and
/// tensor forms.
LogicalResult readColumn(const NodeContext &n, StringRef prefix, Column &c) {
  MLIRContext *ctx = n.builder.getContext();
  std::string sName = (prefix + "_strings").str(),
              iName = (prefix + "_int64s").str(),
              fName = (prefix + "_floats").str(),
              tName = (prefix + "_tensor").str();
  int forms = 0;
  if (n.has(sName)) {
    ++forms;
    c.type = o::StringType::get(ctx);
    c.strings = stringsOf(n, sName);
  }
  if (n.has(iName)) {
    ++forms;
    c.type = n.builder.getI64Type();
    SmallVector<int64_t> v = n.getInts(iName);
    c.ints.assign(v.begin(), v.end());
  }
  if (n.has(fName)) {
    ++forms;
    c.type = n.builder.getF32Type();
    if (const auto *a = n.typedAttr(fName, AttrProto::FLOATS))
      c.floats.assign(a->floats().begin(), a->floats().end());
  }
  bool tensor;
  Column t;
  if (failed(tensorColumn(n, tName, t, tensor)))
    return failure();
  if (tensor) {
    ++forms;
    c = t;
  }
  if (forms != 1)
    return n.error("expects exactly one of " + sName + ", " + iName + ", " +
                   fName + " and " + tName + ", got " + Twine(forms));
  return success();
}

/// The default for values of `type`: default_tensor, or default_string /
/// default_int64 / default_float with ONNX's defaults.
LogicalResult readDefault(const NodeContext &n, Type type, Column &d) {
  bool tensor;
  if (failed(tensorColumn(n, "default_tensor", d, tensor)))
    return failure();
  if (tensor) {
    if (d.type != type || d.size() != 1)
      return n.error("default_tensor must hold one value of the values' type");
    return success();
  }
  d.type = type;
  std::string s = n.getString("default_string", "_Unused");
  int64_t i = n.getInt("default_int64", -1);
  float f = n.getFloat("default_float", -0.0f);
  if (d.isStrings())
    d.strings = {s};
  else if (isa<IntegerType>(type))
    d.ints = {i};
  else
    d.floats = {f};
  return success();
}

/// A constant tensor [size] of a numeric column.
Value numericConstant(const NodeContext &n, const Column &c) {
  auto type = RankedTensorType::get({(int64_t)c.size()}, c.type);
  DenseElementsAttr attr;
  if (auto it = dyn_cast<IntegerType>(c.type)) {
    SmallVector<APInt> v;
    for (int64_t x : c.ints)
      v.push_back(APInt(it.getWidth(), x, /*isSigned=*/true, /*implicitTrunc=*/true));
    attr = DenseElementsAttr::get(type, v);
  } else {
    auto ft = cast<FloatType>(c.type);
    SmallVector<APFloat> v;
    for (double x : c.floats) {
      APFloat f(x);
      bool lost;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      v.push_back(f);
    }
    attr = DenseElementsAttr::get(type, v);
  }
  return o::ConstantOp::create(n.builder, n.loc, type, attr);
}

/// The position of each element of numeric `x` among the numeric `keys`,
/// or the number of keys where none matches: the first match (ArgMax of
/// x == keys along a new last axis), or `count` where the maximum is 0.
Value numericPositions(const NodeContext &n, Value x, const Column &keys) {
  Type i64 = n.builder.getI64Type(), f32 = n.builder.getF32Type(),
       i1 = n.builder.getI1Type();
  int64_t count = keys.size();
  const int64_t last = -1, keep = 0, selectLast = 0;
  Value xu = o::UnsqueezeOp::create(n.builder, n.loc, n.unrankedLike(x), x,
                                    n.i64Constant({-1}));
  Value eq = o::EqualOp::create(n.builder, n.loc, n.unranked(i1), xu,
                                numericConstant(n, keys));
  Value eqf = o::CastOp::create(n.builder, n.loc, n.unranked(f32), eq,
                                TypeAttr::get(f32));
  Value idx = o::ArgMaxOp::create(n.builder, n.loc, n.unranked(i64), eqf, last,
                                  keep, selectLast);
  Value found = o::ReduceMaxOp::create(n.builder, n.loc, n.unranked(f32), eqf,
                                       n.i64Constant({-1}), keep, selectLast);
  Value hit = o::CastOp::create(n.builder, n.loc, n.unranked(i1), found,
                                TypeAttr::get(i1));
  auto scalar = RankedTensorType::get({}, i64);
  Value none = o::ConstantOp::create(n.builder, n.loc, scalar,
                                     DenseElementsAttr::get(scalar, count));
  return o::WhereOp::create(n.builder, n.loc, n.unranked(i64), hit, idx, none);
}

/// Refuses keys that would not mean the same here: repeated keys (whose
/// winner is an implementation detail), NaN keys, bad string tables.
LogicalResult checkKeys(const NodeContext &n, const Column &keys) {
  if (keys.size() == 0)
    return n.error("the LabelEncoder has no keys");
  if (keys.isStrings()) {
    std::string problem = stringTableProblem(keys.strings, /*distinct=*/true);
    return problem.empty() ? success() : n.error("keys: " + problem);
  }
  std::set<int64_t> ints;
  for (int64_t k : keys.ints)
    if (!ints.insert(k).second)
      return n.error("key " + Twine(k) + " is listed twice");
  std::set<double> floats;
  for (double k : keys.floats) {
    if (std::isnan(k))
      return n.error("NaN keys are not supported");
    if (!floats.insert(k).second)
      return n.error("key " + std::to_string(k) + " is listed twice");
  }
  return success();
}

} // namespace

LogicalResult importStringLabelEncoder(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  MLIRContext *ctx = n.builder.getContext();
  Value x = n.operand(0);
  Column keys, values, dflt;
  if (n.has("classes_strings")) {
    // ml opset 1: string <-> position in classes_strings, by the input's type.
    Column classes{o::StringType::get(ctx), stringsOf(n, "classes_strings"),
                   {}, {}};
    Column positions{n.builder.getI64Type(), {}, {}, {}};
    for (size_t i = 0; i < classes.strings.size(); ++i)
      positions.ints.push_back(i);
    bool fromStrings = isStringTensor(x.getType());
    keys = fromStrings ? classes : positions;
    values = fromStrings ? positions : classes;
  } else if (failed(readColumn(n, "keys", keys)) ||
             failed(readColumn(n, "values", values))) {
    return failure();
  }
  if (failed(readDefault(n, values.type, dflt)) || failed(checkKeys(n, keys)))
    return failure();
  if (keys.size() != values.size())
    return n.error(Twine(keys.size()) + " keys for " + Twine(values.size()) +
                   " values");
  if (getElementTypeOrSelf(x.getType()) != keys.type) {
    std::string got, want;
    llvm::raw_string_ostream(got) << getElementTypeOrSelf(x.getType());
    llvm::raw_string_ostream(want) << keys.type;
    return n.error("the input's element type " + got + " differs from the keys' " +
                   want);
  }
  // Positions in the keys (the number of keys where none matches) index
  // the values followed by the default.
  Value positions =
      keys.isStrings()
          ? Value(o::MlStringLookupOp::create(
                n.builder, n.loc, n.unranked(n.builder.getI64Type()), x,
                stringArray(n, keys.strings)))
          : numericPositions(n, x, keys);
  values.append(dflt);
  if (values.isStrings()) {
    std::string problem = stringTableProblem(values.strings, false);
    if (!problem.empty())
      return n.error("values: " + problem);
    n.results.push_back(o::MlStringTableOp::create(
        n.builder, n.loc, n.unranked(values.type), positions,
        stringArray(n, values.strings)));
    return success();
  }
  const int64_t axis = 0;
  n.results.push_back(o::GatherOp::create(n.builder, n.loc,
                                          n.unranked(values.type),
                                          numericConstant(n, values),
                                          positions, axis));
  return success();
}

} // namespace onnxcc
