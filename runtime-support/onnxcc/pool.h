//===- pool.h - fixed-shape 2-D pooling -------------------------*- C++ -*-===//
//
// Max and average pooling over NCHW. Output sizes (ceil_mode included) are
// decided by the compiler; windows are clamped to the padded input, so a
// ceil_mode window hanging past the edge sees only real elements.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_POOL_H
#define ONNXCC_RUNTIME_POOL_H

#include "onnxcc/config.h"

namespace onnxcc {
namespace rt {

template <int64_t NC, int64_t H, int64_t W, int64_t OH, int64_t OW,
          int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PT,
          int64_t PL, int64_t PB, int64_t PR, int64_t DH, int64_t DW>
inline void max_pool2d(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT y) {
  for (int64_t c = 0; c < NC; ++c) {
    const float *xc = x + c * H * W;
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        float m = -INFINITY;
        for (int64_t kh = 0; kh < KH; ++kh) {
          int64_t ih = oh * SH - PT + kh * DH;
          if (ih < 0 || ih >= H)
            continue;
          for (int64_t kw = 0; kw < KW; ++kw) {
            int64_t iw = ow * SW - PL + kw * DW;
            if (iw >= 0 && iw < W) {
              float v = xc[ih * W + iw];
              m = (v > m || v != v) ? v : m;
            }
          }
        }
        y[(c * OH + oh) * OW + ow] = m;
      }
  }
}

template <int64_t NC, int64_t H, int64_t W, int64_t OH, int64_t OW,
          int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PT,
          int64_t PL, int64_t PB, int64_t PR, int64_t DH, int64_t DW,
          bool CountIncludePad>
inline void avg_pool2d(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT y) {
  for (int64_t c = 0; c < NC; ++c) {
    const float *xc = x + c * H * W;
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        float s = 0.0f;
        int64_t valid = 0, padded = 0;
        for (int64_t kh = 0; kh < KH; ++kh) {
          int64_t ih = oh * SH - PT + kh * DH;
          if (ih >= H + PB)
            continue;
          for (int64_t kw = 0; kw < KW; ++kw) {
            int64_t iw = ow * SW - PL + kw * DW;
            if (iw >= W + PR)
              continue;
            ++padded; // inside the padded image
            if (ih >= 0 && ih < H && iw >= 0 && iw < W) {
              s += xc[ih * W + iw];
              ++valid;
            }
          }
        }
        int64_t count = CountIncludePad ? padded : valid;
        y[(c * OH + oh) * OW + ow] = count ? s / static_cast<float>(count) : 0.0f;
      }
  }
}

/// Mean over the trailing `Spatial` elements of each of NC channels.
template <int64_t NC, int64_t Spatial>
inline void global_avg_pool(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT y) {
  for (int64_t c = 0; c < NC; ++c) {
    const float *xc = x + c * Spatial;
    float s = 0.0f;
    for (int64_t i = 0; i < Spatial; ++i)
      s += xc[i];
    y[c] = s / static_cast<float>(Spatial);
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_POOL_H
