//===- GraphInputs.h - values that come from graph inputs -------*- C++ -*-===//
//
// A shape that depends on a graph input's value cannot be compiled; the
// user can bind that input at compile time (--const-input). These helpers
// let the importer and the passes name the input and say so alike.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_GRAPHINPUTS_H
#define ONNXCC_DIALECTS_ONNX_GRAPHINPUTS_H

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include <string>

namespace onnxcc {

/// The ONNX name of the graph input `v` is (an argument of the function
/// with an `onnx.name` argument attribute), or "" if it is not one. Read
/// through the generic `arg_attrs` so the dialects need no func library.
inline std::string graphInputName(mlir::Value v) {
  auto arg = llvm::dyn_cast_or_null<mlir::BlockArgument>(v);
  if (!arg || !arg.getOwner() || !arg.getOwner()->getParentOp())
    return "";
  mlir::Operation *func = arg.getOwner()->getParentOp();
  if (func->getName().getStringRef() != "func.func")
    return "";
  auto all = func->getAttrOfType<mlir::ArrayAttr>("arg_attrs");
  if (!all || arg.getArgNumber() >= all.size())
    return "";
  auto dict = llvm::dyn_cast<mlir::DictionaryAttr>(all[arg.getArgNumber()]);
  auto name = dict ? dict.getAs<mlir::StringAttr>("onnx.name") : nullptr;
  return name ? name.str() : "";
}

/// The hint appended to an error caused by the value of graph input `name`.
inline std::string constInputHint(llvm::StringRef name) {
  return ("; bind it at compile time with --const-input " + name + "=FILE.pb")
      .str();
}

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_GRAPHINPUTS_H
