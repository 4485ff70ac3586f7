//===- MlStrings.cpp - rules of the string tables -------------------------===//
#include "dialects/Onnx/MlStrings.h"

#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/OnnxTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSet.h"
#include <vector>

using namespace mlir;

namespace onnxcc {

std::string stringTableProblem(ArrayRef<std::string> strings, bool distinct) {
  if (strings.empty())
    return "the table is empty";
  if ((int64_t)strings.size() > kMaxStringTableEntries)
    return std::to_string(strings.size()) + " strings exceed the limit of " +
           std::to_string(kMaxStringTableEntries);
  int64_t bytes = 0;
  llvm::StringSet<> seen;
  for (size_t i = 0; i < strings.size(); ++i) {
    const std::string &s = strings[i];
    bytes += s.size();
    if (bytes > kMaxStringTableBytes)
      return "the strings exceed the limit of " +
             std::to_string(kMaxStringTableBytes) + " bytes";
    if (s.find('\0') != std::string::npos)
      return "string " + std::to_string(i) + " '" + messageText(s) +
             "' contains a NUL byte, which a const char * cannot carry";
    if (distinct && !seen.insert(s).second)
      return "string '" + messageText(s) + "' is listed twice";
  }
  return "";
}

static std::vector<std::string> strings(ArrayAttr a) {
  std::vector<std::string> out;
  for (Attribute s : a)
    out.push_back(cast<StringAttr>(s).getValue().str());
  return out;
}

/// `from` and `to` have the same shape (or one is unranked).
static bool sameShape(Value from, Value to) {
  auto a = dyn_cast<RankedTensorType>(from.getType());
  auto b = dyn_cast<RankedTensorType>(to.getType());
  return !a || !b || a.getShape() == b.getShape();
}

LogicalResult verifyStringTable(Operation *op, Value indices, Value output,
                                ArrayAttr labels) {
  if (!getElementTypeOrSelf(indices.getType()).isInteger(64))
    return op->emitOpError() << "expects i64 indices, got " << indices.getType();
  if (!isStringTensor(output.getType()) || !sameShape(indices, output))
    return op->emitOpError() << "expects strings of the indices' shape, got "
                             << output.getType();
  std::string problem = stringTableProblem(strings(labels), false);
  if (!problem.empty())
    return op->emitOpError() << "labels: " << problem;
  return success();
}

LogicalResult verifyStringLookup(Operation *op, Value input, Value output,
                                 ArrayAttr keys) {
  if (!isStringTensor(input.getType()))
    return op->emitOpError() << "expects a string input, got "
                             << input.getType();
  if (!getElementTypeOrSelf(output.getType()).isInteger(64) ||
      !sameShape(input, output))
    return op->emitOpError() << "expects i64 of the input's shape, got "
                             << output.getType();
  std::string problem = stringTableProblem(strings(keys), true);
  if (!problem.empty())
    return op->emitOpError() << "keys: " << problem;
  return success();
}

} // namespace onnxcc
