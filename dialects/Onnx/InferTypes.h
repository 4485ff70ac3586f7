//===- InferTypes.h - shared pieces of the ops' type inference --*- C++ -*-===//
//
// What every InferTypeOpInterface hook of the onnx dialect needs: the
// "unranked until the inputs are known" rule, broadcasting of any number
// of operands, and the compatibility check of refined result types. The
// op families of OnnxBase.td call these, so a family member writes none.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_INFERTYPES_H
#define ONNXCC_DIALECTS_ONNX_INFERTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Value.h"
#include <optional>
#include <vector>

namespace onnxcc {

/// Result types are compatible when element types match and shapes may be
/// equal: an op imported with an unranked result stays valid until the
/// shape-inference pass refines it.
bool compatibleTypes(mlir::TypeRange l, mlir::TypeRange r);

/// Defines Op::isCompatibleReturnTypes as compatibleTypes(), for ops that
/// write their own inferReturnTypes (family ops get it from OnnxBase.td).
#define ONNXCC_COMPATIBLE_RETURN_TYPES(Op)                                     \
  bool Op::isCompatibleReturnTypes(::mlir::TypeRange l, ::mlir::TypeRange r) { \
    return ::onnxcc::compatibleTypes(l, r);                                    \
  }

/// The values of a constant integer operand (Reshape's shape, axes given
/// as an input), or nullopt while it is not a constant.
std::optional<std::vector<int64_t>> constInts(mlir::Value v);

/// `type` (ranked or not) with its element type replaced by `element`.
mlir::Type withElementType(mlir::Type type, mlir::Type element);

/// The static-or-dynamic shape of a ranked value, or nullopt if unranked.
std::optional<llvm::ArrayRef<int64_t>> shapeOf(mlir::Value v);

/// The broadcast of all `operands` (unranked while one is unranked) with
/// element type `resultElement`, or the first operand's when null. With
/// `sameElementTypes`, operands of different element types are an error.
mlir::LogicalResult inferBroadcastTypes(std::optional<mlir::Location> loc,
                                        mlir::ValueRange operands,
                                        mlir::Type resultElement,
                                        bool sameElementTypes,
                                        llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_INFERTYPES_H
