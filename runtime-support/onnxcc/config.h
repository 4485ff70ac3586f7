//===- config.h - onnxcc runtime configuration ------------------*- C++ -*-===//
//
// The runtime is header-only, uses no heap, exceptions or RTTI, and needs
// only <cstdint>, <cstring>, <cmath> and, for the vector path, xsimd.
// Define ONNXCC_NO_SIMD (or build without xsimd) for the portable scalar
// path used on microcontrollers. The vector path switches on only where
// xsimd has an instruction set for the target: SSE2 and up, NEON. On
// others (Cortex-M, WebAssembly with xsimd 8) the scalar path is used, and
// the compiler's auto-vectoriser is what reaches SIMD (MVE, SIMD128).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_CONFIG_H
#define ONNXCC_RUNTIME_CONFIG_H

#include "onnxcc/attributes.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if !defined(ONNXCC_NO_SIMD) && defined(__has_include)
#if __has_include(<xsimd/xsimd.hpp>)
#include <xsimd/config/xsimd_config.hpp>
// xsimd 8's AVX-512BW code does not build under g++ without optimisation
// (GCC's mask intrinsics are macros there), so such a -O0 build, a debug
// build, takes the scalar path instead of failing.
#if (XSIMD_WITH_SSE2 || XSIMD_WITH_NEON || XSIMD_WITH_NEON64 ||                \
     (defined(XSIMD_WITH_WASM) && XSIMD_WITH_WASM)) &&                         \
    !(defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__) &&    \
      defined(__AVX512BW__))
#define ONNXCC_XSIMD_HAS_ARCH 1
#endif
#endif
#if defined(ONNXCC_XSIMD_HAS_ARCH)
// g++ 12's AVX-512 intrinsics start from a self-initialised "undefined"
// vector (`__m512 __Y = __Y;`), which -Wuninitialized reports wherever one
// is inlined (GCC bug 105593, fixed in 13). The warning's location is the
// intrinsics header, so ignoring it while that header is read silences only
// the false positive.
#if defined(__GNUC__) && !defined(__clang__) &&                                \
    (defined(__x86_64__) || defined(__i386__))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif
#include <xsimd/xsimd.hpp>
#define ONNXCC_HAS_SIMD 1
#endif
#endif
#ifndef ONNXCC_HAS_SIMD
#define ONNXCC_HAS_SIMD 0
#endif

namespace onnxcc {
namespace rt {

#if ONNXCC_HAS_SIMD
using vfloat = xsimd::batch<float>;
constexpr int64_t kVecWidth = static_cast<int64_t>(vfloat::size);

/// a * b + c, rounded once. xsimd 8.1 has no AVX-512 fma: its generic
/// `x * y + z` is contracted by g++ but not by clang++, whose AVX-512 GEMM
/// tiles ran a multiply and an add per step: resnet18 took 37 ms where
/// fused it takes 29. g++ keeps xsimd's form: around the intrinsic it left
/// mobilenet_v2's row-major GEMM tiles 25% slower. By reference: by value,
/// g++ 12 kept a tile's accumulators on the stack.
ONNXCC_INLINE vfloat vfma(const vfloat &a, const vfloat &b, const vfloat &c) {
#if defined(__AVX512F__) && defined(__clang__)
  return _mm512_fmadd_ps(a, b, c);
#else
  return xsimd::fma(a, b, c);
#endif
}

/// The widest float vector of at most N lanes (at least the narrowest one
/// there is): rows shorter than a vector on AVX-512 or AVX still run in
/// 8- or 4-wide ones rather than one element at a time.
#if defined(__AVX512F__) && defined(__AVX2__) && defined(__SSE4_2__)
template <int64_t N>
using vfloat_upto = typename std::conditional<
    (N >= 16), vfloat,
    typename std::conditional<(N >= 8), xsimd::batch<float, xsimd::avx2>,
                              xsimd::batch<float, xsimd::sse4_2>>::type>::type;
#elif defined(__AVX__) && defined(__SSE4_2__)
template <int64_t N>
using vfloat_upto =
    typename std::conditional<(N >= 8), vfloat,
                              xsimd::batch<float, xsimd::sse4_2>>::type;
#else
template <int64_t N> using vfloat_upto = vfloat;
#endif
#else
constexpr int64_t kVecWidth = 1;
#endif

/// A typed pointer `offset` bytes into a planned buffer (arena, output or
/// weight blob). Offsets come from the memory planner and are aligned.
template <typename T, typename Byte>
ONNXCC_INLINE T *at(Byte *base, std::size_t offset) {
  return reinterpret_cast<T *>(reinterpret_cast<unsigned char *>(base) +
                               offset);
}
template <typename T, typename Byte>
ONNXCC_INLINE const T *at(const Byte *base, std::size_t offset) {
  return reinterpret_cast<const T *>(
      reinterpret_cast<const unsigned char *>(base) + offset);
}

/// The epilogue of a kernel without a fused activation.
struct identity {
  template <typename V> ONNXCC_INLINE V operator()(V v) const { return v; }
};

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_CONFIG_H
