//===- ImagePrinters.cpp - printers of the resizing kernel ops ------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

/// The type a blend sums in (see kernel.resize_axis).
static std::string blendType(Type out) {
  if (out.isF32() || out.isF64())
    return cppElementType(out);
  return isa<IntegerType>(out) ? "double" : "float";
}

static LogicalResult printResizeAxis(PrintContext &c, raw_indented_ostream &os,
                                     k::ResizeAxisOp op) {
  ArrayRef<int64_t> in = staticShape(op.getInput()), out = staticShape(op.getResult());
  int64_t axis = op.getAxis(), outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= in[d];
  for (int64_t d = axis + 1; d < (int64_t)in.size(); ++d)
    inner *= in[d];
  if (outer * inner * out[axis] == 0) {
    os << "// resizes to an empty tensor: nothing to compute\n";
    return success();
  }
  std::string dims = std::to_string(outer) + ", " + std::to_string(in[axis]) + ", " +
                     std::to_string(out[axis]) + ", " + std::to_string(inner);
  os << "{\n";
  os.indent();
  os << "static constexpr std::int64_t idx[] = " << braceList(op.getIndices()) << ";\n";
  std::string extrapolation = formatDouble(op.getExtrapolationValue().convertToDouble());
  if (op.getWeights().empty()) {
    os << "onnxcc::rt::resize_gather<" << dims << ">(idx, " << extrapolation << ", "
       << c.ptr(op.getInput()) << ", " << c.ptr(op.getResult()) << ");\n";
  } else {
    std::string acc = blendType(getElementTypeOrSelf(op.getType()));
    os << "static constexpr " << acc << " w[] = {";
    for (auto [i, w] : llvm::enumerate(op.getWeights()))
      os << (i ? ", " : "") << (acc == "float" ? formatFloat(float(w)) : formatDouble(w));
    os << "};\n";
    os << "onnxcc::rt::resize_blend<" << dims << ", " << op.getTaps() << ", " << acc
       << ">(idx, w, " << extrapolation << ", " << c.ptr(op.getInput()) << ", "
       << c.ptr(op.getResult()) << ");\n";
  }
  os.unindent();
  os << "}\n";
  return success();
}

void addImagePrinters(KernelPrinterTable &t) {
  addPrinter<k::ResizeAxisOp>(t, printResizeAxis);
}

} // namespace onnxcc
