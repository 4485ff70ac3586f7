//===- ConstantData.cpp - Reading constant tensors ------------------------===//
#include "dialects/Onnx/ConstantData.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Matchers.h"
#include <cmath>
#include <cstring>

using namespace mlir;

namespace onnxcc {

ElementsAttr getConstantElements(Value v) {
  Attribute attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return {};
  return dyn_cast<ElementsAttr>(attr);
}

/// Bytes of one element of `elementType` in the model's little-endian layout.
static int64_t layoutBytes(Type elementType) {
  if (elementType.isInteger(1))
    return 0;
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

/// The raw bytes of a resource blob, or of a non-splat dense attribute.
/// Splats return the single element's bytes and set `isSplat`.
static std::optional<ArrayRef<char>> rawView(ElementsAttr attr, bool &isSplat) {
  isSplat = false;
  if (auto res = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.getElementType().isInteger(1))
      return std::nullopt;
    isSplat = dense.isSplat();
    return dense.getRawData();
  }
  return std::nullopt;
}

/// The 8- and 4-bit floats, read and written by value through APFloat.
static bool isSmallFloat(Type t) {
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(t);
}

template <typename Out>
static bool readAs(ElementsAttr attr, std::vector<Out> &out) {
  Type et = attr.getElementType();
  // Booleans are packed bits in a dense attribute: read them by value.
  if (et.isInteger(1)) {
    auto dense = dyn_cast<DenseElementsAttr>(attr);
    if (!dense)
      return false;
    out.clear();
    for (bool b : dense.getValues<bool>())
      out.push_back(b ? 1 : 0);
    return true;
  }
  int64_t width = layoutBytes(et);
  bool isSplat;
  auto raw = rawView(attr, isSplat);
  if (!raw || width == 0)
    return false;
  int64_t n = attr.getNumElements();
  if (!isSplat && static_cast<int64_t>(raw->size()) != n * width)
    return false;
  out.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    const char *p = raw->data() + (isSplat ? 0 : i * width);
    if (et.isF32()) {
      float f;
      std::memcpy(&f, p, 4);
      out[i] = static_cast<Out>(f);
    } else if (et.isF64()) {
      double d;
      std::memcpy(&d, p, 8);
      out[i] = static_cast<Out>(d);
    } else if (isSmallFloat(et)) {
      // The float8/float4 code (float4's in the low bits), exactly.
      auto ft = cast<FloatType>(et);
      unsigned bits = ft.getWidth();
      uint64_t code = static_cast<unsigned char>(*p) & ((1u << bits) - 1);
      llvm::APFloat f(ft.getFloatSemantics(), llvm::APInt(bits, code));
      bool loses;
      f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &loses);
      out[i] = static_cast<Out>(f.convertToDouble());
    } else if (auto it = dyn_cast<IntegerType>(et)) {
      int64_t v = 0;
      std::memcpy(&v, p, width);
      // Extend from the type's width: a 4-bit element may hold only its
      // nibble in its byte.
      unsigned bits = it.getWidth();
      if (bits < 64) {
        if (it.isUnsigned())
          v &= (int64_t(1) << bits) - 1;
        else
          v = int64_t(uint64_t(v) << (64 - bits)) >> (64 - bits);
      }
      out[i] = static_cast<Out>(v);
    } else {
      return false;
    }
  }
  return true;
}

bool readAsDoubles(ElementsAttr attr, std::vector<double> &out) {
  return readAs(attr, out);
}
bool readAsInt64s(ElementsAttr attr, std::vector<int64_t> &out) {
  // A float outside int64's range has no integer value (the cast would be
  // undefined): integer readers only read integer tensors.
  return isa<IntegerType>(attr.getElementType()) && readAs(attr, out);
}

/// The width of a 4- or 2-bit integer type, else 0. Their bytes in memory
/// are the value extended to 8 bits (sign-extended when signed); a dense
/// attribute holds only the low bits.
static unsigned subByteIntWidth(Type t) {
  auto it = dyn_cast<IntegerType>(t);
  return it && it.getWidth() > 1 && it.getWidth() < 8 ? it.getWidth() : 0;
}

/// Extends bytes holding `bits`-bit integers to the memory layout.
static void extendSubByte(MutableArrayRef<char> bytes, Type t) {
  unsigned bits = subByteIntWidth(t);
  bool isSigned = !t.isUnsignedInteger();
  for (char &c : bytes) {
    unsigned v = static_cast<unsigned char>(c) & ((1u << bits) - 1);
    if (isSigned && (v >> (bits - 1)))
      v |= ~((1u << bits) - 1);
    c = static_cast<char>(v);
  }
}

std::optional<ArrayRef<char>> rawBytes(ElementsAttr attr) {
  // Sub-byte integers of a dense attribute need extending: copied instead.
  if (subByteIntWidth(attr.getElementType()) && isa<DenseElementsAttr>(attr))
    return std::nullopt;
  bool isSplat;
  auto raw = rawView(attr, isSplat);
  int64_t width = layoutBytes(attr.getElementType());
  if (!raw || isSplat || width == 0 ||
      static_cast<int64_t>(raw->size()) != attr.getNumElements() * width)
    return std::nullopt;
  return raw;
}

bool appendRawBytes(ElementsAttr attr, std::vector<char> &out) {
  // Booleans are packed bits in a dense attribute; in memory a bool is a
  // byte of 0 or 1.
  if (attr.getElementType().isInteger(1)) {
    auto dense = dyn_cast<DenseElementsAttr>(attr);
    if (!dense)
      return false;
    for (bool b : dense.getValues<bool>())
      out.push_back(b ? 1 : 0);
    return true;
  }
  bool isSplat;
  auto raw = rawView(attr, isSplat);
  int64_t width = layoutBytes(attr.getElementType());
  if (!raw || width == 0)
    return false;
  int64_t n = attr.getNumElements();
  size_t start = out.size();
  if (!isSplat) {
    if (static_cast<int64_t>(raw->size()) != n * width)
      return false;
    out.insert(out.end(), raw->begin(), raw->end());
  } else {
    for (int64_t i = 0; i < n; ++i)
      out.insert(out.end(), raw->begin(), raw->begin() + width);
  }
  if (subByteIntWidth(attr.getElementType()))
    extendSubByte(MutableArrayRef<char>(out).drop_front(start),
                  attr.getElementType());
  return true;
}

/// `v` truncated toward zero, saturated to int64's range, NaN as 0: a
/// plain cast of an out-of-range double is undefined behaviour.
static int64_t saturatingInt64(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9223372036854775808.0)
    return INT64_MAX;
  if (v < -9223372036854775808.0)
    return INT64_MIN;
  return static_cast<int64_t>(v);
}

/// Above this many elements a float constant goes into a resource blob so
/// that the context does not hash and unique megabytes of weights.
static constexpr int64_t kInlineElementLimit = 4096;

ElementsAttr makeElements(ShapedType type, ArrayRef<double> values) {
  Type et = type.getElementType();
  if (et.isF32()) {
    std::vector<float> f(values.begin(), values.end());
    if (static_cast<int64_t>(f.size()) > kInlineElementLimit) {
      auto blob = HeapAsmResourceBlob::allocateAndCopyInferAlign<float>(f);
      return DenseResourceElementsAttr::get(type, "folded", std::move(blob));
    }
    return DenseElementsAttr::get(type, ArrayRef<float>(f));
  }
  if (et.isF64())
    return DenseElementsAttr::get(type, values);
  // The float8 formats round to nearest even from float, as the runtime
  // stores (through f32: the same double rounding); overflow gives Inf or
  // NaN as the format has. E8M0 (rounds up) and float4 (saturates) fold
  // with no rule of APFloat's: not folded.
  if (isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
          Float8E5M2FNUZType>(et)) {
    const llvm::fltSemantics &sem = cast<FloatType>(et).getFloatSemantics();
    SmallVector<llvm::APFloat> fs;
    for (double v : values) {
      llvm::APFloat f(static_cast<float>(v));
      bool loses;
      f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &loses);
      fs.push_back(f);
    }
    return DenseElementsAttr::get(type, fs);
  }
  if (auto it = dyn_cast<IntegerType>(et)) {
    SmallVector<APInt> ints;
    for (double v : values)
      ints.push_back(APInt(it.getWidth(), saturatingInt64(v),
                           /*isSigned=*/true, /*implicitTrunc=*/true));
    return DenseElementsAttr::get(type, ints);
  }
  return {};
}

ElementsAttr makeElements(ShapedType type, ArrayRef<int64_t> values) {
  Type et = type.getElementType();
  if (auto it = dyn_cast<IntegerType>(et)) {
    SmallVector<APInt> ints;
    for (int64_t v : values)
      ints.push_back(APInt(it.getWidth(), v, /*isSigned=*/true,
                           /*implicitTrunc=*/true));
    return DenseElementsAttr::get(type, ints);
  }
  std::vector<double> d(values.begin(), values.end());
  return makeElements(type, ArrayRef<double>(d));
}

} // namespace onnxcc
