//===- DepthwiseKernelTest.cpp - depthwise2d at every path's edges --------===//
//
// depthwise2d() against a naive reference in double, on each of its paths:
// flat planes (rows narrower than a vector), bands of padded rows, stride 2
// split in registers, and taps read straight from x; each at vector-width
// edges, with windows cut by every image edge.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include "ConvTap.h"
#include "RandomData.h"

#include <gtest/gtest.h>
#include <cmath>
#include <vector>

using namespace onnxcc::rt;
using onnxcc::test::randomVector;
using onnxcc::test::Tap;

namespace {

/// One element short of a vector (1 on the scalar path).
constexpr int64_t kBelowVec = kVecWidth > 1 ? kVecWidth - 1 : 1;

/// depthwise2d() against a naive reference in double. With `poison`, the
/// last input column is NaN and only the outputs whose windows do not
/// reach it are compared: a tap the padding masks off must not let the
/// NaN next to it in.
template <typename S> void checkDepthwise(bool poison = false) {
  auto x = randomVector(S::N * S::C * S::H * S::W, 8);
  if (poison)
    for (size_t i = S::W - 1; i < x.size(); i += S::W)
      x[i] = NAN;
  auto w = randomVector(S::C * S::KH * S::KW, 9);
  auto bias = randomVector(S::C, 10);
  std::vector<float> y(S::N * S::C * S::P, NAN);
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  depthwise2d<S>(x.data(), w.data(), bias.data(), y.data(), relu);
  for (int64_t n = 0; n < S::N; ++n)
    for (int64_t c = 0; c < S::C; ++c)
      for (int64_t oh = 0; oh < S::OH; ++oh)
        for (int64_t ow = 0; ow < S::OW; ++ow) {
          double s = bias[c];
          bool reachesPoison = false;
          for (int64_t kh = 0; kh < S::KH; ++kh)
            for (int64_t kw = 0; kw < S::KW; ++kw) {
              Tap<S> t(oh, ow, kh, kw);
              if (!t.inside())
                continue;
              reachesPoison |= poison && t.iw == S::W - 1;
              s += double(x[((n * S::C + c) * S::H + t.ih) * S::W + t.iw]) *
                   w[(c * S::KH + kh) * S::KW + kw];
            }
          if (reachesPoison)
            continue;
          const float ref = s > 0 ? float(s) : 0.0f;
          const float got = y[((n * S::C + c) * S::OH + oh) * S::OW + ow];
          ASSERT_LE(std::fabs(got - ref), 1e-4f + 1e-4f * std::fabs(ref))
              << "image " << n << " channel " << c << " output (" << oh << ", "
              << ow << "): got " << got << ", expected " << ref;
        }
}

/// A depthwise 3x3 over rows W wide (pad P, stride SW) of two images.
template <int64_t W, int64_t OW, int64_t SW, int64_t P = 1>
using DepthwiseShape =
    conv_shape<2, 3, 4, W, 3, 3, 3, 4, OW, 1, SW, 1, P, 1, 1, 3>;

// Rows narrower than, as wide as and wider than a vector, at stride 1 (the
// vector path) and 2; windows cut by both edges; dilation; a 1x1.
TEST(Depthwise, VectorWidthAndEdges) {
  checkDepthwise<DepthwiseShape<kBelowVec, kBelowVec, 1>>();
  checkDepthwise<DepthwiseShape<kVecWidth, kVecWidth, 1>>();
  checkDepthwise<DepthwiseShape<kVecWidth + 2, kVecWidth + 2, 1>>();
  checkDepthwise<DepthwiseShape<3 * kVecWidth + 1, 3 * kVecWidth + 1, 1>>();
  checkDepthwise<DepthwiseShape<2 * kVecWidth + 3, kVecWidth + 2, 2>>();
  checkDepthwise<DepthwiseShape<2, 4, 1, 2>>(); // every output at an edge
  checkDepthwise<conv_shape<1, 2, 9, 11, 2, 3, 3, 5, 7, 1, 1, 0, 0, 2, 2, 2>>();
  checkDepthwise<conv_shape<1, 4, 3, 5, 4, 1, 1, 3, 5, 1, 1, 0, 0, 1, 1, 4>>();
  // MobileNet's narrow maps: 5x5 at 7x7, 14x14 to 7x7 at stride 2.
  checkDepthwise<conv_shape<1, 3, 7, 7, 3, 5, 5, 7, 7, 1, 1, 2, 2, 1, 1, 3>>();
  checkDepthwise<conv_shape<1, 3, 14, 14, 3, 5, 5, 7, 7, 2, 2, 2, 2, 1, 1, 3>>();
  // Several bands, the last one short; stride 3 by 2; odd phase widths.
  using Banded = conv_shape<1, 2, 61, 67, 2, 3, 3, 30, 33, 2, 2, 0, 0, 1, 1, 2>;
  static_assert(depthwise_band<Banded>::OB < 30 && 30 % depthwise_band<Banded>::OB,
                "several bands, the last one short");
  checkDepthwise<Banded>();
  checkDepthwise<conv_shape<1, 2, 80, 90, 2, 3, 5, 27, 45, 3, 2, 1, 2, 1, 1, 2>>();
  checkDepthwise<conv_shape<1, 2, 20, 21, 2, 3, 3, 10, 10, 2, 2, 1, 0, 2, 2, 2>>();
  // Stride-2 rows narrower than a vector keep the bands (the register path
  // needs a whole vector of interior outputs): several, the last short.
  using Narrow = conv_shape<1, 2, 509, 2 * kBelowVec + 1, 2, 3, 3, 254,
                            kBelowVec, 2, 2, 0, 0, 1, 1, 2>;
#if ONNXCC_HAS_SIMD
  static_assert(depthwise_band<Narrow>::OB < 254 &&
                    254 % depthwise_band<Narrow>::OB,
                "several bands, the last one short");
  static_assert(!takes_stride2_rows<Narrow>() && takes_stride2_rows<Banded>(),
                "narrow rows band, wide ones split in registers");
#endif
  checkDepthwise<Narrow>();
  // Stride 2 whose rows split into phases with and without a tail, and a
  // last band two rows short of a whole one (MobileNet's 56 -> 28).
  checkDepthwise<conv_shape<1, 2, 8, 32, 2, 3, 3, 4, 16, 2, 2, 1, 1, 1, 1, 2>>();
  using Mobile = conv_shape<1, 2, 56, 56, 2, 3, 3, 28, 28, 2, 2, 1, 1, 1, 1, 2>;
  static_assert(28 % depthwise_band<Mobile>::OB != 0, "a short last band");
  checkDepthwise<Mobile>();
  // Rows too wide for the 16 KiB stack buffer: taps read from x directly.
  using Wide = conv_shape<1, 2, 3, 1400, 2, 3, 3, 3, 1400, 1, 1, 1, 1, 1, 1, 2>;
  static_assert(!depthwise_band<Wide>::fits, "takes the direct path");
  checkDepthwise<Wide>();
  checkDepthwise<conv_shape<1, 2, 4, 1500, 2, 3, 3, 2, 750, 2, 2, 0, 1, 1, 1, 2>>();
  // Stride 2 split in registers, where AVX-512 takes taps 2 on from the
  // taps two before (the last lane the window's last float): MobileNet's
  // 112 -> 56, and 5-wide windows whose rows end on an overlapping vector.
  checkDepthwise<conv_shape<1, 2, 5, 112, 2, 3, 3, 3, 56, 2, 2, 1, 1, 1, 1, 2>>();
  checkDepthwise<conv_shape<1, 2, 9, 75, 2, 5, 5, 5, 38, 2, 2, 2, 2, 1, 1, 2>>();
  // Stride 1 over rows of at least a vector, computed row by row into y
  // (the last vector overlapping): several bands, 5-wide windows, and a
  // dilated 3x3 whose padding is wider than one column.
  using Rows = conv_shape<1, 2, 120, 2 * kVecWidth + 5, 2, 5, 5, 120,
                          2 * kVecWidth + 5, 1, 1, 2, 2, 1, 1, 2>;
#if ONNXCC_HAS_SIMD
  static_assert(depthwise_band<Rows>::OB < 120 && banded_rows_direct<Rows>(),
                "several bands, computed into y");
#endif
  checkDepthwise<Rows>();
  checkDepthwise<conv_shape<1, 2, 30, kVecWidth + 9, 2, 3, 3, 30, kVecWidth + 9,
                            1, 1, 2, 2, 2, 2, 2>>();
}


// Stride-1 planes whose rows are narrower than a vector (or than two, with
// 5-wide windows) run as one flat run of vectors per channel
// (depthwise_flat): MobileNet's 14x14 and 7x7 maps, a plane of exactly one
// vector and one just over, rows one short of a vector and of two, padding
// on one side only, odd channel counts over two images (the two planes
// take turns across images), and NaN beside the padding.
TEST(Depthwise, FlatPlanes) {
  constexpr int64_t V = kVecWidth, H2 = kVecWidth > 1 ? kVecWidth / 2 : 1;
  using Mobile14 = conv_shape<1, 5, 14, 14, 5, 3, 3, 14, 14, 1, 1, 1, 1, 1, 1, 5>;
  using Mobile7 = conv_shape<1, 3, 7, 7, 3, 3, 3, 7, 7, 1, 1, 1, 1, 1, 1, 3>;
  using Wide5 = conv_shape<2, 3, 7, 7, 3, 5, 5, 7, 7, 1, 1, 2, 2, 1, 1, 3>;
  using OneVector = conv_shape<1, 3, 2, H2, 3, 3, 3, 2, H2, 1, 1, 1, 1, 1, 1, 3>;
  using BelowVector = conv_shape<2, 3, 3, kBelowVec, 3, 3, 3, 3, kBelowVec, 1,
                                 1, 1, 1, 1, 1, 3>;
  using BelowTwo5 = conv_shape<1, 2, 5, 2 * V - 1, 2, 5, 5, 5, 2 * V - 1, 1, 1,
                               2, 2, 1, 1, 2>;
  using TopLeft = conv_shape<1, 3, 6, kBelowVec, 3, 3, 3, 6, kBelowVec, 1, 1,
                             0, 0, 1, 1, 3>;
  using BottomRight = conv_shape<1, 3, 6, kBelowVec, 3, 3, 3, 6, kBelowVec, 1,
                                 1, 2, 2, 1, 1, 3>;
#if ONNXCC_HAS_SIMD
  static_assert(takes_flat_planes<Mobile14>() == (14 < V) &&
                    takes_flat_planes<Mobile7>() == (7 < V) &&
                    takes_flat_planes<Wide5>() && takes_flat_planes<OneVector>() &&
                    takes_flat_planes<BelowTwo5>() && takes_flat_planes<TopLeft>() &&
                    takes_flat_planes<BottomRight>(),
                "flat planes");
  // Not flat: a plane short of a vector, rows of a vector with a 3x3.
  static_assert(
      !takes_flat_planes<conv_shape<1, 2, 1, kBelowVec, 2, 3, 3, 1, kBelowVec,
                                    1, 1, 1, 1, 1, 1, 2>>() &&
          !takes_flat_planes<DepthwiseShape<kVecWidth, kVecWidth, 1>>(),
      "row paths");
#endif
  checkDepthwise<Mobile14>();
  checkDepthwise<Mobile7>();
  checkDepthwise<Wide5>();
  checkDepthwise<OneVector>();
  checkDepthwise<conv_shape<1, 3, 2, H2 + 1, 3, 3, 3, 2, H2 + 1, 1, 1, 1, 1, 1, 1, 3>>();
  checkDepthwise<BelowVector>();
  checkDepthwise<BelowTwo5>();
  checkDepthwise<TopLeft>();
  checkDepthwise<BottomRight>();
  checkDepthwise<Mobile7>(/*poison=*/true);
  checkDepthwise<Wide5>(/*poison=*/true);
  checkDepthwise<BelowVector>(/*poison=*/true);
}

} // namespace
