//===- CppEmitter.cpp - kernel dialect to C++ -----------------------------===//
//
// Prepare, then print: the pipeline decided every buffer's home; this file
// only turns each kernel op into one call of a runtime-support template
// with its shapes as template arguments (MLIR's TranslateToCpp layout: a
// TypeSwitch over ops, one printer per op).
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/CppEmitter.h"

#include "codegen/cpu/ScalarBodyEmitter.h"
#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/NodeLocation.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Path.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

static constexpr const char *kVersion = "0.1.0";

bool isValidCppName(const std::string &name) {
  static const llvm::StringSet<> keywords = {
      "alignas", "auto", "bool", "break", "case", "char", "class", "const",
      "default", "delete", "do", "double", "else", "enum", "extern", "float",
      "for", "if", "int", "long", "namespace", "new", "operator", "private",
      "public", "return", "short", "signed", "static", "std", "struct",
      "switch", "template", "this", "typedef", "union", "unsigned", "using",
      "void", "volatile", "while", "onnxcc"};
  if (name.empty() || isdigit((unsigned char)name[0]) || keywords.contains(name))
    return false;
  return llvm::all_of(name, [](char c) { return isalnum((unsigned char)c) || c == '_'; });
}

/// A C++ identifier for an ONNX tensor name ("input.1" -> "input_1").
static std::string identifier(StringRef name, StringRef fallback) {
  std::string out;
  for (char c : name)
    out += isalnum((unsigned char)c) ? c : '_';
  if (!isValidCppName(out))
    out = fallback.str() + (out.empty() ? "" : "_" + out);
  return out;
}

static std::string cppElementType(Type t) {
  if (t.isF32()) return "float";
  if (t.isF64()) return "double";
  if (t.isInteger(64)) return "std::int64_t";
  if (t.isInteger(32)) return "std::int32_t";
  if (t.isInteger(8)) return t.isUnsignedInteger() ? "std::uint8_t" : "std::int8_t";
  return "";
}

/// "[1][784]" for the C array declarator of a shape.
static std::string arrayDims(ArrayRef<int64_t> shape) {
  std::string s;
  for (int64_t d : shape)
    s += "[" + std::to_string(d) + "]";
  return s;
}

/// "{1, 784}" for a constexpr shape array.
static std::string braceList(ArrayRef<int64_t> values) {
  std::string s = "{";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "}";
}

namespace {
/// A graph input or output as the generated API presents it.
struct Port {
  bool isInput;
  unsigned index;
  std::string onnxName; ///< the tensor's name in the model
  std::string name;     ///< its C++ parameter name ("input", "input_1")
  ShapedType type;

  std::string element() const { return cppElementType(type.getElementType()); }
  /// The array typedef in the header: Input0, Output1.
  std::string typeName() const {
    return (isInput ? "Input" : "Output") + std::to_string(index);
  }
  /// The byte pointer predict() derives from the parameter: in_x, out_y.
  std::string bytes() const { return (isInput ? "in_" : "out_") + name; }
  /// "const Input0 &input" in predict().
  std::string cppParam() const {
    return (isInput ? "const " : "") + typeName() + " &" + name;
  }
  /// "const float *input" in the C entry point.
  std::string cParam() const {
    return (isInput ? "const " : "") + element() + " *" + name;
  }
};

class Emitter {
public:
  Emitter(ModuleOp module, const EmitOptions &options, EmittedModel &out)
      : module(module), options(options), out(out) {}
  LogicalResult run();

private:
  LogicalResult collectWeights(func::FuncOp func);
  void emitHeader(func::FuncOp func);
  LogicalResult emitSource(func::FuncOp func);
  LogicalResult emitOp(raw_indented_ostream &os, Operation *op);
  LogicalResult emitGemm(raw_indented_ostream &os, k::GemmOp op);
  LogicalResult emitConv(raw_indented_ostream &os, k::Conv2dOp op);
  LogicalResult emitPool(raw_indented_ostream &os, k::Pool2dOp op);
  LogicalResult emitElementwise(raw_indented_ostream &os, k::ElementwiseOp op);
  LogicalResult emitConcat(raw_indented_ostream &os, k::ConcatOp op);
  void emitReturn(raw_indented_ostream &os, func::ReturnOp op);
  std::string ptr(Value v);
  std::string epilogue(Region &r);
  std::string banner();
  std::string planComment();
  LogicalResult collectPorts(func::FuncOp func);
  /// `fn(port)` for every port, joined by ", ".
  template <typename Fn> std::string joinPorts(Fn fn) const {
    SmallVector<std::string> parts;
    for (const Port &p : ports)
      parts.push_back(fn(p));
    return llvm::join(parts, ", ");
  }

  ModuleOp module;
  const EmitOptions &options;
  EmittedModel &out;
  llvm::DenseMap<Operation *, int64_t> weightOffset;
  SmallVector<Port> ports; ///< inputs, then outputs
  unsigned numInputs = 0;
};
} // namespace

std::string Emitter::banner() {
  std::string opset = "?", producer;
  if (auto a = module->getAttrOfType<IntegerAttr>("onnx.opset"))
    opset = std::to_string(a.getInt());
  if (auto a = module->getAttrOfType<StringAttr>("onnx.producer"))
    producer = a.getValue().trim().str();
  return "// Generated by onnxcc " + std::string(kVersion) + " from " +
         llvm::sys::path::filename(options.modelPath).str() + " (opset " + opset +
         (producer.empty() ? "" : ", producer " + producer) +
         "). Do not edit.\n// Flags: " + options.commandLine + "\n";
}

/// The C++ expression of a value's storage.
std::string Emitter::ptr(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return "onnxcc::rt::at<float>(" + ports[arg.getArgNumber()].bytes() + ", 0)";
  Operation *def = v.getDefiningOp();
  if (auto view = dyn_cast<k::ViewOp>(def))
    return ptr(view.getInput());
  if (weightOffset.count(def))
    return "onnxcc::rt::at<float>(wt, " + std::to_string(weightOffset[def]) + ")";
  auto offset = def->getAttrOfType<IntegerAttr>(k::KernelDialect::kOffsetAttr);
  int64_t off = offset ? offset.getInt() : 0;
  if (auto output = def->getAttrOfType<IntegerAttr>(k::KernelDialect::kOutputAttr))
    return "onnxcc::rt::at<float>(" + ports[numInputs + output.getInt()].bytes() + ", " +
           std::to_string(off) + ")";
  return "onnxcc::rt::at<float>(ws, " + std::to_string(off) + ")";
}

LogicalResult Emitter::collectWeights(func::FuncOp func) {
  for (Operation &op : func.getBody().front()) {
    if (!op.hasTrait<OpTrait::ConstantLike>() || op.use_empty())
      continue;
    auto attr = dyn_cast<ElementsAttr>(cast<onnx::ConstantOp>(op).getValue());
    if (!attr.getElementType().isF32())
      return op.emitError() << "cannot emit a constant of type "
                            << attr.getType() << " used at run time";
    while (out.weights.size() % 64)
      out.weights.push_back(0);
    weightOffset[&op] = out.weights.size();
    if (!appendRawBytes(attr, out.weights))
      return op.emitError() << "cannot serialise constant " << attr.getType();
  }
  return success();
}

std::string Emitter::epilogue(Region &r) {
  if (r.empty())
    return "onnxcc::rt::identity{}";
  return emitScalarLambda(r.front());
}

LogicalResult Emitter::emitGemm(raw_indented_ostream &os, k::GemmOp op) {
  auto a = cast<ShapedType>(op.getA().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  int64_t m = y[0], n = y[1], kk = op.getTransA() ? a[0] : a[1];
  int64_t rs = 0, cs = 0;
  if (op.getC()) {
    auto c = cast<ShapedType>(op.getC().getType()).getShape();
    if (c.size() == 1)
      cs = c[0] == 1 ? 0 : 1;
    else if (c.size() == 2) {
      cs = c[1] == 1 ? 0 : 1;
      rs = c[0] == 1 ? 0 : c[1];
    }
  }
  os << "onnxcc::rt::gemm<" << m << ", " << n << ", " << kk << ", "
     << (op.getTransA() ? "true" : "false") << ", "
     << (op.getTransB() ? "true" : "false") << ", " << rs << ", " << cs << ", "
     << (op.getC() ? "true" : "false") << ">(\n    " << ptr(op.getA()) << ", "
     << ptr(op.getB()) << ",\n    " << (op.getC() ? ptr(op.getC()) : "nullptr")
     << ", " << formatFloat(op.getAlpha().convertToFloat()) << ", "
     << formatFloat(op.getBeta().convertToFloat()) << ", " << ptr(op.getResult())
     << ",\n    " << epilogue(op.getEpilogue()) << ");\n";
  return success();
}

LogicalResult Emitter::emitConv(raw_indented_ostream &os, k::Conv2dOp op) {
  auto x = cast<ShapedType>(op.getInput().getType()).getShape();
  auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  auto p = op.getPads(), s = op.getStrides(), d = op.getDilations();
  os << "onnxcc::rt::conv2d<onnxcc::rt::conv_shape<" << x[0] << ", " << x[1]
     << ", " << x[2] << ", " << x[3] << ", " << w[0] << ", " << w[2] << ", "
     << w[3] << ", " << y[2] << ", " << y[3] << ", " << s[0] << ", " << s[1]
     << ", " << p[0] << ", " << p[1] << ", " << d[0] << ", " << d[1] << ", "
     << op.getGroup() << ">>(\n    " << ptr(op.getInput()) << ", "
     << ptr(op.getWeight()) << ", " << ptr(op.getBias()) << ",\n    "
     << ptr(op.getResult()) << ", ";
  if (auto scratch = op->getAttrOfType<IntegerAttr>(k::KernelDialect::kScratchAttr))
    os << "onnxcc::rt::at<float>(ws, " << scratch.getInt() << ")";
  else
    os << "nullptr";
  os << ",\n    " << epilogue(op.getEpilogue()) << ");\n";
  return success();
}

LogicalResult Emitter::emitPool(raw_indented_ostream &os, k::Pool2dOp op) {
  auto x = cast<ShapedType>(op.getInput().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  auto kk = op.getKernelShape(), p = op.getPads(), s = op.getStrides(),
       d = op.getDilations();
  bool isMax = op.getKind() == "max";
  os << "onnxcc::rt::" << (isMax ? "max_pool2d<" : "avg_pool2d<") << x[0] * x[1]
     << ", " << x[2] << ", " << x[3] << ", " << y[2] << ", " << y[3] << ", "
     << kk[0] << ", " << kk[1] << ", " << s[0] << ", " << s[1] << ", " << p[0]
     << ", " << p[1] << ", " << p[2] << ", " << p[3] << ", " << d[0] << ", "
     << d[1];
  if (!isMax)
    os << ", " << (op.getCountIncludePad() ? "true" : "false");
  os << ">(" << ptr(op.getInput()) << ", " << ptr(op.getResult()) << ");\n";
  return success();
}

LogicalResult Emitter::emitElementwise(raw_indented_ostream &os,
                                       k::ElementwiseOp op) {
  auto outType = cast<ShapedType>(op.getType());
  auto shape = outType.getShape();
  bool simple = llvm::all_of(op.getInputs(), [&](Value v) {
    auto t = cast<ShapedType>(v.getType());
    return t.getShape() == shape || t.getNumElements() == 1;
  });
  std::string lambda = emitScalarLambda(op.getBody().front());
  if (simple) {
    os << "onnxcc::rt::map<" << outType.getNumElements() << ">(" << ptr(op.getResult())
       << ",\n    " << lambda;
    for (Value v : op.getInputs())
      os << ",\n    onnxcc::rt::"
         << (cast<ShapedType>(v.getType()).getShape() == shape ? "dense_in{"
                                                               : "splat_in{")
         << ptr(v) << "}";
    os << ");\n";
    return success();
  }
  int64_t rank = shape.size();
  os << "{\n";
  os.indent();
  os << "static constexpr int64_t shape[" << rank << "] = " << braceList(shape)
     << ";\n";
  os << "onnxcc::rt::map_strided<" << rank << ">(shape, " << ptr(op.getResult())
     << ",\n    " << lambda;
  for (Value v : op.getInputs()) {
    auto in = cast<ShapedType>(v.getType()).getShape();
    SmallVector<int64_t> strides(rank, 0);
    int64_t stride = 1;
    for (int64_t dIn = (int64_t)in.size() - 1; dIn >= 0; --dIn) {
      int64_t dOut = dIn + rank - in.size();
      strides[dOut] = in[dIn] == 1 ? 0 : stride;
      stride *= in[dIn];
    }
    os << ",\n    onnxcc::rt::strided_in<" << rank << ">{" << ptr(v) << ", "
       << braceList(strides) << "}";
  }
  os << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult Emitter::emitConcat(raw_indented_ostream &os, k::ConcatOp op) {
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
       << ">(" << ptr(v) << ", " << ptr(op.getResult()) << " + " << offset
       << ");\n";
    offset += inner;
  }
  return success();
}

void Emitter::emitReturn(raw_indented_ostream &os, func::ReturnOp op) {
  for (auto [i, v] : llvm::enumerate(op.getOperands())) {
    std::string src = ptr(v);
    const Port &port = ports[numInputs + i];
    std::string dst = "onnxcc::rt::at<float>(" + port.bytes() + ", 0)";
    if (src == dst)
      continue;
    os << "// graph output " << i << " is not computed in place: copy it\n";
    os << "onnxcc::rt::copy<" << cast<ShapedType>(v.getType()).getNumElements() * 4
       << ">(" << src << ", " << port.bytes() << ");\n";
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
      names.push_back(p.describe());
  os << "// " << (names.empty() ? op->getName().getStringRef().str()
                                : llvm::join(names, " + "))
     << "\n";
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](k::GemmOp o) { return emitGemm(os, o); })
      .Case([&](k::Conv2dOp o) { return emitConv(os, o); })
      .Case([&](k::Pool2dOp o) { return emitPool(os, o); })
      .Case([&](k::ElementwiseOp o) { return emitElementwise(os, o); })
      .Case([&](k::ConcatOp o) { return emitConcat(os, o); })
      .Case([&](k::GlobalAvgPoolOp o) {
        auto x = cast<ShapedType>(o.getInput().getType()).getShape();
        int64_t spatial = 1;
        for (size_t d = 2; d < x.size(); ++d)
          spatial *= x[d];
        os << "onnxcc::rt::global_avg_pool<" << x[0] * x[1] << ", " << spatial
           << ">(" << ptr(o.getInput()) << ", " << ptr(o.getResult()) << ");\n";
        return success();
      })
      .Case([&](k::SoftmaxOp o) {
        auto x = cast<ShapedType>(o.getType()).getShape();
        int64_t axis = o.getAxis(), outer = 1, inner = 1;
        for (int64_t d = 0; d < axis; ++d)
          outer *= x[d];
        for (int64_t d = axis + 1; d < (int64_t)x.size(); ++d)
          inner *= x[d];
        os << "onnxcc::rt::softmax<" << outer << ", " << x[axis] << ", " << inner
           << ">(" << ptr(o.getInput()) << ", " << ptr(o.getResult()) << ");\n";
        return success();
      })
      .Case([&](k::TransposeOp o) {
        auto in = cast<ShapedType>(o.getInput().getType()).getShape();
        auto y = cast<ShapedType>(o.getType()).getShape();
        SmallVector<int64_t> inStrides(in.size(), 1), strides;
        for (int64_t d = (int64_t)in.size() - 2; d >= 0; --d)
          inStrides[d] = inStrides[d + 1] * in[d + 1];
        for (int64_t p : o.getPerm())
          strides.push_back(inStrides[p]);
        os << "{\n";
        os.indent();
        os << "static constexpr int64_t shape[] = " << braceList(y) << ";\n";
        os << "static constexpr int64_t strides[] = " << braceList(strides) << ";\n";
        os << "onnxcc::rt::transpose<" << y.size() << ">(shape, strides, "
           << ptr(o.getInput()) << ", " << ptr(o.getResult()) << ");\n";
        os.unindent();
        os << "}\n";
        return success();
      })
      .Default([&](Operation *other) {
        return other->emitError() << "the C++ emitter has no printer for '"
                                  << other->getName() << "'";
      });
}

void Emitter::emitHeader(func::FuncOp func) {
  std::string s;
  llvm::raw_string_ostream os(s);
  const std::string &n = options.name;
  std::string guard = "ONNXCC_GENERATED_" + StringRef(n).upper() + "_H";
  int64_t ws = 0;
  if (auto a = module->getAttrOfType<IntegerAttr>(k::KernelDialect::kWorkspaceAttr))
    ws = a.getInt();
  os << banner() << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <cstddef>\n#include <cstdint>\n\n"
     << "namespace " << n << " {\n\n"
     << "/// Bytes of scratch memory predict() needs (the planned arena).\n"
     << "inline constexpr std::size_t kWorkspaceBytes = " << ws << ";\n"
     << "/// Bytes of weights linked into the program.\n"
     << "inline constexpr std::size_t kWeightBytes = " << out.weights.size() << ";\n"
     << "inline constexpr int kNumInputs = " << func.getNumArguments() << ";\n"
     << "inline constexpr int kNumOutputs = " << func.getNumResults() << ";\n\n";
  for (const Port &p : ports) {
    auto shape = p.type.getShape();
    os << "/// " << (p.isInput ? "input " : "output ") << p.index << ": '"
       << p.onnxName << "', " << p.element() << arrayDims(shape) << "\n"
       << "inline constexpr std::int64_t k" << p.typeName() << "Shape[] = "
       << braceList(shape.empty() ? ArrayRef<int64_t>{1} : shape) << ";\n"
       << "using " << p.typeName() << " = " << p.element() << arrayDims(shape)
       << ";\n";
  }
  std::string params = joinPorts([](const Port &p) { return p.cppParam(); });
  os << "\n/// Caller-owned scratch memory; one per concurrent predict() call.\n"
     << "struct alignas(64) Workspace {\n"
     << "  unsigned char bytes[kWorkspaceBytes > 0 ? kWorkspaceBytes : 1];\n"
     << "};\n\n"
     << "/// Runs the model. Reentrant: writes only `workspace` and the outputs;\n"
     << "/// no heap allocation, exceptions or global state.\n"
     << "void predict(" << params << ", Workspace &workspace);\n\n"
     << "/// Runs the model with a static workspace (not reentrant).\n"
     << "void predict(" << params << ");\n\n"
     << "} // namespace " << n << "\n\n"
     << "extern \"C\" {\n"
     << "/// C entry point: buffers are dense row-major arrays of the shapes above;\n"
     << "/// `workspace` is kWorkspaceBytes aligned to 64, or NULL for a static one.\n"
     << "void " << n << "_predict("
     << joinPorts([](const Port &p) { return p.cParam(); }) << ", void *workspace);\n"
     << "std::size_t " << n << "_workspace_bytes(void);\n"
     << "}\n\n#endif // " << guard << "\n";
  out.header = s;
}

/// The memory plan in figures, when the planner recorded them.
std::string Emitter::planComment() {
  auto get = [&](StringRef attr) {
    auto a = module->getAttrOfType<IntegerAttr>(attr);
    return a ? std::to_string(a.getInt()) : std::string();
  };
  std::string arena = get(k::KernelDialect::kWorkspaceAttr),
              all = get(k::KernelDialect::kUnplannedAttr),
              peak = get(k::KernelDialect::kPeakLiveAttr),
              pair = get(k::KernelDialect::kLivePairAttr);
  if (arena.empty() || all.empty() || peak.empty() || pair.empty())
    return "";
  return "// Memory plan: arena " + arena + " bytes; all intermediates " + all +
         " bytes; peak live " + peak + " bytes; largest live pair " + pair +
         " bytes.\n\n";
}

LogicalResult Emitter::emitSource(func::FuncOp func) {
  std::string s;
  llvm::raw_string_ostream raw(s);
  raw_indented_ostream os(raw);
  const std::string &n = options.name;
  os << banner() << "#include \"" << n << ".h\"\n\n#include \"onnxcc/runtime.h\"\n\n"
     << "// The weight blob, linked from " << n << "_weights.S (.incbin of "
     << n << ".weights.bin).\n"
     << "extern \"C\" const unsigned char onnxcc_" << n << "_weights[];\n\n"
     << planComment() << "namespace " << n << " {\n\n";
  std::string params = joinPorts([](const Port &p) { return p.cppParam(); });
  os << "void predict(" << params << ", Workspace &workspace) {\n";
  os.indent();
  os << "[[maybe_unused]] unsigned char *const ws = workspace.bytes;\n"
     << "[[maybe_unused]] const unsigned char *const wt = onnxcc_" << n
     << "_weights;\n";
  for (const Port &p : ports) {
    const char *bytes = p.isInput ? "const unsigned char" : "unsigned char";
    os << "[[maybe_unused]] " << bytes << " *const " << p.bytes()
       << " = reinterpret_cast<" << bytes << " *>(&" << p.name << ");\n";
  }
  for (Operation &op : func.getBody().front())
    if (failed(emitOp(os, &op)))
      return failure();
  os.unindent();
  std::string args = joinPorts([](const Port &p) { return p.name; });
  std::string casts = joinPorts([&](const Port &p) {
    return "*reinterpret_cast<" + std::string(p.isInput ? "const " : "") + n +
           "::" + p.typeName() + " *>(" + p.name + ")";
  });
  os << "}\n\n"
     << "void predict(" << params << ") {\n"
     << "  static Workspace workspace;\n"
     << "  predict(" << args << ", workspace);\n}\n\n"
     << "} // namespace " << n << "\n\n"
     << "extern \"C\" void " << n << "_predict("
     << joinPorts([](const Port &p) { return p.cParam(); })
     << ", void *workspace) {\n"
     << "  if (workspace)\n"
     << "    " << n << "::predict(" << casts << ",\n"
     << "        *static_cast<" << n << "::Workspace *>(workspace));\n"
     << "  else\n"
     << "    " << n << "::predict(" << casts << ");\n}\n\n"
     << "extern \"C\" std::size_t " << n << "_workspace_bytes(void) {\n"
     << "  return " << n << "::kWorkspaceBytes;\n}\n";
  out.source = s;
  return success();
}

/// Names every graph input and output as a unique C++ identifier.
LogicalResult Emitter::collectPorts(func::FuncOp func) {
  llvm::StringSet<> used;
  auto add = [&](bool isInput, unsigned i, Type t,
                 StringAttr onnxName) -> LogicalResult {
    std::string fallback = (isInput ? "input" : "output") + std::to_string(i);
    std::string base = identifier(onnxName ? onnxName.getValue() : "", fallback);
    std::string name = base;
    for (int k = 2; used.contains(name); ++k)
      name = base + "_" + std::to_string(k);
    used.insert(name);
    ports.push_back({isInput, i, onnxName ? onnxName.str() : fallback, name,
                     cast<ShapedType>(t)});
    if (ports.back().element().empty())
      return func.emitError() << (isInput ? "input " : "output ") << i
                              << " has unsupported type " << t;
    return success();
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (failed(add(true, i, func.getArgumentTypes()[i],
                   func.getArgAttrOfType<StringAttr>(i, "onnx.name"))))
      return failure();
  numInputs = ports.size();
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (failed(add(false, i, func.getResultTypes()[i],
                   func.getResultAttrOfType<StringAttr>(i, "onnx.name"))))
      return failure();
  return success();
}

LogicalResult Emitter::run() {
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func)
    return module.emitError() << "expects a func.func @main";
  if (failed(collectPorts(func)) || failed(collectWeights(func)))
    return failure();
  emitHeader(func);
  if (failed(emitSource(func)))
    return failure();
  const std::string &n = options.name;
  out.assembly = "/* Generated by onnxcc " + std::string(kVersion) +
                 ". Do not edit. The weights of " + n + ", " +
                 std::to_string(out.weights.size()) +
                 " bytes, 64-byte aligned.\n   Assemble with -I<this directory> "
                 "so that .incbin finds the blob. */\n"
                 "  .section .rodata.onnxcc_" + n + "_weights,\"a\"\n"
                 "  .balign 64\n"
                 "  .globl onnxcc_" + n + "_weights\n"
                 "onnxcc_" + n + "_weights:\n"
                 "  .incbin \"" + n + ".weights.bin\"\n"
                 "  .byte 0\n" // a symbol even for a model without weights
                 "  .section .note.GNU-stack,\"\",%progbits\n";
  return success();
}

LogicalResult emitCpp(ModuleOp module, const EmitOptions &options,
                      EmittedModel &out) {
  return Emitter(module, options, out).run();
}

} // namespace onnxcc
