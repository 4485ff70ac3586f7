//===- MlStringPrinters.cpp - kernel.ml_string_{table,lookup} -------------===//
//
// The strings of these ops come from the model (class names, LabelEncoder
// keys and values): they reach the generated C++ only through
// cppStringLiteral(), as escaped literals in a constant table local to
// the call's block, so predict() neither allocates nor copies them.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/InertText.h"
#include "llvm/ADT/STLExtras.h"
#include <numeric>

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

/// `static constexpr const char *const name[] = {...};`, one literal a line.
static void printTable(raw_indented_ostream &os, StringRef name,
                       ArrayRef<StringRef> strings) {
  os << "static constexpr const char *const " << name << "[] = {\n";
  os.indent().indent();
  for (StringRef s : strings)
    os << cppStringLiteral(s) << ",\n";
  os.unindent().unindent();
  os << "};\n";
}

static SmallVector<StringRef> stringsOf(ArrayAttr a) {
  return llvm::to_vector(llvm::map_range(
      a, [](Attribute s) { return cast<StringAttr>(s).getValue(); }));
}

static LogicalResult printStringTable(PrintContext &c, raw_indented_ostream &os,
                                      k::MlStringTableOp op) {
  SmallVector<StringRef> labels = stringsOf(op.getLabels());
  int64_t n = cast<ShapedType>(op.getIndices().getType()).getNumElements();
  os << "{\n";
  os.indent();
  printTable(os, "labels", labels);
  os << "onnxcc::rt::ml_string_table<" << n << ", " << labels.size() << ">("
     << c.ptr(op.getIndices()) << ", labels,\n";
  os.indent().indent();
  os << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  os.unindent();
  os << "}\n";
  return success();
}

static LogicalResult printStringLookup(PrintContext &c, raw_indented_ostream &os,
                                       k::MlStringLookupOp op) {
  SmallVector<StringRef> keys = stringsOf(op.getKeys());
  // Sorted here, once, in the order strcmp compares (bytes as unsigned
  // char, which StringRef's comparison also uses).
  SmallVector<int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
  SmallVector<StringRef> sorted;
  for (int64_t i : order)
    sorted.push_back(keys[i]);
  int64_t n = cast<ShapedType>(op.getInput().getType()).getNumElements();
  os << "{\n";
  os.indent();
  printTable(os, "keys", sorted);
  os << "static constexpr std::int64_t positions[] = " << braceList(order)
     << ";\n"
     << "onnxcc::rt::ml_string_lookup<" << n << ", " << keys.size() << ">("
     << c.ptr(op.getInput()) << ", keys, positions,\n";
  os.indent().indent();
  os << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  os.unindent();
  os << "}\n";
  return success();
}

void addMlStringPrinters(KernelPrinterTable &t) {
  addPrinter<k::MlStringTableOp>(t, printStringTable);
  addPrinter<k::MlStringLookupOp>(t, printStringLookup);
}

} // namespace onnxcc
