//===- Emitter.h - state shared by the C++ emitter's printers ---*- C++ -*-===//
//
// Internal to codegen/cpu: CppEmitter.cpp prints the files around predict()
// (header, ports, weights); KernelPrinters.cpp prints one runtime-support
// call per kernel op inside it. Both read the IR only.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_CODEGEN_CPU_EMITTER_H
#define ONNXCC_CODEGEN_CPU_EMITTER_H

#include "codegen/cpu/BodyPrinter.h"
#include "codegen/cpu/CppEmitter.h"
#include "codegen/cpu/KernelPrinter.h"
#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/OnnxTypes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/StringExtras.h"

namespace onnxcc {

/// A graph input or output as the generated API presents it.
struct Port {
  bool isInput;
  unsigned index;
  std::string onnxName; ///< the tensor's name in the model (untrusted)
  std::string name;     ///< its C++ parameter name ("in_input", "out_y_2")
  mlir::ShapedType type;

  std::string element() const { return cppElementType(type.getElementType()); }
  /// A string port: one `const char *` per element.
  bool isStrings() const { return isStringTensor(type); }
  /// A port with no elements is an empty tag in the typed API (types.h).
  bool empty() const { return type.getNumElements() == 0; }
  /// The C++ type InputK/OutputK stands for: "float[1][784]".
  std::string cppType() const;
  /// The array typedef in the header: Input0, Output1.
  std::string typeName() const {
    return (isInput ? "Input" : "Output") + std::to_string(index);
  }
  /// The byte pointer predict() derives from the parameter: p_in0, p_out1.
  /// Parameters start with in_/out_, so these never collide with them.
  std::string bytes() const {
    return (isInput ? "p_in" : "p_out") + std::to_string(index);
  }
  /// "const Input0 &input" in predict().
  std::string cppParam() const {
    return (isInput ? "const " : "") + typeName() + " &" + name;
  }
  /// "const float *input" in the C entry point ("const char *const *input"
  /// and "const char **output" for strings).
  std::string cParam() const {
    if (isStrings())
      return element() + (isInput ? "const *" : "*") + name;
    return (isInput ? "const " : "") + element() + " *" + name;
  }
};

class Emitter : public PrintContext {
public:
  Emitter(mlir::ModuleOp module, const EmitOptions &options, EmittedModel &out)
      : module(module), options(options), out(out) {}
  mlir::LogicalResult run();

private:
  // CppEmitter.cpp: the files.
  mlir::LogicalResult collectPorts(mlir::func::FuncOp func);
  mlir::LogicalResult collectWeights(mlir::func::FuncOp func);
  void emitHeader(mlir::func::FuncOp func);
  mlir::LogicalResult emitSource(mlir::func::FuncOp func);
  std::string banner();
  std::string planComment();
  template <typename Fn> std::string joinPorts(Fn fn) const {
    llvm::SmallVector<std::string> parts;
    for (const Port &p : ports)
      parts.push_back(fn(p));
    return llvm::join(parts, ", ");
  }

  // KernelPrinters.cpp: one call per kernel op, through kernelPrinters().
  mlir::LogicalResult emitOp(mlir::raw_indented_ostream &os, mlir::Operation *op);
  void emitReturn(mlir::raw_indented_ostream &os, mlir::func::ReturnOp op);
  /// A value the planner gave no home is an internal error, reported once;
  /// run() then fails.
  std::string ptr(mlir::Value v) override;

  mlir::ModuleOp module;
  const EmitOptions &options;
  EmittedModel &out;
  llvm::SmallVector<Port> ports; ///< inputs, then outputs
  unsigned numInputs = 0;
  int64_t threads = 1; ///< the pool's size (1: none), from the kernels
  bool unplanned = false;
};

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_EMITTER_H
