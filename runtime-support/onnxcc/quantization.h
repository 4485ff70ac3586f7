//===- quantization.h - integer kernels of quantised tensors ----*- C++ -*-===//
//
// The int32 products ONNX's quantised ops need (MatMulInteger, ConvInteger,
// and the QLinear forms before their requantisation, which the compiler
// emits as an elementwise loop), and DynamicQuantizeLinear's scale and zero
// point. Scalar loops: their speed is a later step.
//
// Products of 8-bit values minus 8-bit zero points fit in int32; their sums
// wrap around (computed in uint32, so the wrap is defined behaviour).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_QUANTIZATION_H
#define ONNXCC_RUNTIME_QUANTIZATION_H

#include "onnxcc/config.h"
#include "onnxcc/conv.h"
#include "onnxcc/window.h"

namespace onnxcc {
namespace rt {

namespace detail {
/// T in a context that template argument deduction skips, so that a zero
/// point may be passed as nullptr.
template <typename T> struct same { using type = T; };
template <typename T> using same_t = typename same<T>::type;

/// v - zero point as int32 (a null zero point is 0).
template <typename T>
ONNXCC_INLINE std::int32_t centered(T v, const T *zp, int64_t i) {
  return static_cast<std::int32_t>(v) - (zp ? static_cast<std::int32_t>(zp[i]) : 0);
}
ONNXCC_INLINE std::uint32_t wrap(std::int32_t v) { return static_cast<std::uint32_t>(v); }
} // namespace detail

/// y[b][M x N] = (a[b] - a_zp) x (b[b] - b_zp) for every batch index b of
/// the result (batch dims `batch`, R of them; a and b are advanced by
/// `a_strides` / `b_strides` matrices per step of each, 0 where they
/// broadcast). AZN / BZN: how many zero points a (1 or M, per row) and b
/// (1 or N, per column) have; null zero points are 0.
template <int64_t R, int64_t M, int64_t N, int64_t K, int64_t AZN, int64_t BZN,
          typename TA, typename TB>
inline void matmul_integer(const int64_t (&batch)[R], const int64_t (&a_strides)[R],
                           const int64_t (&b_strides)[R], const TA *a, const TB *b,
                           const detail::same_t<TA> *a_zp,
                           const detail::same_t<TB> *b_zp, std::int32_t *y) {
  int64_t total = 1;
  for (int64_t d = 0; d < R; ++d)
    total *= batch[d];
  int64_t index[R] = {};
  int64_t a_off = 0, b_off = 0; // in matrices
  for (int64_t t = 0; t < total; ++t) {
    const TA *am = a + a_off * M * K;
    const TB *bm = b + b_off * K * N;
    std::int32_t *ym = y + t * M * N;
    for (int64_t i = 0; i < M; ++i) {
      std::uint32_t *row = reinterpret_cast<std::uint32_t *>(ym + i * N);
      for (int64_t j = 0; j < N; ++j)
        row[j] = 0;
      for (int64_t k = 0; k < K; ++k) {
        std::int32_t av = detail::centered(am[i * K + k], a_zp, AZN == 1 ? 0 : i);
        const TB *brow = bm + k * N;
        for (int64_t j = 0; j < N; ++j)
          row[j] += detail::wrap(av * detail::centered(brow[j], b_zp, BZN == 1 ? 0 : j));
      }
    }
    // Next batch index, odometer style, keeping a's and b's offsets.
    for (int64_t d = R - 1; d >= 0; --d) {
      a_off += a_strides[d];
      b_off += b_strides[d];
      if (++index[d] < batch[d])
        break;
      a_off -= a_strides[d] * batch[d];
      b_off -= b_strides[d] * batch[d];
      index[d] = 0;
    }
  }
}

/// y = conv(x - x_zp, w - w_zp) in int32 for a conv_shape S (NCHW, OIHW);
/// padding contributes nothing. WZPerChannel: w_zp holds one value per
/// output channel (else one). Taps outside the image are skipped by
/// computing the in-image range once per output row and column (window.h).
template <typename S, bool WZPerChannel, typename TX, typename TW>
inline void conv_integer(const TX *x, const TW *w, const detail::same_t<TX> *x_zp,
                         const detail::same_t<TW> *w_zp, std::int32_t *y) {
  for (int64_t n = 0; n < S::N; ++n)
    for (int64_t o = 0; o < S::O; ++o) {
      const int64_t g = o / S::Og;
      const TX *xg = x + (n * S::C + g * S::Cg) * S::H * S::W;
      const TW *wo = w + o * S::Cg * S::KH * S::KW;
      const std::int32_t wz =
          w_zp ? static_cast<std::int32_t>(w_zp[WZPerChannel ? o : 0]) : 0;
      const std::int32_t xz = x_zp ? static_cast<std::int32_t>(x_zp[0]) : 0;
      std::int32_t *yo = y + (n * S::O + o) * S::OH * S::OW;
      for (int64_t oh = 0; oh < S::OH; ++oh) {
        const int64_t ih0 = oh * S::SH - S::PT;
        const index_range kh_in = in_bounds(ih0, S::DH, S::H, S::KH);
        for (int64_t ow = 0; ow < S::OW; ++ow) {
          const int64_t iw0 = ow * S::SW - S::PL;
          const index_range kw_in = in_bounds(iw0, S::DW, S::W, S::KW);
          std::uint32_t acc = 0;
          for (int64_t c = 0; c < S::Cg; ++c)
            for (int64_t kh = kh_in.lo; kh < kh_in.hi; ++kh) {
              // Indices, not a row pointer: iw0 may be negative, and a
              // pointer before the row start is UB even if never read.
              const int64_t xr = (c * S::H + ih0 + kh * S::DH) * S::W + iw0;
              const TW *wr = wo + (c * S::KH + kh) * S::KW;
              for (int64_t kw = kw_in.lo; kw < kw_in.hi; ++kw)
                acc += detail::wrap((static_cast<std::int32_t>(xg[xr + kw * S::DW]) - xz) *
                                    (static_cast<std::int32_t>(wr[kw]) - wz));
            }
          yo[oh * S::OW + ow] = static_cast<std::int32_t>(acc);
        }
      }
    }
}

/// DynamicQuantizeLinear's parameters for N floats: the uint8 scale and
/// zero point covering [min(0, x), max(0, x)] (NaNs skipped); an empty
/// range (all zeros) gives scale 1, as onnxruntime.
template <int64_t N>
inline void dynamic_quant_params(const float *x, float *scale, std::uint8_t *zero_point) {
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < N; ++i) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  float s = hi == lo ? 1.0f : (hi - lo) / 255.0f;
  float z = 0.0f - lo / s; // in [0, 255] up to rounding; clamp anyway
  z = z < 0.0f ? 0.0f : (z > 255.0f ? 255.0f : z);
  if (z != z) // an infinite range
    z = 0.0f;
  *scale = s;
  *zero_point = static_cast<std::uint8_t>(std::nearbyint(z));
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_QUANTIZATION_H
