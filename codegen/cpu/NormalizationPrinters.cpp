//===- NormalizationPrinters.cpp - layer/group norm, LRN, axis norms -----===//
#include "codegen/cpu/KernelPrinter.h"

#include "codegen/cpu/BodyPrinter.h"
#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

/// The product of `dims`, 0 if one is 0 (the others are then not
/// multiplied: a zero-element tensor bounds none of them).
static int64_t extent(ArrayRef<int64_t> dims) {
  if (llvm::is_contained(dims, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

static void printNothing(raw_indented_ostream &os) {
  os << "// empty tensor: nothing to compute\n";
}

/// A typed null pointer for an absent optional buffer, so that the
/// template still deduces its element type.
static std::string nullOf(StringRef element, bool isConst) {
  return "static_cast<" + std::string(isConst ? "const " : "") + element.str() +
         " *>(nullptr)";
}

static LogicalResult printLayerNorm(PrintContext &c, raw_indented_ostream &os,
                                    k::LayerNormOp op) {
  ArrayRef<int64_t> x = staticShape(op.getInput());
  int64_t axis = op.getAxis();
  int64_t outer = extent(x.take_front(axis));
  int64_t inner = extent(x.drop_front(axis));
  // With no row there is nothing to write; with empty rows only the stats.
  if (outer == 0 || (inner == 0 && op.getStats().empty())) {
    printNothing(os);
    return success();
  }
  auto rowStride = [&](Value p) {
    return staticShape(p).size() == x.size() ? inner : 0;
  };
  std::string s = elementOf(op.getScale());
  Value bias = op.getBias();
  Value skip = op.getSkip();
  os << "onnxcc::rt::" << (skip ? "layer_norm_skip<" : "layer_norm<") << outer
     << ", " << inner << ", "
     << (op.getRms() ? "true" : "false") << ", " << rowStride(op.getScale())
     << ", " << (bias ? rowStride(bias) : 0) << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getInput()) << ", " << (skip ? c.ptr(skip) + ", " : "")
     << c.ptr(op.getScale()) << ", " << (bias ? c.ptr(bias) : nullOf(s, true))
     << ", "
     << formatFloat(op.getEpsilon().convertToFloat()) << ",\n"
     << c.ptr(op.getOutput()) << ", "
     << (op.getStats().empty() ? nullOf("float", false) : c.ptr(op.getStats()[0]))
     << ", "
     << (op.getStats().empty() ? nullOf("float", false) : c.ptr(op.getStats()[1]))
     << ");\n";
  os.unindent().unindent();
  return success();
}

static LogicalResult printGroupNorm(PrintContext &c, raw_indented_ostream &os,
                                    k::GroupNormOp op) {
  ArrayRef<int64_t> x = staticShape(op.getInput());
  if (extent(x) == 0) {
    printNothing(os);
    return success();
  }
  os << "onnxcc::rt::group_norm<" << x[0] << ", " << x[1] << ", " << op.getGroups()
     << ", " << extent(x.drop_front(2)) << ">(" << c.ptr(op.getInput()) << ", "
     << c.ptr(op.getScale()) << ", " << c.ptr(op.getBias()) << ", "
     << formatFloat(op.getEpsilon().convertToFloat()) << ", "
     << c.ptr(op.getResult()) << ");\n";
  return success();
}

static LogicalResult printLRN(PrintContext &c, raw_indented_ostream &os,
                              k::LRNOp op) {
  ArrayRef<int64_t> x = staticShape(op.getInput());
  if (extent(x) == 0) {
    printNothing(os);
    return success();
  }
  os << "onnxcc::rt::lrn<" << x[0] << ", " << x[1] << ", "
     << extent(x.drop_front(2)) << ", " << op.getSize() << ">("
     << c.ptr(op.getInput()) << ", " << formatFloat(op.getAlpha().convertToFloat())
     << ", " << formatFloat(op.getBeta().convertToFloat()) << ", "
     << formatFloat(op.getBias().convertToFloat()) << ", " << c.ptr(op.getResult())
     << ");\n";
  return success();
}

static LogicalResult printAxisNorm(PrintContext &c, raw_indented_ostream &os,
                                   k::AxisNormOp op) {
  ArrayRef<int64_t> x = staticShape(op.getInput());
  if (extent(x) == 0) {
    printNothing(os);
    return success();
  }
  int64_t axis = op.getAxis();
  os << "onnxcc::rt::" << op.getKind() << "<" << extent(x.take_front(axis)) << ", "
     << x[axis] << ", " << extent(x.drop_front(axis + 1)) << ">("
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getResult()) << ");\n";
  return success();
}

void addNormalizationPrinters(KernelPrinterTable &t) {
  addPrinter<k::LayerNormOp>(t, printLayerNorm);
  addPrinter<k::GroupNormOp>(t, printGroupNorm);
  addPrinter<k::LRNOp>(t, printLRN);
  addPrinter<k::AxisNormOp>(t, printAxisNorm);
}

} // namespace onnxcc
