//===- DataMovementKernelTest.cpp - copies, pads, gathers, TopK -----------===//
//
// The data movement kernels against naive references (strided copies are
// in StridedCopyKernelTest.cpp): pads in every mode with pads wider than
// the input and negative (cropping) ones; and the kernels with run-time indices at their
// edges: negative and out-of-range indices (clamped), duplicates, NaN,
// ties, integer wrap-around.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include "RandomData.h"

#include "dialects/Onnx/DataMovementShapes.h"

#include <gtest/gtest.h>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

using namespace onnxcc::rt;

namespace {

using onnxcc::test::iota;

/// numpy's pad modes on one coordinate: j is the position relative to the
/// kept input's start, n the kept extent.
int64_t naivePadSource(const std::string &mode, int64_t j, int64_t n) {
  if (mode == "edge")
    return j < 0 ? 0 : (j >= n ? n - 1 : j);
  if (mode == "wrap") {
    while (j < 0)
      j += n;
    return j % n;
  }
  // reflect, by bouncing between the ends one step at a time
  if (n == 1)
    return 0;
  int64_t p = 0, dir = 1;
  for (int64_t s = 0; s < (j < 0 ? -j : j); ++s) {
    if ((j < 0 ? -dir : dir) > 0 ? p == n - 1 : p == 0)
      dir = -dir;
    p += j < 0 ? -dir : dir;
  }
  return p;
}

/// Pads a 2-D rows x cols tensor: the same tables the printer builds.
template <int64_t R, int64_t C, int64_t B0, int64_t B1, int64_t E0, int64_t E1>
void checkPadTable(const std::string &mode) {
  constexpr int64_t OR = R + B0 + E0, OC = C + B1 + E1;
  std::vector<float> in = iota<float>(R * C);
  int64_t lo0 = B0 < 0 ? -B0 : 0, lo1 = B1 < 0 ? -B1 : 0;
  int64_t n0 = R - lo0 - (E0 < 0 ? -E0 : 0), n1 = C - lo1 - (E1 < 0 ? -E1 : 0);
  std::vector<int64_t> table;
  for (int64_t i = 0; i < OR; ++i)
    table.push_back((lo0 + naivePadSource(mode, i - (B0 > 0 ? B0 : 0), n0)) * C);
  for (int64_t i = 0; i < OC; ++i)
    table.push_back(lo1 + naivePadSource(mode, i - (B1 > 0 ? B1 : 0), n1));
  std::vector<float> out(OR * OC);
  pad_table<dims<OR, OC>>(in.data(), table.data(), out.data());
  for (int64_t r = 0; r < OR; ++r)
    for (int64_t c = 0; c < OC; ++c) {
      int64_t sr = lo0 + naivePadSource(mode, r - (B0 > 0 ? B0 : 0), n0);
      int64_t sc = lo1 + naivePadSource(mode, c - (B1 > 0 ? B1 : 0), n1);
      ASSERT_EQ(out[r * OC + c], in[sr * C + sc]) << mode << " at " << r << "," << c;
    }
}

TEST(Pad, TableModes) {
  for (const char *mode : {"reflect", "edge", "wrap"}) {
    checkPadTable<3, 4, 1, 2, 2, 1>(mode);
    checkPadTable<2, 3, 5, 7, 4, 6>(mode);  // pads wider than the input
    checkPadTable<4, 5, -1, 2, 1, -2>(mode); // crop one side, pad the other
    checkPadTable<1, 1, 2, 2, 2, 2>(mode);   // one element to repeat
  }
}

TEST(Pad, CompilerTablesMatchNumpyModes) {
  // The compiler's closed forms (reflect's period 2 * (n - 1)) against the
  // step-by-step reference, for pads far wider than the input.
  for (const char *mode : {"reflect", "edge", "wrap"})
    for (int64_t n = 1; n <= 4; ++n)
      for (int64_t begin : {-2, 0, 3, 11})
        for (int64_t i = 0; i < 30; ++i)
          ASSERT_EQ(onnxcc::padSourceIndex(mode, i, begin, n),
                    naivePadSource(mode, i - std::max<int64_t>(begin, 0), n))
              << mode << " n " << n << " begin " << begin << " i " << i;
}

TEST(Pad, ConstantCropAndValue) {
  // 3x4 -> crop the first row and last column, pad 1 row below and 2 cols
  // left: kept block [2, 3] placed at (0, 2) of a 3x5 output.
  std::vector<int32_t> in = iota<int32_t>(12);
  std::vector<int32_t> out(15, -1);
  int32_t v = 9;
  pad_constant<dims<2, 3>, dims<4, 1>, dims<5, 1>, 4, 2, 15>(in.data(), &v, out.data());
  std::vector<int32_t> want = {9, 9, 4, 5, 6, 9, 9, 8, 9, 10, 9, 9, 9, 9, 9};
  EXPECT_EQ(out, want);
  // No value: zeros.
  pad_constant<dims<2, 3>, dims<4, 1>, dims<5, 1>, 4, 2, 15>(
      in.data(), static_cast<const int32_t *>(nullptr), out.data());
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[2], 4);
}

TEST(Fill, RangeEye) {
  float v = 2.5f, y[9];
  fill<9>(&v, y);
  EXPECT_TRUE(std::all_of(y, y + 9, [](float x) { return x == 2.5f; }));
  int32_t s = 2147483646, d = 1, r[3];
  range<3>(&s, &d, r); // wraps like the ONNX loop's additions
  EXPECT_EQ(r[2], std::numeric_limits<int32_t>::min());
  double fs = 1.0, fd = 0.1, fr[4];
  range<4>(&fs, &fd, fr);
  EXPECT_DOUBLE_EQ(fr[3], 1.0 + 3 * 0.1);
  bf16 e[6];
  eye<2, 3, 1>(e);
  EXPECT_EQ(float(e[1]), 1.0f);
  EXPECT_EQ(float(e[5]), 1.0f);
  EXPECT_EQ(float(e[0]) + float(e[2]) + float(e[3]) + float(e[4]), 0.0f);
  int8_t none[6];
  eye<2, 3, 3>(none); // beyond the matrix: no diagonal
  EXPECT_TRUE(std::all_of(none, none + 6, [](int8_t x) { return x == 0; }));
}

template <bool Upper> void checkTrilu(int64_t k) {
  constexpr int64_t B = 2, R = 3, C = 5;
  std::vector<float> in = iota<float>(B * R * C, 1), out(B * R * C);
  trilu<B, R, C, Upper>(in.data(), &k, out.data());
  for (int64_t b = 0; b < B; ++b)
    for (int64_t r = 0; r < R; ++r)
      for (int64_t c = 0; c < C; ++c) {
        bool keep = Upper ? (c - r >= k) : (c - r <= k);
        int64_t at = (b * R + r) * C + c;
        ASSERT_EQ(out[at], keep ? in[at] : 0.0f) << "k " << k << " at " << at;
      }
}

TEST(Trilu, DiagonalsIncludingExtremes) {
  for (int64_t k : {int64_t(0), int64_t(1), int64_t(-1), int64_t(4), int64_t(-3),
                    std::numeric_limits<int64_t>::max(),
                    std::numeric_limits<int64_t>::min()}) {
    checkTrilu<true>(k);
    checkTrilu<false>(k);
  }
}

TEST(CumSum, ModesAndWrap) {
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6];
  cumsum<2, 3, 1, false, false>(x, y);
  EXPECT_EQ(std::vector<float>(y, y + 6), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  cumsum<2, 3, 1, true, true>(x, y);
  EXPECT_EQ(std::vector<float>(y, y + 6), (std::vector<float>{5, 3, 0, 11, 6, 0}));
  cumsum<1, 2, 3, false, false>(x, y); // axis 0 of a 2x3: inner 3
  EXPECT_EQ(std::vector<float>(y, y + 6), (std::vector<float>{1, 2, 3, 5, 7, 9}));
  int8_t big[2] = {100, 100}, wrapped[2];
  cumsum<1, 2, 1, false, false>(big, wrapped);
  EXPECT_EQ(wrapped[1], int8_t(-56));
  // Run-time axis: -1 is the last; 7 is clamped to the last.
  int64_t axis = -1;
  cumsum_axis<dims<2, 3>, false, false>(x, &axis, y);
  EXPECT_EQ(y[5], 15.0f);
  axis = 7;
  cumsum_axis<dims<2, 3>, false, false>(x, &axis, y);
  EXPECT_EQ(y[5], 15.0f);
  axis = 0;
  cumsum_axis<dims<2, 3>, false, false>(x, &axis, y);
  EXPECT_EQ(y[5], 9.0f);
}

/// The naive running product of a [outer, axis, inner] tensor.
template <typename T>
std::vector<T> naiveCumProd(const std::vector<T> &x, int64_t outer, int64_t axis,
                            int64_t inner, bool exclusive, bool reverse) {
  std::vector<T> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t a = 0; a < axis; ++a) {
        T p = T(1);
        for (int64_t b = 0; b < axis; ++b) {
          bool take = reverse ? (exclusive ? b > a : b >= a) : (exclusive ? b < a : b <= a);
          if (take)
            p = static_cast<T>(p * x[(o * axis + b) * inner + i]);
        }
        y[(o * axis + a) * inner + i] = p;
      }
  return y;
}

TEST(CumProd, ModesAndWrap) {
  std::vector<double> x = {1.5, -2, 3, 0.5, 4, -1, 2, 0.25, 3, 1, -0.5, 2};
  std::vector<double> y(12);
  cumprod<2, 3, 2, false, false>(x.data(), y.data());
  EXPECT_EQ(y, naiveCumProd(x, 2, 3, 2, false, false));
  cumprod<2, 3, 2, true, false>(x.data(), y.data());
  EXPECT_EQ(y, naiveCumProd(x, 2, 3, 2, true, false));
  EXPECT_EQ(y[0], 1.0); // exclusive starts from 1, not 0
  cumprod<2, 3, 2, false, true>(x.data(), y.data());
  EXPECT_EQ(y, naiveCumProd(x, 2, 3, 2, false, true));
  cumprod<1, 12, 1, true, true>(x.data(), y.data());
  EXPECT_EQ(y, naiveCumProd(x, 1, 12, 1, true, true));
  // Integers wrap: 16^3 = 4096 is 0 in int8, -2^7 * -1 = 128 is -128.
  int8_t i8[4] = {16, 16, 16, -1}, o8[4];
  cumprod<1, 4, 1, false, false>(i8, o8);
  EXPECT_EQ(std::vector<int>(o8, o8 + 4), (std::vector<int>{16, 0, 0, 0}));
  int8_t m8[2] = {-128, -1};
  cumprod<1, 2, 1, false, false>(m8, o8);
  EXPECT_EQ(o8[1], int8_t(-128));
  int32_t i32[3] = {65536, 65536, 3}, o32[3];
  cumprod<1, 3, 1, false, false>(i32, o32);
  EXPECT_EQ(o32[1], 0);
  // f16 computes in float.
  f16 h[3] = {f16(2.0f), f16(0.5f), f16(-3.0f)}, oh[3];
  cumprod<1, 3, 1, false, false>(h, oh);
  EXPECT_EQ(static_cast<float>(oh[2]), -3.0f);
  // Run-time axis: -2 of a 2x3x2 is 1; 9 clamps to the last.
  int32_t axis = -2;
  cumprod_axis<dims<2, 3, 2>, false, false>(x.data(), &axis, y.data());
  EXPECT_EQ(y, naiveCumProd(x, 2, 3, 2, false, false));
  axis = 9;
  cumprod_axis<dims<2, 3, 2>, true, false>(x.data(), &axis, y.data());
  EXPECT_EQ(y, naiveCumProd(x, 6, 2, 1, true, false));
}

TEST(ReverseSequence, ClampedLengths) {
  // [T=3, B=4] time-major: lengths 3, 1, -5 (as 0), 99 (as 3).
  std::vector<float> x = iota<float>(12), y(12);
  int64_t lens[4] = {3, 1, -5, 99};
  reverse_sequence<4, 3, 1, false>(x.data(), lens, y.data());
  for (int64_t b = 0; b < 4; ++b) {
    int64_t len = std::min<int64_t>(std::max<int64_t>(lens[b], 0), 3);
    for (int64_t t = 0; t < 3; ++t) {
      int64_t from = t < len ? len - 1 - t : t;
      ASSERT_EQ(y[t * 4 + b], x[from * 4 + b]) << b << "," << t;
    }
  }
}

template <int64_t Axis, int64_t K, bool Largest>
void checkTopK(std::vector<float> x) {
  float v[K > 0 ? K : 1];
  int64_t i[K > 0 ? K : 1];
  top_k<1, Axis, 1, K, Largest>(x.data(), v, i);
  std::vector<int64_t> order(Axis);
  std::iota(order.begin(), order.end(), 0);
  auto above = [](float a, float b) { return a > b || (std::isnan(a) && !std::isnan(b)); };
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (Largest ? above(x[a], x[b]) : above(x[b], x[a]))
      return true;
    return !(Largest ? above(x[b], x[a]) : above(x[a], x[b])) && a < b;
  });
  for (int64_t k = 0; k < K; ++k) {
    ASSERT_EQ(i[k], order[k]) << "rank " << k;
    ASSERT_TRUE(v[k] == x[order[k]] || (std::isnan(v[k]) && std::isnan(x[order[k]])));
  }
}

TEST(TopK, TiesNaNAndEdges) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {3, 1, 4, 1, 5, nan, 9, 2, 6, 5, 3, 5};
  checkTopK<12, 5, true>(x);
  checkTopK<12, 5, false>(x);
  checkTopK<12, 12, true>(x);
  checkTopK<12, 12, false>(x);
  checkTopK<12, 1, true>(x);
  checkTopK<12, 0, true>(x);
  std::vector<float> same(9, 2.0f);
  checkTopK<9, 4, true>(same); // equal values keep index order
  checkTopK<9, 4, false>(same);
}

TEST(TopK, StridedSlices) {
  // [2, 3, 2]: top-2 along the middle axis of each (outer, inner) slice.
  float x[12] = {1, 6, 5, 2, 3, 4, 9, 7, 8, 8, 7, 9};
  float v[8];
  int64_t i[8];
  top_k<2, 3, 2, 2, true>(x, v, i);
  EXPECT_EQ(std::vector<float>(v, v + 8), (std::vector<float>{5, 6, 3, 4, 9, 9, 8, 8}));
  EXPECT_EQ(std::vector<int64_t>(i, i + 8), (std::vector<int64_t>{1, 0, 2, 2, 0, 2, 1, 1}));
}

TEST(OneHot, IndexKinds) {
  int64_t idx[5] = {0, -1, 3, -4, 2};
  float values[2] = {-1.0f, 7.0f}, y[15];
  one_hot<1, 3, 5>(idx, values, y); // axis 0: y[d][i]
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t d = 0; d < 3; ++d) {
      int64_t want = idx[i] < 0 ? idx[i] + 3 : idx[i];
      ASSERT_EQ(y[d * 5 + i], d == want ? 7.0f : -1.0f) << i << "," << d;
    }
  float fidx[4] = {1.0f, 1.5f, std::numeric_limits<float>::quiet_NaN(), -1.0f};
  float fy[8];
  one_hot<4, 2, 1>(fidx, values, fy);
  EXPECT_EQ(std::vector<float>(fy, fy + 8),
            (std::vector<float>{-1, 7, -1, -1, -1, -1, -1, 7}));
  uint64_t uidx[2] = {1, ~uint64_t(0)};
  float uy[4];
  one_hot<2, 2, 1>(uidx, values, uy);
  EXPECT_EQ(std::vector<float>(uy, uy + 4), (std::vector<float>{-1, 7, -1, -1}));
}

TEST(Gather, ClampsOutOfRange) {
  // data [2, 4, 3], axis 1, indices {-1, 9, -9, 1}: 3, clamped 3, clamped 0, 1.
  std::vector<float> data = iota<float>(24), y(2 * 4 * 3);
  int32_t idx[4] = {-1, 9, -9, 1};
  gather<2, 4, 3, 4>(data.data(), idx, y.data());
  int64_t want[4] = {3, 3, 0, 1};
  for (int64_t o = 0; o < 2; ++o)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t i = 0; i < 3; ++i)
        ASSERT_EQ(y[(o * 4 + j) * 3 + i], data[(o * 4 + want[j]) * 3 + i]);
  float scalar[3];
  int64_t one = 2;
  gather<1, 4, 1, 1>(data.data(), &one, scalar); // inner 1: element copies
  EXPECT_EQ(scalar[0], 2.0f);
}

TEST(GatherElements, AlongEachAxis) {
  // data 3x3, indices 2x3 (smaller than data outside the axis).
  std::vector<int32_t> data = iota<int32_t>(9);
  int64_t idx[6] = {1, 2, 0, 2, 0, -1};
  int32_t y[6];
  gather_elements<dims<2, 3>, dims<3, 1>, 0, 3>(data.data(), idx, y);
  EXPECT_EQ(std::vector<int32_t>(y, y + 6), (std::vector<int32_t>{3, 7, 2, 6, 1, 8}));
  gather_elements<dims<2, 3>, dims<3, 1>, 1, 3>(data.data(), idx, y);
  EXPECT_EQ(std::vector<int32_t>(y, y + 6), (std::vector<int32_t>{1, 2, 0, 5, 3, 5}));
}

TEST(GatherND, BatchedSlices) {
  // data [2, 3, 2], batch_dims 1, indices [2, 2, 1]: rows of each batch.
  std::vector<float> data = iota<float>(12);
  int64_t idx[4] = {2, 0, 1, 7}; // 7 clamps to 2
  float y[8];
  gather_nd<2, 2, 6, 2, dims<3>, dims<2>>(data.data(), idx, y);
  EXPECT_EQ(std::vector<float>(y, y + 8), (std::vector<float>{4, 5, 0, 1, 8, 9, 10, 11}));
}

TEST(Scatter, ElementsReductionsAndDuplicates) {
  float data[5] = {1, 2, 3, 4, 5}, y[5];
  int64_t idx[3] = {1, 3, 1};
  float upd[3] = {10, 20, 30};
  scatter_elements<dims<3>, dims<1>, 0, 5, 0, 5>(data, idx, upd, y);
  EXPECT_EQ(std::vector<float>(y, y + 5), (std::vector<float>{1, 30, 3, 20, 5}));
  scatter_elements<dims<3>, dims<1>, 0, 5, 1, 5>(data, idx, upd, y);
  EXPECT_EQ(std::vector<float>(y, y + 5), (std::vector<float>{1, 42, 3, 24, 5}));
  scatter_elements<dims<3>, dims<1>, 0, 5, 2, 5>(data, idx, upd, y);
  EXPECT_EQ(y[1], 600.0f);
  scatter_elements<dims<3>, dims<1>, 0, 5, 4, 5>(data, idx, upd, y);
  EXPECT_EQ(y[1], 2.0f);
  // In place (data is y), and integers wrap.
  int8_t d8[2] = {120, 0};
  int64_t i8[1] = {0};
  int8_t u8[1] = {10};
  scatter_elements<dims<1>, dims<1>, 0, 2, 1, 2>(d8, i8, u8, d8);
  EXPECT_EQ(d8[0], int8_t(-126));
}

TEST(Scatter, NDSlices) {
  // data [4, 2]; two row updates, the second at index -1 (row 3), with max.
  float data[8] = {1, 9, 2, 2, 3, 3, 4, 4}, y[8];
  int64_t idx[2] = {0, -1};
  float upd[4] = {5, 5, 0, 7};
  scatter_nd<2, 2, dims<4>, dims<2>, 3, 8>(data, idx, upd, y);
  EXPECT_EQ(std::vector<float>(y, y + 8), (std::vector<float>{5, 9, 2, 2, 3, 3, 4, 7}));
}

/// ONNX's TensorScatter reference loop, with the kernel's documented
/// clamping of linear positions outside the axis.
template <typename T, typename I>
std::vector<T> naiveTensorScatter(const std::vector<T> &cache, const std::vector<T> &upd,
                                  const I *pos, int64_t batch, int64_t prefix,
                                  int64_t maxSeq, int64_t seq, int64_t inner,
                                  bool circular) {
  std::vector<T> y = cache;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t p = 0; p < prefix; ++p)
      for (int64_t s = 0; s < seq; ++s) {
        long double at = (long double)(pos ? (int64_t)pos[b] : 0) + s;
        int64_t a;
        if (circular) {
          long double m = fmodl(at, (long double)maxSeq);
          a = (int64_t)(m < 0 ? m + maxSeq : m);
        } else {
          a = at < 0 ? 0 : (at >= maxSeq ? maxSeq - 1 : (int64_t)at);
        }
        for (int64_t i = 0; i < inner; ++i)
          y[((b * prefix + p) * maxSeq + a) * inner + i] =
              upd[((b * prefix + p) * seq + s) * inner + i];
      }
  return y;
}

template <int64_t B, int64_t P, int64_t M, int64_t S, int64_t N, bool Circ, typename I>
void checkTensorScatter(const std::vector<I> &pos, bool withIndices = true) {
  std::vector<float> cache = iota<float>(B * P * M * N, 1000);
  std::vector<float> upd = iota<float>(B * P * S * N, -500);
  std::vector<float> y(cache.size(), -1);
  const I *ptr = withIndices ? pos.data() : nullptr;
  tensor_scatter<B, P, M, S, N, Circ>(cache.data(), upd.data(), ptr, y.data());
  auto want = naiveTensorScatter(cache, upd, ptr, B, P, M, S, N, Circ);
  ASSERT_EQ(y, want) << "circular " << Circ << " inner " << N;
  // In place: the cache is the result.
  tensor_scatter<B, P, M, S, N, Circ>(cache.data(), upd.data(), ptr, cache.data());
  ASSERT_EQ(cache, want) << "in place, circular " << Circ << " inner " << N;
}

TEST(TensorScatter, LinearAndCircular) {
  std::vector<int64_t> pos = {1, 3};
  checkTensorScatter<2, 3, 5, 2, 3, false>(pos);
  checkTensorScatter<2, 3, 5, 2, 1, false>(pos);
  checkTensorScatter<2, 1, 5, 2, 8, false>(pos);
  checkTensorScatter<2, 1, 5, 2, 9, false>(pos, /*withIndices=*/false);
  // Circular wraps 4, 5 -> 4, 0 and -1 -> 4.
  std::vector<int64_t> wrap = {4, -1};
  checkTensorScatter<2, 3, 5, 2, 3, true>(wrap);
  checkTensorScatter<2, 2, 5, 5, 1, true>(wrap); // the update fills the axis
  std::vector<int32_t> wrap32 = {-7, 12};
  checkTensorScatter<2, 3, 5, 3, 2, true>(wrap32);
}

TEST(TensorScatter, OutOfRangePositions) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  // Linear: clamped into the axis (ONNX leaves these undefined).
  checkTensorScatter<2, 2, 4, 3, 2, false>(std::vector<int64_t>{3, -2});
  checkTensorScatter<2, 2, 4, 3, 2, false>(std::vector<int64_t>{kMax, kMin});
  // Circular: the true remainder, no overflow adding the step.
  checkTensorScatter<2, 2, 4, 3, 2, true>(std::vector<int64_t>{kMax, kMin});
}

TEST(TensorScatter, Empty) {
  // An empty sequence axis with an empty update (no % 0), and an empty
  // update into a non-empty cache: the result is the cache.
  float cache[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  const float *none = nullptr;
  int64_t pos[2] = {5, -5};
  tensor_scatter<2, 3, 0, 0, 1, true>(cache, none, pos, y);
  tensor_scatter<2, 1, 3, 0, 1, true>(cache, none, pos, y);
  EXPECT_EQ(std::vector<float>(y, y + 6), std::vector<float>(cache, cache + 6));
}

TEST(CenterCropPad, PadsMatchTheReference) {
  // onnx.reference's slices: crop d = dim - want keeps [d / 2, dim - d + d / 2);
  // pad d = want - dim puts the input at [d / 2, ...).
  const int64_t axis0[] = {0}, axesNeg[] = {-3, -1}, axesRepeat[] = {0, -2},
                axis1[] = {1};
  for (int64_t dim = 0; dim <= 6; ++dim)
    for (int64_t want = 0; want <= 6; ++want) {
      auto pads = onnxcc::resolveCenterCropPad(std::nullopt, {dim, 7}, {want},
                                               llvm::ArrayRef<int64_t>(axis0));
      ASSERT_TRUE(succeeded(pads));
      int64_t begin = (*pads)[0], end = (*pads)[2];
      EXPECT_EQ(dim + begin + end, want) << dim << " -> " << want;
      if (want <= dim)
        EXPECT_EQ(-begin, (dim - want) / 2) << dim << " -> " << want;
      else
        EXPECT_EQ(begin, (want - dim) / 2) << dim << " -> " << want;
      EXPECT_EQ((*pads)[1], 0);
      EXPECT_EQ((*pads)[3], 0);
    }
  // Negative axes; no axes means every axis.
  auto neg = onnxcc::resolveCenterCropPad(std::nullopt, {5, 4, 3}, {2, 7},
                                          llvm::ArrayRef<int64_t>(axesNeg));
  ASSERT_TRUE(succeeded(neg));
  EXPECT_EQ(*neg, (onnxcc::Shape{-1, 0, 2, -2, 0, 2}));
  auto all = onnxcc::resolveCenterCropPad(std::nullopt, {5, 4}, {5, 1}, std::nullopt);
  ASSERT_TRUE(succeeded(all));
  EXPECT_EQ(*all, (onnxcc::Shape{0, -1, 0, -2}));
  // Bad values fail (no diagnostics without a location).
  EXPECT_TRUE(failed(onnxcc::resolveCenterCropPad(std::nullopt, {5}, {-1}, std::nullopt)));
  EXPECT_TRUE(failed(onnxcc::resolveCenterCropPad(std::nullopt, {5}, {1, 2}, std::nullopt)));
  EXPECT_TRUE(failed(onnxcc::resolveCenterCropPad(std::nullopt, {5, 5}, {1, 2},
                                                   llvm::ArrayRef<int64_t>(axesRepeat))));
  EXPECT_TRUE(failed(onnxcc::resolveCenterCropPad(std::nullopt, {5}, {1},
                                                   llvm::ArrayRef<int64_t>(axis1))));
}

} // namespace
