//===- ConvPoolPrinters.cpp - convolution, pooling, unpooling, col2im -----===//
//
// The windowed kernels of runtime-support/onnxcc/conv.h and pool.h take
// one `onnxcc::rt::axis<In, Out, K, S, P, Pe, D>` per spatial axis, three
// in all: a window of rank 1 or 2 gets unit_axis in front.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

/// The three axis types of a window over the spatial dims of `in` (input
/// extents) and `out` (output extents).
static std::string axes(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                        ArrayRef<int64_t> kernel, ArrayRef<int64_t> pads,
                        ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  int64_t n = kernel.size();
  std::string s;
  for (int64_t i = n; i < 3; ++i)
    s += "onnxcc::rt::unit_axis, ";
  for (int64_t i = 0; i < n; ++i) {
    s += "onnxcc::rt::axis<" + std::to_string(in[i]) + ", " +
         std::to_string(out[i]) + ", " + std::to_string(kernel[i]) + ", " +
         std::to_string(strides[i]) + ", " + std::to_string(pads[i]) + ", " +
         std::to_string(pads[n + i]) + ", " + std::to_string(dilations[i]) + ">";
    if (i + 1 < n)
      s += ", ";
  }
  return s;
}

/// A typed null pointer for an absent optional operand of a kernel whose
/// element type is deduced from its arguments.
static std::string typedNull(Value like) {
  return "static_cast<const " + elementOf(like) + " *>(nullptr)";
}

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

static LogicalResult printConv2d(PrintContext &c, raw_indented_ostream &os,
                                 k::Conv2dOp op) {
  auto x = staticShape(op.getInput());
  auto y = staticShape(op.getResult());
  auto [kh, kw] = op.getWindow(); // the weight may be Winograd's [16, O, C]
  auto p = op.getPads(), s = op.getStrides(), d = op.getDilations();
  bool depthwise = op.getAlgorithm() == "depthwise";
  os << "onnxcc::rt::" << (depthwise ? "depthwise2d" : "conv2d")
     << "<onnxcc::rt::conv_shape<" << x[0] << ", " << x[1]
     << ", " << x[2] << ", " << x[3] << ", " << y[1] << ", " << kh << ", "
     << kw << ", " << y[2] << ", " << y[3] << ", " << s[0] << ", " << s[1]
     << ", " << p[0] << ", " << p[1] << ", " << d[0] << ", " << d[1] << ", "
     << op.getGroup() << ">";
  if (!depthwise)
    os << ", onnxcc::rt::conv_algo::"
       << (op.getSplitDepth() ? StringRef("pointwise_split_depth")
                              : op.getAlgorithm());
  os << ">(\n";
  os.indent().indent();
  os << (op.getThreads() > 1 ? "pool, " : "") << c.ptr(op.getInput()) << ", "
     << c.ptr(op.getWeight()) << ", " << c.ptr(op.getBias()) << ",\n"
     << c.ptr(op.getResult()) << ", ";
  if (!depthwise)
    os << c.scratch(op) << ",\n";
  LogicalResult printed = c.epilogue(os, op.getEpilogue());
  os << ");\n";
  os.unindent().unindent();
  return printed;
}

static LogicalResult printConv(PrintContext &c, raw_indented_ostream &os,
                               k::ConvOp op) {
  auto x = staticShape(op.getInput()), w = staticShape(op.getWeight()),
       y = staticShape(op.getResult());
  os << "onnxcc::rt::conv_direct<" << x[0] << ", " << x[1] << ", " << w[0]
     << ", " << op.getGroup() << ",\n";
  os.indent().indent();
  os << axes(x.drop_front(2), y.drop_front(2), w.drop_front(2), op.getPads(),
             op.getStrides(), op.getDilations())
     << ", " << (op.getBias() ? "true" : "false") << ">(\n"
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getWeight()) << ", "
     << (op.getBias() ? c.ptr(op.getBias()) : typedNull(op.getInput())) << ", "
     << c.ptr(op.getResult()) << ");\n";
  os.unindent().unindent();
  return success();
}

static LogicalResult printDeformConv2d(PrintContext &c, raw_indented_ostream &os,
                                       k::DeformConv2dOp op) {
  auto x = staticShape(op.getInput()), w = staticShape(op.getWeight()),
       y = staticShape(op.getResult());
  auto p = op.getPads(), s = op.getStrides(), d = op.getDilations();
  os << "onnxcc::rt::deform_conv2d<" << x[0] << ", " << x[1] << ", " << x[2]
     << ", " << x[3] << ", " << w[0] << ", " << op.getGroup() << ", "
     << op.getOffsetGroup() << ", " << w[2] << ", " << w[3] << ", " << y[2]
     << ", " << y[3] << ",\n";
  os.indent().indent();
  os << s[0] << ", " << s[1] << ", " << p[0] << ", " << p[1] << ", " << d[0]
     << ", " << d[1] << ", " << (op.getBias() ? "true" : "false") << ", "
     << (op.getMask() ? "true" : "false") << ">(\n"
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getWeight()) << ", "
     << c.ptr(op.getOffset()) << ",\n"
     << (op.getMask() ? c.ptr(op.getMask()) : typedNull(op.getInput())) << ", "
     << (op.getBias() ? c.ptr(op.getBias()) : typedNull(op.getInput())) << ", "
     << c.ptr(op.getResult()) << ");\n";
  os.unindent().unindent();
  return success();
}

static LogicalResult printConvTranspose(PrintContext &c, raw_indented_ostream &os,
                                        k::ConvTransposeOp op) {
  auto x = staticShape(op.getInput()), w = staticShape(op.getWeight()),
       y = staticShape(op.getResult());
  os << "onnxcc::rt::conv_transpose<" << x[0] << ", " << x[1] << ", " << y[1]
     << ", " << op.getGroup() << ",\n";
  os.indent().indent();
  os << axes(x.drop_front(2), y.drop_front(2), w.drop_front(2), op.getPads(),
             op.getStrides(), op.getDilations())
     << ", " << (op.getBias() ? "true" : "false") << ">(\n"
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getWeight()) << ", "
     << (op.getBias() ? c.ptr(op.getBias()) : typedNull(op.getInput())) << ", "
     << c.ptr(op.getResult()) << ");\n";
  os.unindent().unindent();
  return success();
}

/// The index strides of the three (padded) axes of a pool's input in
/// row-major (storage_order 0) or column-major order; missing axes get 0.
static SmallVector<int64_t> indexStrides(ArrayRef<int64_t> spatial,
                                         bool columnMajor) {
  int64_t n = spatial.size();
  SmallVector<int64_t> s(3, 0);
  int64_t stride = 1;
  for (int64_t j = 0; j < n; ++j) {
    int64_t i = columnMajor ? j : n - 1 - j;
    s[3 - n + i] = stride;
    stride *= spatial[i];
  }
  return s;
}

static LogicalResult printPool(PrintContext &c, raw_indented_ostream &os,
                               k::PoolOp op) {
  auto x = staticShape(op.getInput()), y = staticShape(op.getOutput());
  std::string window = axes(x.drop_front(2), y.drop_front(2), op.getKernelShape(),
                            op.getPads(), op.getStrides(), op.getDilations());
  int64_t nc = x[0] * x[1];
  StringRef kind = op.getKind();
  std::string args = c.ptr(op.getInput()) + ", " + c.ptr(op.getOutput());
  if (op.getThreads() > 1)
    args = "pool, " + args;
  if (kind == "max" && op.getIndices()) {
    auto s = indexStrides(x.drop_front(2), op.getStorageOrder() == 1);
    os << "onnxcc::rt::max_pool_indices<" << nc << ", " << window << ", " << s[0]
       << ", " << s[1] << ", " << s[2] << ">(\n";
    os.indent().indent();
    os << args << ", " << c.ptr(op.getIndices()) << ");\n";
    os.unindent().unindent();
    return success();
  }
  if (kind == "max")
    os << "onnxcc::rt::max_pool<" << nc << ", " << window;
  else if (kind == "avg")
    os << "onnxcc::rt::avg_pool<" << nc << ", " << window << ", "
       << (op.getCountIncludePad() ? "true" : "false");
  else
    os << "onnxcc::rt::lp_pool<" << nc << ", " << window << ", " << op.getP();
  os << ">(\n";
  os.indent().indent();
  os << args << ");\n";
  os.unindent().unindent();
  return success();
}

static LogicalResult printGlobalPool(PrintContext &c, raw_indented_ostream &os,
                                     k::GlobalPoolOp op) {
  auto x = staticShape(op.getInput());
  int64_t spatial = product(x.drop_front(2));
  StringRef kind = op.getKind();
  os << "onnxcc::rt::global_" << (kind == "avg" ? "avg" : kind == "max" ? "max" : "lp")
     << "_pool<" << x[0] * x[1] << ", " << spatial;
  if (kind == "lp")
    os << ", " << op.getP();
  os << ">(" << c.ptr(op.getInput()) << ", " << c.ptr(op.getResult()) << ");\n";
  return success();
}

static LogicalResult printMaxUnpool(PrintContext &c, raw_indented_ostream &os,
                                    k::MaxUnpoolOp op) {
  auto x = staticShape(op.getInput()), y = staticShape(op.getResult());
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t unpooled[] = " << braceList(op.getUnpooledShape())
     << ";\n";
  os << "static constexpr int64_t out_shape[] = " << braceList(y) << ";\n";
  os << "onnxcc::rt::max_unpool<" << product(x) << ", " << product(y) << ", "
     << y.size() << ">(unpooled, out_shape, " << c.ptr(op.getInput()) << ", "
     << c.ptr(op.getIndices()) << ", " << c.ptr(op.getResult()) << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

static LogicalResult printCol2Im(PrintContext &c, raw_indented_ostream &os,
                                 k::Col2ImOp op) {
  auto y = staticShape(op.getResult());
  ArrayRef<int64_t> block = op.getBlockShape(), pads = op.getPads(),
                    strides = op.getStrides(), dilations = op.getDilations();
  int64_t n = block.size();
  // The window positions along each axis (the kernel's "input" extents).
  SmallVector<int64_t> blocks;
  for (int64_t i = 0; i < n; ++i) {
    int64_t span = y[2 + i] + pads[i] + pads[n + i] - dilations[i] * (block[i] - 1) - 1;
    blocks.push_back(span < 0 ? 0 : span / strides[i] + 1);
  }
  os << "onnxcc::rt::col2im<" << y[0] * y[1] << ", "
     << axes(blocks, y.drop_front(2), block, pads, strides, dilations) << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getInput()) << ", " << c.ptr(op.getResult()) << ");\n";
  os.unindent().unindent();
  return success();
}

void addConvPoolPrinters(KernelPrinterTable &t) {
  addPrinter<k::Conv2dOp>(t, printConv2d);
  addPrinter<k::ConvOp>(t, printConv);
  addPrinter<k::DeformConv2dOp>(t, printDeformConv2d);
  addPrinter<k::ConvTransposeOp>(t, printConvTranspose);
  addPrinter<k::PoolOp>(t, printPool);
  addPrinter<k::GlobalPoolOp>(t, printGlobalPool);
  addPrinter<k::MaxUnpoolOp>(t, printMaxUnpool);
  addPrinter<k::Col2ImOp>(t, printCol2Im);
}

} // namespace onnxcc
