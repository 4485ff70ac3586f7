//===- pool.h - fixed-shape pooling over 1 to 3 axes ------------*- C++ -*-===//
//
// Max, average and Lp pooling over (N*C, D, H, W) with each axis described
// by an `axis` (window.h); 1-D and 2-D pools pass unit_axis for the axes
// they lack. Output sizes (ceil_mode included) are decided by the
// compiler; windows are clamped to the input, so a ceil_mode window
// hanging past the edge sees only real elements. Values compute in
// compute_t<T> (float for the 16-bit floats).
//
// Windows are clamped per output and axis (in_bounds), not tested per tap,
// the loop shape g++ 12 miscompiled in im2col (conv.h); the interior, where
// no clamping is needed, gets constant trip counts and vectorizes.
//
// Each kernel covers channels [c_lo, c_hi); the forms taking a thread
// pool split the channels across it.
//
// Also: the global pools, and max_unpool (a scatter to given indices).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_POOL_H
#define ONNXCC_RUNTIME_POOL_H

#include "onnxcc/deinterleave.h"
#include "onnxcc/parallel.h"
#include "onnxcc/reduce.h"
#include "onnxcc/types.h"
#include "onnxcc/window.h"

#include <limits>
#include <type_traits>

namespace onnxcc {
namespace rt {

/// The identity of max: -inf for floats, the lowest value for integers.
template <typename C> constexpr C lowest_of() {
  if constexpr (std::numeric_limits<C>::has_infinity)
    return -std::numeric_limits<C>::infinity();
  else
    return std::numeric_limits<C>::lowest();
}

/// v != v without a self-comparison warning for integers.
template <typename C> ONNXCC_INLINE bool is_nan_value(C v) {
  if constexpr (std::is_floating_point<C>::value)
    return v != v;
  else
    return false;
}

/// The running maximum m after seeing v: a NaN, once seen, wins.
template <typename C> ONNXCC_INLINE C max_nan_wins(C m, C v) {
  return (v > m || is_nan_value(v)) ? v : m;
}

/// Element (d, h, w) of a window position's taps as an offset from its
/// first (possibly padded) element.
template <typename AD, typename AH, typename AW>
ONNXCC_INLINE int64_t tap_offset(int64_t kd, int64_t kh, int64_t kw) {
  return (kd * AD::D * AH::In + kh * AH::D) * AW::In + kw * AW::D;
}

/// The input offset of the (possibly padded) first tap of output (od, oh, ow).
template <typename AD, typename AH, typename AW>
ONNXCC_INLINE int64_t window_origin(int64_t od, int64_t oh, int64_t ow) {
  return ((od * AD::S - AD::P) * AH::In + oh * AH::S - AH::P) * AW::In +
         ow * AW::S - AW::P;
}

#if ONNXCC_HAS_SIMD
/// The maximum of output ow's taps rw along a row, one at a time.
template <typename AW>
ONNXCC_INLINE float max_pool_taps(const float *row, int64_t ow,
                                  index_range rw) {
  const float *r = row + ow * AW::S - AW::P;
  float m = lowest_of<float>();
  for (int64_t kw = rw.lo; kw < rw.hi; ++kw)
    m = max_nan_wins(m, r[kw * AW::D]);
  return m;
}

/// The running maximum of max_nan_wins, a vector at a time. On x86,
/// vmaxps(v, m) is v > m ? v : m, max_nan_wins exactly (m on ties and
/// where m is NaN) except where v is NaN, which a mask or blend keeps:
/// two instructions with AVX-512, three with AVX or SSE4.1, instead of
/// two compares, an or and a blend (squeezenet1_1's 3x3 pools: 103 ->
/// 77 us and 65 -> 36 us).
template <typename V> ONNXCC_INLINE V vmax_nan_wins(V m, V v) {
#if defined(__AVX512F__)
  if constexpr (V::size == 16)
    return V(_mm512_mask_max_ps(v, _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v,
                                m));
#endif
#if defined(__AVX512VL__)
  if constexpr (V::size == 8)
    return V(_mm256_mask_max_ps(v, _mm256_cmp_ps_mask(v, v, _CMP_ORD_Q), v,
                                m));
  if constexpr (V::size == 4)
    return V(_mm_mask_max_ps(v, _mm_cmp_ps_mask(v, v, _CMP_ORD_Q), v, m));
#elif defined(__AVX__)
  if constexpr (V::size == 8)
    return V(_mm256_blendv_ps(_mm256_max_ps(v, m), v,
                              _mm256_cmp_ps(v, v, _CMP_UNORD_Q)));
  if constexpr (V::size == 4)
    return V(_mm_blendv_ps(_mm_max_ps(v, m), v, _mm_cmp_ps(v, v, _CMP_UNORD_Q)));
#elif defined(__SSE4_1__)
  if constexpr (V::size == 4)
    return V(_mm_blendv_ps(_mm_max_ps(v, m), v, _mm_cmpunord_ps(v, v)));
#endif
  return xsimd::select((v > m) || xsimd::isnan(v), v, m);
}

/// The maxima down columns [i, i + lanes of V) of the input rows x0 + kh *
/// W (kh in rh), as a vector V or, for V = float, one column: the vertical
/// step of every 2-D max pool, in one order whatever the width.
template <typename AH, int64_t W, typename V>
ONNXCC_INLINE V column_max(const float *x0, index_range rh, int64_t i) {
  if constexpr (std::is_same<V, float>::value) {
    float m = x0[rh.lo * AH::D * W + i];
    for (int64_t kh = rh.lo + 1; kh < rh.hi; ++kh)
      m = max_nan_wins(m, x0[kh * AH::D * W + i]);
    return m;
  } else {
    V m = V::load_unaligned(x0 + rh.lo * AH::D * W + i);
    for (int64_t kh = rh.lo + 1; kh < rh.hi; ++kh)
      m = vmax_nan_wins(m, V::load_unaligned(x0 + kh * AH::D * W + i));
    return m;
  }
}

/// The maxima of one row of outputs, for any window and stride: the
/// horizontal maximum of every whole window of `row` in vectors into
/// `whole`, from which each interior output picks its own (KW comparisons
/// an output, all in vectors); outputs crossing the padding take their
/// taps one by one.
template <typename AW>
ONNXCC_INLINE void max_pool_stride1_picks(const float *ONNXCC_RESTRICT row,
                                          float *ONNXCC_RESTRICT whole,
                                          float *ONNXCC_RESTRICT yr) {
  constexpr int64_t span = (AW::K - 1) * AW::D;
  constexpr int64_t Q = AW::In > span ? AW::In - span : 0;
  using V = vfloat_upto<Q>;
  for_vectors<Q, V::size>([&](int64_t q) ONNXCC_INLINE_LAMBDA {
    V m = V::load_unaligned(row + q);
    for (int64_t kw = 1; kw < AW::K; ++kw)
      m = vmax_nan_wins(m, V::load_unaligned(row + q + kw * AW::D));
    m.store_unaligned(whole + q);
  }, [&](int64_t q) ONNXCC_INLINE_LAMBDA {
    float m = row[q];
    for (int64_t kw = 1; kw < AW::K; ++kw)
      m = max_nan_wins(m, row[q + kw * AW::D]);
    whole[q] = m;
  });
  for_each_window<AW::In, AW::Out, AW::K, AW::S, AW::P, AW::D>(
      [&](int64_t ow, index_range rw) ONNXCC_INLINE_LAMBDA {
        if (rw.lo == 0 && rw.hi == AW::K) {
          yr[ow] = whole[ow * AW::S - AW::P];
          return;
        }
        yr[ow] = max_pool_taps<AW>(row, ow, rw);
      });
}

/// The maxima of one row of outputs of a 2- or 3-wide window at stride 2,
/// straight from the input rows x0 + kh * W for kh in rh: a vector of
/// outputs from the vertical maxima of its taps' columns, split into even
/// and odd columns in registers (a 3-wide window's third tap is the odd
/// column of the span one further on, or the even one one lane on:
/// next_even()). Taps compare in the same order as
/// the stride-1 path (columns, then along the row), so NaNs and signed
/// zeros come out the same. Computing every stride-1 window and picking
/// every other one left torch_small_cnn's 2x2 pools 4x slower than this; a
/// row buffer between the two steps stalled g++'s loads on its stores.
template <typename AH, typename AW>
ONNXCC_INLINE void max_pool_stride2_row(const float *ONNXCC_RESTRICT x0,
                                        index_range rh,
                                        float *ONNXCC_RESTRICT yr) {
  constexpr int64_t W = AW::In;
  constexpr index_range in = stride2_interior<AW>();
  using V = vfloat_upto<in.hi - in.lo>;
  constexpr int64_t VW = static_cast<int64_t>(V::size);
  auto columns = [&](int64_t i) ONNXCC_INLINE_LAMBDA {
    return column_max<AH, W, V>(x0, rh, i);
  };
  for_stride2_outputs<AW, VW>(
      [&](int64_t o) ONNXCC_INLINE_LAMBDA {
        const int64_t i = o * 2 - AW::P;
        const even_odd<V> v = deinterleave(columns(i), columns(i + VW));
        V m = vmax_nan_wins(v.even, v.odd);
        if constexpr (AW::K == 3) {
          if constexpr (has_one_lane_on<V>()) // see next_even()
            m = vmax_nan_wins(
                m, one_lane_on(v.even,
                               column_max<AH, W, float>(x0, rh, i + 2 * VW)));
          else
            m = vmax_nan_wins(
                m, deinterleave(columns(i + 1), columns(i + 1 + VW)).odd);
        }
        m.store_unaligned(yr + o);
      },
      [&](int64_t o) ONNXCC_INLINE_LAMBDA {
        const index_range rw = in_bounds(o * 2 - AW::P, 1, W, AW::K);
        float m = lowest_of<float>();
        for (int64_t kw = rw.lo; kw < rw.hi; ++kw)
          m = max_nan_wins(
              m, column_max<AH, W, float>(x0, rh, o * 2 - AW::P + kw));
        yr[o] = m;
      });
}

/// The third taps of a 3-wide window at stride 2 for the VW outputs whose
/// first taps are r[0], r[2], ...: r[2], r[4], ..., r[2 * VW]. Where
/// one_lane_on() has an instruction, `even` (r[0], r[2], ...) one lane
/// on with r[2 * VW] last; elsewhere the odd elements of r + 1's 2 * VW.
template <typename V>
ONNXCC_INLINE V next_even(V even, const float *r, int64_t VW) {
  if constexpr (has_one_lane_on<V>())
    return one_lane_on(even, r[2 * VW]);
  else
    return deinterleave(V::load_unaligned(r + 1),
                        V::load_unaligned(r + 1 + VW))
        .odd;
}

/// max_pool_stride2_row's vectors for a 3-wide window over a long row:
/// from the row of vertical maxima (a load each instead of KH), the
/// stall of loading across that row's last stores being paid once a row.
template <typename AW>
ONNXCC_INLINE void max_pool_stride2_picks(const float *ONNXCC_RESTRICT row,
                                          float *ONNXCC_RESTRICT yr) {
  constexpr index_range in = stride2_interior<AW>();
  using V = vfloat_upto<in.hi - in.lo>;
  constexpr int64_t VW = static_cast<int64_t>(V::size);
  for_stride2_outputs<AW, VW>(
      [&](int64_t o) ONNXCC_INLINE_LAMBDA {
        const float *r = row + o * 2 - AW::P;
        const even_odd<V> v =
            deinterleave(V::load_unaligned(r), V::load_unaligned(r + VW));
        const V third = next_even<V>(v.even, r, VW);
        vmax_nan_wins(vmax_nan_wins(v.even, v.odd), third).store_unaligned(yr + o);
      },
      [&](int64_t o) ONNXCC_INLINE_LAMBDA {
        yr[o] = max_pool_taps<AW>(row, o, in_bounds(o * 2 - AW::P, 1, AW::In, AW::K));
      });
}

/// max_pool of a 2-D float window: per output row, the vertical maximum
/// of its input rows in vectors into a row on the stack, then the
/// horizontal maxima along that row (max_pool_stride2_row for 2- and
/// 3-wide windows at stride 2, max_pool_stride1_picks otherwise): KH + KW
/// comparisons an output instead of KH x KW, all in vectors. A NaN wins as
/// in the scalar path. (The horizontal taps one output at a time, and the
/// rows' scalar tails, made squeezenet1_1's pools 3.5x slower than ONNX
/// Runtime's.)
template <int64_t NC, typename AH, typename AW>
inline void max_pool_rows(const float *ONNXCC_RESTRICT x,
                          float *ONNXCC_RESTRICT y, int64_t c_lo,
                          int64_t c_hi) {
  constexpr int64_t W = AW::In;
  // Windows starting at q in [0, Q) have every tap inside the row.
  constexpr int64_t Q = W > (AW::K - 1) * AW::D ? W - (AW::K - 1) * AW::D : 0;
  constexpr index_range in2 = stride2_interior<AW>();
  constexpr bool kStride2 = AW::S == 2 && AW::D == 1 &&
                            (AW::K == 2 || AW::K == 3) &&
                            has_even_odd<vfloat_upto<in2.hi - in2.lo>>();
  // A 3-wide window loads each column twice in registers; over rows this
  // long (squeezenet1_1's 111) the row of vertical maxima pays instead.
  constexpr bool kStride2Picks = kStride2 && AW::K == 3 && W > 64;
  using VR = vfloat_upto<W>;
  alignas(64) float row[W];
  alignas(64) float whole[Q > 0 ? Q : 1];
  for (int64_t c = c_lo; c < c_hi; ++c) {
    const float *xc = x + c * AH::In * W;
    float *yc = y + c * AH::Out * AW::Out;
    for_each_window<AH::In, AH::Out, AH::K, AH::S, AH::P, AH::D>(
        [&](int64_t oh, index_range rh) ONNXCC_INLINE_LAMBDA {
          const float *x0 = xc + (oh * AH::S - AH::P) * W;
          float *yr = yc + oh * AW::Out;
          if constexpr (kStride2 && !kStride2Picks) {
            if (rh.lo < rh.hi) {
              max_pool_stride2_row<AH, AW>(x0, rh, yr);
              return;
            }
          }
          if (rh.lo == rh.hi) { // a window in the padding alone
            for (int64_t i = 0; i < W; ++i)
              row[i] = lowest_of<float>();
          } else
          for_vectors<W, VR::size>([&](int64_t i) ONNXCC_INLINE_LAMBDA {
            column_max<AH, W, VR>(x0, rh, i).store_unaligned(row + i);
          }, [&](int64_t i) ONNXCC_INLINE_LAMBDA {
            row[i] = column_max<AH, W, float>(x0, rh, i);
          });
          if constexpr (kStride2Picks)
            max_pool_stride2_picks<AW>(row, yr);
          else
            max_pool_stride1_picks<AW>(row, whole, yr);
        });
  }
}
#endif

template <int64_t NC, typename AD, typename AH, typename AW, typename T>
inline void max_pool(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y,
                     int64_t c_lo = 0, int64_t c_hi = NC) {
#if ONNXCC_HAS_SIMD
  if constexpr (std::is_same<T, float>::value && AD::In == 1 && AD::Out == 1 &&
                AD::K == 1 && AW::In * 4 <= 16384) {
    max_pool_rows<NC, AH, AW>(x, y, c_lo, c_hi);
    return;
  }
#endif
  using C = compute_t<T>;
  constexpr int64_t XS = AD::In * AH::In * AW::In;
  constexpr int64_t YS = AD::Out * AH::Out * AW::Out;
  for (int64_t c = c_lo; c < c_hi; ++c) {
    const T *xc = x + c * XS;
    T *yc = y + c * YS;
    for_each_window3<AD, AH, AW>(
        [&](int64_t od, int64_t oh, int64_t ow, index_range rd, index_range rh,
            index_range rw) ONNXCC_INLINE_LAMBDA {
          const int64_t at = window_origin<AD, AH, AW>(od, oh, ow);
          C m = lowest_of<C>();
          for (int64_t kd = rd.lo; kd < rd.hi; ++kd)
            for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
              for (int64_t kw = rw.lo; kw < rw.hi; ++kw) {
                C v = C(xc[at + tap_offset<AD, AH, AW>(kd, kh, kw)]);
                m = max_nan_wins(m, v);
              }
          yc[(od * AH::Out + oh) * AW::Out + ow] = store_as<T>(m);
        });
  }
}

/// max_pool that also writes each maximum's flat input index: c * (D*H*W)
/// + d*ISD + h*ISH + w*ISW, the strides giving row- or column-major order
/// of the spatial dims. The first maximum wins a tie; a window without a
/// tap in the input gives the lowest value and index -1.
template <int64_t NC, typename AD, typename AH, typename AW, int64_t ISD,
          int64_t ISH, int64_t ISW, typename T>
inline void max_pool_indices(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y,
                             int64_t *ONNXCC_RESTRICT indices) {
  using C = compute_t<T>;
  constexpr int64_t XS = AD::In * AH::In * AW::In;
  constexpr int64_t YS = AD::Out * AH::Out * AW::Out;
  for (int64_t c = 0; c < NC; ++c) {
    const T *xc = x + c * XS;
    for_each_window3<AD, AH, AW>(
        [&](int64_t od, int64_t oh, int64_t ow, index_range rd, index_range rh,
            index_range rw) ONNXCC_INLINE_LAMBDA {
          const int64_t d0 = od * AD::S - AD::P, h0 = oh * AH::S - AH::P,
                        w0 = ow * AW::S - AW::P;
          C m = lowest_of<C>();
          int64_t arg = -1;
          for (int64_t kd = rd.lo; kd < rd.hi; ++kd)
            for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
              for (int64_t kw = rw.lo; kw < rw.hi; ++kw) {
                const int64_t d = d0 + kd * AD::D, h = h0 + kh * AH::D,
                              w = w0 + kw * AW::D;
                C v = C(xc[(d * AH::In + h) * AW::In + w]);
                if (arg < 0 || v > m || (is_nan_value(v) && !is_nan_value(m))) {
                  m = v;
                  arg = c * XS + d * ISD + h * ISH + w * ISW;
                }
              }
          const int64_t out = c * YS + (od * AH::Out + oh) * AW::Out + ow;
          y[out] = store_as<T>(m);
          indices[out] = arg;
        });
  }
}

/// Taps of output o inside the padded input [-P, In + Pe).
template <typename A> ONNXCC_INLINE int64_t padded_taps(int64_t o) {
  return in_bounds(o * A::S, A::D, A::In + A::P + A::Pe, A::K).hi;
}

template <int64_t NC, typename AD, typename AH, typename AW,
          bool CountIncludePad, typename T>
inline void avg_pool(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y,
                     int64_t c_lo = 0, int64_t c_hi = NC) {
  using C = compute_t<T>;
  constexpr int64_t XS = AD::In * AH::In * AW::In;
  constexpr int64_t YS = AD::Out * AH::Out * AW::Out;
  for (int64_t c = c_lo; c < c_hi; ++c) {
    const T *xc = x + c * XS;
    T *yc = y + c * YS;
    for_each_window3<AD, AH, AW>(
        [&](int64_t od, int64_t oh, int64_t ow, index_range rd, index_range rh,
            index_range rw) ONNXCC_INLINE_LAMBDA {
          const int64_t at = window_origin<AD, AH, AW>(od, oh, ow);
          C s = C(0);
          for (int64_t kd = rd.lo; kd < rd.hi; ++kd)
            for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
              for (int64_t kw = rw.lo; kw < rw.hi; ++kw)
                s += C(xc[at + tap_offset<AD, AH, AW>(kd, kh, kw)]);
          int64_t count =
              (rd.hi - rd.lo) * (rh.hi - rh.lo) * (rw.hi - rw.lo);
          if (CountIncludePad)
            count = padded_taps<AD>(od) * padded_taps<AH>(oh) * padded_taps<AW>(ow);
          yc[(od * AH::Out + oh) * AW::Out + ow] =
              store_as<T>(count ? s / static_cast<C>(count) : C(0));
        });
  }
}

/// |v|^P and its inverse, with the common P = 1 and P = 2 exact.
template <int64_t P, typename C> ONNXCC_INLINE C lp_term(C v) {
  if constexpr (P == 1)
    return v < C(0) ? -v : v;
  else if constexpr (P == 2)
    return v * v;
  else
    return std::pow(std::fabs(v), static_cast<C>(P));
}
template <int64_t P, typename C> ONNXCC_INLINE C lp_root(C s) {
  if constexpr (P == 1)
    return s;
  else if constexpr (P == 2)
    return std::sqrt(s);
  else
    return std::pow(s, C(1) / static_cast<C>(P));
}

/// (sum over the window's taps in the input of |x|^P)^(1/P); padding adds
/// nothing.
template <int64_t NC, typename AD, typename AH, typename AW, int64_t P,
          typename T>
inline void lp_pool(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y,
                    int64_t c_lo = 0, int64_t c_hi = NC) {
  using C = compute_t<T>;
  constexpr int64_t XS = AD::In * AH::In * AW::In;
  constexpr int64_t YS = AD::Out * AH::Out * AW::Out;
  for (int64_t c = c_lo; c < c_hi; ++c) {
    const T *xc = x + c * XS;
    T *yc = y + c * YS;
    for_each_window3<AD, AH, AW>(
        [&](int64_t od, int64_t oh, int64_t ow, index_range rd, index_range rh,
            index_range rw) ONNXCC_INLINE_LAMBDA {
          const int64_t at = window_origin<AD, AH, AW>(od, oh, ow);
          C s = C(0);
          for (int64_t kd = rd.lo; kd < rd.hi; ++kd)
            for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
              for (int64_t kw = rw.lo; kw < rw.hi; ++kw)
                s += lp_term<P>(C(xc[at + tap_offset<AD, AH, AW>(kd, kh, kw)]));
          yc[(od * AH::Out + oh) * AW::Out + ow] = store_as<T>(lp_root<P>(s));
        });
  }
}

// The threaded pools (the op's `threads` > 1) give each thread whole
// channels, so every output is computed as by the one-thread kernel.
template <int64_t NC, typename AD, typename AH, typename AW, typename Par,
          typename T>
inline void max_pool(Par &par, const T *x, T *y) {
  par.run([&](int t, int n) {
    const part p = split(NC, t, n);
    max_pool<NC, AD, AH, AW>(x, y, p.lo, p.hi);
  });
}
template <int64_t NC, typename AD, typename AH, typename AW,
          bool CountIncludePad, typename Par, typename T>
inline void avg_pool(Par &par, const T *x, T *y) {
  par.run([&](int t, int n) {
    const part p = split(NC, t, n);
    avg_pool<NC, AD, AH, AW, CountIncludePad>(x, y, p.lo, p.hi);
  });
}
template <int64_t NC, typename AD, typename AH, typename AW, int64_t P,
          typename Par, typename T>
inline void lp_pool(Par &par, const T *x, T *y) {
  par.run([&](int t, int n) {
    const part p = split(NC, t, n);
    lp_pool<NC, AD, AH, AW, P>(x, y, p.lo, p.hi);
  });
}

/// Mean over the trailing `Spatial` elements of each of NC channels.
template <int64_t NC, int64_t Spatial, typename T>
inline void global_avg_pool(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  for (int64_t c = 0; c < NC; ++c) {
    const T *xc = x + c * Spatial;
    C s = C(0);
    if constexpr (detail::vector_sum_v<reduce_op::sum, T>) {
      s = detail::sum_contiguous<reduce_op::sum>(xc, Spatial);
    } else {
      for (int64_t i = 0; i < Spatial; ++i)
        s += C(xc[i]);
    }
    y[c] = store_as<T>(Spatial ? s / static_cast<C>(Spatial) : C(0));
  }
}

/// Maximum over the trailing `Spatial` elements of each channel (NaN wins).
template <int64_t NC, int64_t Spatial, typename T>
inline void global_max_pool(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  for (int64_t c = 0; c < NC; ++c) {
    const T *xc = x + c * Spatial;
    C m = lowest_of<C>();
    for (int64_t i = 0; i < Spatial; ++i) {
      C v = C(xc[i]);
      m = max_nan_wins(m, v);
    }
    y[c] = store_as<T>(m);
  }
}

/// Lp norm over the trailing `Spatial` elements of each channel.
template <int64_t NC, int64_t Spatial, int64_t P, typename T>
inline void global_lp_pool(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  for (int64_t c = 0; c < NC; ++c) {
    const T *xc = x + c * Spatial;
    C s = C(0);
    for (int64_t i = 0; i < Spatial; ++i)
      s += lp_term<P>(C(xc[i]));
    y[c] = store_as<T>(lp_root<P>(s));
  }
}

/// y = zeros of `out_shape`, then x[e] stored where indices[e], a flat index
/// into a tensor of `unpooled` shape (which y may enlarge), points. An index
/// outside that tensor is skipped.
template <int64_t Count, int64_t OutCount, int R, typename T>
inline void max_unpool(const int64_t (&unpooled)[R], const int64_t (&out_shape)[R],
                       const T *ONNXCC_RESTRICT x,
                       const int64_t *ONNXCC_RESTRICT indices,
                       T *ONNXCC_RESTRICT y) {
  for (int64_t i = 0; i < OutCount; ++i)
    y[i] = store_as<T>(compute_t<T>(0));
  int64_t total = 1;
  for (int d = 0; d < R; ++d)
    total *= unpooled[d];
  for (int64_t e = 0; e < Count; ++e) {
    const int64_t at = indices[e];
    if (at < 0 || at >= total)
      continue;
    int64_t offset = 0, stride = 1, rest = at;
    for (int d = R - 1; d >= 0; --d) {
      offset += rest % unpooled[d] * stride;
      rest /= unpooled[d];
      stride *= out_shape[d];
    }
    y[offset] = x[e];
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_POOL_H
