//===- TensorImport.h - ONNX TensorProto to MLIR ----------------*- C++ -*-===//
//
// Turns untrusted TensorProtos into MLIR constants and plain byte buffers.
// Every size is checked against the declared dims before it is used.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_COMPILER_FRONTEND_TENSORIMPORT_H
#define ONNXCC_COMPILER_FRONTEND_TENSORIMPORT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "onnx/onnx_pb.h"
#include <string>
#include <vector>

namespace onnxcc {

/// Largest dimension and element count accepted from a model file. Larger
/// values are treated as corrupt rather than allocated.
constexpr int64_t kMaxDim = int64_t(1) << 31;
constexpr int64_t kMaxElements = int64_t(1) << 34;

/// Maps an ONNX TensorProto.DataType to the MLIR element type, or null.
mlir::Type elementTypeFor(mlir::MLIRContext *ctx, int32_t onnxType);
/// Spelling for messages: "FLOAT", "INT64", ... or the number.
std::string onnxTypeName(int32_t onnxType);

/// Reads the tensor's payload as little-endian bytes, checking its length
/// against dims. External data is read from `modelDir`, refusing paths that
/// leave it. On failure returns false and sets `error`.
bool readTensorBytes(const ::onnx::TensorProto &t, const std::string &modelDir,
                     mlir::RankedTensorType type, std::vector<char> &bytes,
                     std::string &error);

/// The tensor type of `t`, or null with `error` set (bad dims or dtype).
mlir::RankedTensorType tensorTypeOf(mlir::MLIRContext *ctx,
                                    const ::onnx::TensorProto &t,
                                    std::string &error);

/// Builds the constant attribute for `t`. Raw data is referenced in place
/// (the proto must outlive the context); other payloads are copied once
/// into a resource blob.
mlir::ElementsAttr importTensor(mlir::MLIRContext *ctx,
                                const ::onnx::TensorProto &t,
                                const std::string &modelDir,
                                std::string &error);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_TENSORIMPORT_H
