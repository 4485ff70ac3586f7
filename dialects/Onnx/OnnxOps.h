//===- OnnxOps.h - ONNX graph dialect ---------------------------*- C++ -*-===//
#ifndef ONNXCC_DIALECTS_ONNX_ONNXOPS_H
#define ONNXCC_DIALECTS_ONNX_ONNXOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Onnx/DataMovementShapes.h"
#include "dialects/Onnx/InferTypes.h"
#include "dialects/Onnx/OnnxDialect.h.inc"

#define GET_OP_CLASSES
#include "dialects/Onnx/OnnxOps.h.inc"

#endif // ONNXCC_DIALECTS_ONNX_ONNXOPS_H
