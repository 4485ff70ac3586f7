//===- TensorImport.h - ONNX TensorProto to MLIR ----------------*- C++ -*-===//
//
// Turns untrusted TensorProtos into MLIR constants and plain byte buffers.
// Every size is checked against the declared dims before it is used.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_COMPILER_FRONTEND_TENSORIMPORT_H
#define ONNXCC_COMPILER_FRONTEND_TENSORIMPORT_H

#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "onnx/onnx_pb.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>
#include <vector>

namespace onnxcc {

/// Where external data may come from: files inside the model's directory,
/// mapped once checked and kept mapped as long as the constants that point
/// into them live.
struct ExternalData {
  std::string modelDir;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> mapped;

  /// Drops the pages of `bytes` that lie inside a mapping from memory: they
  /// were written out and are read again, from the file, only if needed.
  /// Keeps a compile's RSS far below the size of its external weights.
  void release(llvm::ArrayRef<char> bytes) const;
};

/// TensorProto.DataType values newer than libonnx-dev's onnx.proto.
enum : int32_t {
  kOnnxFloat8E4M3FN = 17,
  kOnnxFloat8E4M3FNUZ = 18,
  kOnnxFloat8E5M2 = 19,
  kOnnxFloat8E5M2FNUZ = 20,
  kOnnxUInt4 = 21,
  kOnnxInt4 = 22,
  kOnnxFloat4E2M1 = 23,
  kOnnxFloat8E8M0 = 24,
  kOnnxUInt2 = 25,
  kOnnxInt2 = 26,
};

/// Bits per element of a packed ONNX type (4 for INT4/UINT4/FLOAT4E2M1, 2
/// for INT2/UINT2), 0 for the others.
int packedBits(int32_t onnxType);

/// Maps an ONNX TensorProto.DataType to the MLIR element type, or null.
mlir::Type elementTypeFor(mlir::MLIRContext *ctx, int32_t onnxType);
/// Spelling for messages: "FLOAT", "INT64", ... or the number.
std::string onnxTypeName(int32_t onnxType);

/// Reads the tensor's payload as little-endian bytes, checking its length
/// against dims. External data must be a regular file inside
/// `external.modelDir` holding every byte asked for. On failure returns
/// false and sets `error`.
bool readTensorBytes(const ::onnx::TensorProto &t, ExternalData &external,
                     mlir::RankedTensorType type, std::vector<char> &bytes,
                     std::string &error);

/// The tensor type of `t`, or null with `error` set (bad dims or dtype, or
/// more than kMaxTensorBytes).
mlir::RankedTensorType tensorTypeOf(mlir::MLIRContext *ctx,
                                    const ::onnx::TensorProto &t,
                                    std::string &error);

/// Constant nodes up to this size import as dense attributes.
constexpr int64_t kInlineConstantBytes = 256;

/// Builds the constant attribute for `t`. Raw data and external data are
/// referenced in place (the proto and `external` must outlive the context);
/// other payloads are copied once into a resource blob. Tensors of at most
/// `inlineBytes` bytes are plain dense attributes instead: Constant nodes,
/// which an unrolled loop body imports once per iteration, and a blob each
/// would cost a uniqued name.
mlir::ElementsAttr importTensor(mlir::MLIRContext *ctx,
                                const ::onnx::TensorProto &t,
                                ExternalData &external, std::string &error,
                               int64_t inlineBytes = 0);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_TENSORIMPORT_H
