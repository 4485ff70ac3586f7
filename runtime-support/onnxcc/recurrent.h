//===- recurrent.h - RNN, GRU and LSTM layers -------------------*- C++ -*-===//
//
// One call runs a whole ONNX recurrent layer. Per direction:
//   1. the input projection of every step at once, X * W^T + biases, one
//      GEMM of [seq * batch, input] x [input, gates * hidden] (rows in X's
//      order, so both layouts share it);
//   2. per time step, the recurrent product H(t-1) * R^T added to that
//      step's rows of the projection (recurrent_product.h), then the
//      cell's elementwise update. R^T as the compiler laid it out for one
//      sequence (batch 1, f32, see rnn_shape::r_transposed): [hidden,
//      gates * hidden], so the step is a row of multiply-adds into a block
//      of vector accumulators, one broadcast h(k) at a time; otherwise
//      ONNX's R, one dot product per output. Every other step runs
//      backwards (k, or the dot groups, from last to first): R (an LSTM's
//      4H x H, 64 KiB at hidden 64) overflows L1 and streamed whole from
//      L2 each step; starting where the last step ended finds those lines
//      still in L1. lstm_classifier's layer (hidden 64, 50 steps) on an
//      Emerald Rapids, g++ -O3: dot products 42 us, k-major forwards only
//      40, k-major alternating 33, and 29 with the rational tanh of
//      vmath.h in the cell. A k-major backward step sums an output's
//      products the other way round; the order is fixed by the step's
//      index.
// Steps at or past a sequence's length (sequence_lens) write zeros to Y and
// keep the state, so Y_h/Y_c hold the state after the last valid step; a
// reverse direction runs from its sequence's last valid step down to 0.
// Lengths outside [0, seq] are clamped.
//
// f32 uses gemm.h; f64 and the 16-bit floats run the same algorithm with
// plain loops, computing in compute_t<T> (double for f64, float otherwise).
// State, gates and the projection live in the caller's scratch of
// recurrent_scratch_elements<S, Gates>() elements of compute_t<T>.
//
// The activation functions are ONNX's list for recurrent layers; each is a
// functor with its alpha/beta, so the cell loops inline them.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_RECURRENT_H
#define ONNXCC_RUNTIME_RECURRENT_H

#include "onnxcc/config.h"
#include "onnxcc/gemm.h"
#include "onnxcc/recurrent_product.h"
#include "onnxcc/types.h"
#include "onnxcc/vmath.h"

namespace onnxcc {
namespace rt {

/// The activation functions of ONNX's RNN, GRU and LSTM.
namespace act {
struct relu {
  template <typename V> V operator()(V x) const { return x > V(0) ? x : V(0); }
};
// float through vmath.h, so that a cell's loop over the hidden units
// vectorises; double through libm.
struct tanh {
  ONNXCC_INLINE float operator()(float x) const { return tanh_rational(x); }
#if ONNXCC_HAS_SIMD
  ONNXCC_INLINE vfloat operator()(vfloat x) const { return tanh_rational(x); }
#endif
  double operator()(double x) const { return std::tanh(x); }
};
struct sigmoid {
  ONNXCC_INLINE float operator()(float x) const { return sigmoid_rational(x); }
#if ONNXCC_HAS_SIMD
  ONNXCC_INLINE vfloat operator()(vfloat x) const { return sigmoid_rational(x); }
#endif
  // exp of a non-positive argument only: no overflow for large |x|.
  double operator()(double x) const {
    if (x >= 0.0)
      return 1.0 / (1.0 + std::exp(-x));
    double e = std::exp(x);
    return e / (1.0 + e);
  }
};
struct affine {
  float alpha, beta;
  template <typename V> V operator()(V x) const { return V(alpha) * x + V(beta); }
};
struct leaky_relu {
  float alpha;
  template <typename V> V operator()(V x) const { return x < V(0) ? V(alpha) * x : x; }
};
struct thresholded_relu {
  float alpha;
  template <typename V> V operator()(V x) const { return x > V(alpha) ? x : V(0); }
};
struct scaled_tanh {
  float alpha, beta;
  template <typename V> V operator()(V x) const {
    return V(alpha) * std::tanh(V(beta) * x);
  }
};
struct hard_sigmoid {
  float alpha, beta;
  template <typename V> V operator()(V x) const {
    V v = V(alpha) * x + V(beta);
    return v < V(0) ? V(0) : (v > V(1) ? V(1) : v);
  }
};
struct elu {
  float alpha;
  template <typename V> V operator()(V x) const {
    return x < V(0) ? V(alpha) * (std::exp(x) - V(1)) : x;
  }
};
struct softsign {
  template <typename V> V operator()(V x) const { return x / (V(1) + std::fabs(x)); }
};
struct softplus {
  // log(1 + exp(x)) without overflow.
  template <typename V> V operator()(V x) const {
    return x > V(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }
};
} // namespace act

/// The activation functions of one direction: f (RNN, GRU, LSTM), g (GRU,
/// LSTM), h (LSTM); the ones a cell does not use may be left out.
template <typename F, typename G = F, typename H = G> struct rnn_acts {
  constexpr rnn_acts(F f = F{}, G g = G{}, H h = H{}) : f(f), g(g), h(h) {}
  F f;
  G g;
  H h;
};

/// Whether a cell's activations all take whole vectors (the default
/// Sigmoid and Tanh), so that the cell can be written with vectors.
template <typename Acts> struct vector_acts {
  static constexpr bool value = false;
};
#if ONNXCC_HAS_SIMD
template <> struct vector_acts<rnn_acts<act::sigmoid, act::tanh, act::tanh>> {
  static constexpr bool value = true;
};
#endif

/// Whether an LSTM cell of T runs in vectors: f32 state and vector acts.
template <typename T, typename Acts> constexpr bool vector_cell() {
  return std::is_same<T, float>::value && vector_acts<Acts>::value;
}

/// A recurrent layer's sizes. Direction: 0 forward, 1 reverse, 2
/// bidirectional. BatchFirst is ONNX's layout 1. WTransposed: W holds each
/// direction's [input x gates * hidden] (the compiler transposed it)
/// instead of ONNX's [gates * hidden x input]; RTransposed: R holds each
/// direction's [hidden x gates * hidden] (f32 only).
template <int64_t Seq, int64_t Batch, int64_t Input, int64_t Hidden,
          int Direction, bool BatchFirst, bool WTransposed = false,
          bool RTransposed = false>
struct rnn_shape {
  static constexpr int64_t seq = Seq, batch = Batch, input = Input,
                           hidden = Hidden;
  static constexpr int64_t dirs = Direction == 2 ? 2 : 1;
  static constexpr bool batch_first = BatchFirst;
  static constexpr bool w_transposed = WTransposed;
  static constexpr bool r_transposed = RTransposed;
  /// Whether direction d runs from the last step to the first.
  static constexpr bool reverse(int64_t d) { return Direction == 1 || d == 1; }
  /// Offset of Y's row (t, d, b) and of Y_h's (and initial_h's) row (d, b).
  static constexpr int64_t y_row(int64_t t, int64_t d, int64_t b) {
    return (BatchFirst ? (b * Seq + t) * dirs + d : (t * dirs + d) * Batch + b) *
           Hidden;
  }
  static constexpr int64_t state_row(int64_t d, int64_t b) {
    return (BatchFirst ? b * dirs + d : d * Batch + b) * Hidden;
  }
};

/// Scratch a layer needs, in elements of compute_t<T>: the projection of
/// every step, one step's gates, the summed biases (and the GRU's separate
/// recurrent candidate bias) and four [batch, hidden] buffers.
template <typename S, int64_t Gates>
constexpr int64_t recurrent_scratch_elements() {
  return (S::seq * S::batch + S::batch) * Gates * S::hidden + Gates * S::hidden +
         S::hidden + 4 * S::batch * S::hidden;
}

namespace detail {

/// sc.xw = X W_d^T + bias for every step at once, W_d direction d's input
/// weights in either layout (see rnn_shape).
template <typename S, int64_t GH, typename T, typename Acc>
inline void input_projection(const T *x, const T *w, int64_t d,
                             const Acc *bias, Acc *out) {
  constexpr int64_t M = S::seq * S::batch, K = S::input;
  const T *wd = w + d * GH * K;
  if constexpr (!S::w_transposed) {
    matmul_bt<M, GH, K, 0>(x, wd, bias, out);
  } else if constexpr (std::is_same<T, float>::value &&
                       std::is_same<Acc, float>::value && K <= kProjectDepth) {
    project_kmajor<M, GH, K>(x, wd, bias, out);
  } else if constexpr (std::is_same<T, float>::value && std::is_same<Acc, float>::value) {
    gemm<M, GH, K, false, false, 0, 1, true>(x, wd, bias, 1.0f, 1.0f, out,
                                             identity{});
  } else {
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < GH; ++j) {
        Acc s = 0;
        for (int64_t k = 0; k < K; ++k)
          s += static_cast<Acc>(x[i * K + k]) * static_cast<Acc>(wd[k * GH + j]);
        out[i * GH + j] = s + bias[j];
      }
  }
}

/// The buffers of one direction inside the scratch.
template <typename S, int64_t Gates, typename Acc> struct rnn_scratch {
  static constexpr int64_t GH = Gates * S::hidden;
  Acc *xw;    ///< [seq * batch, GH], rows in X's order
  Acc *gates; ///< [batch, GH]
  Acc *bias;  ///< [GH]: Wb + Rb (the GRU candidate's as its formula needs)
  Acc *rbh;   ///< [hidden]: the GRU candidate's Rb with linear_before_reset
  Acc *h, *c, *t1, *t2; ///< [batch, hidden] each
  explicit rnn_scratch(Acc *s)
      : xw(s), gates(xw + S::seq * S::batch * GH), bias(gates + S::batch * GH),
        rbh(bias + GH), h(rbh + S::hidden), c(h + S::batch * S::hidden),
        t1(c + S::batch * S::hidden), t2(t1 + S::batch * S::hidden) {}
  /// Step t's rows of the projection and their stride (for the GEMM bias).
  static constexpr int64_t step_stride = (S::batch_first ? S::seq : 1) * GH;
  const Acc *step(int64_t t) const {
    return xw + (S::batch_first ? t : t * S::batch) * GH;
  }
};

/// A sequence's length clamped to [0, seq].
template <typename S>
inline int64_t length(const std::int32_t *seq_lens, int64_t b) {
  if (!seq_lens)
    return S::seq;
  int64_t l = seq_lens[b];
  return l < 0 ? 0 : (l > S::seq ? S::seq : l);
}

/// Copies direction d's initial state (null: zeros) into `state`.
template <typename S, typename T, typename Acc>
inline void load_state(const T *init, int64_t d, Acc *state) {
  for (int64_t b = 0; b < S::batch; ++b)
    for (int64_t k = 0; k < S::hidden; ++k)
      state[b * S::hidden + k] =
          init ? static_cast<Acc>(init[S::state_row(d, b) + k]) : Acc(0);
}

template <typename S, typename T, typename Acc>
inline void store_state(const Acc *state, int64_t d, T *out) {
  for (int64_t b = 0; b < S::batch; ++b)
    for (int64_t k = 0; k < S::hidden; ++k)
      out[S::state_row(d, b) + k] = store_as<T>(state[b * S::hidden + k]);
}

template <typename S, typename T> inline void zero_row(T *y, int64_t t, int64_t d, int64_t b) {
  for (int64_t k = 0; k < S::hidden; ++k)
    y[S::y_row(t, d, b) + k] = store_as<T>(compute_t<T>(0));
}

template <typename Acc> inline Acc clip_to(Acc v, float clip) {
  if (!(clip > 0))
    return v;
  Acc c = static_cast<Acc>(clip);
  return v < -c ? -c : (v > c ? c : v);
}

/// sc.bias = Wb + Rb of direction d (zeros without B); for the GRU with
/// linear_before_reset the candidate's Rb goes to sc.rbh instead.
template <typename S, int64_t Gates, typename T, typename Acc>
inline void sum_bias(const T *b, int64_t d, bool separate_candidate,
                     rnn_scratch<S, Gates, Acc> &sc) {
  constexpr int64_t GH = Gates * S::hidden;
  const T *wb = b ? b + d * 2 * GH : nullptr;
  for (int64_t j = 0; j < GH; ++j) {
    bool candidate = separate_candidate && j >= 2 * S::hidden;
    sc.bias[j] = wb ? static_cast<Acc>(wb[j]) +
                          (candidate ? Acc(0) : static_cast<Acc>(wb[GH + j]))
                    : Acc(0);
  }
  for (int64_t k = 0; k < S::hidden; ++k)
    sc.rbh[k] = wb && separate_candidate ? static_cast<Acc>(wb[GH + 2 * S::hidden + k])
                                         : Acc(0);
}

} // namespace detail

namespace detail {

/// One direction of an RNN (see rnn()).
template <typename S, typename T, typename Acts>
inline void rnn_direction(int64_t d, const T *x, const T *w, const T *r,
                          const T *b, const std::int32_t *seq_lens,
                          const T *initial_h, T *y, T *y_h,
                          compute_t<T> *scratch, float clip, const Acts &acts) {
  using Acc = compute_t<T>;
  using SC = rnn_scratch<S, 1, Acc>;
  constexpr int64_t H = S::hidden;
  SC sc(scratch);
  sum_bias<S, 1>(b, d, false, sc);
  input_projection<S, H>(x, w, d, sc.bias, sc.xw);
  load_state<S>(initial_h, d, sc.h);
  for (int64_t s = 0; s < S::seq; ++s) {
    int64_t t = S::reverse(d) ? S::seq - 1 - s : s;
    recurrent_product<S, H, 0, H, SC::step_stride>(sc.h, r + d * H * H,
                                                   sc.step(t), sc.gates, s % 2 == 1);
    for (int64_t bb = 0; bb < S::batch; ++bb) {
      if (t >= length<S>(seq_lens, bb)) {
        zero_row<S>(y, t, d, bb);
        continue;
      }
      T *yr = y + S::y_row(t, d, bb);
      for (int64_t k = 0; k < H; ++k) {
        Acc hn = acts.f(clip_to(sc.gates[bb * H + k], clip));
        sc.h[bb * H + k] = hn;
        yr[k] = store_as<T>(hn);
      }
    }
  }
  store_state<S>(sc.h, d, y_h);
}

/// One direction of a GRU (see gru()).
template <typename S, typename T, typename Acts>
inline void gru_direction(int64_t d, const T *x, const T *w, const T *r,
                          const T *b, const std::int32_t *seq_lens,
                          const T *initial_h, T *y, T *y_h,
                          compute_t<T> *scratch, float clip,
                          bool linear_before_reset, const Acts &acts) {
  using Acc = compute_t<T>;
  using SC = rnn_scratch<S, 3, Acc>;
  constexpr int64_t H = S::hidden, GH = 3 * H;
  SC sc(scratch);
  const T *rd = r + d * GH * H;
  sum_bias<S, 3>(b, d, linear_before_reset, sc);
  input_projection<S, GH>(x, w, d, sc.bias, sc.xw);
  load_state<S>(initial_h, d, sc.h);
  Acc *zr = sc.gates, *rhp = sc.t1, *hh = sc.t2;
  for (int64_t s = 0; s < S::seq; ++s) {
    int64_t t = S::reverse(d) ? S::seq - 1 - s : s;
    const Acc *xt = sc.step(t);
    // z and r of every row: [batch, 2H].
    recurrent_product<S, GH, 0, 2 * H, SC::step_stride>(sc.h, rd, xt, zr,
                                                        s % 2 == 1);
    if (linear_before_reset) {
      recurrent_product<S, GH, 2 * H, H, 0>(sc.h, rd, sc.rbh, hh, s % 2 == 1);
    } else {
      for (int64_t bb = 0; bb < S::batch; ++bb)
        for (int64_t k = 0; k < H; ++k)
          rhp[bb * H + k] =
              acts.f(clip_to(zr[bb * 2 * H + H + k], clip)) * sc.h[bb * H + k];
      recurrent_product<S, GH, 2 * H, H, SC::step_stride>(rhp, rd, xt + 2 * H,
                                                          hh, s % 2 == 1);
    }
    for (int64_t bb = 0; bb < S::batch; ++bb) {
      if (t >= length<S>(seq_lens, bb)) {
        zero_row<S>(y, t, d, bb);
        continue;
      }
      T *yr = y + S::y_row(t, d, bb);
      const Acc *xh = xt + bb * SC::step_stride + 2 * H;
      if (!(clip > 0.0f)) {
        // Without clipping, one branch-free loop per reset form, which
        // vectorises with the activations.
        const Acc *zb = zr + bb * 2 * H, *hb = hh + bb * H;
        Acc *h = sc.h + bb * H;
        if (linear_before_reset) {
          for (int64_t k = 0; k < H; ++k) {
            Acc z = acts.f(zb[k]);
            Acc c = acts.g(xh[k] + acts.f(zb[H + k]) * hb[k]);
            Acc hn = (Acc(1) - z) * c + z * h[k];
            h[k] = hn;
            yr[k] = store_as<T>(hn);
          }
        } else {
          for (int64_t k = 0; k < H; ++k) {
            Acc z = acts.f(zb[k]);
            Acc hn = (Acc(1) - z) * acts.g(hb[k]) + z * h[k];
            h[k] = hn;
            yr[k] = store_as<T>(hn);
          }
        }
        continue;
      }
      for (int64_t k = 0; k < H; ++k) {
        Acc z = acts.f(clip_to(zr[bb * 2 * H + k], clip));
        Acc pre = hh[bb * H + k];
        if (linear_before_reset)
          pre = xh[k] + acts.f(clip_to(zr[bb * 2 * H + H + k], clip)) * pre;
        Acc c = acts.g(clip_to(pre, clip));
        Acc hn = (Acc(1) - z) * c + z * sc.h[bb * H + k];
        sc.h[bb * H + k] = hn;
        yr[k] = store_as<T>(hn);
      }
    }
  }
  store_state<S>(sc.h, d, y_h);
}

/// One direction of an LSTM (see lstm()).
template <typename S, typename T, typename Acts>
inline void lstm_direction(int64_t d, const T *x, const T *w, const T *r,
                           const T *b, const std::int32_t *seq_lens,
                           const T *initial_h, const T *initial_c, const T *p,
                           T *y, T *y_h, T *y_c, compute_t<T> *scratch,
                           float clip, bool input_forget, const Acts &acts) {
  using Acc = compute_t<T>;
  using SC = rnn_scratch<S, 4, Acc>;
  constexpr int64_t H = S::hidden, GH = 4 * H;
  SC sc(scratch);
  const T *pd = p ? p + d * 3 * H : nullptr;
  sum_bias<S, 4>(b, d, false, sc);
  input_projection<S, GH>(x, w, d, sc.bias, sc.xw);
  load_state<S>(initial_h, d, sc.h);
  load_state<S>(initial_c, d, sc.c);
  for (int64_t s = 0; s < S::seq; ++s) {
    int64_t t = S::reverse(d) ? S::seq - 1 - s : s;
    recurrent_product<S, GH, 0, GH, SC::step_stride>(
        sc.h, r + d * GH * H, sc.step(t), sc.gates, s % 2 == 1);
    for (int64_t bb = 0; bb < S::batch; ++bb) {
      if (t >= length<S>(seq_lens, bb)) {
        zero_row<S>(y, t, d, bb);
        continue;
      }
      T *yr = y + S::y_row(t, d, bb);
      const Acc *gt = sc.gates + bb * GH;
      if (!pd && !input_forget && !(clip > 0.0f)) {
        // The usual cell, without peepholes, coupling or clipping: a loop
        // with no branch, in vectors where the activations take them, the
        // rest left to the vectoriser.
        Acc *cr = sc.c + bb * H, *hr = sc.h + bb * H;
        // Units [0, kv) in vectors; kv a constant, so that where it is H
        // the scalar loop is known empty (g++ warned of its iterations).
        constexpr int64_t kv = vector_cell<T, Acts>() ? H / kVecWidth * kVecWidth : 0;
#if ONNXCC_HAS_SIMD
        if constexpr (kv > 0) {
          auto at = [](const float *p) { return vfloat::load_unaligned(p); };
          for (int64_t k = 0; k < kv; k += kVecWidth) {
            vfloat cn = vfma(acts.f(at(gt + 2 * H + k)), at(cr + k),
                             acts.f(at(gt + k)) * acts.g(at(gt + 3 * H + k)));
            vfloat hn = acts.f(at(gt + H + k)) * acts.h(cn);
            cn.store_unaligned(cr + k);
            hn.store_unaligned(hr + k);
            hn.store_unaligned(yr + k);
          }
        }
#endif
        for (int64_t k = kv; k < H; ++k) {
          Acc cn = acts.f(gt[2 * H + k]) * cr[k] +
                   acts.f(gt[k]) * acts.g(gt[3 * H + k]);
          Acc hn = acts.f(gt[H + k]) * acts.h(cn);
          cr[k] = cn;
          hr[k] = hn;
          yr[k] = store_as<T>(hn);
        }
        continue;
      }
      for (int64_t k = 0; k < H; ++k) {
        Acc cprev = sc.c[bb * H + k];
        Acc pi = pd ? static_cast<Acc>(pd[k]) : Acc(0);
        Acc po = pd ? static_cast<Acc>(pd[H + k]) : Acc(0);
        Acc pf = pd ? static_cast<Acc>(pd[2 * H + k]) : Acc(0);
        Acc i = acts.f(clip_to(gt[k] + pi * cprev, clip));
        Acc fg = input_forget ? Acc(1) - i
                              : acts.f(clip_to(gt[2 * H + k] + pf * cprev, clip));
        Acc c = acts.g(clip_to(gt[3 * H + k], clip));
        Acc cn = fg * cprev + i * c;
        Acc o = acts.f(clip_to(gt[H + k] + po * cn, clip));
        Acc hn = o * acts.h(cn);
        sc.c[bb * H + k] = cn;
        sc.h[bb * H + k] = hn;
        yr[k] = store_as<T>(hn);
      }
    }
  }
  store_state<S>(sc.h, d, y_h);
  store_state<S>(sc.c, d, y_c);
}

} // namespace detail

/// ONNX RNN: H(t) = f(X(t) W^T + H(t-1) R^T + Wb + Rb). Optional inputs
/// (b, seq_lens, initial_h) may be null; acts1 is the reverse direction's
/// of a bidirectional layer (ignored otherwise); clip <= 0 means none.
template <typename S, typename T, typename A0, typename A1>
inline void rnn(const T *x, const T *w, const T *r, const T *b,
                const std::int32_t *seq_lens, const T *initial_h, T *y, T *y_h,
                compute_t<T> *scratch, float clip, A0 acts0, A1 acts1) {
  detail::rnn_direction<S>(0, x, w, r, b, seq_lens, initial_h, y, y_h, scratch,
                           clip, acts0);
  if constexpr (S::dirs == 2)
    detail::rnn_direction<S>(1, x, w, r, b, seq_lens, initial_h, y, y_h,
                             scratch, clip, acts1);
}

/// ONNX GRU, gates z, r, h:
///   z = f(Xz + H Rz^T + b), r = f(Xr + H Rr^T + b)
///   c = g(Xh + (r . H) Rh^T + Wbh + Rbh)        linear_before_reset = 0
///   c = g(Xh + r . (H Rh^T + Rbh) + Wbh)        linear_before_reset = 1
///   H = (1 - z) . c + z . H
template <typename S, typename T, typename A0, typename A1>
inline void gru(const T *x, const T *w, const T *r, const T *b,
                const std::int32_t *seq_lens, const T *initial_h, T *y, T *y_h,
                compute_t<T> *scratch, float clip, bool linear_before_reset,
                A0 acts0, A1 acts1) {
  detail::gru_direction<S>(0, x, w, r, b, seq_lens, initial_h, y, y_h, scratch,
                           clip, linear_before_reset, acts0);
  if constexpr (S::dirs == 2)
    detail::gru_direction<S>(1, x, w, r, b, seq_lens, initial_h, y, y_h,
                             scratch, clip, linear_before_reset, acts1);
}

/// ONNX LSTM, gates i, o, f, c, peepholes P = (i, o, f):
///   i = f(Xi + H Ri^T + Pi . C + b),  f = f(Xf + H Rf^T + Pf . C + b)
///   (f = 1 - i with input_forget),    c = g(Xc + H Rc^T + b)
///   C = f . C + i . c,  o = f(Xo + H Ro^T + Po . C + b),  H = o . h(C)
template <typename S, typename T, typename A0, typename A1>
inline void lstm(const T *x, const T *w, const T *r, const T *b,
                 const std::int32_t *seq_lens, const T *initial_h,
                 const T *initial_c, const T *p, T *y, T *y_h, T *y_c,
                 compute_t<T> *scratch, float clip, bool input_forget,
                 A0 acts0, A1 acts1) {
  detail::lstm_direction<S>(0, x, w, r, b, seq_lens, initial_h, initial_c, p, y,
                            y_h, y_c, scratch, clip, input_forget, acts0);
  if constexpr (S::dirs == 2)
    detail::lstm_direction<S>(1, x, w, r, b, seq_lens, initial_h, initial_c, p,
                              y, y_h, y_c, scratch, clip, input_forget, acts1);
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_RECURRENT_H
