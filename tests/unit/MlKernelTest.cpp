//===- MlKernelTest.cpp - tree ensembles and SVM classifiers --------------===//
//
// ml_tree_ensemble() against a naive walk of random trees (every branch
// mode, NaN inputs with and without missing_value_tracks_true, set
// membership, each aggregate, the binary expansion, f32 and f64), at edge
// sizes: one row, one tree, a root that is a leaf, more rows than trees.
// ml_svm_classifier() against a naive one-vs-one SVM written the way
// onnx.reference writes it (a kernel vector per row, dot products per class
// block), for each kernel, with and without probabilities.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

/// A random ensemble in the runtime's layout: every tree is a complete
/// binary tree of `depth` levels, nodes in preorder, leaves with one or two
/// weights (or, `dense`, one per target in order) and their own children.
/// `fixedMode` 0 mixes every mode, MEMBER included; 1 to 6 uses only that
/// one; `tracking` whether nodes may send NaN to the true branch.
struct Ensemble {
  std::vector<int32_t> nodes, roots, targets;
  std::vector<double> thresholds, members, weights;
};

Ensemble randomEnsemble(int trees, int depth, int features, int targets,
                        std::mt19937 &rng, int fixedMode = 0,
                        bool tracking = true, bool dense = false) {
  Ensemble e;
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> mode(1, 7), feat(0, features - 1),
      tgt(0, targets - 1), coin(0, 1);
  std::function<int32_t(int)> build = [&](int level) -> int32_t {
    int32_t i = int32_t(e.nodes.size() / 6);
    e.nodes.resize(e.nodes.size() + 6, 0);
    e.thresholds.push_back(0);
    if (level == depth) {
      e.nodes[i * 6 + 2] = e.nodes[i * 6 + 3] = i;
      e.nodes[i * 6 + 4] = int32_t(e.targets.size());
      int k = dense ? targets : 1 + coin(rng);
      for (int j = 0; j < k; ++j) {
        e.targets.push_back(dense ? j : tgt(rng));
        e.weights.push_back(u(rng));
      }
      e.nodes[i * 6 + 5] = int32_t(e.targets.size());
      return i;
    }
    int m = fixedMode ? fixedMode : mode(rng);
    e.nodes[i * 6 + 0] = feat(rng);
    e.nodes[i * 6 + 1] = m | ((tracking || m == ml_neq ? coin(rng) : 0) << 8);
    if (m == ml_neq)
      e.nodes[i * 6 + 1] |= 1 << 8; // as the compiler lays NEQ out
    e.thresholds[i] = std::round(u(rng) * 4) / 4; // EQ/NEQ can hit
    if (m == ml_member) {
      e.nodes[i * 6 + 4] = int32_t(e.members.size());
      for (int j = 0; j < 3; ++j)
        e.members.push_back(std::round(u(rng) * 4) / 4);
      e.nodes[i * 6 + 5] = int32_t(e.members.size());
    }
    int32_t t = build(level + 1);
    int32_t f = build(level + 1);
    e.nodes[i * 6 + 2] = t;
    e.nodes[i * 6 + 3] = f;
    return i;
  };
  for (int t = 0; t < trees; ++t)
    e.roots.push_back(build(0));
  if (e.members.empty())
    e.members.push_back(0);
  return e;
}

/// The naive walk: recursion, every comparison in double.
double naiveLeaf(const Ensemble &e, const double *x, int32_t i) {
  const int32_t *nd = &e.nodes[i * 6];
  int mode = nd[1] & 0xff;
  if (mode == ml_leaf)
    return i;
  double v = x[nd[0]], th = e.thresholds[i];
  bool r;
  if (std::isnan(v))
    r = (nd[1] >> 8) & 1;
  else if (mode == ml_leq) r = v <= th;
  else if (mode == ml_lt) r = v < th;
  else if (mode == ml_gte) r = v >= th;
  else if (mode == ml_gt) r = v > th;
  else if (mode == ml_eq) r = v == th;
  else if (mode == ml_neq) r = v != th;
  else {
    r = false;
    for (int k = nd[4]; k < nd[5]; ++k)
      r = r || v == e.members[k];
  }
  return naiveLeaf(e, x, r ? nd[2] : nd[3]);
}

template <int64_t N, int64_t F, int64_t Trees, int64_t C, int64_t Depth,
          int Agg, bool Binary, typename TT, int Mode = ml_leaf,
          bool Missing = true, bool Dense = false>
void checkTrees(unsigned seed) {
  std::mt19937 rng(seed);
  Ensemble e = randomEnsemble(Trees, Depth, F, C, rng, Mode, Missing, Dense);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<TT> x(N * F);
  std::vector<double> xd(N * F);
  for (int64_t i = 0; i < N * F; ++i) {
    double v = std::round(u(rng) * 4) / 4;
    if (i % 7 == 3)
      v = std::numeric_limits<double>::quiet_NaN();
    xd[i] = v;
    x[i] = TT(v);
  }
  std::vector<TT> thr(e.thresholds.begin(), e.thresholds.end()),
      mem(e.members.begin(), e.members.end()),
      w(e.weights.begin(), e.weights.end());
  std::vector<float> base(C);
  for (int64_t c = 0; c < C; ++c)
    base[c] = float(c) * 0.5f;
  constexpr int64_t COut = Binary && C < 2 ? 2 : C;
  std::vector<float> out(N * COut, -7.0f);
  ml_tree_ensemble<N, F, Trees, C, COut, Depth, Agg, ml_post_none, Binary,
                   Mode, Missing, Dense>(
      x.data(), e.nodes.data(), thr.data(), mem.data(), e.roots.data(),
      e.targets.data(), w.data(), base.data(), out.data());
  for (int64_t n = 0; n < N; ++n) {
    std::vector<double> acc(C, 0.0);
    std::vector<bool> scored(C, false);
    for (int64_t t = 0; t < Trees; ++t) {
      int32_t leaf = int32_t(naiveLeaf(e, &xd[n * F], e.roots[t]));
      for (int k = e.nodes[leaf * 6 + 4]; k < e.nodes[leaf * 6 + 5]; ++k) {
        int c = e.targets[k];
        double v = double(TT(e.weights[k]));
        if (Agg == 2)
          acc[c] = !scored[c] || v < acc[c] ? v : acc[c];
        else if (Agg == 3)
          acc[c] = !scored[c] || v > acc[c] ? v : acc[c];
        else
          acc[c] += v;
        scored[c] = true;
      }
    }
    std::vector<double> want(COut, 0.0);
    for (int64_t c = 0; c < C; ++c)
      want[c] = (Agg == 1 ? acc[c] / Trees : acc[c]) + base[c];
    if (Binary) {
      want[1] = want[0];
      want[0] = 1.0 - want[1];
    }
    for (int64_t c = 0; c < COut; ++c)
      ASSERT_NEAR(out[n * COut + c], want[c], 1e-4)
          << "row " << n << " column " << c << " seed " << seed;
  }
}

TEST(MlTreeEnsemble, SumOneRowOneTree) { checkTrees<1, 3, 1, 1, 3, 0, false, float>(1); }
TEST(MlTreeEnsemble, SumManyTrees) { checkTrees<9, 5, 7, 3, 4, 0, false, float>(2); }
TEST(MlTreeEnsemble, Average) { checkTrees<5, 4, 6, 2, 3, 1, false, float>(3); }
TEST(MlTreeEnsemble, Min) { checkTrees<5, 4, 6, 4, 3, 2, false, float>(4); }
TEST(MlTreeEnsemble, Max) { checkTrees<5, 4, 6, 4, 3, 3, false, double>(5); }
TEST(MlTreeEnsemble, RootIsLeaf) { checkTrees<3, 2, 2, 2, 0, 0, false, float>(6); }
TEST(MlTreeEnsemble, Binary) { checkTrees<4, 3, 3, 1, 2, 0, true, float>(7); }

// The lockstep walk of one-mode ensembles: one row (lanes over trees, with a
// partial group), blocks of rows (lanes over rows) plus leftover rows,
// NaN tracking on and off, dense leaves, f64.
TEST(MlTreeEnsemble, LockstepOneRow) {
  checkTrees<1, 5, 11, 3, 4, 0, false, float, ml_leq, false, true>(8);
}
TEST(MlTreeEnsemble, LockstepRowBlocks) {
  checkTrees<21, 5, 9, 3, 4, 1, false, float, ml_lt, true, false>(9);
}
TEST(MlTreeEnsemble, LockstepEveryMode) {
  checkTrees<17, 4, 5, 2, 3, 0, false, float, ml_gte, true, true>(10);
  checkTrees<17, 4, 5, 2, 3, 0, false, float, ml_gt, false, false>(11);
  checkTrees<17, 4, 5, 2, 3, 0, false, float, ml_eq, true, true>(12);
  checkTrees<17, 4, 5, 2, 3, 0, false, float, ml_neq, false, true>(13);
}
TEST(MlTreeEnsemble, LockstepMinMaxF64) {
  checkTrees<16, 4, 9, 3, 3, 2, false, double, ml_leq, true, false>(14);
  checkTrees<16, 4, 9, 3, 3, 3, false, double, ml_leq, true, true>(15);
}
TEST(MlTreeEnsemble, LockstepBinary) {
  checkTrees<12, 3, 3, 1, 2, 0, true, float, ml_leq, false, true>(16);
}

TEST(MlTreeEnsemble, PostTransforms) {
  float s[3] = {1.0f, 2.0f, 3.0f};
  ml_post_transform<3, ml_post_softmax>(s);
  double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  EXPECT_NEAR(s[2], std::exp(3.0) / z, 1e-6);
  float l[2] = {-30.0f, 0.0f};
  ml_post_transform<2, ml_post_logistic>(l);
  EXPECT_NEAR(l[0], 1.0 / (1.0 + std::exp(30.0)), 1e-12);
  EXPECT_EQ(l[1], 0.5f);
  float zero[2] = {0.0f, 0.0f};
  ml_post_transform<2, ml_post_softmax_zero>(zero);
  EXPECT_EQ(zero[0], 0.5f);
  float p[1] = {0.5f};
  ml_post_transform<1, ml_post_probit>(p);
  EXPECT_NEAR(p[0], 0.0f, 1e-6);
}

/// One-vs-one SVM as onnx.reference computes it.
template <int64_t F, int Kernel>
void naiveSvm(const std::vector<float> &x, const std::vector<float> &sv,
              const std::vector<float> &coefs, const std::vector<float> &rho,
              const std::vector<int> &per, float gamma, float coef0,
              int degree, std::vector<double> &scores,
              std::vector<double> &votes) {
  int classes = per.size(), vectors = 0;
  std::vector<int> start;
  for (int p : per) {
    start.push_back(vectors);
    vectors += p;
  }
  std::vector<double> k(vectors);
  for (int s = 0; s < vectors; ++s) {
    double d = 0;
    for (int f = 0; f < F; ++f)
      d += Kernel == ml_svm_rbf ? (x[f] - sv[s * F + f]) * (x[f] - sv[s * F + f])
                                : x[f] * sv[s * F + f];
    if (Kernel == ml_svm_rbf)
      d = std::exp(-gamma * d);
    else if (Kernel == ml_svm_poly)
      d = std::pow(d * gamma + coef0, degree);
    else if (Kernel == ml_svm_sigmoid)
      d = std::tanh(d * gamma + coef0);
    k[s] = d;
  }
  votes.assign(classes, 0);
  scores.clear();
  int p = 0;
  for (int i = 0; i < classes; ++i)
    for (int j = i + 1; j < classes; ++j, ++p) {
      double s1 = 0, s2 = 0;
      for (int s = 0; s < per[i]; ++s)
        s1 += coefs[(j - 1) * vectors + start[i] + s] * k[start[i] + s];
      for (int s = 0; s < per[j]; ++s)
        s2 += coefs[i * vectors + start[j] + s] * k[start[j] + s];
      double v = rho[p] + s1 + s2;
      scores.push_back(v);
      votes[v > 0 ? i : j] += 1;
    }
}

/// Support vectors [vectors x F] in the kernel's layout, [F x vectors].
std::vector<float> transposed(const std::vector<float> &sv, int64_t F) {
  int64_t vectors = int64_t(sv.size()) / F;
  std::vector<float> t(sv.size());
  for (int64_t s = 0; s < vectors; ++s)
    for (int64_t f = 0; f < F; ++f)
      t[f * vectors + s] = sv[s * F + f];
  return t;
}

template <int64_t N, int64_t F, int64_t C, int Kernel> void checkSvm(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> cnt(1, 3);
  std::vector<int> per;
  std::vector<int32_t> starts{0};
  int vectors = 0;
  for (int c = 0; c < C; ++c) {
    per.push_back(cnt(rng));
    vectors += per.back();
    starts.push_back(vectors);
  }
  constexpr int64_t S = C * (C - 1) / 2;
  std::vector<float> x(N * F), sv(vectors * F), coefs((C - 1) * vectors),
      rho(S);
  for (float &v : x) v = u(rng);
  for (float &v : sv) v = u(rng);
  for (float &v : coefs) v = u(rng);
  for (float &v : rho) v = u(rng) * 0.1f;
  std::vector<int64_t> labels;
  for (int c = 0; c < C; ++c)
    labels.push_back(10 + c);
  float gamma = 0.7f, coef0 = 0.3f, pa = 0, pb = 0;
  std::vector<int64_t> label(N);
  std::vector<float> out(N * S);
  std::vector<float> svT = transposed(sv, F);
  auto run = [&](auto vectorsTag) {
    constexpr int64_t SV = decltype(vectorsTag)::value;
    ml_svm_classifier<N, F, C, SV, S, S, Kernel, 2, ml_post_none, false, 0, 0>(
        x.data(), svT.data(), coefs.data(), rho.data(), starts.data(), &pa, &pb,
        labels.data(), gamma, coef0, label.data(), out.data());
  };
  // SV is a template parameter: dispatch over the counts the seed can give.
  switch (vectors) {
#define CASE(V) case V: run(std::integral_constant<int64_t, V>{}); break;
    CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10) CASE(11)
    CASE(12)
#undef CASE
  default: FAIL() << "unexpected vector count " << vectors;
  }
  for (int64_t n = 0; n < N; ++n) {
    std::vector<double> scores, votes;
    naiveSvm<F, Kernel>(std::vector<float>(&x[n * F], &x[n * F] + F), sv,
                        coefs, rho, per, gamma, coef0, 2, scores, votes);
    int best = 0;
    for (int c = 1; c < C; ++c)
      best = votes[c] > votes[best] ? c : best;
    EXPECT_EQ(label[n], labels[best]) << "row " << n;
    for (int64_t p = 0; p < S; ++p)
      ASSERT_NEAR(out[n * S + p], scores[p], 1e-4) << "row " << n << " pair " << p;
  }
}

TEST(MlSvmClassifier, RbfThreeClasses) { checkSvm<5, 4, 3, ml_svm_rbf>(11); }
TEST(MlSvmClassifier, LinearTwoClassesOneRow) { checkSvm<1, 1, 2, ml_svm_linear>(12); }
TEST(MlSvmClassifier, PolyFourClasses) { checkSvm<6, 3, 4, ml_svm_poly>(13); }
TEST(MlSvmClassifier, SigmoidThreeClasses) { checkSvm<4, 2, 3, ml_svm_sigmoid>(14); }

// More support vectors than ml_svm_max_staged: the unstaged path, which
// reads the transposed vectors with a stride.
TEST(MlSvmClassifier, RbfBeyondStaging) {
  constexpr int64_t N = 2, F = 3, C = 2, SV = ml_svm_max_staged + 4;
  std::mt19937 rng(15);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(N * F), sv(SV * F), coefs(SV), rho{0.05f};
  for (float &v : x) v = u(rng);
  for (float &v : sv) v = u(rng);
  for (float &v : coefs) v = u(rng) * 0.01f;
  std::vector<int32_t> starts{0, int32_t(SV / 2), int32_t(SV)};
  std::vector<int64_t> labels{4, 9}, label(N);
  std::vector<float> out(N), svT = transposed(sv, F);
  float pa = 0, pb = 0;
  ml_svm_classifier<N, F, C, SV, 1, 1, ml_svm_rbf, 0, ml_post_none, false, 0, 0>(
      x.data(), svT.data(), coefs.data(), rho.data(), starts.data(), &pa, &pb,
      labels.data(), 0.4f, 0.0f, label.data(), out.data());
  for (int64_t n = 0; n < N; ++n) {
    std::vector<double> scores, votes;
    naiveSvm<F, ml_svm_rbf>(std::vector<float>(&x[n * F], &x[n * F] + F), sv,
                            coefs, rho, {int(SV / 2), int(SV / 2)}, 0.4f, 0.0f,
                            0, scores, votes);
    EXPECT_NEAR(out[n], scores[0], 1e-4) << "row " << n;
    EXPECT_EQ(label[n], scores[0] > 0 ? 4 : 9) << "row " << n;
  }
}

TEST(MlSvmClassifier, ProbabilitiesSumToOne) {
  // Two support vectors per class, three classes, RBF, with prob_a/prob_b.
  constexpr int64_t N = 3, F = 2, C = 3, SV = 6, S = 3;
  std::vector<float> x{0.1f, 0.2f, -0.5f, 0.4f, 0.9f, -0.9f};
  std::vector<float> sv{0, 0, 0.1f, 0.1f, 1, 1, 0.9f, 1.1f, -1, 1, -0.9f, 0.8f};
  std::vector<float> coefs{1, 1, -1, -1, 0.5f, -0.5f, 1, 1, 1, -1, -1, -1};
  std::vector<float> rho{0.1f, -0.1f, 0.2f}, pa{-2, -1.5f, -1}, pb{0.1f, 0, -0.1f};
  std::vector<int32_t> starts{0, 2, 4, 6};
  std::vector<int64_t> labels{0, 1, 2}, label(N);
  std::vector<float> out(N * C);
  std::vector<float> svT = transposed(sv, F);
  ml_svm_classifier<N, F, C, SV, C, C, ml_svm_rbf, 0, ml_post_none, true, 0, 0>(
      x.data(), svT.data(), coefs.data(), rho.data(), starts.data(), pa.data(),
      pb.data(), labels.data(), 0.5f, 0.0f, label.data(), out.data());
  for (int64_t n = 0; n < N; ++n) {
    double sum = 0;
    for (int64_t c = 0; c < C; ++c) {
      EXPECT_GE(out[n * C + c], 0.0f);
      sum += out[n * C + c];
    }
    EXPECT_NEAR(sum, 1.0, 1e-4) << "row " << n;
    EXPECT_GE(label[n], 0);
    EXPECT_LT(label[n], C);
  }
  (void)S;
}

} // namespace

// ml_exp, the vectorisable exp of the RBF kernel, against std::exp over
// the range it promises (a few ulp), and its clamp below it.
TEST(MlExp, MatchesStdExp) {
  for (float v = -87.0f; v <= 88.0f; v += 0.01337f) {
    double want = std::exp(double(v));
    EXPECT_NEAR(ml_exp(v), want, want * 4e-7) << "v " << v;
  }
  EXPECT_EQ(ml_exp(0.0f), 1.0f);
  EXPECT_LT(ml_exp(-1000.0f), 1e-37f);
  EXPECT_GE(ml_exp(-1000.0f), 0.0f);
}
