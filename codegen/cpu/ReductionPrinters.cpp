//===- ReductionPrinters.cpp - kernel.reduce and kernel.arg_reduce -------===//
//
// kernel.reduce prints its dimensions split into kept and reduced lists
// with their input strides (reduce.h): dims of 1 are dropped and
// neighbours of one kind merged, so that a mean over H and W of NCHW is
// one contiguous inner run per output.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

/// The product of `dims`, 0 if one is 0. Without a 0 it is bounded by the
/// element count of the tensor they come from; with one, the others may be
/// anything up to kMaxDim, so they are not multiplied.
static int64_t extent(ArrayRef<int64_t> dims) {
  if (llvm::is_contained(dims, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

namespace {
/// Dimensions of one kind, merged, with their input strides.
struct DimList {
  SmallVector<int64_t> shape, strides;
  void add(int64_t size, int64_t stride, bool mergeWithLast) {
    if (mergeWithLast) {
      shape.back() *= size;
      strides.back() = stride;
      return;
    }
    shape.push_back(size);
    strides.push_back(stride);
  }
  /// A kernel needs at least one dimension: a 1 that contributes nothing.
  void padEmpty() {
    if (shape.empty())
      add(1, 0, false);
  }
};
} // namespace

static LogicalResult printReduce(PrintContext &c, raw_indented_ostream &os,
                                 k::ReduceOp op) {
  ArrayRef<int64_t> x = staticShape(op.getInput());
  ArrayRef<int64_t> axes = op.getAxes();
  int64_t outCount = extent(staticShape(op.getResult()));
  if (outCount == 0) {
    os << "// empty output: nothing to compute\n";
    return success();
  }
  DimList kept, reduced;
  int64_t count;
  if (extent(x) == 0) {
    // A reduced dimension is empty: every output is the identity.
    kept.add(outCount, 0, false);
    reduced.add(0, 0, false);
    count = 0;
  } else {
    SmallVector<int64_t> strides(x.size(), 1);
    for (int64_t d = (int64_t)x.size() - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * x[d + 1];
    int lastKind = -1; // 0 kept, 1 reduced
    for (int64_t d = 0, e = x.size(); d < e; ++d) {
      if (x[d] == 1)
        continue;
      int kind = llvm::is_contained(axes, d) ? 1 : 0;
      (kind ? reduced : kept).add(x[d], strides[d], kind == lastKind);
      lastKind = kind;
    }
    count = extent(reduced.shape);
    kept.padEmpty();
    reduced.padEmpty();
  }
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t kept_shape[] = " << braceList(kept.shape) << ";\n"
     << "static constexpr int64_t kept_strides[] = " << braceList(kept.strides) << ";\n"
     << "static constexpr int64_t red_shape[] = " << braceList(reduced.shape) << ";\n"
     << "static constexpr int64_t red_strides[] = " << braceList(reduced.strides) << ";\n";
  os << "onnxcc::rt::reduce<onnxcc::rt::reduce_op::" << op.getKind() << ", " << count
     << ">(kept_shape, kept_strides, red_shape, red_strides,\n";
  os.indent().indent();
  os << c.ptr(op.getInput()) << ", " << c.ptr(op.getResult()) << ");\n";
  os.unindent().unindent().unindent();
  os << "}\n";
  return success();
}

static LogicalResult printArgReduce(PrintContext &c, raw_indented_ostream &os,
                                    k::ArgReduceOp op) {
  ArrayRef<int64_t> x = staticShape(op.getInput());
  int64_t axis = op.getAxis();
  int64_t outer = extent(x.take_front(axis)), inner = extent(x.drop_front(axis + 1));
  if (outer == 0 || inner == 0) {
    os << "// empty output: nothing to compute\n";
    return success();
  }
  os << "onnxcc::rt::arg_reduce<" << (op.getKind() == "max" ? "true" : "false")
     << ", " << (op.getSelectLastIndex() ? "true" : "false") << ", " << outer
     << ", " << x[axis] << ", " << inner << ">(" << c.ptr(op.getInput()) << ", "
     << c.ptr(op.getResult()) << ");\n";
  return success();
}

void addReductionPrinters(KernelPrinterTable &t) {
  addPrinter<k::ReduceOp>(t, printReduce);
  addPrinter<k::ArgReduceOp>(t, printArgReduce);
}

} // namespace onnxcc
