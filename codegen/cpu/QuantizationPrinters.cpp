//===- QuantizationPrinters.cpp - integer product calls -------------------===//
//
// kernel.matmul_integer, kernel.conv_integer and kernel.dynamic_quant_params
// as calls of runtime-support/onnxcc/quantization.h. The matmul's batch
// broadcasting is printed as constexpr arrays (batch extents and each
// operand's stride in matrices, 0 where it broadcasts).
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

namespace {

int64_t numElements(Value v) { return cast<ShapedType>(v.getType()).getNumElements(); }

/// Strides in matrices of an operand with batch dims `in` broadcast to
/// `out` (right-aligned), 0 along broadcast dims.
SmallVector<int64_t> batchStrides(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  SmallVector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (int64_t i = (int64_t)in.size() - 1; i >= 0; --i) {
    int64_t o = i + out.size() - in.size();
    strides[o] = in[i] == 1 ? 0 : stride;
    stride *= in[i];
  }
  return strides;
}

LogicalResult printMatMulInteger(PrintContext &c, raw_indented_ostream &os,
                                 k::MatMulIntegerOp op) {
  auto a = staticShape(op.getA()), b = staticShape(op.getB()),
       y = staticShape(op.getOutput());
  int64_t m = a[a.size() - 2], kk = a.back(), n = b.back();
  SmallVector<int64_t> batch(y.drop_back(2));
  SmallVector<int64_t> as = batchStrides(a.drop_back(2), batch),
                       bs = batchStrides(b.drop_back(2), batch);
  if (batch.empty()) { // arrays of one unit step: no zero-size arrays
    batch.push_back(1);
    as.push_back(0);
    bs.push_back(0);
  }
  auto zp = [&](Value v) { return v ? c.ptr(v) : std::string("nullptr"); };
  int64_t azn = op.getAZeroPoint() && numElements(op.getAZeroPoint()) != 1 ? m : 1;
  int64_t bzn = op.getBZeroPoint() && numElements(op.getBZeroPoint()) != 1 ? n : 1;
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t batch[] = " << braceList(batch) << ";\n";
  os << "static constexpr int64_t a_strides[] = " << braceList(as) << ";\n";
  os << "static constexpr int64_t b_strides[] = " << braceList(bs) << ";\n";
  os << "onnxcc::rt::matmul_integer<" << batch.size() << ", " << m << ", " << n
     << ", " << kk << ", " << azn << ", " << bzn << ">(\n";
  os.indent().indent();
  os << "batch, a_strides, b_strides, " << c.ptr(op.getA()) << ", "
     << c.ptr(op.getB()) << ",\n"
     << zp(op.getAZeroPoint()) << ", " << zp(op.getBZeroPoint()) << ", "
     << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent().unindent();
  os << "}\n";
  return success();
}

LogicalResult printConvInteger(PrintContext &c, raw_indented_ostream &os,
                               k::ConvIntegerOp op) {
  auto x = staticShape(op.getInput()), w = staticShape(op.getWeight()),
       y = staticShape(op.getOutput());
  auto p = op.getPads(), s = op.getStrides(), d = op.getDilations();
  bool perChannel =
      op.getWZeroPoint() && numElements(op.getWZeroPoint()) != 1;
  auto zp = [&](Value v) { return v ? c.ptr(v) : std::string("nullptr"); };
  os << "onnxcc::rt::conv_integer<onnxcc::rt::conv_shape<" << x[0] << ", "
     << x[1] << ", " << x[2] << ", " << x[3] << ", " << w[0] << ", " << w[2]
     << ", " << w[3] << ", " << y[2] << ", " << y[3] << ", " << s[0] << ", "
     << s[1] << ", " << p[0] << ", " << p[1] << ", " << d[0] << ", " << d[1]
     << ", " << op.getGroup() << ">, " << (perChannel ? "true" : "false")
     << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getInput()) << ", " << c.ptr(op.getWeight()) << ", "
     << zp(op.getXZeroPoint()) << ", " << zp(op.getWZeroPoint()) << ",\n"
     << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printDynamicQuantParams(PrintContext &c, raw_indented_ostream &os,
                                      k::DynamicQuantParamsOp op) {
  os << "onnxcc::rt::dynamic_quant_params<" << numElements(op.getInput()) << ">("
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getScale()) << ", "
     << c.ptr(op.getZeroPoint()) << ");\n";
  return success();
}

} // namespace

void addQuantizationPrinters(KernelPrinterTable &t) {
  addPrinter<k::MatMulIntegerOp>(t, printMatMulInteger);
  addPrinter<k::ConvIntegerOp>(t, printConvInteger);
  addPrinter<k::DynamicQuantParamsOp>(t, printDynamicQuantParams);
}

} // namespace onnxcc
