//===- DataMovementPrinters.cpp - calls of the data movement kernels -----===//
//
// One call of a runtime-support/onnxcc/{data_movement,indexing}.h template
// per kernel op, with every extent, stride and offset a template argument
// (rt::dims<...>) so that the C++ compiler sees the whole copy. Pad's
// index tables for the reflect, edge and wrap modes are computed here from
// the op's attributes.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/DataMovementShapes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {
namespace {

/// "onnxcc::rt::dims<2, 3>".
std::string dims(ArrayRef<int64_t> values) {
  std::string s = "onnxcc::rt::dims<";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + ">";
}

SmallVector<int64_t> rowMajor(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

int64_t product(ArrayRef<int64_t> shape, size_t from = 0,
                size_t to = std::string::npos) {
  int64_t p = 1;
  for (size_t d = from; d < std::min(to, shape.size()); ++d)
    p *= shape[d];
  return p;
}

int64_t count(Value v) { return cast<ShapedType>(v.getType()).getNumElements(); }

/// A typed null pointer for an absent operand.
std::string nullOf(StringRef element) {
  return "static_cast<const " + element.str() + " *>(nullptr)";
}

LogicalResult printCopy(PrintContext &c, raw_indented_ostream &os, k::CopyOp op) {
  if (count(op.getOutput()) == 0) {
    os << "// empty result: nothing to copy\n";
    return success();
  }
  os << "onnxcc::rt::strided_copy<" << dims(op.getShape()) << ", "
     << dims(op.getStrides()) << ", " << (int64_t)op.getOffset() << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getInput()) << ", " << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printPad(PrintContext &c, raw_indented_ostream &os, k::PadOp op) {
  auto in = staticShape(op.getInput()), out = staticShape(op.getOutput());
  ArrayRef<int64_t> pads = op.getPads();
  int64_t rank = in.size();
  if (count(op.getOutput()) == 0) {
    os << "// empty result: nothing to pad\n";
    return success();
  }
  SmallVector<int64_t> inStrides = rowMajor(in), outStrides = rowMajor(out);
  // The part of the input left after cropping by negative pads.
  SmallVector<int64_t> kept, keptFrom;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = std::max<int64_t>(0, -pads[d]);
    int64_t hi = in[d] - std::max<int64_t>(0, -pads[rank + d]);
    keptFrom.push_back(lo);
    kept.push_back(std::max<int64_t>(0, hi - lo));
  }
  if (op.getMode() == "constant") {
    int64_t inOffset = 0, outOffset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      inOffset += keptFrom[d] * inStrides[d];
      outOffset += std::max<int64_t>(0, pads[d]) * outStrides[d];
    }
    // Merge dimensions the kept block spans whole on both sides.
    SmallVector<int64_t> k, ks, os2;
    for (int64_t d = 0; d < rank; ++d) {
      if (!k.empty() && ks.back() == kept[d] * inStrides[d] &&
          os2.back() == kept[d] * outStrides[d]) {
        k.back() *= kept[d];
        ks.back() = inStrides[d];
        os2.back() = outStrides[d];
        continue;
      }
      k.push_back(kept[d]);
      ks.push_back(inStrides[d]);
      os2.push_back(outStrides[d]);
    }
    if (k.empty()) { // rank 0
      k = {1};
      ks = {1};
      os2 = {1};
    }
    std::string element = elementOf(op.getInput());
    os << "onnxcc::rt::pad_constant<" << dims(k) << ", " << dims(ks) << ", "
       << dims(os2) << ", " << inOffset << ", " << outOffset << ", "
       << count(op.getOutput()) << ">(\n";
    os.indent().indent();
    os << c.ptr(op.getInput()) << ", "
       << (op.getValue() ? c.ptr(op.getValue()) : nullOf(element)) << ", "
       << c.ptr(op.getOutput()) << ");\n";
    os.unindent().unindent();
    return success();
  }
  SmallVector<int64_t> table;
  for (int64_t d = 0; d < rank; ++d)
    for (int64_t i = 0; i < out[d]; ++i)
      table.push_back((keptFrom[d] + padSourceIndex(op.getMode(), i, pads[d], kept[d])) *
                      inStrides[d]);
  SmallVector<int64_t> shape(out.begin(), out.end());
  if (shape.empty()) { // rank 0: one element, offset 0
    shape = {1};
    table = {0};
  }
  os << "{\n";
  os.indent();
  os << "// input offset of each output coordinate, dimension after dimension ("
     << op.getMode() << " mode)\n";
  os << "static constexpr int64_t table[] = " << braceList(table) << ";\n";
  os << "onnxcc::rt::pad_table<" << dims(shape) << ">(" << c.ptr(op.getInput())
     << ", table, " << c.ptr(op.getOutput()) << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult printFill(PrintContext &c, raw_indented_ostream &os, k::FillOp op) {
  os << "onnxcc::rt::fill<" << count(op.getOutput()) << ">(" << c.ptr(op.getValue())
     << ", " << c.ptr(op.getOutput()) << ");\n";
  return success();
}

LogicalResult printRange(PrintContext &c, raw_indented_ostream &os, k::RangeOp op) {
  os << "onnxcc::rt::range<" << count(op.getOutput()) << ">(" << c.ptr(op.getStart())
     << ", " << c.ptr(op.getDelta()) << ", " << c.ptr(op.getOutput()) << ");\n";
  return success();
}

LogicalResult printEye(PrintContext &c, raw_indented_ostream &os, k::EyeOp op) {
  auto y = staticShape(op.getOutput());
  // I64Attr getters return uint64_t: the diagonal may be negative.
  os << "onnxcc::rt::eye<" << y[0] << ", " << y[1] << ", " << (int64_t)op.getK() << ">("
     << c.ptr(op.getOutput()) << ");\n";
  return success();
}

LogicalResult printTrilu(PrintContext &c, raw_indented_ostream &os, k::TriluOp op) {
  auto x = staticShape(op.getInput());
  int64_t rank = x.size();
  os << "onnxcc::rt::trilu<" << product(x, 0, rank - 2) << ", " << x[rank - 2]
     << ", " << x[rank - 1] << ", " << (op.getUpper() ? "true" : "false") << ">("
     << c.ptr(op.getInput()) << ", "
     << (op.getK() ? c.ptr(op.getK()) : nullOf("std::int64_t")) << ", "
     << c.ptr(op.getOutput()) << ");\n";
  return success();
}

LogicalResult printCumSum(PrintContext &c, raw_indented_ostream &os,
                          k::CumSumOp op) {
  auto x = staticShape(op.getInput());
  std::string flags = std::string(op.getExclusive() ? "true" : "false") + ", " +
                      (op.getReverse() ? "true" : "false");
  StringRef kernel = op.getProduct() ? "cumprod" : "cumsum";
  if (!op.getAxis()) { // the axis is read at run time
    SmallVector<int64_t> shape(x.begin(), x.end());
    if (shape.empty())
      shape.push_back(1);
    os << "onnxcc::rt::" << kernel << "_axis<" << dims(shape) << ", " << flags << ">("
       << c.ptr(op.getInput()) << ", " << c.ptr(op.getAxisInput()) << ", "
       << c.ptr(op.getOutput()) << ");\n";
    return success();
  }
  size_t axis = *op.getAxis();
  os << "onnxcc::rt::" << kernel << "<" << product(x, 0, axis) << ", " << x[axis] << ", "
     << product(x, axis + 1) << ", " << flags << ">(" << c.ptr(op.getInput())
     << ", " << c.ptr(op.getOutput()) << ");\n";
  return success();
}

LogicalResult printReverseSequence(PrintContext &c, raw_indented_ostream &os,
                                   k::ReverseSequenceOp op) {
  auto x = staticShape(op.getInput());
  int64_t b = op.getBatchAxis(), t = op.getTimeAxis();
  os << "onnxcc::rt::reverse_sequence<" << x[b] << ", " << x[t] << ", "
     << product(x, 2) << ", " << (b == 0 ? "true" : "false") << ">("
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getLens()) << ", "
     << c.ptr(op.getOutput()) << ");\n";
  return success();
}

LogicalResult printTopK(PrintContext &c, raw_indented_ostream &os, k::TopKOp op) {
  auto x = staticShape(op.getInput());
  size_t axis = op.getAxis();
  os << "onnxcc::rt::top_k<" << product(x, 0, axis) << ", " << x[axis] << ", "
     << product(x, axis + 1) << ", " << staticShape(op.getValues())[axis] << ", "
     << (op.getLargest() ? "true" : "false") << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getInput()) << ", " << c.ptr(op.getValues()) << ", "
     << c.ptr(op.getIndices()) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printOneHot(PrintContext &c, raw_indented_ostream &os,
                          k::OneHotOp op) {
  auto y = staticShape(op.getOutput());
  size_t axis = op.getAxis();
  os << "onnxcc::rt::one_hot<" << product(y, 0, axis) << ", " << y[axis] << ", "
     << product(y, axis + 1) << ">(" << c.ptr(op.getIndices()) << ", "
     << c.ptr(op.getValues()) << ", " << c.ptr(op.getOutput()) << ");\n";
  return success();
}

LogicalResult printGather(PrintContext &c, raw_indented_ostream &os,
                          k::GatherOp op) {
  auto d = staticShape(op.getData());
  size_t axis = op.getAxis();
  os << "onnxcc::rt::gather<" << product(d, 0, axis) << ", " << d[axis] << ", "
     << product(d, axis + 1) << ", " << count(op.getIndices()) << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getData()) << ", " << c.ptr(op.getIndices()) << ", "
     << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printGatherElements(PrintContext &c, raw_indented_ostream &os,
                                  k::GatherElementsOp op) {
  auto d = staticShape(op.getData()), i = staticShape(op.getIndices());
  int64_t axis = op.getAxis();
  os << "onnxcc::rt::gather_elements<" << dims(i) << ", " << dims(rowMajor(d))
     << ", " << axis << ", " << d[axis] << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getData()) << ", " << c.ptr(op.getIndices()) << ", "
     << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printGatherND(PrintContext &c, raw_indented_ostream &os,
                            k::GatherNDOp op) {
  auto d = staticShape(op.getData()), i = staticShape(op.getIndices());
  int64_t b = op.getBatchDims(), m = i.back();
  SmallVector<int64_t> strides = rowMajor(d);
  int64_t batch = product(d, 0, b);
  int64_t tuples = product(i, b, i.size() - 1);
  os << "onnxcc::rt::gather_nd<" << batch << ", " << tuples << ", "
     << product(d, b) << ", " << product(d, b + m) << ", "
     << dims(d.slice(b, m)) << ", " << dims(ArrayRef<int64_t>(strides).slice(b, m))
     << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getData()) << ", " << c.ptr(op.getIndices()) << ", "
     << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

int reductionCode(StringRef r) {
  return llvm::StringSwitch<int>(r)
      .Case("add", 1)
      .Case("mul", 2)
      .Case("max", 3)
      .Case("min", 4)
      .Default(0);
}

LogicalResult printScatterElements(PrintContext &c, raw_indented_ostream &os,
                                   k::ScatterElementsOp op) {
  auto d = staticShape(op.getData()), i = staticShape(op.getIndices());
  int64_t axis = op.getAxis();
  os << "onnxcc::rt::scatter_elements<" << dims(i) << ", " << dims(rowMajor(d))
     << ", " << axis << ", " << d[axis] << ", " << reductionCode(op.getReduction())
     << " /*" << op.getReduction() << "*/, " << count(op.getData()) << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getData()) << ", " << c.ptr(op.getIndices()) << ", "
     << c.ptr(op.getUpdates()) << ", " << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printScatterND(PrintContext &c, raw_indented_ostream &os,
                             k::ScatterNDOp op) {
  auto d = staticShape(op.getData()), i = staticShape(op.getIndices());
  int64_t m = i.back();
  SmallVector<int64_t> strides = rowMajor(d);
  os << "onnxcc::rt::scatter_nd<" << product(i, 0, i.size() - 1) << ", "
     << product(d, m) << ", " << dims(d.take_front(m)) << ", "
     << dims(ArrayRef<int64_t>(strides).take_front(m)) << ", "
     << reductionCode(op.getReduction()) << " /*" << op.getReduction() << "*/, "
     << count(op.getData()) << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getData()) << ", " << c.ptr(op.getIndices()) << ", "
     << c.ptr(op.getUpdates()) << ", " << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

LogicalResult printTensorScatter(PrintContext &c, raw_indented_ostream &os,
                                 k::TensorScatterOp op) {
  auto cache = staticShape(op.getCache()), u = staticShape(op.getUpdate());
  size_t axis = op.getAxis();
  os << "onnxcc::rt::tensor_scatter<" << cache[0] << ", " << product(cache, 1, axis)
     << ", " << cache[axis] << ", " << u[axis] << ", " << product(cache, axis + 1)
     << ", " << (op.getCircular() ? "true" : "false") << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getCache()) << ", " << c.ptr(op.getUpdate()) << ", "
     << (op.getIndices() ? c.ptr(op.getIndices()) : nullOf("std::int64_t")) << ", "
     << c.ptr(op.getOutput()) << ");\n";
  os.unindent().unindent();
  return success();
}

} // namespace

void addDataMovementPrinters(KernelPrinterTable &t) {
  addPrinter<k::CopyOp>(t, printCopy);
  addPrinter<k::PadOp>(t, printPad);
  addPrinter<k::FillOp>(t, printFill);
  addPrinter<k::RangeOp>(t, printRange);
  addPrinter<k::EyeOp>(t, printEye);
  addPrinter<k::TriluOp>(t, printTrilu);
  addPrinter<k::CumSumOp>(t, printCumSum);
  addPrinter<k::ReverseSequenceOp>(t, printReverseSequence);
  addPrinter<k::TopKOp>(t, printTopK);
  addPrinter<k::OneHotOp>(t, printOneHot);
  addPrinter<k::GatherOp>(t, printGather);
  addPrinter<k::GatherElementsOp>(t, printGatherElements);
  addPrinter<k::GatherNDOp>(t, printGatherND);
  addPrinter<k::ScatterElementsOp>(t, printScatterElements);
  addPrinter<k::ScatterNDOp>(t, printScatterND);
  addPrinter<k::TensorScatterOp>(t, printTensorScatter);
}

} // namespace onnxcc
