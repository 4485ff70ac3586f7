//===- LinalgPrinters.cpp - GEMM, batched products, strided copies --------===//
//
// kernel.gemm prints as the blocked SIMD gemm() for f32, gemm_panels() for
// an f32 one whose B the compiler packed (gemm_packed.h), gemm_packed_dots()
// for one whose B^T it packed (gemm_packed_dots.h), and gemm_typed()
// for every other element type (runtime-support/onnxcc/gemm.h, linalg.h).
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

static LogicalResult printGemm(PrintContext &c, raw_indented_ostream &os,
                               k::GemmOp op) {
  auto a = staticShape(op.getA());
  auto y = staticShape(op.getResult());
  int64_t m = y[0], n = y[1], kk = op.getTransA() ? a[0] : a[1];
  int64_t rs = 0, cs = 0;
  if (op.getC()) {
    auto cShape = staticShape(op.getC());
    if (cShape.size() == 1)
      cs = cShape[0] == 1 ? 0 : 1;
    else if (cShape.size() == 2) {
      cs = cShape[1] == 1 ? 0 : 1;
      rs = cShape[0] == 1 ? 0 : cShape[1];
    }
  }
  bool f32 = getElementTypeOrSelf(op.getA().getType()).isF32();
  std::string bias = op.getC() ? c.ptr(op.getC())
                     : f32     ? "nullptr"
                               : "static_cast<const " + elementOf(op.getA()) +
                                     " *>(nullptr)";
  if (op.getPackedB()) // the verifier checked: f32, A not transposed
    os << (op.getTransB() ? "onnxcc::rt::gemm_packed_dots<"
                          : "onnxcc::rt::gemm_panels<")
       << m << ", " << n << ", " << kk << ", ";
  else
    os << "onnxcc::rt::" << (f32 ? "gemm<" : "gemm_typed<") << m << ", " << n
       << ", " << kk << ", " << (op.getTransA() ? "true" : "false") << ", "
       << (op.getTransB() ? "true" : "false") << ", ";
  os << rs << ", " << cs << ", " << (op.getC() ? "true" : "false") << ">(\n";
  os.indent().indent();
  os << (op.getThreads() > 1 ? "pool, " : "") << c.ptr(op.getA()) << ", "
     << c.ptr(op.getB()) << ",\n"
     << bias << ", " << formatFloat(op.getAlpha().convertToFloat()) << ", "
     << formatFloat(op.getBeta().convertToFloat()) << ", "
     << c.ptr(op.getResult()) << ",\n";
  LogicalResult printed = c.epilogue(os, op.getEpilogue());
  // The planner reserved the direction's byte for it, and predict() reads
  // it into `weight_sweep`.
  if (k::alternatesSweep(op))
    os << ", weight_sweep";
  os << ");\n";
  os.unindent().unindent();
  return printed;
}

/// Element strides of a row-major tensor of `shape`.
static SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

static LogicalResult printBatchMatMul(PrintContext &c, raw_indented_ostream &os,
                                      k::BatchMatMulOp op) {
  auto a = staticShape(op.getA()), b = staticShape(op.getB()),
       y = staticShape(op.getResult());
  size_t r = y.size() - 2;
  // Batch strides in elements, 0 where an operand is broadcast.
  SmallVector<int64_t> as = rowMajorStrides(a), bs = rowMajorStrides(b);
  SmallVector<int64_t> batch, aStrides, bStrides;
  for (size_t d = 0; d < r; ++d) {
    batch.push_back(y[d]);
    aStrides.push_back(a[d] == 1 ? 0 : as[d]);
    bStrides.push_back(b[d] == 1 ? 0 : bs[d]);
  }
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t batch[] = " << braceList(batch) << ";\n";
  os << "static constexpr int64_t a_strides[] = " << braceList(aStrides) << ";\n";
  os << "static constexpr int64_t b_strides[] = " << braceList(bStrides) << ";\n";
  os << "onnxcc::rt::batch_matmul<" << r << ", " << y[r] << ", " << y[r + 1]
     << ", " << a[r + 1] << ">(" << (op.getThreads() > 1 ? "pool, " : "")
     << "batch, a_strides, b_strides, " << c.ptr(op.getA())
     << ", " << c.ptr(op.getB()) << ", " << c.ptr(op.getResult()) << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

/// A strided gather is the transpose kernel with other strides.
static LogicalResult printStridedCopy(PrintContext &c, raw_indented_ostream &os,
                                      k::StridedCopyOp op) {
  auto y = staticShape(op.getResult());
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t shape[] = " << braceList(y) << ";\n";
  os << "static constexpr int64_t strides[] = " << braceList(op.getStrides())
     << ";\n";
  os << "onnxcc::rt::transpose<" << y.size() << ">(shape, strides, "
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getResult()) << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

void addLinalgPrinters(KernelPrinterTable &t) {
  addPrinter<k::GemmOp>(t, printGemm);
  addPrinter<k::BatchMatMulOp>(t, printBatchMatMul);
  addPrinter<k::StridedCopyOp>(t, printStridedCopy);
}

} // namespace onnxcc
