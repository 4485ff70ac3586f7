//===- MlNestedTrees.h - tree ensembles as nested branches ------*- C++ -*-===//
#ifndef ONNXCC_CODEGEN_CPU_MLNESTEDTREES_H
#define ONNXCC_CODEGEN_CPU_MLNESTEDTREES_H

#include "codegen/cpu/KernelPrinter.h"

namespace onnxcc {
namespace kernel {
class MlTreeEnsembleOp;
} // namespace kernel

/// Prints a `nested` kernel.ml_tree_ensemble as one `if` per branch node.
mlir::LogicalResult printNestedTreeEnsemble(PrintContext &c,
                                            mlir::raw_indented_ostream &os,
                                            kernel::MlTreeEnsembleOp op);

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_MLNESTEDTREES_H
