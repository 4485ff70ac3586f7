//===- KernelPrinters.cpp - the printer table and the core kernels -------===//
//
// MLIR's TranslateToCpp layout: one printer per op, here found in a table
// the op families fill (KernelPrinter.h). Each call passes the shapes as
// template arguments and typed pointers into the planned buffers; a
// comment above it names the ONNX nodes it came from (escaped: the names
// are the model's). This file has the table, the emitter's half of the
// PrintContext, and the printers of the core kernels (elementwise loops,
// concat, transpose, softmax).
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/Emitter.h"
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/NodeLocation.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

std::string braceList(ArrayRef<int64_t> values) {
  std::string s = "{";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "}";
}

std::string elementOf(Value v) {
  return cppElementType(getElementTypeOrSelf(v.getType()));
}

ArrayRef<int64_t> staticShape(Value v) { return cast<ShapedType>(v.getType()).getShape(); }

std::string PrintContext::scratch(Operation *op, StringRef element) {
  if (auto s = op->getAttrOfType<IntegerAttr>(k::KernelDialect::kScratchAttr))
    return "onnxcc::rt::at<" + element.str() + ">(ws, " + std::to_string(s.getInt()) + ")";
  return "nullptr";
}

LogicalResult PrintContext::epilogue(raw_indented_ostream &os, Region &r) {
  if (r.empty()) {
    os << "onnxcc::rt::identity{}";
    return success();
  }
  std::string lambda;
  llvm::raw_string_ostream raw(lambda);
  raw_indented_ostream body(raw);
  if (failed(printBodyLambda(body, r.front())))
    return failure();
  auto [it, added] = epilogueNames.try_emplace(
      lambda, "epilogue" + std::to_string(epilogueDefs.size()));
  if (added)
    epilogueDefs.push_back("constexpr auto " + it->second + " = " + lambda + ";\n");
  os << it->second;
  return success();
}

std::string Emitter::ptr(Value v) {
  std::string type = elementOf(v);
  if (auto arg = dyn_cast<BlockArgument>(v))
    return "onnxcc::rt::at<" + type + ">(" + ports[arg.getArgNumber()].bytes() +
           ", 0)";
  Operation *def = v.getDefiningOp();
  if (auto view = dyn_cast<k::ViewOp>(def)) { // the same bytes
    std::string base = ptr(view.getInput());
    if (elementOf(view.getInput()) == type)
      return base;
    return "onnxcc::rt::at<" + type + ">(" + base + ", 0)"; // a BitCast
  }
  if (auto weight = dyn_cast<k::WeightOp>(def)) {
    auto offset = weight->getAttrOfType<IntegerAttr>(k::KernelDialect::kBlobOffsetAttr);
    if (offset)
      return "onnxcc::rt::at<" + type + ">(wt, " + std::to_string(offset.getInt()) + ")";
  } else {
    auto buffers = def->getAttrOfType<DenseI64ArrayAttr>(k::KernelDialect::kBuffersAttr);
    auto offsets = def->getAttrOfType<DenseI64ArrayAttr>(k::KernelDialect::kOffsetsAttr);
    unsigned r = cast<OpResult>(v).getResultNumber();
    if (buffers && offsets && r < buffers.size() && r < offsets.size()) {
      int64_t buffer = buffers[r];
      std::string base = buffer < 0 ? "ws" : ports[numInputs + buffer].bytes();
      return "onnxcc::rt::at<" + type + ">(" + base + ", " +
             std::to_string(offsets[r]) + ")";
    }
  }
  if (!unplanned)
    def->emitError() << "internal error: the memory plan gave result #"
                     << cast<OpResult>(v).getResultNumber()
                     << " no buffer (run --onnxcc-plan-memory before emission)";
  unplanned = true;
  return "nullptr";
}

/// Element strides of `in` when broadcast to an output of rank `rank` (0
/// along broadcast dimensions).
static SmallVector<int64_t> broadcastStrides(ArrayRef<int64_t> in, int64_t rank) {
  SmallVector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (int64_t dIn = (int64_t)in.size() - 1; dIn >= 0; --dIn) {
    int64_t dOut = dIn + rank - in.size();
    strides[dOut] = in[dIn] == 1 ? 0 : stride;
    stride *= in[dIn];
  }
  return strides;
}

/// Broadcast loop axes with every input's strides: axes of extent 1 are
/// dropped and neighbours contiguous in every input merged, so that
/// map_strided()'s innermost run, the one it vectorises, is as long as
/// the broadcast allows (an SE block's [1,C,H,W] * [1,C,1,1] becomes
/// [C, H*W]).
struct BroadcastLoop {
  SmallVector<int64_t> shape;
  SmallVector<SmallVector<int64_t>> strides; // per input
};

static BroadcastLoop mergeBroadcastAxes(ArrayRef<int64_t> shape,
                                        ArrayRef<SmallVector<int64_t>> strides) {
  BroadcastLoop loop;
  loop.strides.resize(strides.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    // Merge axis d into the previous kept axis when every input steps
    // through both as one: stride(prev) == stride(d) * extent(d).
    bool merge = !loop.shape.empty() &&
                 llvm::all_of(llvm::seq<size_t>(0, strides.size()), [&](size_t i) {
                   return loop.strides[i].back() == strides[i][d] * shape[d];
                 });
    if (merge) {
      loop.shape.back() *= shape[d];
      for (size_t i = 0; i < strides.size(); ++i)
        loop.strides[i].back() = strides[i][d];
      continue;
    }
    loop.shape.push_back(shape[d]);
    for (size_t i = 0; i < strides.size(); ++i)
      loop.strides[i].push_back(strides[i][d]);
  }
  if (loop.shape.empty()) { // every axis of extent 1
    loop.shape.push_back(1);
    for (auto &s : loop.strides)
      s.push_back(0);
  }
  return loop;
}

static LogicalResult printElementwise(PrintContext &c, raw_indented_ostream &os,
                                 k::ElementwiseOp op) {
  auto outType = cast<ShapedType>(op.getType());
  auto shape = outType.getShape();
  Block &body = op.getBody().front();
  bool simple = llvm::all_of(op.getInputs(), [&](Value v) {
    auto t = cast<ShapedType>(v.getType());
    return t.getShape() == shape || t.getNumElements() == 1;
  });
  auto inputs = [&](auto printOne) {
    for (Value v : op.getInputs()) {
      os << ",\n";
      printOne(v);
    }
  };
  // The SIMD loop needs float everywhere; anything else runs scalar.
  bool vector = outType.getElementType().isF32() &&
                llvm::all_of(op.getInputs(), [](Value v) {
                  return getElementTypeOrSelf(v.getType()).isF32();
                }) &&
                k::isVectorizableBody(body);
  if (simple) {
    // A split map is map()'s case (the verifier holds it to that).
    os << "onnxcc::rt::" << (vector ? "map<" : "map_scalar<")
       << outType.getNumElements() << ">("
       << (op.getThreads() > 1 ? "pool, " : "") << c.ptr(op.getResult())
       << ",\n";
    os.indent().indent();
    LogicalResult printed = printBodyLambda(os, body);
    inputs([&](Value v) {
      bool dense = cast<ShapedType>(v.getType()).getShape() == shape;
      os << "onnxcc::rt::" << (dense ? "dense_in<" : "splat_in<") << elementOf(v)
         << ">{" << c.ptr(v) << "}";
    });
    os << ");\n";
    os.unindent().unindent();
    return printed;
  }
  SmallVector<SmallVector<int64_t>> strides;
  for (Value v : op.getInputs())
    strides.push_back(broadcastStrides(
        cast<ShapedType>(v.getType()).getShape(), shape.size()));
  BroadcastLoop loop = mergeBroadcastAxes(shape, strides);
  int64_t rank = loop.shape.size();
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t shape[" << rank
     << "] = " << braceList(loop.shape) << ";\n";
  os << "onnxcc::rt::map_strided<" << rank << ", " << (vector ? "true" : "false")
     << ">(shape, " << c.ptr(op.getResult()) << ",\n";
  os.indent().indent();
  LogicalResult printed = printBodyLambda(os, body);
  unsigned i = 0;
  inputs([&](Value v) {
    os << "onnxcc::rt::strided_in<" << rank << ", " << elementOf(v) << ">{"
       << c.ptr(v) << ", " << braceList(loop.strides[i++]) << "}";
  });
  os << ");\n";
  os.unindent().unindent().unindent();
  os << "}\n";
  return printed;
}

static LogicalResult printConcat(PrintContext &c, raw_indented_ostream &os,
                                 k::ConcatOp op) {
  if (op->hasAttr(k::KernelDialect::kInPlaceAttr)) {
    os << "// planned in place: the inputs were written into their slices\n";
    return success();
  }
  auto y = cast<ShapedType>(op.getType()).getShape();
  int64_t axis = op.getAxis(), outer = 1, innerUnit = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= y[d];
  for (int64_t d = axis + 1; d < (int64_t)y.size(); ++d)
    innerUnit *= y[d];
  int64_t outInner = y[axis] * innerUnit, offset = 0;
  for (Value v : op.getInputs()) {
    int64_t inner = cast<ShapedType>(v.getType()).getDimSize(axis) * innerUnit;
    os << "onnxcc::rt::concat_part<" << outer << ", " << inner << ", " << outInner
       << ">(" << c.ptr(v) << ", " << c.ptr(op.getResult()) << " + " << offset
       << ");\n";
    offset += inner;
  }
  return success();
}

static LogicalResult printTranspose(PrintContext &c, raw_indented_ostream &os,
                                 k::TransposeOp op) {
  auto in = cast<ShapedType>(op.getInput().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  SmallVector<int64_t> inStrides(in.size(), 1), strides;
  for (int64_t d = (int64_t)in.size() - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * in[d + 1];
  for (int64_t p : op.getPerm())
    strides.push_back(inStrides[p]);
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t shape[] = " << braceList(y) << ";\n";
  os << "static constexpr int64_t strides[] = " << braceList(strides) << ";\n";
  os << "onnxcc::rt::transpose<" << y.size() << ">(shape, strides, "
     << c.ptr(op.getInput()) << ", " << c.ptr(op.getResult()) << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

void Emitter::emitReturn(raw_indented_ostream &os, func::ReturnOp op) {
  for (auto [i, v] : llvm::enumerate(op.getOperands())) {
    std::string src = ptr(v);
    const Port &port = ports[numInputs + i];
    std::string dst = "onnxcc::rt::at<" + elementOf(v) + ">(" + port.bytes() + ", 0)";
    if (src == dst)
      continue;
    auto type = cast<ShapedType>(v.getType());
    os << "// graph output " << i << " is not computed in place: copy it\n";
    // String elements are pointers, whose size is the target's.
    std::string bytes =
        port.isStrings()
            ? "sizeof(const char *) * " + std::to_string(type.getNumElements())
            : std::to_string(type.getNumElements() *
                             elementBytes(type.getElementType()));
    os << "onnxcc::rt::copy<" << bytes << ">(" << src << ", " << port.bytes()
       << ");\n";
  }
}

LogicalResult Emitter::emitOp(raw_indented_ostream &os, Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>() || isa<k::ViewOp>(op))
    return success();
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    emitReturn(os, ret);
    return success();
  }
  SmallVector<std::string> names;
  for (const ModelPosition &p : modelPositions(op->getLoc()))
    if (!p.name.empty())
      names.push_back(p.describe(commentText));
  if (int64_t more = omittedPositions(op->getLoc()))
    names.push_back("(" + std::to_string(more) + " more nodes)");
  os << "// " << (names.empty() ? op->getName().getStringRef().str()
                                : llvm::join(names, " + "))
     << "\n";
  const KernelPrinterTable &printers = kernelPrinters();
  auto it = printers.find(op->getName().getTypeID());
  if (it == printers.end())
    return op->emitError() << "the C++ emitter has no printer for '"
                           << op->getName() << "'";
  return it->second(*this, os, op);
}

static LogicalResult printSoftmax(PrintContext &c, raw_indented_ostream &os,
                                  k::SoftmaxOp op) {
  auto x = staticShape(op.getResult());
  int64_t axis = op.getAxis(), outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= x[d];
  for (int64_t d = axis + 1; d < (int64_t)x.size(); ++d)
    inner *= x[d];
  os << "onnxcc::rt::softmax<" << outer << ", " << x[axis] << ", " << inner << ">("
     << (op.getThreads() > 1 ? "pool, " : "") << c.ptr(op.getInput()) << ", "
     << c.ptr(op.getResult()) << ");\n";
  return success();
}

void addCorePrinters(KernelPrinterTable &t) {
  addPrinter<k::ElementwiseOp>(t, printElementwise);
  addPrinter<k::ConcatOp>(t, printConcat);
  addPrinter<k::TransposeOp>(t, printTranspose);
  addPrinter<k::SoftmaxOp>(t, printSoftmax);
}

const KernelPrinterTable &kernelPrinters() {
  static const KernelPrinterTable table = [] {
    KernelPrinterTable t;
    addCorePrinters(t);
    addLinalgPrinters(t);
    addConvPoolPrinters(t);
    addRecurrentPrinters(t);
    addQuantizationPrinters(t);
    addDataMovementPrinters(t);
    addNormalizationPrinters(t);
    addReductionPrinters(t);
    addImagePrinters(t);
    addAttentionPrinters(t);
    addRotaryPrinters(t);
    addMlPrinters(t);
    addMlStringPrinters(t);
    return t;
  }();
  return table;
}

} // namespace onnxcc
