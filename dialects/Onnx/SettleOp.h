//===- SettleOp.h - infer one op's result types, then fold it ---*- C++ -*-===//
//
// The step of static shape specialisation that the ShapeInference pass
// sweeps over a function, and that the importer runs early on the ops built
// so far when control flow needs a value (a Loop's trip count, an If's
// condition) to unroll.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_SETTLEOP_H
#define ONNXCC_DIALECTS_ONNX_SETTLEOP_H

#include "mlir/IR/Builders.h"

namespace onnxcc {

/// Infers `op`'s result types from its operands (refusing absurd sizes)
/// and then folds it if its operands allow; the op may be erased. Fails,
/// with the error emitted, when the shape rule or a size check fails. If
/// the op folds, `replacedBy` (when given) receives its replacement values;
/// with `erase` false the folded op stays, without uses, so that values
/// held elsewhere stay valid until they are forwarded.
mlir::LogicalResult
settleOp(mlir::Operation *op, mlir::OpBuilder &b,
         llvm::SmallVectorImpl<mlir::Value> *replacedBy = nullptr,
         bool erase = true);

/// Folds `op` with its now-refined types or constant operands; returns
/// true if it was replaced (and erased unless `erase` is false), its
/// replacements in `replacedBy`.
bool tryFoldOp(mlir::Operation *op, mlir::OpBuilder &b,
               llvm::SmallVectorImpl<mlir::Value> *replacedBy = nullptr,
               bool erase = true);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_SETTLEOP_H
