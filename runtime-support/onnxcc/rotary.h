//===- rotary.h - rotary position embedding ---------------------*- C++ -*-===//
//
// ONNX RotaryEmbedding: each head's first R elements form R/2 pairs that
// rotate by the angle of their token's cache row. Computed in compute_t<T>
// (float for f16/bf16/f32, double for f64), each product rounded to T. A
// position id outside the cache is clamped into it (ONNX leaves it undefined;
// this keeps every read in bounds).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ROTARY_H
#define ONNXCC_RUNTIME_ROTARY_H

#include "onnxcc/config.h"
#include "onnxcc/types.h"

#include <cstdint>

namespace onnxcc {
namespace rt {

/// y = x with each head's pairs (i, i + R/2) (Interleaved: (2i, 2i + 1)),
/// i < R/2, rotated: (c x1 - s x2, s x1 + c x2). x and y are [B, H, S, D]
/// (Packed: [B, S, H * D]). With Positions > 0 the caches are
/// [Positions, R/2] and position_ids [B, S] picks each token's row; with
/// Positions == 0 they are [B, S, R/2] and position_ids is not read.
template <int64_t B, int64_t S, int64_t H, int64_t D, int64_t R, bool Packed,
          bool Interleaved, int64_t Positions, typename T>
void rotary_embedding(const T *x, const T *cos_cache, const T *sin_cache,
                      const std::int64_t *position_ids, T *y) {
  static_assert(R > 0 && R % 2 == 0 && R <= D, "R must be even, in (0, D]");
  using C = compute_t<T>;
  constexpr int64_t Half = R / 2;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t s = 0; s < S; ++s) {
      int64_t row = b * S + s;
      if constexpr (Positions > 0) {
        std::int64_t p = position_ids[b * S + s];
        row = p < 0 ? 0 : p >= Positions ? Positions - 1 : int64_t(p);
      }
      const T *cr = cos_cache + row * Half;
      const T *sr = sin_cache + row * Half;
      for (int64_t h = 0; h < H; ++h) {
        int64_t at =
            Packed ? ((b * S + s) * H + h) * D : ((b * H + h) * S + s) * D;
        const T *xi = x + at;
        T *yi = y + at;
        for (int64_t i = 0; i < Half; ++i) {
          constexpr int64_t Step = Interleaved ? 2 : 1;
          constexpr int64_t Other = Interleaved ? 1 : Half;
          C c = C(cr[i]), sn = C(sr[i]);
          C x1 = C(xi[i * Step]), x2 = C(xi[i * Step + Other]);
          // Each product is rounded to T before the sum, as onnx.reference
          // (numpy in T) does: for f16/bf16 a single rounding would differ
          // by a few units in the last place where the terms cancel.
          yi[i * Step] = T(C(T(c * x1)) - C(T(sn * x2)));
          yi[i * Step + Other] = T(C(T(sn * x1)) + C(T(c * x2)));
        }
        for (int64_t d = R; d < D; ++d)
          yi[d] = xi[d];
      }
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_ROTARY_H
