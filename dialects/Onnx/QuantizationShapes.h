//===- QuantizationShapes.h - type rules of the quantised ops ---*- C++ -*-===//
//
// ONNX QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv: element types
// (8/16-bit integers, float scales) and the layouts of scales and zero
// points, checked wherever the operands' shapes are known.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_QUANTIZATIONSHAPES_H
#define ONNXCC_DIALECTS_ONNX_QUANTIZATIONSHAPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include <optional>

namespace onnxcc {

/// How a scale (and its zero point) covers x.
enum class QuantLayout { PerTensor, PerAxis, Blocked };

/// The layout of `scale` for an x of shape `x`: per tensor (a scalar or one
/// element), per axis (1-D of x.shape[axis]) or, with `blockSize` > 0,
/// blocked (x's rank, ceil(x.shape[axis] / blockSize) along `axis`). Fails
/// naming the shapes when `scale` fits none; `axis` is normalised.
mlir::FailureOr<QuantLayout>
quantLayout(std::optional<mlir::Location> loc, llvm::ArrayRef<int64_t> x,
            llvm::ArrayRef<int64_t> scale, int64_t &axis, int64_t blockSize);

/// Whether `t` is an element type a quantised tensor may have here: 8- or
/// 16-bit integers (and int32 for DequantizeLinear's input).
bool isQuantizedElement(mlir::Type t, bool allowInt32 = false);

/// QuantizeLinear (isQuantize) and DequantizeLinear.
mlir::LogicalResult inferLinearQuantTypes(
    std::optional<mlir::Location> loc, bool isQuantize, mlir::Value x,
    mlir::Value scale, mlir::Value zeroPoint, int64_t axis, int64_t blockSize,
    mlir::Type outputType, llvm::SmallVectorImpl<mlir::Type> &types);

/// DynamicQuantizeLinear: y (uint8, x's shape), scale (f32 scalar), zero
/// point (uint8 scalar).
mlir::LogicalResult
inferDynamicQuantizeTypes(std::optional<mlir::Location> loc, mlir::Value x,
                          llvm::SmallVectorImpl<mlir::Type> &types);

/// MatMulInteger (the scales null) and QLinearMatMul.
mlir::LogicalResult inferMatMulIntegerTypes(
    std::optional<mlir::Location> loc, mlir::Value a, mlir::Value b,
    mlir::Value aZeroPoint, mlir::Value bZeroPoint, mlir::Value aScale,
    mlir::Value bScale, mlir::Value yScale, mlir::Value yZeroPoint,
    llvm::SmallVectorImpl<mlir::Type> &types);

/// ConvInteger (the scales null) and QLinearConv.
mlir::LogicalResult inferIntegerConvTypes(
    std::optional<mlir::Location> loc, mlir::Value x, mlir::Value w,
    mlir::Value xZeroPoint, mlir::Value wZeroPoint, mlir::Value xScale,
    mlir::Value wScale, mlir::Value yScale, mlir::Value yZeroPoint,
    mlir::Value bias, llvm::ArrayRef<int64_t> kernel,
    llvm::ArrayRef<int64_t> pads, llvm::ArrayRef<int64_t> strides,
    llvm::ArrayRef<int64_t> dilations, int64_t group, llvm::StringRef autoPad,
    llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_QUANTIZATIONSHAPES_H
