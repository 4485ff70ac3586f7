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

#include "dialects/Onnx/AttentionShapes.h"
#include "dialects/Onnx/DataMovementShapes.h"
#include "dialects/Onnx/InferTypes.h"
#include "dialects/Onnx/MlShapes.h"
#include "dialects/Onnx/ResizeMath.h"
#include "dialects/Onnx/RotaryShapes.h"
#include "dialects/Onnx/OnnxDialect.h.inc"
#include "dialects/Onnx/OnnxTypes.h"

#define GET_OP_CLASSES
#include "dialects/Onnx/OnnxOps.h.inc"

namespace onnxcc {
/// The type rule of onnx.resize (ImageShapes.cpp).
mlir::LogicalResult inferResizeTypes(std::optional<mlir::Location> loc,
                                     onnx::ResizeOp::Adaptor adaptor,
                                     llvm::SmallVectorImpl<mlir::Type> &types);
/// The type rule of onnx.grid_sample (ImageShapes.cpp).
mlir::LogicalResult inferGridSampleTypes(std::optional<mlir::Location> loc,
                                         onnx::GridSampleOp::Adaptor adaptor,
                                         llvm::SmallVectorImpl<mlir::Type> &types);
/// The type rule of onnx.attention (AttentionShapes.cpp).
mlir::LogicalResult inferAttentionTypes(std::optional<mlir::Location> loc,
                                        onnx::AttentionOp::Adaptor adaptor,
                                        llvm::SmallVectorImpl<mlir::Type> &types);
} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_ONNXOPS_H
