//===- gemm_packed.h - GEMM over a B packed in column panels ----*- C++ -*-===//
//
// C[M x N] = epi(A[M x K] * B + bias[row]) where B (K x N) is stored in
// panels of kPanel columns, panel p at Bp + p * K * kPanel holding its
// (k, c) element at k * kPanel + c; the last panel is zero-padded. A
// register tile then reads its B as one contiguous stream: the row-major
// B of gemm() reads one row per k, kilobytes apart (a TLB miss and a new
// prefetch stream each), which costs resnet18's 3x3 layers a third of
// their rate. im2col (conv.h) writes its columns in this layout, so the
// packing is free there.
//
// Depth blocks, column blocks and row panels are those of gemm() (gemm.h);
// gemm_packed(par, ...) splits panels, or row panels when there are more
// of those, across par's threads, and gives the same bits as one thread.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_PACKED_H
#define ONNXCC_RUNTIME_GEMM_PACKED_H

#include "onnxcc/gemm.h"

#include <type_traits>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Waggressive-loop-optimizations"
#endif

namespace onnxcc {
namespace rt {

/// Columns of one packed panel: the two vectors of a register tile.
constexpr int64_t kPanel = 2 * kVecWidth;
/// Columns a packed operand is padded to. Every ISA's kPanel divides it,
/// so the compiler sizes im2col scratch without knowing the target's
/// (Conv2dOp::getScratchElements uses the same 32).
constexpr int64_t kPanelPad = 32;
static_assert(kPanelPad % kPanel == 0, "a panel must divide the padding");

/// Floats of a K x N operand packed in panels, as the planner reserves.
constexpr int64_t packed_floats(int64_t K, int64_t N) {
  return K * ((N + kPanelPad - 1) / kPanelPad * kPanelPad);
}

/// Where element (k, j) of a packed K x N operand lives.
template <int64_t K> ONNXCC_INLINE int64_t packed_at(int64_t k, int64_t j) {
  return j / kPanel * K * kPanel + k * kPanel + j % kPanel;
}

/// R rows of C at (i, j) from one panel `bp` (its depth 0) over one depth
/// block; only the first `cols` columns are stored (the last panel's).
template <int R, int64_t M, int64_t N, int64_t K, int64_t BRS, bool HasBias,
          typename Epi>
ONNXCC_INLINE void packed_tile(const float *A, const float *bp,
                               const float *bias, float *C, int64_t i,
                               int64_t j, int64_t cols, depth d, Epi epi) {
  const int64_t k1 = d.k1 < K ? d.k1 : K;
#if ONNXCC_HAS_SIMD
  vfloat acc[R][2];
  for (int r = 0; r < R; ++r) {
    const float *c = C + (i + r) * N + j;
    if (d.first) {
      acc[r][0] = acc[r][1] = vfloat(0.0f);
    } else if (cols == kPanel) {
      acc[r][0] = vfloat::load_unaligned(c);
      acc[r][1] = vfloat::load_unaligned(c + kVecWidth);
    } else { // the last panel's partial sums, lane by lane
      alignas(64) float lanes[kPanel];
      for (int64_t l = 0; l < kPanel; ++l)
        lanes[l] = l < cols ? c[l] : 0.0f;
      acc[r][0] = vfloat::load_aligned(lanes);
      acc[r][1] = vfloat::load_aligned(lanes + kVecWidth);
    }
  }
  for (int64_t k = d.k0; k < k1; ++k) {
    const vfloat b0 = vfloat::load_unaligned(bp + k * kPanel);
    const vfloat b1 = vfloat::load_unaligned(bp + k * kPanel + kVecWidth);
    for (int r = 0; r < R; ++r) {
      const vfloat a(A[(i + r) * K + k]);
      acc[r][0] = xsimd::fma(a, b0, acc[r][0]);
      acc[r][1] = xsimd::fma(a, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < R; ++r) {
    float *c = C + (i + r) * N + j;
    vfloat out[2];
    for (int v = 0; v < 2; ++v)
      out[v] = d.last ? finish_vec<HasBias>(acc[r][v], bias, (i + r) * BRS,
                                            false, 1.0f, 1.0f, epi)
                      : acc[r][v];
    if (cols == kPanel) {
      out[0].store_unaligned(c);
      out[1].store_unaligned(c + kVecWidth);
    } else {
      alignas(64) float lanes[kPanel];
      out[0].store_aligned(lanes);
      out[1].store_aligned(lanes + kVecWidth);
      for (int64_t l = 0; l < cols; ++l)
        c[l] = lanes[l];
    }
  }
#else
  for (int r = 0; r < R; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      float s = d.first ? 0.0f : C[(i + r) * N + j + c];
      for (int64_t k = d.k0; k < k1; ++k)
        s += A[(i + r) * K + k] * bp[k * kPanel + c];
      C[(i + r) * N + j + c] =
          d.last ? finish<HasBias>(s, bias, (i + r) * BRS, 1.0f, 1.0f, epi) : s;
    }
#endif
}

/// Rows [ib, ie) x panels [pb, pe) of C = A * B (B packed).
template <int64_t M, int64_t N, int64_t K, int64_t BRS, bool HasBias,
          typename Epi>
inline void gemm_packed_block(const float *ONNXCC_RESTRICT A,
                              const float *ONNXCC_RESTRICT Bp,
                              const float *bias, float *ONNXCC_RESTRICT C,
                              int64_t ib, int64_t ie, int64_t pb, int64_t pe,
                              Epi epi) {
  constexpr int64_t kc = depth_block<K>(), nc = column_block<K>() / kPanel;
  for (int64_t k0 = 0; k0 < K || k0 == 0; k0 += kc) {
    const int64_t k1 = k0 + kc < K ? k0 + kc : K;
    const depth d{k0, k1, k0 == 0, k1 == K};
    for (int64_t p0 = pb; p0 < pe; p0 += nc) {
      const int64_t pend = p0 + nc < pe ? p0 + nc : pe;
      auto panels = [&](auto rows, int64_t i) ONNXCC_INLINE_LAMBDA {
        for (int64_t p = p0; p < pend; ++p) {
          const int64_t j = p * kPanel;
          packed_tile<decltype(rows)::value, M, N, K, BRS, HasBias>(
              A, Bp + p * K * kPanel, bias, C, i, j,
              N - j < kPanel ? N - j : kPanel, d, epi);
        }
      };
      for_row_tiles<M>(ib, ie, panels);
    }
    if (k1 == K)
      break;
  }
}

/// C = epi(A * B + bias[i * BRS]) with B packed (K x N in panels).
template <int64_t M, int64_t N, int64_t K, int64_t BRS, bool HasBias,
          typename Epi>
inline void gemm_packed(const float *ONNXCC_RESTRICT A,
                        const float *ONNXCC_RESTRICT Bp, const float *bias,
                        float *ONNXCC_RESTRICT C, Epi epi) {
  constexpr int64_t panels = (N + kPanel - 1) / kPanel;
  gemm_packed_block<M, N, K, BRS, HasBias>(A, Bp, bias, C, 0, M, 0, panels,
                                           epi);
}

/// gemm_packed() on par's threads: whole panels, or whole row panels when
/// there are more of those.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, bool HasBias,
          typename Par, typename Epi>
inline void gemm_packed(Par &par, const float *ONNXCC_RESTRICT A,
                        const float *ONNXCC_RESTRICT Bp, const float *bias,
                        float *ONNXCC_RESTRICT C, Epi epi) {
  constexpr int64_t panels = (N + kPanel - 1) / kPanel;
  constexpr int64_t rows = M / kTileRows;
  par.run([&](int t, int T) {
    if constexpr (panels >= rows) {
      const part p = split(panels, t, T);
      if (p.lo < p.hi)
        gemm_packed_block<M, N, K, BRS, HasBias>(A, Bp, bias, C, 0, M, p.lo,
                                                 p.hi, epi);
    } else {
      const part p = split(rows, t, T);
      if (p.lo < p.hi)
        gemm_packed_block<M, N, K, BRS, HasBias>(
            A, Bp, bias, C, p.lo * kTileRows,
            p.hi == rows ? M : p.hi * kTileRows, 0, panels, epi);
    }
  });
}

} // namespace rt
} // namespace onnxcc

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // ONNXCC_RUNTIME_GEMM_PACKED_H
