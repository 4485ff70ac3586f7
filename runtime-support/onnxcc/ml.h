//===- ml.h - ai.onnx.ml kernels: tree ensembles and SVMs -------*- C++ -*-===//
//
// ml_tree_ensemble(): every tree of an ensemble walked as a compact node
// array (the compiler lays the trees out and proves them acyclic, so a walk
// ends at a leaf within Depth steps), leaf weights aggregated per target,
// then the binary-classifier expansion and the post transform.
// ml_svm_classifier(): the one-vs-one decisions of a support vector
// classifier (or the linear scores of one without support vectors), votes,
// optional pairwise-coupled probabilities, labels and the post transform.
// Semantics are those of onnx.reference (aionnxml), which ORT shares for
// everything the compiler accepts.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ML_H
#define ONNXCC_RUNTIME_ML_H

#include "onnxcc/config.h"
#include "onnxcc/types.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace onnxcc {
namespace rt {

/// post_transform values, as the compiler numbers them.
enum ml_post : int {
  ml_post_none = 0,
  ml_post_logistic = 1,
  ml_post_softmax = 2,
  ml_post_softmax_zero = 3,
  ml_post_probit = 4,
};

/// Node modes of the node array.
enum ml_node_mode : int {
  ml_leaf = 0,
  ml_leq = 1,
  ml_lt = 2,
  ml_gte = 3,
  ml_gt = 4,
  ml_eq = 5,
  ml_neq = 6,
  ml_member = 7,
};

/// The number of int32 fields per node: feature, mode | missing_tracks_true
/// << 8, true child, false child, first and end index of the node's range
/// (leaf weights for a leaf, set members for a MEMBER node). A leaf reads
/// feature 0 and is its own true and false child, so that a walk of a fixed
/// number of steps may pass it without a test.
constexpr int ml_node_fields = 6;

/// 1 / (1 + exp(-v)), written as ORT does so that large |v| stays exact.
ONNXCC_INLINE float ml_logistic(float v) {
  float e = 1.0f / (1.0f + std::exp(-std::fabs(v)));
  return v < 0 ? 1.0f - e : e;
}

/// The Winitzki approximation of erfinv, written as ORT writes it (at +-1
/// it gives +-inf; onnx.reference gives 0 there).
ONNXCC_INLINE float ml_erf_inv(float x) {
  float sgn = x < 0 ? -1.0f : 1.0f;
  x = (1.0f - x) * (1.0f + x);
  float log = std::log(x);
  float v = 2.0f / (3.14159f * 0.147f) + 0.5f * log;
  float v2 = 1.0f / 0.147f * log;
  float v3 = -v + std::sqrt(v * v - v2);
  return sgn * std::sqrt(v3);
}

ONNXCC_INLINE float ml_probit(float v) {
  return 1.41421356f * ml_erf_inv(v * 2.0f - 1.0f);
}

/// 1 / (1 + exp(-v)) in V.
template <typename V> ONNXCC_INLINE V ml_logistic_v(V v) {
  V e = V(1) / (V(1) + std::exp(-std::fabs(v)));
  return v < 0 ? V(1) - e : e;
}

/// Applies post transform `Post` to one row of `C` scores in place.
template <int64_t C, int Post, typename V> inline void ml_post_transform(V *s) {
  if constexpr (Post == ml_post_logistic) {
    for (int64_t j = 0; j < C; ++j)
      s[j] = ml_logistic_v(s[j]);
  } else if constexpr (Post == ml_post_probit) {
    for (int64_t j = 0; j < C; ++j)
      s[j] = V(ml_probit(float(s[j])));
  } else if constexpr (Post == ml_post_softmax) {
    V m = s[0];
    for (int64_t j = 1; j < C; ++j)
      m = s[j] > m ? s[j] : m;
    V sum = V(0);
    for (int64_t j = 0; j < C; ++j) {
      s[j] = std::exp(s[j] - m);
      sum += s[j];
    }
    for (int64_t j = 0; j < C; ++j)
      s[j] /= sum;
  } else if constexpr (Post == ml_post_softmax_zero) {
    // Softmax over the non-zero scores; zeros stay (scaled) near zero.
    V m = s[0];
    for (int64_t j = 1; j < C; ++j)
      m = s[j] > m ? s[j] : m;
    V scale = std::exp(-m), sum = V(0);
    for (int64_t j = 0; j < C; ++j) {
      if (s[j] > V(0.0000001) || s[j] < V(-0.0000001))
        s[j] = std::exp(s[j] - m);
      else
        s[j] *= scale;
      sum += s[j];
    }
    for (int64_t j = 0; j < C; ++j)
      s[j] = sum == V(0) ? V(0.5) : s[j] / sum;
  } else {
    (void)s;
  }
}

/// One tree walked from node `i` to its leaf for the row `x`.
template <int64_t Depth, typename T, typename TT>
ONNXCC_INLINE int32_t ml_tree_leaf(const T *x, const int32_t *nodes,
                                   const TT *thresholds, const TT *members,
                                   int32_t i) {
  for (int64_t d = 0; d < Depth; ++d) {
    const int32_t *nd = nodes + int64_t(i) * ml_node_fields;
    int mode = nd[1] & 0xff;
    if (mode == ml_leaf)
      break;
    TT v = static_cast<TT>(static_cast<compute_t<T>>(x[nd[0]]));
    TT th = thresholds[i];
    bool r;
    if (v != v) {
      r = (nd[1] >> 8) & 1;
    } else {
      switch (mode) {
      case ml_leq: r = v <= th; break;
      case ml_lt: r = v < th; break;
      case ml_gte: r = v >= th; break;
      case ml_gt: r = v > th; break;
      case ml_eq: r = v == th; break;
      case ml_neq: r = v != th; break;
      default: {
        r = false;
        for (int32_t k = nd[4]; k < nd[5]; ++k)
          r = r || v == members[k];
        break;
      }
      }
    }
    i = r ? nd[2] : nd[3];
  }
  return i;
}

/// The branch of a node of an ensemble whose branch nodes all use `Mode`
/// (not MEMBER). A NaN fails every comparison but NEQ's, which is ORT's
/// answer unless the node tracks missing values to the true branch; only
/// `Missing` ensembles (some node tracking) pay for that test.
template <int Mode, bool Missing, typename TT>
ONNXCC_INLINE bool ml_branch(TT v, TT th, int32_t flags) {
  bool r;
  if constexpr (Mode == ml_leq)
    r = v <= th;
  else if constexpr (Mode == ml_lt)
    r = v < th;
  else if constexpr (Mode == ml_gte)
    r = v >= th;
  else if constexpr (Mode == ml_gt)
    r = v > th;
  else if constexpr (Mode == ml_eq)
    r = v == th;
  else
    r = v != th;
  if constexpr (Missing)
    r = r | ((v != v) & bool((flags >> 8) & 1));
  return r;
}

/// Walks `Lanes` independent (row, root) pairs in lockstep for Depth steps,
/// without a test per step: the compiler makes every leaf its own two
/// children, so a walk that reached its leaf stays there. Lockstep keeps
/// Lanes dependent load chains in flight at once.
template <int64_t Depth, int Mode, bool Missing, int64_t Lanes, typename T,
          typename TT>
ONNXCC_INLINE void ml_tree_walk(const T *const *rows, const int32_t *nodes,
                                const TT *thresholds, int32_t *at) {
  for (int64_t d = 0; d < Depth; ++d)
    for (int64_t l = 0; l < Lanes; ++l) {
      const int32_t *nd = nodes + int64_t(at[l]) * ml_node_fields;
      TT v = static_cast<TT>(static_cast<compute_t<T>>(rows[l][nd[0]]));
      // A mask, not `?:`: compilers turn the select into a branch, which
      // mispredicts on every other node of real data.
      int32_t take = -int32_t(ml_branch<Mode, Missing>(v, thresholds[at[l]],
                                                       nd[1]));
      at[l] = (nd[2] & take) | (nd[3] & ~take);
    }
}

/// Adds one leaf weight to a target's score (Agg 0, 1), or keeps the
/// smaller (2) or larger (3) of the two.
template <int Agg, typename TT>
ONNXCC_INLINE void ml_tree_accumulate(TT &acc, bool &scored, TT w) {
  if constexpr (Agg == 2)
    acc = !scored || w < acc ? w : acc;
  else if constexpr (Agg == 3)
    acc = !scored || w > acc ? w : acc;
  else
    acc += w;
  scored = true;
}

/// Adds (or takes the min / max of) the weights of the leaf `leaf`. Dense:
/// every leaf holds C weights, for targets 0 to C - 1 in order.
template <int64_t C, int Agg, bool Dense, typename TT>
ONNXCC_INLINE void ml_tree_add_leaf(const int32_t *nodes,
                                    const int32_t *targets,
                                    const TT *weights, int32_t leaf, TT *acc,
                                    bool *scored) {
  const int32_t *nd = nodes + int64_t(leaf) * ml_node_fields;
  if constexpr (Dense && (Agg == 0 || Agg == 1)) {
    const TT *w = weights + nd[4];
    for (int64_t c = 0; c < C; ++c)
      acc[c] += w[c];
    return;
  }
  for (int32_t k = nd[4]; k < nd[5]; ++k)
    ml_tree_accumulate<Agg>(acc[targets[k]], scored[targets[k]], weights[k]);
}

/// One output row from the aggregated scores `acc` of `C` targets: the
/// average, the base values, the binary expansion and the post transform.
template <int64_t Trees, int64_t C, int64_t COut, int Agg, int Post,
          bool Binary, typename TT, typename O>
ONNXCC_INLINE void ml_tree_finish(const TT *acc, const O *base, O *o) {
  for (int64_t c = 0; c < COut; ++c)
    o[c] = O(0);
  for (int64_t c = 0; c < C; ++c) {
    TT v = acc[c];
    if constexpr (Agg == 1)
      v /= TT(Trees);
    o[c] = static_cast<O>(v) + base[c];
  }
  if constexpr (Binary) {
    O s = o[0];
    o[1] = s;
    o[0] = (Post == ml_post_none || Post == ml_post_probit) ? O(1) - s : -s;
  }
  ml_post_transform<COut, Post>(o);
}

/// The number of walks ml_tree_ensemble keeps in flight.
constexpr int64_t ml_tree_lanes = 8;

/// out[N x COut] = post(aggregate over trees of the leaf weights + base).
/// x is [N x F]; the Trees roots index `nodes` ([nodes x 6] int32, see
/// ml_node_fields). Scores are computed in O, the type of base and out
/// (f32 or f64). A leaf adds weights[k] to target targets[k] for k in its
/// range. Agg: 0 sum, 1 average, 2 min, 3 max (a target no leaf scored is
/// 0 before the base). Binary (classifiers storing one class): score s of
/// column 0 gives [1 - s, s] (post NONE or PROBIT) or [-s, s].
/// Mode: the one branch mode of every branch node (the lockstep walk), or
/// ml_leaf for mixed modes and MEMBER nodes (a walk with a switch per node).
template <int64_t N, int64_t F, int64_t Trees, int64_t C, int64_t COut,
          int64_t Depth, int Agg, int Post, bool Binary, int Mode = ml_leaf,
          bool Missing = true, bool Dense = false, typename T, typename TT,
          typename O>
inline void ml_tree_ensemble(const T *ONNXCC_RESTRICT x,
                             const int32_t *ONNXCC_RESTRICT nodes,
                             const TT *ONNXCC_RESTRICT thresholds,
                             const TT *ONNXCC_RESTRICT members,
                             const int32_t *ONNXCC_RESTRICT roots,
                             const int32_t *ONNXCC_RESTRICT targets,
                             const TT *ONNXCC_RESTRICT weights,
                             const O *ONNXCC_RESTRICT base,
                             O *ONNXCC_RESTRICT out) {
  static_assert(COut >= C && COut >= (Binary ? 2 : 1), "output too narrow");
  constexpr int64_t L = ml_tree_lanes;
  constexpr bool blocked = Mode != ml_leaf && (Agg == 0 || Agg == 1) &&
                           std::is_same_v<TT, O> && N >= L;
  if constexpr (blocked) {
    // Blocks of L rows, one tree at a time, so that a tree's nodes stay in
    // cache for the block; sums accumulate in the output rows, in tree
    // order as in the row-at-a-time walk below.
    for (int64_t n = 0; n + L <= N; n += L) {
      O *o = out + n * COut;
      for (int64_t i = 0; i < L * COut; ++i)
        o[i] = O(0);
      const T *rows[L];
      for (int64_t l = 0; l < L; ++l)
        rows[l] = x + (n + l) * F;
      bool scored[C];
      for (int64_t t = 0; t < Trees; ++t) {
        int32_t at[L];
        for (int64_t l = 0; l < L; ++l)
          at[l] = roots[t];
        ml_tree_walk<Depth, Mode, Missing, L>(rows, nodes, thresholds, at);
        for (int64_t l = 0; l < L; ++l)
          ml_tree_add_leaf<C, Agg, Dense>(nodes, targets, weights, at[l], o + l * COut,
                                scored);
      }
      for (int64_t l = 0; l < L; ++l) {
        TT acc[C];
        for (int64_t c = 0; c < C; ++c)
          acc[c] = o[l * COut + c];
        ml_tree_finish<Trees, C, COut, Agg, Post, Binary>(acc, base,
                                                          o + l * COut);
      }
    }
  }
  for (int64_t n = blocked ? N - N % L : 0; n < N; ++n) {
    const T *row = x + n * F;
    TT acc[C];
    bool scored[C];
    for (int64_t c = 0; c < C; ++c) {
      acc[c] = TT(0);
      scored[c] = false;
    }
    int64_t t = 0;
    if constexpr (Mode != ml_leaf) {
      // Lanes of one row, one tree each; leaves added in tree order.
      const T *rows[L];
      for (int64_t l = 0; l < L; ++l)
        rows[l] = row;
      for (; t + L <= Trees; t += L) {
        int32_t at[L];
        for (int64_t l = 0; l < L; ++l)
          at[l] = roots[t + l];
        ml_tree_walk<Depth, Mode, Missing, L>(rows, nodes, thresholds, at);
        for (int64_t l = 0; l < L; ++l)
          ml_tree_add_leaf<C, Agg, Dense>(nodes, targets, weights, at[l], acc, scored);
      }
      constexpr int64_t R = Trees % L;
      if constexpr (R != 0) {
        int32_t at[R];
        for (int64_t l = 0; l < R; ++l)
          at[l] = roots[t + l];
        ml_tree_walk<Depth, Mode, Missing, R>(rows, nodes, thresholds, at);
        for (int64_t l = 0; l < R; ++l)
          ml_tree_add_leaf<C, Agg, Dense>(nodes, targets, weights, at[l], acc, scored);
        t = Trees;
      }
    }
    for (; t < Trees; ++t) {
      int32_t leaf =
          ml_tree_leaf<Depth>(row, nodes, thresholds, members, roots[t]);
      ml_tree_add_leaf<C, Agg, Dense>(nodes, targets, weights, leaf, acc, scored);
    }
    ml_tree_finish<Trees, C, COut, Agg, Post, Binary>(acc, base, out + n * COut);
  }
}

/// The SVM kernels, as the compiler numbers them.
enum ml_svm_kernel : int {
  ml_svm_linear = 0,
  ml_svm_poly = 1,
  ml_svm_rbf = 2,
  ml_svm_sigmoid = 3,
};

/// exp(v) within 2 ulp for v in [-87, 88] (Cephes' expf polynomial), with
/// no call and no branch, so that a loop of them vectorises; below -87 it
/// gives about 1e-38 instead of 0.
ONNXCC_INLINE float ml_exp(float v) {
  v = v > 88.0f ? 88.0f : v;
  v = v < -87.0f ? -87.0f : v;
  // k = round(v / ln 2) through the bits of v / ln 2 + 1.5 * 2^23: floor()
  // and float-to-int conversion (which may trap) stop vectorisers.
  int32_t ki = __builtin_bit_cast(int32_t, v * 1.44269504f + 12582912.0f) -
               0x4B400000;
  float k = static_cast<float>(ki);
  float r = v - k * 0.693359375f + k * 2.12194440e-4f;
  float y = 1.9875691500e-4f;
  y = y * r + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * r * r + r + 1.0f;
  return y * __builtin_bit_cast(float, (ki + 127) << 23);
}

/// The kernel value of row x and the vector v[0], v[Stride], ... (a column
/// of the transposed support vectors, or a row of linear coefficients).
template <int64_t F, int Kernel, int64_t Degree, int64_t Stride = 1,
          typename T>
ONNXCC_INLINE float ml_svm_dot(const T *x, const float *v, float gamma,
                               float coef0) {
  float s = 0.0f;
  if constexpr (Kernel == ml_svm_rbf) {
    for (int64_t f = 0; f < F; ++f) {
      float d = static_cast<float>(static_cast<compute_t<T>>(x[f])) -
                v[f * Stride];
      s += d * d;
    }
    return std::exp(-gamma * s);
  } else {
    for (int64_t f = 0; f < F; ++f)
      s += static_cast<float>(static_cast<compute_t<T>>(x[f])) * v[f * Stride];
    if constexpr (Kernel == ml_svm_poly) {
      float b = s * gamma + coef0, p = 1.0f;
      for (int64_t i = 0; i < Degree; ++i)
        p *= b;
      return p;
    } else if constexpr (Kernel == ml_svm_sigmoid) {
      return std::tanh(s * gamma + coef0);
    } else {
      return s;
    }
  }
}

/// Support vectors up to which ml_svm_pairs stages the kernel values on
/// the stack (16 KiB).
constexpr int64_t ml_svm_max_staged = 4096;

/// The one-vs-one decision values of a row: every kernel value first, a
/// feature at a time over the transposed support vectors [F x SV] (loops
/// over contiguous vectors, the RBF exponentials in one), then each pair's
/// two contiguous dot products with its coefficients, as ORT sums them.
template <int64_t F, int64_t C, int64_t SV, int Kernel, int64_t Degree,
          typename T>
inline void ml_svm_pairs(const T *row, const float *sv, const float *coefs,
                         const int32_t *starts, float gamma, float coef0,
                         float *scores) {
  (void)coef0;
  float k[SV];
  for (int64_t s = 0; s < SV; ++s)
    k[s] = 0.0f;
  for (int64_t f = 0; f < F; ++f) {
    float xf = static_cast<float>(static_cast<compute_t<T>>(row[f]));
    const float *col = sv + f * SV;
    if constexpr (Kernel == ml_svm_rbf) {
      for (int64_t s = 0; s < SV; ++s) {
        float d = xf - col[s];
        k[s] += d * d;
      }
    } else {
      for (int64_t s = 0; s < SV; ++s)
        k[s] += xf * col[s];
    }
  }
  for (int64_t s = 0; s < SV; ++s) {
    if constexpr (Kernel == ml_svm_rbf) {
      k[s] = ml_exp(-gamma * k[s]);
    } else if constexpr (Kernel == ml_svm_poly) {
      float b = k[s] * gamma + coef0, q = 1.0f;
      for (int64_t i = 0; i < Degree; ++i)
        q *= b;
      k[s] = q;
    } else if constexpr (Kernel == ml_svm_sigmoid) {
      k[s] = std::tanh(k[s] * gamma + coef0);
    }
  }
  int64_t p = 0;
  for (int64_t i = 0; i < C; ++i)
    for (int64_t j = i + 1; j < C; ++j, ++p) {
      float acc = 0.0f;
      for (int32_t s = starts[i]; s < starts[i + 1]; ++s)
        acc += coefs[(j - 1) * SV + s] * k[s];
      for (int32_t s = starts[j]; s < starts[j + 1]; ++s)
        acc += coefs[i * SV + s] * k[s];
      scores[p] += acc;
    }
}

/// Pairwise coupling of one-vs-one probabilities (Wu, Lin and Weng 2004,
/// method 2, as libsvm and ORT iterate it): r is [C x C], p gets C.
template <int64_t C> inline void ml_svm_coupling(const float *r, float *p) {
  float q[C * C], qp[C];
  const int64_t max_iter = C > 100 ? C : 100;
  const float eps = 0.005f / float(C);
  for (int64_t t = 0; t < C; ++t) {
    p[t] = 1.0f / float(C);
    q[t * C + t] = 0.0f;
    for (int64_t j = 0; j < t; ++j) {
      q[t * C + t] += r[j * C + t] * r[j * C + t];
      q[t * C + j] = q[j * C + t];
    }
    for (int64_t j = t + 1; j < C; ++j) {
      q[t * C + t] += r[j * C + t] * r[j * C + t];
      q[t * C + j] = -r[j * C + t] * r[t * C + j];
    }
  }
  for (int64_t it = 0; it < max_iter; ++it) {
    float pqp = 0.0f;
    for (int64_t t = 0; t < C; ++t) {
      qp[t] = 0.0f;
      for (int64_t j = 0; j < C; ++j)
        qp[t] += q[t * C + j] * p[j];
      pqp += p[t] * qp[t];
    }
    float max_error = 0.0f;
    for (int64_t t = 0; t < C; ++t) {
      float e = std::fabs(qp[t] - pqp);
      max_error = e > max_error ? e : max_error;
    }
    if (max_error < eps)
      break;
    for (int64_t t = 0; t < C; ++t) {
      float qtt = q[t * C + t];
      float diff = qtt == 0.0f ? 0.0f : (-qp[t] + pqp) / qtt;
      p[t] += diff;
      pqp = (pqp + diff * (diff * qtt + 2.0f * qp[t])) / (1.0f + diff) /
            (1.0f + diff);
      for (int64_t j = 0; j < C; ++j) {
        qp[j] = (qp[j] + diff * q[t * C + j]) / (1.0f + diff);
        p[j] /= 1.0f + diff;
      }
    }
  }
}

/// A support vector classifier on x [N x F]. SV > 0: `sv` [F x SV] (the
/// support vectors transposed; vector s is column s) in classes of
/// starts[c]..starts[c+1], coefs [(C-1) x SV], one rho per
/// class pair (i < j, row-major); each pair votes. SV == 0: linear scores
/// rho[0] + x . coefs[c] for the C classes. Proba: the pair decisions
/// through sigmoid(prob_a * s + prob_b), coupled into C probabilities.
/// Labels: LabelMode 0 labels[argmax], 1 labels[1] when the maximum is >=
/// 0.5 (all coefficients non-negative, two labels), 2 (0/1 by the sign of
/// the maximum: one score and not two labels). ScoreMode for a single
/// score: 0 as is, 1 [-s, s] then the post transform, 2 [1 - s, s]
/// (probit: the probit of s); see onnx.reference's write_scores.
template <int64_t N, int64_t F, int64_t C, int64_t SV, int64_t S,
          int64_t COut, int Kernel, int64_t Degree, int Post, bool Proba,
          int LabelMode, int ScoreMode, typename T>
inline void ml_svm_classifier(
    const T *ONNXCC_RESTRICT x, const float *ONNXCC_RESTRICT sv,
    const float *ONNXCC_RESTRICT coefs, const float *ONNXCC_RESTRICT rho,
    const int32_t *ONNXCC_RESTRICT starts, const float *ONNXCC_RESTRICT prob_a,
    const float *ONNXCC_RESTRICT prob_b, const int64_t *ONNXCC_RESTRICT labels,
    float gamma, float coef0, int64_t *ONNXCC_RESTRICT label_out,
    float *ONNXCC_RESTRICT out) {
  static_assert(S >= 1 && COut >= 1, "no scores");
  for (int64_t n = 0; n < N; ++n) {
    const T *row = x + n * F;
    float scores[S > C ? S : C];
    float votes[C];
    for (int64_t c = 0; c < C; ++c)
      votes[c] = 0.0f;
    if constexpr (SV == 0) {
      for (int64_t c = 0; c < S; ++c)
        scores[c] = rho[0] + ml_svm_dot<F, ml_svm_linear, 0>(row, coefs + c * F,
                                                            gamma, coef0);
    } else {
      for (int64_t p = 0; p < S; ++p)
        scores[p] = 0.0f;
      if constexpr (SV <= ml_svm_max_staged) {
        ml_svm_pairs<F, C, SV, Kernel, Degree>(row, sv, coefs, starts, gamma,
                                               coef0, scores);
      } else {
      // Each support vector's kernel value goes to every pair of its class.
      for (int64_t c = 0; c < C; ++c)
        for (int32_t s = starts[c]; s < starts[c + 1]; ++s) {
          float k = ml_svm_dot<F, Kernel, Degree, SV>(row, sv + s,
                                                 gamma, coef0);
          int64_t p = 0;
          for (int64_t i = 0; i < C; ++i)
            for (int64_t j = i + 1; j < C; ++j, ++p) {
              if (i == c)
                scores[p] += coefs[(j - 1) * SV + s] * k;
              else if (j == c)
                scores[p] += coefs[i * SV + s] * k;
            }
        }
      }
      int64_t p = 0;
      for (int64_t i = 0; i < C; ++i)
        for (int64_t j = i + 1; j < C; ++j, ++p) {
          scores[p] += rho[p];
          votes[scores[p] > 0 ? i : j] += 1.0f;
        }
    }
    int64_t m = 0;
    float maxw;
    if constexpr (Proba) {
      float r[C * C];
      for (int64_t i = 0; i < C * C; ++i)
        r[i] = 0.0f;
      int64_t p = 0;
      for (int64_t i = 0; i < C; ++i)
        for (int64_t j = i + 1; j < C; ++j, ++p) {
          float v = 1.0f - ml_logistic(scores[p] * prob_a[p] + prob_b[p]);
          v = v < 1.0e-7f ? 1.0e-7f : v;
          v = v > 1.0f - 1.0e-7f ? 1.0f - 1.0e-7f : v;
          r[i * C + j] = v;
          r[j * C + i] = 1.0f - v;
        }
      ml_svm_coupling<C>(r, scores);
    }
    if constexpr (SV > 0) {
      for (int64_t c = 1; c < C; ++c)
        m = votes[c] > votes[m] ? c : m;
      maxw = votes[m];
    } else {
      for (int64_t c = 1; c < S; ++c)
        m = scores[c] > scores[m] ? c : m;
      maxw = scores[m];
    }
    if constexpr (LabelMode == 1)
      label_out[n] = maxw >= 0.5f ? labels[1] : labels[m];
    else if constexpr (LabelMode == 2)
      label_out[n] = maxw > 0 ? 1 : 0;
    else
      label_out[n] = labels[m];
    float *o = out + n * COut;
    if constexpr (S >= 2) {
      for (int64_t c = 0; c < S; ++c)
        o[c] = scores[c];
      ml_post_transform<S, Post>(o);
    } else if constexpr (Post == ml_post_probit) {
      o[0] = ml_probit(scores[0]);
    } else if constexpr (ScoreMode == 2) {
      o[0] = 1.0f - scores[0];
      o[1] = scores[0];
    } else if constexpr (ScoreMode == 1) {
      o[0] = -scores[0];
      o[1] = scores[0];
      ml_post_transform<2, Post>(o);
    } else {
      o[0] = scores[0];
    }
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_ML_H
