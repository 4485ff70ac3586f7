//===- attention.h - scaled dot-product attention ---------------*- C++ -*-===//
//
// One query row at a time with an online softmax (running max, sum and
// weighted sum of values, rescaled when the max grows), so no scores are
// stored and predict() needs no scratch for it. Scores and sums are in
// compute_t<T> (float for f16/bf16/f32, double for f64). A row whose bias
// allows no key gives zeros, like onnx.reference.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ATTENTION_H
#define ONNXCC_RUNTIME_ATTENTION_H

#include "onnxcc/config.h"
#include "onnxcc/types.h"

#include <cmath>
#include <limits>

namespace onnxcc {
namespace rt {

namespace detail {
/// A mask element as (allowed, additive bias): bool masks allow where
/// true, other masks add their value (-inf forbids).
template <typename C> ONNXCC_INLINE void mask_bias(bool m, bool &allowed, C &) {
  allowed = allowed && m;
}
template <typename C, typename M>
ONNXCC_INLINE void mask_bias(M m, bool &allowed, C &bias) {
  bias = C(compute_t<M>(m));
  if (bias == -std::numeric_limits<C>::infinity())
    allowed = false;
}
} // namespace detail

/// Y = softmax(scale * Q K^T (softcapped) + bias) V for Q [B, Hq, Sq, D]
/// (Packed: [B, Sq, Hq * D]), K/V [B, Hkv, Skv, D/Dv] likewise after a
/// cache of Past positions. The mask (MaskLen >= 0) is read at
/// mask[b * MaskB + h * MaskH + i * MaskI + j] for j < MaskLen. `nonpad`
/// (may be null) holds each batch's valid key count. present_k/v and qk
/// may be null; qk holds the scores of QkMode (0/1 softcapped, 2 with
/// bias, 3 probabilities).
template <int64_t B, int64_t Hq, int64_t Hkv, int64_t Sq, int64_t Skv,
          int64_t Past, int64_t D, int64_t Dv, bool Packed, int64_t MaskB,
          int64_t MaskH, int64_t MaskI, int64_t MaskLen, bool Causal,
          int64_t Left, int64_t Right, int QkMode, typename T, typename M>
void attention(const T *q, const T *k, const T *v, const M *mask,
               const T *past_k, const T *past_v, const std::int64_t *nonpad,
               float scale, float softcap, T *y, T *present_k, T *present_v,
               T *qk) {
  using C = compute_t<T>;
  constexpr int64_t Total = Past + Skv, Group = Hq / Hkv;
  constexpr C kNegInf = -std::numeric_limits<C>::infinity();
  auto key = [&](int64_t b, int64_t g, int64_t j) -> const T * {
    if (j < Past)
      return past_k + ((b * Hkv + g) * Past + j) * D;
    j -= Past;
    return Packed ? k + ((b * Skv + j) * Hkv + g) * D
                  : k + ((b * Hkv + g) * Skv + j) * D;
  };
  auto value = [&](int64_t b, int64_t g, int64_t j) -> const T * {
    if (j < Past)
      return past_v + ((b * Hkv + g) * Past + j) * Dv;
    j -= Past;
    return Packed ? v + ((b * Skv + j) * Hkv + g) * Dv
                  : v + ((b * Hkv + g) * Skv + j) * Dv;
  };
  for (int64_t b = 0; b < B; ++b)
    for (int64_t g = 0; g < Hkv; ++g)
      for (int64_t j = 0; j < Total; ++j) {
        if (present_k)
          for (int64_t d = 0; d < D; ++d)
            present_k[((b * Hkv + g) * Total + j) * D + d] = key(b, g, j)[d];
        if (present_v)
          for (int64_t d = 0; d < Dv; ++d)
            present_v[((b * Hkv + g) * Total + j) * Dv + d] = value(b, g, j)[d];
      }

  for (int64_t b = 0; b < B; ++b) {
    // Keys before `valid` exist; query i sits at position i + offset.
    int64_t valid = Total, offset = Past;
    if (nonpad) {
      valid = nonpad[b] < 0 ? 0 : nonpad[b] > Total ? Total : nonpad[b];
      offset = valid - Sq;
    }
    for (int64_t h = 0; h < Hq; ++h) {
      const int64_t g = h / Group;
      for (int64_t i = 0; i < Sq; ++i) {
        const T *qi = Packed ? q + ((b * Sq + i) * Hq + h) * D
                             : q + ((b * Hq + h) * Sq + i) * D;
        T *yi = Packed ? y + ((b * Sq + i) * Hq + h) * Dv
                       : y + ((b * Hq + h) * Sq + i) * Dv;
        T *row = qk ? qk + ((b * Hq + h) * Sq + i) * Total : nullptr;
        const M *mrow = mask ? mask + b * MaskB + h * MaskH + i * MaskI : nullptr;
        // The score of key j (softcapped), whether the bias allows it, and
        // the score plus the bias.
        auto score = [&](int64_t j, C &raw, bool &allowed) {
          const T *kj = key(b, g, j);
          C s = 0;
          for (int64_t d = 0; d < D; ++d)
            s += C(qi[d]) * C(kj[d]);
          s *= C(scale);
          if (softcap > 0)
            s = C(softcap) * std::tanh(s / C(softcap));
          raw = s;
          allowed = j < valid;
          int64_t p = i + offset;
          if (Causal && j > p)
            allowed = false;
          if (Left >= 0 && p - j > Left)
            allowed = false;
          if (Right >= 0 && j - p > Right)
            allowed = false;
          C bias = 0;
          if (mrow) {
            if (j < MaskLen)
              detail::mask_bias(mrow[j], allowed, bias);
            else
              allowed = false;
          }
          return allowed ? s + bias : kNegInf;
        };
        C acc[Dv > 0 ? Dv : 1] = {};
        C max = kNegInf, sum = 0;
        bool any = false;
        for (int64_t j = 0; j < Total; ++j) {
          C raw;
          bool allowed;
          C s = score(j, raw, allowed);
          if (row && QkMode <= 1)
            row[j] = store_as<T>(raw);
          if (row && QkMode == 2)
            row[j] = store_as<T>(s);
          any = any || allowed;
          if (!(s > kNegInf))
            continue;
          if (s > max) {
            C r = std::exp(max - s);
            sum *= r;
            for (int64_t d = 0; d < Dv; ++d)
              acc[d] *= r;
            max = s;
          }
          C p = std::exp(s - max);
          sum += p;
          const T *vj = value(b, g, j);
          for (int64_t d = 0; d < Dv; ++d)
            acc[d] += p * C(vj[d]);
        }
        C inv = any && sum > 0 ? C(1) / sum : C(0);
        for (int64_t d = 0; d < Dv; ++d)
          yi[d] = store_as<T>(acc[d] * inv);
        if (row && QkMode == 3)
          for (int64_t j = 0; j < Total; ++j) {
            C raw;
            bool allowed;
            C s = score(j, raw, allowed);
            row[j] = store_as<T>(s > kNegInf ? std::exp(s - max) * inv : C(0));
          }
      }
    }
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_ATTENTION_H
