//===- conv.h - fixed-shape 2-D convolution ---------------------*- C++ -*-===//
//
// NCHW convolution as GEMM per image and group: Y_g = W_g * col(X_g), where
// col() is im2col into the caller's scratch (planned in the arena). A 1x1,
// stride-1, unpadded convolution multiplies the input directly.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_CONV_H
#define ONNXCC_RUNTIME_CONV_H

#include "onnxcc/gemm.h"
#include "onnxcc/window.h"

namespace onnxcc {
namespace rt {

/// Geometry of one convolution, all compile-time.
template <int64_t N_, int64_t C_, int64_t H_, int64_t W_, int64_t O_,
          int64_t KH_, int64_t KW_, int64_t OH_, int64_t OW_, int64_t SH_,
          int64_t SW_, int64_t PT_, int64_t PL_, int64_t DH_, int64_t DW_,
          int64_t G_>
struct conv_shape {
  static constexpr int64_t N = N_, C = C_, H = H_, W = W_, O = O_, KH = KH_,
                           KW = KW_, OH = OH_, OW = OW_, SH = SH_, SW = SW_,
                           PT = PT_, PL = PL_, DH = DH_, DW = DW_, G = G_;
  static constexpr int64_t Cg = C / G, Og = O / G, P = OH * OW,
                           Kdim = Cg * KH * KW;
  static constexpr bool pointwise = KH == 1 && KW == 1 && SH == 1 &&
                                    SW == 1 && PT == 0 && PL == 0 &&
                                    OH == H && OW == W;
};

/// col[(c*KH + kh)*KW + kw][oh*OW + ow] = x[c][oh*SH - PT + kh*DH][...], 0
/// outside the image. Each (c, kh, kw) plane is zero rows above the image,
/// rows of [zeros | strided copy | zeros], zero rows below, split where
/// in_bounds says: no loop tests bounds per element. g++ 12 -O3 with AVX
/// if-converted such tests into a group of masked loads, one per column of
/// an unrolled row, and vectorized the group with the first vector's mask
/// for all of it, so runs of in-image elements came out 0 (resnet18
/// layer4.0 conv2).
template <typename S>
inline void im2col(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT col) {
  for (int64_t c = 0; c < S::Cg; ++c)
    for (int64_t kh = 0; kh < S::KH; ++kh) {
      const int64_t ih0 = kh * S::DH - S::PT; // input row of output row 0
      const index_range rows = in_bounds(ih0, S::SH, S::H, S::OH);
      for (int64_t kw = 0; kw < S::KW; ++kw) {
        const int64_t iw0 = kw * S::DW - S::PL; // input column of output col 0
        const index_range cols = in_bounds(iw0, S::SW, S::W, S::OW);
        float *plane = col + ((c * S::KH + kh) * S::KW + kw) * S::P;
        for (int64_t i = 0; i < rows.lo * S::OW; ++i)
          plane[i] = 0.0f;
        for (int64_t oh = rows.lo; oh < rows.hi; ++oh) {
          const float *src = x + (c * S::H + ih0 + oh * S::SH) * S::W;
          float *dst = plane + oh * S::OW;
          for (int64_t ow = 0; ow < cols.lo; ++ow)
            dst[ow] = 0.0f;
          for (int64_t ow = cols.lo; ow < cols.hi; ++ow)
            dst[ow] = src[iw0 + ow * S::SW];
          for (int64_t ow = cols.hi; ow < S::OW; ++ow)
            dst[ow] = 0.0f;
        }
        for (int64_t i = rows.hi * S::OW; i < S::P; ++i)
          plane[i] = 0.0f;
      }
    }
}

template <typename S, typename Epi>
inline void conv2d(const float *x, const float *w, const float *bias, float *y,
                   float *scratch, Epi epi) {
  for (int64_t n = 0; n < S::N; ++n)
    for (int64_t g = 0; g < S::G; ++g) {
      const float *xg = x + (n * S::C + g * S::Cg) * S::H * S::W;
      const float *cols = xg;
      if (!S::pointwise) {
        im2col<S>(xg, scratch);
        cols = scratch;
      }
      gemm<S::Og, S::P, S::Kdim, false, false, 1, 0, true>(
          w + g * S::Og * S::Kdim, cols, bias + g * S::Og, 1.0f, 1.0f,
          y + (n * S::O + g * S::Og) * S::P, epi);
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_CONV_H
