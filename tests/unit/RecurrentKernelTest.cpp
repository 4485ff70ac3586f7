//===- RecurrentKernelTest.cpp - RNN, GRU, LSTM against a naive reference -===//
//
// Each layer against the ONNX formulas written out in double precision:
// both layouts, every direction, sequence lengths that are full, partial,
// zero and out of range, peepholes, clip, input_forget, both GRU reset
// forms, parametrised activations, hidden sizes around the vector width,
// f64, and W and R in the layouts the compiler transposes them to (R's
// k-major step at hidden sizes around its vector blocks, both step
// orders). The scratch is exactly recurrent_scratch_elements long plus a
// NaN sentinel that must survive.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

using Fn = std::function<double(double)>;

double sigmoidRef(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// A layer's sizes and options, as the reference reads them.
struct Config {
  Config(int64_t seq, int64_t batch, int64_t input, int64_t hidden,
         int direction, bool batchFirst, std::vector<int32_t> lens = {})
      : seq(seq), batch(batch), input(input), hidden(hidden),
        direction(direction), batchFirst(batchFirst), lens(std::move(lens)) {}
  int64_t seq, batch, input, hidden;
  int direction; // 0 forward, 1 reverse, 2 bidirectional
  bool batchFirst;
  float clip = 0;
  bool flag = false; // linear_before_reset / input_forget
  bool useBias = true, usePeepholes = true, useInitial = true;
  std::vector<int32_t> lens; // empty: none
  int64_t dirs() const { return direction == 2 ? 2 : 1; }
};

struct Tensors {
  std::vector<float> x, w, r, b, h0, c0, p;
};

Tensors randomTensors(const Config &c, int gates, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 0.5f);
  auto fill = [&](size_t n) {
    std::vector<float> v(n);
    for (float &e : v)
      e = dist(rng);
    return v;
  };
  int64_t D = c.dirs(), H = c.hidden;
  Tensors t;
  t.x = fill(c.seq * c.batch * c.input);
  t.w = fill(D * gates * H * c.input);
  t.r = fill(D * gates * H * H);
  t.b = fill(D * 2 * gates * H);
  t.h0 = fill(D * c.batch * H);
  t.c0 = fill(D * c.batch * H);
  t.p = fill(D * 3 * H);
  return t;
}

/// The ONNX formulas, one direction after the other, in double.
struct Reference {
  std::vector<double> y, yh, yc;
};

Reference reference(const Config &c, int gates, const Tensors &t,
                    const std::vector<Fn> &acts) {
  int64_t S = c.seq, N = c.batch, I = c.input, H = c.hidden, D = c.dirs();
  int64_t G = gates, nf = gates == 1 ? 1 : gates == 3 ? 2 : 3;
  Reference out;
  out.y.assign(S * D * N * H, 0.0);
  out.yh.assign(D * N * H, 0.0);
  out.yc.assign(D * N * H, 0.0);
  auto xAt = [&](int64_t s, int64_t n, int64_t i) {
    return double(c.batchFirst ? t.x[(n * S + s) * I + i] : t.x[(s * N + n) * I + i]);
  };
  auto stateIdx = [&](int64_t d, int64_t n) {
    return c.batchFirst ? (n * D + d) * H : (d * N + n) * H;
  };
  auto yIdx = [&](int64_t s, int64_t d, int64_t n) {
    return c.batchFirst ? ((n * S + s) * D + d) * H : ((s * D + d) * N + n) * H;
  };
  auto clip = [&](double v) {
    return c.clip > 0 ? std::fmin(std::fmax(v, -c.clip), c.clip) : v;
  };
  for (int64_t d = 0; d < D; ++d) {
    const Fn &f = acts[d * nf], &g = acts[d * nf + (nf > 1 ? 1 : 0)],
             &h = acts[d * nf + (nf > 2 ? 2 : 0)];
    bool reverse = c.direction == 1 || d == 1;
    for (int64_t n = 0; n < N; ++n) {
      int64_t len = S;
      if (!c.lens.empty())
        len = std::min<int64_t>(std::max<int32_t>(c.lens[n], 0), S);
      std::vector<double> hs(H, 0.0), cs(H, 0.0);
      if (c.useInitial)
        for (int64_t k = 0; k < H; ++k) {
          hs[k] = t.h0[stateIdx(d, n) + k];
          cs[k] = t.c0[stateIdx(d, n) + k];
        }
      for (int64_t step = 0; step < len; ++step) {
        int64_t s = reverse ? len - 1 - step : step;
        // xw[j] = x W^T + Wb, hr[j] = h R^T + Rb for every gate row j.
        std::vector<double> xw(G * H), hr(G * H);
        for (int64_t j = 0; j < G * H; ++j) {
          double a = c.useBias ? t.b[d * 2 * G * H + j] : 0.0;
          double bb = c.useBias ? t.b[d * 2 * G * H + G * H + j] : 0.0;
          for (int64_t i = 0; i < I; ++i)
            a += xAt(s, n, i) * t.w[(d * G * H + j) * I + i];
          for (int64_t k = 0; k < H; ++k)
            bb += hs[k] * t.r[(d * G * H + j) * H + k];
          xw[j] = a;
          hr[j] = bb;
        }
        std::vector<double> hn(H), cn(H);
        if (G == 1) {
          for (int64_t k = 0; k < H; ++k)
            hn[k] = f(clip(xw[k] + hr[k]));
        } else if (G == 3) {
          std::vector<double> z(H), r(H);
          for (int64_t k = 0; k < H; ++k) {
            z[k] = f(clip(xw[k] + hr[k]));
            r[k] = f(clip(xw[H + k] + hr[H + k]));
          }
          for (int64_t k = 0; k < H; ++k) {
            double pre;
            double rbh = c.useBias ? t.b[d * 2 * G * H + G * H + 2 * H + k] : 0.0;
            if (c.flag) {
              pre = xw[2 * H + k] + r[k] * hr[2 * H + k];
            } else {
              // (r . h) Rh^T + Rbh, recomputed from the reset state.
              double acc = rbh;
              for (int64_t m = 0; m < H; ++m)
                acc += r[m] * hs[m] * t.r[(d * G * H + 2 * H + k) * H + m];
              pre = xw[2 * H + k] + acc;
            }
            double cand = g(clip(pre));
            hn[k] = (1 - z[k]) * cand + z[k] * hs[k];
          }
        } else {
          for (int64_t k = 0; k < H; ++k) {
            double pi = c.usePeepholes ? t.p[d * 3 * H + k] : 0.0;
            double po = c.usePeepholes ? t.p[d * 3 * H + H + k] : 0.0;
            double pf = c.usePeepholes ? t.p[d * 3 * H + 2 * H + k] : 0.0;
            double i = f(clip(xw[k] + hr[k] + pi * cs[k]));
            double fg = c.flag ? 1 - i : f(clip(xw[2 * H + k] + hr[2 * H + k] + pf * cs[k]));
            double cc = g(clip(xw[3 * H + k] + hr[3 * H + k]));
            cn[k] = fg * cs[k] + i * cc;
            double o = f(clip(xw[H + k] + hr[H + k] + po * cn[k]));
            hn[k] = o * h(cn[k]);
          }
          cs = cn;
        }
        hs = hn;
        for (int64_t k = 0; k < H; ++k)
          out.y[yIdx(s, d, n) + k] = hs[k];
      }
      for (int64_t k = 0; k < H; ++k) {
        out.yh[stateIdx(d, n) + k] = hs[k];
        out.yc[stateIdx(d, n) + k] = cs[k];
      }
    }
  }
  return out;
}

template <typename T>
void expectNear(const std::vector<T> &got, const std::vector<double> &ref,
                const char *what) {
  ASSERT_EQ(got.size(), ref.size()) << what;
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_LE(std::fabs(double(got[i]) - ref[i]), 1e-4 + 1e-4 * std::fabs(ref[i]))
        << what << " index " << i << ": got " << double(got[i]) << ", expected "
        << ref[i];
}

template <typename T> std::vector<T> as(const std::vector<float> &v) {
  return std::vector<T>(v.begin(), v.end());
}

/// Each of `dirs` [rows, cols] matrices of `m` transposed, as the compiler
/// lays out W and R (S::w_transposed, S::r_transposed).
std::vector<float> transposed(const std::vector<float> &m, int64_t dirs,
                              int64_t rows, int64_t cols) {
  std::vector<float> t(m.size());
  for (int64_t d = 0; d < dirs; ++d)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        t[(d * cols + j) * rows + i] = m[(d * rows + i) * cols + j];
  return t;
}

/// Runs `Kind` (0 RNN, 1 GRU, 2 LSTM) on shape S with activations acts0
/// (and acts1 for the reverse direction), compares with the reference.
template <int Kind, typename S, typename T = float, typename A0, typename A1>
void check(Config c, A0 acts0, A1 acts1, const std::vector<Fn> &refActs,
           unsigned seed = 1) {
  constexpr int G = Kind == 0 ? 1 : Kind == 1 ? 3 : 4;
  SCOPED_TRACE(testing::Message()
               << (Kind == 0 ? "RNN" : Kind == 1 ? "GRU" : "LSTM") << " seq "
               << c.seq << " batch " << c.batch << " input " << c.input
               << " hidden " << c.hidden << " direction " << c.direction
               << " layout " << c.batchFirst << " lens " << c.lens.size()
               << " flag " << c.flag << " W^T " << S::w_transposed << " R^T "
               << S::r_transposed);
  ASSERT_EQ(c.seq, S::seq);
  ASSERT_EQ(c.dirs(), S::dirs);
  ASSERT_EQ(c.batchFirst, S::batch_first);
  Tensors t = randomTensors(c, G, seed);
  using Acc = compute_t<T>;
  constexpr int64_t n = recurrent_scratch_elements<S, G>();
  std::vector<Acc> scratch(n + 1, Acc(NAN));
  int64_t D = S::dirs, H = S::hidden;
  auto x = as<T>(t.x), b = as<T>(t.b), h0 = as<T>(t.h0), c0 = as<T>(t.c0),
       p = as<T>(t.p);
  auto w = as<T>(S::w_transposed ? transposed(t.w, D, G * H, S::input) : t.w);
  auto r = as<T>(S::r_transposed ? transposed(t.r, D, G * H, H) : t.r);
  std::vector<T> y(S::seq * D * S::batch * H, T(-7)), yh(D * S::batch * H, T(-7)),
      yc(D * S::batch * H, T(-7));
  const int32_t *lens = c.lens.empty() ? nullptr : c.lens.data();
  const T *bp = c.useBias ? b.data() : nullptr;
  const T *h0p = c.useInitial ? h0.data() : nullptr;
  const T *c0p = c.useInitial ? c0.data() : nullptr;
  if constexpr (Kind == 0)
    rnn<S, T>(x.data(), w.data(), r.data(), bp, lens, h0p, y.data(), yh.data(),
              scratch.data(), c.clip, acts0, acts1);
  else if constexpr (Kind == 1)
    gru<S, T>(x.data(), w.data(), r.data(), bp, lens, h0p, y.data(), yh.data(),
              scratch.data(), c.clip, c.flag, acts0, acts1);
  else
    lstm<S, T>(x.data(), w.data(), r.data(), bp, lens, h0p, c0p,
               c.usePeepholes ? p.data() : nullptr, y.data(), yh.data(),
               yc.data(), scratch.data(), c.clip, c.flag, acts0, acts1);
  EXPECT_TRUE(std::isnan(double(scratch.back()))) << "wrote past the scratch";
  Reference ref = reference(c, G, t, refActs);
  expectNear(y, ref.y, "Y");
  expectNear(yh, ref.yh, "Y_h");
  if (Kind == 2)
    expectNear(yc, ref.yc, "Y_c");
}

const Fn kSigmoid = sigmoidRef;
const Fn kTanh = [](double x) { return std::tanh(x); };
using SigTanh = rnn_acts<act::sigmoid, act::tanh>;
using SigTanhTanh = rnn_acts<act::sigmoid, act::tanh, act::tanh>;

TEST(Recurrent, RnnDirectionsAndLayouts) {
  rnn_acts<act::tanh> tanh{};
  std::vector<Fn> two = {kTanh, kTanh};
  check<0, rnn_shape<5, 3, 4, 6, 0, false>>({5, 3, 4, 6, 0, false}, tanh, tanh, two);
  check<0, rnn_shape<5, 3, 4, 6, 1, false>>({5, 3, 4, 6, 1, false}, tanh, tanh, two);
  check<0, rnn_shape<5, 3, 4, 6, 2, false>>({5, 3, 4, 6, 2, false}, tanh, tanh, two);
  check<0, rnn_shape<4, 2, 3, 5, 2, true>>({4, 2, 3, 5, 2, true}, tanh, tanh, two);
}

TEST(Recurrent, RnnVectorWidthHidden) {
  rnn_acts<act::tanh> tanh{};
  std::vector<Fn> two = {kTanh, kTanh};
  constexpr int64_t below = kVecWidth > 1 ? kVecWidth - 1 : 1;
  check<0, rnn_shape<3, 1, kVecWidth, below, 0, false>>(
      {3, 1, kVecWidth, below, 0, false}, tanh, tanh, two);
  check<0, rnn_shape<3, 2, 2, kVecWidth, 0, false>>(
      {3, 2, 2, kVecWidth, 0, false}, tanh, tanh, two);
  check<0, rnn_shape<3, 4, 2 * kVecWidth + 1, 2 * kVecWidth + 3, 2, false>>(
      {3, 4, 2 * kVecWidth + 1, 2 * kVecWidth + 3, 2, false}, tanh, tanh, two);
}

TEST(Recurrent, SequenceLengthsZeroPartialAndOutOfRange) {
  Config c{5, 4, 3, 4, 2, false};
  c.lens = {5, 2, 0, 99};
  SigTanhTanh l{};
  std::vector<Fn> six = {kSigmoid, kTanh, kTanh, kSigmoid, kTanh, kTanh};
  check<2, rnn_shape<5, 4, 3, 4, 2, false>>(c, l, l, six);
  c.batchFirst = true;
  check<2, rnn_shape<5, 4, 3, 4, 2, true>>(c, l, l, six);
  c.lens = {-3, 1, 4, 5};
  SigTanh g{};
  std::vector<Fn> four = {kSigmoid, kTanh, kSigmoid, kTanh};
  check<1, rnn_shape<5, 4, 3, 4, 2, true>>(c, g, g, four);
  rnn_acts<act::tanh> tanh{};
  check<0, rnn_shape<5, 4, 3, 4, 1, true>>({5, 4, 3, 4, 1, true, {3, 0, 5, 7}},
                                           tanh, tanh, {kTanh});
}

TEST(Recurrent, GruBothResetForms) {
  SigTanh g{};
  std::vector<Fn> four = {kSigmoid, kTanh, kSigmoid, kTanh};
  for (bool lbr : {false, true}) {
    Config c{4, 3, 5, 7, 2, false};
    c.flag = lbr;
    check<1, rnn_shape<4, 3, 5, 7, 2, false>>(c, g, g, four, lbr ? 3 : 4);
    c.direction = 1;
    c.batchFirst = true;
    check<1, rnn_shape<4, 3, 5, 7, 1, true>>(c, g, g, four, 5);
    // Without B and initial_h.
    c.useBias = c.useInitial = false;
    check<1, rnn_shape<4, 3, 5, 7, 1, true>>(c, g, g, four, 6);
  }
}

TEST(Recurrent, LstmPeepholesClipInputForget) {
  SigTanhTanh l{};
  std::vector<Fn> six = {kSigmoid, kTanh, kTanh, kSigmoid, kTanh, kTanh};
  Config c{6, 2, 3, 5, 0, false};
  check<2, rnn_shape<6, 2, 3, 5, 0, false>>(c, l, l, six);
  c.clip = 0.3f;
  check<2, rnn_shape<6, 2, 3, 5, 0, false>>(c, l, l, six, 2);
  c.flag = true; // input_forget
  check<2, rnn_shape<6, 2, 3, 5, 0, false>>(c, l, l, six, 3);
  c.usePeepholes = c.useBias = c.useInitial = false;
  c.direction = 2;
  check<2, rnn_shape<6, 2, 3, 5, 2, false>>(c, l, l, six, 4);
}

TEST(Recurrent, ParametrisedActivationsPerDirection) {
  // Forward: LeakyRelu / HardSigmoid / Affine; reverse: ScaledTanh / Elu /
  // Softplus; the reference applies the same formulas.
  using Fwd = rnn_acts<act::hard_sigmoid, act::leaky_relu, act::affine>;
  using Rev = rnn_acts<act::scaled_tanh, act::elu, act::softplus>;
  Fwd fwd{act::hard_sigmoid{0.3f, 0.4f}, act::leaky_relu{0.2f}, act::affine{0.5f, 0.25f}};
  Rev rev{act::scaled_tanh{0.9f, 1.3f}, act::elu{0.7f}, act::softplus{}};
  std::vector<Fn> acts = {
      [](double x) { return std::fmax(0.0, std::fmin(1.0, 0.3 * x + 0.4)); },
      [](double x) { return x < 0 ? 0.2 * x : x; },
      [](double x) { return 0.5 * x + 0.25; },
      [](double x) { return 0.9 * std::tanh(1.3 * x); },
      [](double x) { return x < 0 ? 0.7 * (std::exp(x) - 1) : x; },
      [](double x) { return std::log1p(std::exp(x)); }};
  check<2, rnn_shape<3, 2, 4, 3, 2, false>>({3, 2, 4, 3, 2, false}, fwd, rev, acts);
  // Relu, ThresholdedRelu, Softsign through the RNN's single function.
  rnn_acts<act::relu> relu{};
  rnn_acts<act::thresholded_relu> thr{act::thresholded_relu{0.1f}};
  check<0, rnn_shape<3, 2, 4, 3, 2, false>>(
      {3, 2, 4, 3, 2, false}, relu, thr,
      {[](double x) { return x > 0 ? x : 0; },
       [](double x) { return x > 0.1 ? x : 0; }});
  rnn_acts<act::softsign> ss{};
  check<0, rnn_shape<3, 2, 4, 3, 0, false>>(
      {3, 2, 4, 3, 0, false}, ss, ss,
      {[](double x) { return x / (1 + std::fabs(x)); }});
}

// R^T's step (one sequence, f32): hidden sizes below, at and past a
// vector, past a block of 8 vectors (kmajor_row()'s rest block and scalar
// tail), an odd number of steps so that both orders run and end the
// sequence, W transposed too, every cell, both GRU reset forms, clip and
// peepholes, sequence lengths.
TEST(Recurrent, TransposedRecurrenceOneSequence) {
  SigTanhTanh l{};
  SigTanh g{};
  rnn_acts<act::tanh> tanh{};
  std::vector<Fn> six = {kSigmoid, kTanh, kTanh, kSigmoid, kTanh, kTanh};
  std::vector<Fn> four = {kSigmoid, kTanh, kSigmoid, kTanh};
  std::vector<Fn> two = {kTanh, kTanh};
  constexpr int64_t below = kVecWidth > 1 ? kVecWidth - 1 : 1;
  constexpr int64_t wide = 8 * kVecWidth + 3;
  check<2, rnn_shape<7, 1, 3, below, 2, false, false, true>>(
      {7, 1, 3, below, 2, false}, l, l, six);
  check<2, rnn_shape<7, 1, 5, kVecWidth, 0, true, true, true>>(
      {7, 1, 5, kVecWidth, 0, true}, l, l, six);
  check<2, rnn_shape<5, 1, 4, wide, 1, false, true, true>>(
      {5, 1, 4, wide, 1, false}, l, l, six);
  Config lstm{6, 1, 3, 2 * kVecWidth + 1, 0, false, {4}};
  lstm.clip = 0.4f;
  check<2, rnn_shape<6, 1, 3, 2 * kVecWidth + 1, 0, false, false, true>>(lstm, l, l, six, 2);
  for (bool lbr : {false, true}) {
    Config c{7, 1, 4, wide, 2, false};
    c.flag = lbr;
    check<1, rnn_shape<7, 1, 4, wide, 2, false, true, true>>(c, g, g, four, lbr ? 3 : 4);
    Config n{5, 1, 3, kVecWidth + 2, 1, true, {3}};
    n.flag = lbr;
    check<1, rnn_shape<5, 1, 3, kVecWidth + 2, 1, true, false, true>>(n, g, g, four, 5);
  }
  check<0, rnn_shape<7, 1, 2, wide, 2, false, false, true>>({7, 1, 2, wide, 2, false},
                                                           tanh, tanh, two);
  check<0, rnn_shape<4, 1, 2, below, 0, false, true, true>>({4, 1, 2, below, 0, false},
                                                           tanh, tanh, two);
}

// W^T's projection (recurrent_product.h's project_kmajor up to
// kProjectDepth inputs, gemm.h's blocked kernel past it): rows in whole
// register tiles and left over, column groups whole and partial, a scalar
// tail of columns, several sequences.
TEST(Recurrent, TransposedInputProjection) {
  SigTanhTanh l{};
  SigTanh g{};
  std::vector<Fn> six = {kSigmoid, kTanh, kTanh, kSigmoid, kTanh, kTanh};
  std::vector<Fn> four = {kSigmoid, kTanh, kSigmoid, kTanh};
  check<2, rnn_shape<9, 1, 40, 16, 0, false, true, false>>({9, 1, 40, 16, 0, false}, l, l,
                                                          six);
  check<2, rnn_shape<5, 3, 7, 2 * kVecWidth + 1, 2, false, true, false>>(
      {5, 3, 7, 2 * kVecWidth + 1, 2, false}, l, l, six);
  check<1, rnn_shape<3, 2, detail::kProjectDepth, 5, 0, true, true, false>>(
      {3, 2, detail::kProjectDepth, 5, 0, true}, g, g, four);
  check<2, rnn_shape<3, 1, detail::kProjectDepth + 2, 5, 1, false, true, true>>(
      {3, 1, detail::kProjectDepth + 2, 5, 1, false}, l, l, six);
}

TEST(Recurrent, DoublePrecision) {
  SigTanhTanh l{};
  std::vector<Fn> six = {kSigmoid, kTanh, kTanh, kSigmoid, kTanh, kTanh};
  check<2, rnn_shape<4, 2, 3, 5, 2, true>, double>({4, 2, 3, 5, 2, true}, l, l, six);
  SigTanh g{};
  check<1, rnn_shape<4, 2, 3, 5, 0, false>, double>({4, 2, 3, 5, 0, false}, g, g,
                                                    {kSigmoid, kTanh});
}

TEST(Recurrent, EmptySequenceKeepsInitialState) {
  SigTanhTanh l{};
  std::vector<Fn> three = {kSigmoid, kTanh, kTanh};
  check<2, rnn_shape<0, 2, 3, 4, 0, false>>({0, 2, 3, 4, 0, false}, l, l, three);
}

} // namespace
