//===- TensorImport.cpp - ONNX TensorProto to MLIR ------------------------===//
#include "compiler/frontend/TensorImport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"
#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/OnnxTypes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif
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
  case ::onnx::TensorProto::UINT16: return b.getIntegerType(16, /*isSigned=*/false);
  case ::onnx::TensorProto::UINT32: return b.getIntegerType(32, /*isSigned=*/false);
  case ::onnx::TensorProto::UINT64: return b.getIntegerType(64, /*isSigned=*/false);
  case ::onnx::TensorProto::BFLOAT16: return b.getBF16Type();
  case ::onnx::TensorProto::BOOL: return b.getI1Type();
  // Strings: graph inputs and outputs only (readTensorBytes refuses them).
  case ::onnx::TensorProto::STRING: return b.getType<onnx::StringType>();
  // The 8/4/2-bit types (onnx.proto 1.14+; libonnx-dev's has no names for
  // them): storage types computed in f32 or i8, one byte per element.
  case kOnnxFloat8E4M3FN: return b.getType<Float8E4M3FNType>();
  case kOnnxFloat8E4M3FNUZ: return b.getType<Float8E4M3FNUZType>();
  case kOnnxFloat8E5M2: return b.getType<Float8E5M2Type>();
  case kOnnxFloat8E5M2FNUZ: return b.getType<Float8E5M2FNUZType>();
  case kOnnxUInt4: return b.getIntegerType(4, /*isSigned=*/false);
  case kOnnxInt4: return b.getIntegerType(4, /*isSigned=*/true);
  case kOnnxFloat4E2M1: return b.getType<Float4E2M1FNType>();
  case kOnnxFloat8E8M0: return b.getType<Float8E8M0FNUType>();
  case kOnnxUInt2: return b.getIntegerType(2, /*isSigned=*/false);
  case kOnnxInt2: return b.getIntegerType(2, /*isSigned=*/true);
  default: return {};
  }
}

int packedBits(int32_t t) {
  switch (t) {
  case kOnnxUInt4:
  case kOnnxInt4:
  case kOnnxFloat4E2M1: return 4;
  case kOnnxUInt2:
  case kOnnxInt2: return 2;
  default: return 0;
  }
}

/// Unpacks `n` elements of `bits` bits (low bits first) from `packed`, one
/// byte each: signed integers sign-extended, the rest zero-extended.
static void unpackElements(ArrayRef<char> packed, int64_t n, int bits,
                           bool isSigned, std::vector<char> &bytes) {
  bytes.resize(n);
  int perByte = 8 / bits;
  unsigned mask = (1u << bits) - 1;
  for (int64_t i = 0; i < n; ++i) {
    unsigned v = ((unsigned char)packed[i / perByte] >> (bits * (i % perByte))) & mask;
    if (isSigned && (v >> (bits - 1)))
      v |= ~mask;
    bytes[i] = static_cast<char>(v);
  }
}

std::string onnxTypeName(int32_t t) {
  static const char *const small[] = {
      "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",
      "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0", "UINT2",          "INT2"};
  if (t >= kOnnxFloat8E4M3FN && t <= kOnnxInt2)
    return small[t - kOnnxFloat8E4M3FN];
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
  if (t.dims_size() > kMaxRank) {
    error = "tensor '" + t.name() + "' has rank " +
            std::to_string(t.dims_size()) + ", more than the limit of " +
            std::to_string(kMaxRank);
    return {};
  }
  SmallVector<int64_t> dims;
  for (int64_t d : t.dims()) {
    if (d < 0 || d > kMaxDim) {
      error = "tensor '" + t.name() + "' has invalid dimension " +
              std::to_string(d);
      return {};
    }
    dims.push_back(d);
  }
  auto type = RankedTensorType::get(dims, et);
  std::optional<int64_t> bytes = checkedTensorBytes(type);
  if (!bytes || *bytes > kMaxTensorBytes) {
    error = "tensor '" + t.name() + "' needs " +
            (bytes ? std::to_string(*bytes) : std::string("more than 2^63")) +
            " bytes, more than the limit of " +
            std::to_string(kMaxTensorBytes) + " bytes (4 GiB)";
    return {};
  }
  return type;
}

void ExternalData::release(ArrayRef<char> bytes) const {
#if defined(__linux__)
  static const uintptr_t page = sysconf(_SC_PAGESIZE);
  for (const auto &buf : mapped) {
    if (bytes.data() < buf->getBufferStart() ||
        bytes.data() + bytes.size() > buf->getBufferEnd())
      continue;
    if (buf->getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_MMap)
      return;
    // Whole pages inside the stretch only: the others may hold bytes of
    // neighbouring tensors that are still to be written.
    uintptr_t begin = (reinterpret_cast<uintptr_t>(bytes.data()) + page - 1) /
                      page * page;
    uintptr_t end =
        (reinterpret_cast<uintptr_t>(bytes.data()) + bytes.size()) / page * page;
    if (end > begin)
      madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
    return;
  }
#else
  (void)bytes;
#endif
}

/// Resolves an external-data location inside `modelDir`, refusing absolute
/// paths and any path that leaves the directory (also through symlinks).
static bool resolveExternal(const std::string &modelDir,
                            const std::string &location, std::string &path,
                            std::string &error) {
  if (llvm::any_of(location, [](char c) { return (unsigned char)c < 0x20; })) {
    error = "external data location '" + location +
            "' contains control characters";
    return false;
  }
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

/// Maps the `expected` bytes of `t`'s external data and returns them (they
/// stay mapped in `external`). The file must be a regular file (a FIFO or
/// device would block or never end) that holds every byte asked for: a
/// mapping past the end of a file faults on first touch instead of failing.
static std::optional<ArrayRef<char>>
mapExternal(const ::onnx::TensorProto &t, ExternalData &external,
            int64_t expected, std::string &error) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset" || kv.key() == "length") {
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(kv.value().c_str(), &end, 10);
      if (kv.value().empty() || end != kv.value().c_str() + kv.value().size() ||
          errno || v < 0) {
        error = "tensor '" + t.name() + "' has invalid external data " +
                kv.key() + " '" + kv.value() + "'";
        return std::nullopt;
      }
      (kv.key() == "offset" ? offset : length) = v;
    }
  }
  std::string path;
  if (!resolveExternal(external.modelDir, location, path, error))
    return std::nullopt;
  auto fail = [&](const std::string &why) -> std::optional<ArrayRef<char>> {
    error = "tensor '" + t.name() + "' expects " + std::to_string(expected) +
            " bytes of external data at offset " + std::to_string(offset) +
            " in '" + location + "', but " + why;
    return std::nullopt;
  };
  if (length >= 0 && length != expected)
    return fail("its length is " + std::to_string(length));
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return fail("the file cannot be read");
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return fail("it is not a regular file");
  CheckedInt end = CheckedInt(offset) + expected;
  if (end.overflowed() || (uint64_t)*end > status.getSize())
    return fail("the file has only " + std::to_string(status.getSize()) +
                " bytes");
  if (expected == 0)
    return ArrayRef<char>();
  auto buf = llvm::MemoryBuffer::getFileSlice(path, expected, offset,
                                              /*IsVolatile=*/false);
  if (!buf || (int64_t)(*buf)->getBufferSize() != expected)
    return fail("it cannot be mapped");
  ArrayRef<char> bytes((*buf)->getBufferStart(), (*buf)->getBufferSize());
  external.mapped.push_back(std::move(*buf));
  return bytes;
}

bool readTensorBytes(const ::onnx::TensorProto &t, ExternalData &external,
                     RankedTensorType type, std::vector<char> &bytes,
                     std::string &error) {
  Type et = type.getElementType();
  if (isa<onnx::StringType>(et)) {
    error = "tensor '" + t.name() + "' has string elements, which onnxcc "
            "compiles only as graph inputs and outputs";
    return false;
  }
  int64_t n = type.getNumElements(), width = elementBytes(et);
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
  if (int bits = packedBits(t.data_type())) {
    // 4-bit and 2-bit elements are packed, low bits first, in raw data,
    // external data and int32_data (one packed byte per int32).
    int64_t packedBytes = (n * bits + 7) / 8;
    bool isSigned = t.data_type() == kOnnxInt4 || t.data_type() == kOnnxInt2;
    std::vector<char> packed;
    if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
      auto mapped = mapExternal(t, external, packedBytes, error);
      if (!mapped)
        return false;
      packed.assign(mapped->begin(), mapped->end());
    } else if (t.has_raw_data()) {
      packed.assign(t.raw_data().begin(), t.raw_data().end());
    } else {
      if ((int64_t)t.int32_data_size() != packedBytes) {
        expected = packedBytes;
        return mismatch(t.int32_data_size(), "bytes");
      }
      for (int32_t v : t.int32_data())
        packed.push_back(static_cast<char>(v));
    }
    if ((int64_t)packed.size() != packedBytes) {
      expected = packedBytes;
      return mismatch(packed.size(), "bytes");
    }
    unpackElements(packed, n, bits, isSigned, bytes);
    return true;
  }
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    auto mapped = mapExternal(t, external, expected, error);
    if (!mapped)
      return false;
    bytes.assign(mapped->begin(), mapped->end());
    return true;
  }
  if (t.has_raw_data()) {
    if ((int64_t)t.raw_data().size() != expected)
      return mismatch(t.raw_data().size(), "bytes");
    bytes.assign(t.raw_data().begin(), t.raw_data().end());
    return true;
  }
  auto copyFrom = [&](const auto &field, auto convert) {
    // Checked before allocating: the dims may claim gigabytes the field
    // does not hold.
    if ((int64_t)field.size() != n)
      return mismatch(field.size(), "elements");
    bytes.resize(expected);
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
    return copyFrom(t.int32_data(), [](int32_t v) { return int8_t(v); });
  case ::onnx::TensorProto::BOOL:
    return copyFrom(t.int32_data(), [](int32_t v) { return uint8_t(v != 0); });
  case ::onnx::TensorProto::UINT8:
  case kOnnxFloat8E4M3FN: // the 8-bit code, as in int32_data
  case kOnnxFloat8E4M3FNUZ:
  case kOnnxFloat8E5M2:
  case kOnnxFloat8E5M2FNUZ:
  case kOnnxFloat8E8M0:
    return copyFrom(t.int32_data(), [](int32_t v) { return uint8_t(v); });
  case ::onnx::TensorProto::UINT16:
  case ::onnx::TensorProto::FLOAT16:
  case ::onnx::TensorProto::BFLOAT16: // the 16 bits, as in int32_data
    return copyFrom(t.int32_data(), [](int32_t v) { return uint16_t(v); });
  case ::onnx::TensorProto::UINT32:
    return copyFrom(t.uint64_data(), [](uint64_t v) { return uint32_t(v); });
  case ::onnx::TensorProto::UINT64:
    return copyFrom(t.uint64_data(), [](uint64_t v) { return v; });
  default:
    error = "tensor '" + t.name() + "' has unsupported element type " +
            onnxTypeName(t.data_type());
    return false;
  }
}

/// A resource key for tensor `name`: MLIR prints keys bare in IR dumps, so
/// a model string is reduced to identifier characters first.
static std::string blobKey(StringRef name) {
  std::string key;
  for (char c : name.take_front(kMaxInertNameBytes))
    key += llvm::isAlnum(c) ? c : '_';
  if (key.empty() || llvm::isDigit(key[0]))
    key = "tensor_" + key;
  return key;
}

ElementsAttr importTensor(MLIRContext *ctx, const ::onnx::TensorProto &t,
                          ExternalData &external, std::string &error,
                          int64_t inlineBytes) {
  RankedTensorType type = tensorTypeOf(ctx, t, error);
  if (!type)
    return {};
  Type et = type.getElementType();
  // Strings have no byte layout: refuse them (readTensorBytes words the
  // error) before the raw-data view, which an empty raw_data reaches with
  // a size that matches (fuzz finding: a [0, 0, 0] string initializer).
  if (isa<onnx::StringType>(et)) {
    std::vector<char> unused;
    readTensorBytes(t, external, type, unused, error);
    return {};
  }
  int64_t expected = type.getNumElements() * elementBytes(et);
  std::string blobName = blobKey(t.name());
  // Booleans have no byte layout in dense attributes: build them by value.
  if (et.isInteger(1)) {
    std::vector<char> bytes;
    if (!readTensorBytes(t, external, type, bytes, error))
      return {};
    SmallVector<bool> values(bytes.begin(), bytes.end());
    return DenseElementsAttr::get(type, ArrayRef<bool>(values));
  }
  // Raw and external data are referenced where they are (parsed protobuf,
  // mapped file): no copy of weights.
  std::optional<ArrayRef<char>> inPlace;
  if (packedBits(t.data_type())) {
    // Packed sub-byte data is unpacked to a byte per element: no view.
  } else if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    inPlace = mapExternal(t, external, expected, error);
    if (!inPlace)
      return {};
  } else if (t.has_raw_data()) {
    if ((int64_t)t.raw_data().size() != expected) {
      std::vector<char> unused;
      readTensorBytes(t, external, type, unused, error);
      return {};
    }
    inPlace = ArrayRef<char>(t.raw_data().data(), t.raw_data().size());
  }
  if (inPlace && expected <= inlineBytes)
    return DenseElementsAttr::getFromRawBuffer(type, *inPlace);
  if (inPlace)
    return DenseResourceElementsAttr::get(
        type, blobName, UnmanagedAsmResourceBlob::allocateInferAlign(*inPlace));
  std::vector<char> bytes;
  if (!readTensorBytes(t, external, type, bytes, error))
    return {};
  if (bytes.empty() || expected <= inlineBytes)
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  return DenseResourceElementsAttr::get(
      type, blobName,
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint64_t)));
}

} // namespace onnxcc
