//===- RotaryPrinters.cpp - kernel.rotary_embedding -----------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

static LogicalResult printRotaryEmbedding(PrintContext &c,
                                          raw_indented_ostream &os,
                                          k::RotaryEmbeddingOp op) {
  ArrayRef<int64_t> x = staticShape(op.getInput());
  bool packed = op.getPacked();
  int64_t heads = op.getHeads();
  int64_t b = x[0], s = packed ? x[1] : x[2];
  int64_t d = packed ? x[2] / heads : x[3];
  Value pos = op.getPositionIds();
  int64_t positions = pos ? staticShape(op.getCosCache())[0] : 0;
  os << "onnxcc::rt::rotary_embedding<" << b << ", " << s << ", " << heads
     << ", " << d << ", " << op.getRotaryDim() << ", "
     << (packed ? "true" : "false") << ", "
     << (op.getInterleaved() ? "true" : "false") << ", " << positions << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getInput()) << ", " << c.ptr(op.getCosCache()) << ", "
     << c.ptr(op.getSinCache()) << ",\n"
     << (pos ? c.ptr(pos) : "static_cast<const std::int64_t *>(nullptr)")
     << ", " << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

void addRotaryPrinters(KernelPrinterTable &t) {
  addPrinter<k::RotaryEmbeddingOp>(t, printRotaryEmbedding);
}

} // namespace onnxcc
