//===- TensorImport.cpp - ONNX TensorProto to MLIR ------------------------===//
#include "compiler/frontend/TensorImport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <cstring>

using namespace mlir;

namespace onnxcc {

Type elementTypeFor(MLIRContext *ctx, int32_t t) {
  Builder b(ctx);
  switch (t) {
  case ::onnx::TensorProto::FLOAT: return b.getF32Type();
  case ::onnx::TensorProto::DOUBLE: return b.getF64Type();
  case ::onnx::TensorProto::FLOAT16: return b.getF16Type();
  case ::onnx::TensorProto::INT64: return b.getI64Type();
  case ::onnx::TensorProto::INT32: return b.getI32Type();
  case ::onnx::TensorProto::INT16: return b.getI16Type();
  case ::onnx::TensorProto::INT8: return b.getI8Type();
  case ::onnx::TensorProto::UINT8: return b.getIntegerType(8, /*isSigned=*/false);
  case ::onnx::TensorProto::BOOL: return b.getI1Type();
  default: return {};
  }
}

std::string onnxTypeName(int32_t t) {
  if (::onnx::TensorProto::DataType_IsValid(t))
    return ::onnx::TensorProto::DataType_Name(
        static_cast<::onnx::TensorProto::DataType>(t));
  return "data type " + std::to_string(t);
}

RankedTensorType tensorTypeOf(MLIRContext *ctx, const ::onnx::TensorProto &t,
                              std::string &error) {
  Type et = elementTypeFor(ctx, t.data_type());
  if (!et) {
    error = "tensor '" + t.name() + "' has unsupported element type " +
            onnxTypeName(t.data_type());
    return {};
  }
  SmallVector<int64_t> dims;
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || d > kMaxDim) {
      error = "tensor '" + t.name() + "' has invalid dimension " +
              std::to_string(d);
      return {};
    }
    dims.push_back(d);
    n *= d;
    if (n > kMaxElements) {
      error = "tensor '" + t.name() + "' has more than 2^34 elements";
      return {};
    }
  }
  return RankedTensorType::get(dims, et);
}

static int64_t byteWidth(Type et) {
  return et.isInteger(1) ? 1 : (et.getIntOrFloatBitWidth() + 7) / 8;
}

/// Resolves an external-data location inside `modelDir`, refusing absolute
/// paths and any path that leaves the directory (also through symlinks).
static bool resolveExternal(const std::string &modelDir,
                            const std::string &location, std::string &path,
                            std::string &error) {
  if (location.empty() || llvm::sys::path::is_absolute(location)) {
    error = "external data location '" + location +
            "' must be a relative path inside the model directory";
    return false;
  }
  for (auto it = llvm::sys::path::begin(location),
            e = llvm::sys::path::end(location);
       it != e; ++it)
    if (*it == "..") {
      error = "external data location '" + location +
              "' escapes the model directory";
      return false;
    }
  SmallString<256> full(modelDir.empty() ? "." : modelDir);
  llvm::sys::path::append(full, location);
  SmallString<256> realDir, realFile;
  if (llvm::sys::fs::real_path(modelDir.empty() ? "." : modelDir, realDir) ||
      llvm::sys::fs::real_path(full, realFile)) {
    error = "external data file '" + location + "' not found next to the model";
    return false;
  }
  if (!StringRef(realFile).starts_with(StringRef(realDir).str() + "/")) {
    error = "external data location '" + location +
            "' escapes the model directory";
    return false;
  }
  path = std::string(realFile);
  return true;
}

static bool readExternal(const ::onnx::TensorProto &t, const std::string &modelDir,
                         int64_t expected, std::vector<char> &bytes,
                         std::string &error) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset" || kv.key() == "length") {
      char *end = nullptr;
      long long v = std::strtoll(kv.value().c_str(), &end, 10);
      if (kv.value().empty() || *end || v < 0) {
        error = "tensor '" + t.name() + "' has invalid external data " +
                kv.key() + " '" + kv.value() + "'";
        return false;
      }
      (kv.key() == "offset" ? offset : length) = v;
    }
  }
  std::string path;
  if (!resolveExternal(modelDir, location, path, error))
    return false;
  auto buf = llvm::MemoryBuffer::getFileSlice(
      path, length < 0 ? expected : length, offset, /*IsVolatile=*/false);
  if (!buf || (length >= 0 && length != expected) ||
      (int64_t)(*buf)->getBufferSize() != expected) {
    error = "tensor '" + t.name() + "' expects " + std::to_string(expected) +
            " bytes of external data at offset " + std::to_string(offset) +
            " in '" + location + "'";
    return false;
  }
  bytes.assign((*buf)->getBufferStart(), (*buf)->getBufferEnd());
  return true;
}

bool readTensorBytes(const ::onnx::TensorProto &t, const std::string &modelDir,
                     RankedTensorType type, std::vector<char> &bytes,
                     std::string &error) {
  Type et = type.getElementType();
  int64_t n = type.getNumElements(), width = byteWidth(et);
  int64_t expected = n * width;
  auto mismatch = [&](int64_t got, const char *what) {
    error = "tensor '" + t.name() + "' has " + std::to_string(got) + " " +
            what + ", expected " + std::to_string(expected / (what[0] == 'b' ? 1 : width)) +
            " for " + onnxTypeName(t.data_type()) + " shape [" ;
    for (int64_t i = 0; i < type.getRank(); ++i)
      error += (i ? "," : "") + std::to_string(type.getDimSize(i));
    error += "]";
    return false;
  };
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL)
    return readExternal(t, modelDir, expected, bytes, error);
  if (t.has_raw_data()) {
    if ((int64_t)t.raw_data().size() != expected)
      return mismatch(t.raw_data().size(), "bytes");
    bytes.assign(t.raw_data().begin(), t.raw_data().end());
    return true;
  }
  bytes.resize(expected);
  auto copyFrom = [&](const auto &field, auto convert) {
    if ((int64_t)field.size() != n)
      return mismatch(field.size(), "elements");
    for (int64_t i = 0; i < n; ++i) {
      auto v = convert(field.Get(i));
      std::memcpy(bytes.data() + i * width, &v, width);
    }
    return true;
  };
  switch (t.data_type()) {
  case ::onnx::TensorProto::FLOAT:
    return copyFrom(t.float_data(), [](float v) { return v; });
  case ::onnx::TensorProto::DOUBLE:
    return copyFrom(t.double_data(), [](double v) { return v; });
  case ::onnx::TensorProto::INT64:
    return copyFrom(t.int64_data(), [](int64_t v) { return v; });
  case ::onnx::TensorProto::INT32:
    return copyFrom(t.int32_data(), [](int32_t v) { return v; });
  case ::onnx::TensorProto::INT16:
    return copyFrom(t.int32_data(), [](int32_t v) { return int16_t(v); });
  case ::onnx::TensorProto::INT8:
  case ::onnx::TensorProto::BOOL:
    return copyFrom(t.int32_data(), [](int32_t v) { return int8_t(v); });
  case ::onnx::TensorProto::UINT8:
    return copyFrom(t.int32_data(), [](int32_t v) { return uint8_t(v); });
  case ::onnx::TensorProto::FLOAT16:
    return copyFrom(t.int32_data(), [](int32_t v) { return uint16_t(v); });
  default:
    error = "tensor '" + t.name() + "' has unsupported element type " +
            onnxTypeName(t.data_type());
    return false;
  }
}

ElementsAttr importTensor(MLIRContext *ctx, const ::onnx::TensorProto &t,
                          const std::string &modelDir, std::string &error) {
  RankedTensorType type = tensorTypeOf(ctx, t, error);
  if (!type)
    return {};
  Type et = type.getElementType();
  int64_t expected = type.getNumElements() * byteWidth(et);
  std::string blobName = t.name().empty() ? "tensor" : t.name();
  // Booleans have no byte layout in dense attributes: build them by value.
  if (et.isInteger(1)) {
    std::vector<char> bytes;
    if (!readTensorBytes(t, modelDir, type, bytes, error))
      return {};
    SmallVector<bool> values(bytes.begin(), bytes.end());
    return DenseElementsAttr::get(type, ArrayRef<bool>(values));
  }
  // Raw data is referenced where protobuf parsed it: no copy of weights.
  if (t.data_location() != ::onnx::TensorProto::EXTERNAL && t.has_raw_data()) {
    if ((int64_t)t.raw_data().size() != expected) {
      std::vector<char> unused;
      readTensorBytes(t, modelDir, type, unused, error);
      return {};
    }
    ArrayRef<char> raw(t.raw_data().data(), t.raw_data().size());
    return DenseResourceElementsAttr::get(
        type, blobName, UnmanagedAsmResourceBlob::allocateInferAlign(raw));
  }
  std::vector<char> bytes;
  if (!readTensorBytes(t, modelDir, type, bytes, error))
    return {};
  return DenseResourceElementsAttr::get(
      type, blobName,
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint64_t)));
}

} // namespace onnxcc
