//===- GraphInputs.h - values that come from graph inputs -------*- C++ -*-===//
//
// A shape that depends on a graph input's value cannot be compiled; the
// user can bind that input at compile time (--const-input). These helpers
// let the importer and the passes name the input and say so alike.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_GRAPHINPUTS_H
#define ONNXCC_DIALECTS_ONNX_GRAPHINPUTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include <string>

namespace onnxcc {

/// The ONNX name of the graph input `v` is, or "" if it is not one.
inline std::string graphInputName(mlir::Value v) {
  auto arg = llvm::dyn_cast_or_null<mlir::BlockArgument>(v);
  if (!arg)
    return "";
  auto func = llvm::dyn_cast_or_null<mlir::func::FuncOp>(
      arg.getOwner()->getParentOp());
  if (!func)
    return "";
  auto name = func.getArgAttrOfType<mlir::StringAttr>(arg.getArgNumber(),
                                                      "onnx.name");
  return name ? name.str() : "";
}

/// The hint appended to an error caused by the value of graph input `name`.
inline std::string constInputHint(llvm::StringRef name) {
  return ("; bind it at compile time with --const-input " + name + "=FILE.pb")
      .str();
}

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_GRAPHINPUTS_H
