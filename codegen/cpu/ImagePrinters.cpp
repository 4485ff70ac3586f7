//===- ImagePrinters.cpp - printers of the resizing kernel ops ------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSwitch.h"

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

static LogicalResult printGridSample(PrintContext &c, raw_indented_ostream &os,
                                     k::GridSampleOp op) {
  ArrayRef<int64_t> in = staticShape(op.getInput()), out = staticShape(op.getResult());
  int64_t points = 1;
  for (int64_t d = 2; d < (int64_t)out.size(); ++d)
    points *= out[d];
  if (in[0] * in[1] * points == 0) {
    os << "// samples into an empty tensor: nothing to compute\n";
    return success();
  }
  auto mode = llvm::StringSwitch<const char *>(op.getMode())
                  .Case("nearest", "nearest")
                  .Case("cubic", "cubic")
                  .Default("linear");
  auto pad = llvm::StringSwitch<const char *>(op.getPaddingMode())
                 .Case("border", "border")
                 .Case("reflection", "reflection")
                 .Default("zeros");
  os << "{\n";
  os.indent();
  os << "static constexpr std::int64_t spatial[] = "
     << braceList(in.drop_front(2)) << ";\n";
  os << "onnxcc::rt::grid_sample<onnxcc::rt::gs_mode::" << mode
     << ", onnxcc::rt::gs_pad::" << pad << ", "
     << (op.getAlignCorners() ? "true" : "false") << ", " << in[0] << ", "
     << in[1] << ", " << points << ">(spatial, " << c.ptr(op.getInput()) << ", "
     << c.ptr(op.getGrid()) << ", " << c.ptr(op.getResult()) << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

void addImagePrinters(KernelPrinterTable &t) {
  addPrinter<k::ResizeAxisOp>(t, printResizeAxis);
  addPrinter<k::GridSampleOp>(t, printGridSample);
}

} // namespace onnxcc
