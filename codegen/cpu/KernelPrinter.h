//===- KernelPrinter.h - printers of kernel ops, by family ------*- C++ -*-===//
//
// Each kernel op prints as one call of a runtime-support template. The
// printers of an op family live in their own file and register in a table
// keyed by op (kernelPrinters()), so adding a kernel op means a printer in
// its family's file and one `add` line there.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_CODEGEN_CPU_KERNELPRINTER_H
#define ONNXCC_CODEGEN_CPU_KERNELPRINTER_H

#include "codegen/cpu/BodyPrinter.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/IndentedOstream.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <string>

namespace onnxcc {

/// What a printer may ask of the emitter: where values live.
class PrintContext {
public:
  virtual ~PrintContext() = default;
  /// The C++ expression of a value's storage, typed by its element type
  /// (`onnxcc::rt::at<float>(ws, 64)`).
  virtual std::string ptr(mlir::Value v) = 0;
  /// The op's planned scratch buffer (kernel.scratch_offset) as a pointer to
  /// `element`, or "nullptr" without one.
  std::string scratch(mlir::Operation *op, llvm::StringRef element = "float");
  /// Prints an epilogue region as the name of a lambda defined once ahead
  /// of predict() (epilogueDefinitions()), or `onnxcc::rt::identity{}` when
  /// empty. Kernels with the same shape and the same epilogue then share
  /// one template instance: mobilenet_v2's Clip(0, 6) epilogues as 17 inline
  /// lambdas made 17 types and tripled the compile time of some GEMMs.
  mlir::LogicalResult epilogue(mlir::raw_indented_ostream &os, mlir::Region &r);
  /// `constexpr auto epilogueK = [](auto a0) {...};` for every name printed,
  /// in first-use order.
  llvm::ArrayRef<std::string> epilogueDefinitions() const { return epilogueDefs; }

private:
  llvm::StringMap<std::string> epilogueNames; ///< lambda text -> its name
  llvm::SmallVector<std::string> epilogueDefs;
};

using KernelPrinterFn = std::function<mlir::LogicalResult(
    PrintContext &, mlir::raw_indented_ostream &, mlir::Operation *)>;
using KernelPrinterTable = llvm::DenseMap<mlir::TypeID, KernelPrinterFn>;

/// Registers `fn` as the printer of OpTy.
template <typename OpTy>
void addPrinter(KernelPrinterTable &table,
                mlir::LogicalResult (*fn)(PrintContext &,
                                          mlir::raw_indented_ostream &, OpTy)) {
  table[mlir::TypeID::get<OpTy>()] =
      [fn](PrintContext &c, mlir::raw_indented_ostream &os, mlir::Operation *op) {
        return fn(c, os, llvm::cast<OpTy>(op));
      };
}

/// Every family's printers.
const KernelPrinterTable &kernelPrinters();

// The families (one file each).
void addCorePrinters(KernelPrinterTable &table); // KernelPrinters.cpp
void addLinalgPrinters(KernelPrinterTable &table); // LinalgPrinters.cpp
void addConvPoolPrinters(KernelPrinterTable &table); // ConvPoolPrinters.cpp
void addRecurrentPrinters(KernelPrinterTable &table);
void addQuantizationPrinters(KernelPrinterTable &table);
void addDataMovementPrinters(KernelPrinterTable &table); // DataMovementPrinters.cpp
void addNormalizationPrinters(KernelPrinterTable &table);
void addReductionPrinters(KernelPrinterTable &table);
void addImagePrinters(KernelPrinterTable &table); // ImagePrinters.cpp
void addAttentionPrinters(KernelPrinterTable &table);
void addRotaryPrinters(KernelPrinterTable &table);
void addMlPrinters(KernelPrinterTable &table); // MlPrinters.cpp
void addMlStringPrinters(KernelPrinterTable &table); // MlStringPrinters.cpp

/// "{1, 784}" for a constexpr array.
std::string braceList(llvm::ArrayRef<int64_t> values);
/// The C++ element type of a tensor value ("float", "std::int64_t").
std::string elementOf(mlir::Value v);
/// The static shape of a kernel tensor value.
llvm::ArrayRef<int64_t> staticShape(mlir::Value v);

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_KERNELPRINTER_H
