//===- RecurrentShapes.h - shape rules of RNN, GRU, LSTM --------*- C++ -*-===//
//
// The one type rule of the recurrent family (ONNX RNN/GRU/LSTM "Outputs"),
// and the facts about activations that the importer, the rule and the
// lowering share.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_RECURRENTSHAPES_H
#define ONNXCC_DIALECTS_ONNX_RECURRENTSHAPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APFloat.h"
#include <optional>

namespace onnxcc {

/// The attributes of one recurrent op, as the rule reads them.
struct RecurrentSpec {
  int64_t gates;     ///< gate blocks in W and R: 1 (RNN), 3 (GRU), 4 (LSTM)
  int64_t functions; ///< activation functions per direction: 1, 2, 3
  mlir::ArrayAttr activations;
  llvm::ArrayRef<float> alpha, beta;
  std::optional<llvm::APFloat> clip;
  llvm::StringRef direction;
  std::optional<uint64_t> hiddenSize;
  int64_t layout;
  int64_t flag; ///< linear_before_reset (GRU) or input_forget (LSTM)
};

/// 1 for "forward" and "reverse", 2 for "bidirectional", 0 otherwise.
int64_t recurrentDirections(llvm::StringRef direction);

/// The canonical spelling of an activation function ONNX allows in a
/// recurrent op ("Tanh" for "tanh"), or "" if `name` is none of them.
llvm::StringRef canonicalActivation(llvm::StringRef name);
/// Whether the activation reads alpha (LeakyRelu, ...) and beta (Affine, ...).
bool activationTakesAlpha(llvm::StringRef canonical);
bool activationTakesBeta(llvm::StringRef canonical);
/// ONNX's default alpha/beta of a function that takes them.
float defaultActivationAlpha(llvm::StringRef canonical);
float defaultActivationBeta(llvm::StringRef canonical);

/// ONNX RNN/GRU/LSTM: checks attributes, element types and every shape the
/// operands give, and pushes Y and Y_h (and Y_c for the LSTM, whose
/// `initialC` and `p` are then the optional operands; null otherwise):
///   layout 0: Y [seq, dirs, batch, hidden], Y_h [dirs, batch, hidden]
///   layout 1: Y [batch, seq, dirs, hidden], Y_h [batch, dirs, hidden]
/// Unknown dimensions stay dynamic until the operands are known.
mlir::LogicalResult inferRecurrentTypes(
    std::optional<mlir::Location> loc, const RecurrentSpec &spec,
    mlir::Value x, mlir::Value w, mlir::Value r, mlir::Value b,
    mlir::Value sequenceLens, mlir::Value initialH, mlir::Value initialC,
    mlir::Value p, llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_RECURRENTSHAPES_H
