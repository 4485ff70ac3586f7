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
#include "dialects/Onnx/OnnxOps.h"

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

LogicalResult importStringLabelEncoder(NodeContext &n) {
  return n.error("string keys or values are not supported yet");
}

} // namespace onnxcc
