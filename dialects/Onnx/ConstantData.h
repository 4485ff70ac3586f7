//===- ConstantData.h - Reading constant tensors ----------------*- C++ -*-===//
//
// Weights live either in `dense<...>` attributes (small tensors, folded
// shape arithmetic) or in `dense_resource<...>` blobs that point into the
// parsed model. These helpers read both so that folders, passes and the
// emitter need not care which.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_CONSTANTDATA_H
#define ONNXCC_DIALECTS_ONNX_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace onnxcc {

/// Returns the constant attribute behind `v` if it is produced by a
/// ConstantLike op, null otherwise.
mlir::ElementsAttr getConstantElements(mlir::Value v);

/// Reads every element of `attr` as double (any int or float type) or as
/// int64 (integer types only). Returns false for types it cannot read.
bool readAsDoubles(mlir::ElementsAttr attr, std::vector<double> &out);
bool readAsInt64s(mlir::ElementsAttr attr, std::vector<int64_t> &out);

/// The little-endian bytes of `attr` where they already exist in memory (a
/// resource blob or a non-splat dense attribute), without a copy; nullopt
/// for splats and for element types without a byte layout (i1).
std::optional<llvm::ArrayRef<char>> rawBytes(mlir::ElementsAttr attr);

/// Writes the little-endian bytes of `attr` (splats expanded, booleans one
/// byte each) into `out`. Returns false for types it cannot lay out.
bool appendRawBytes(mlir::ElementsAttr attr, std::vector<char> &out);

/// Builds a constant attribute of `type` from doubles or int64s, converting
/// to the element type. Large float payloads go into a resource blob.
mlir::ElementsAttr makeElements(mlir::ShapedType type,
                                llvm::ArrayRef<double> values);
mlir::ElementsAttr makeElements(mlir::ShapedType type,
                                llvm::ArrayRef<int64_t> values);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_CONSTANTDATA_H
