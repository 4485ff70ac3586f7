//===- VmathTest.cpp - exp, sigmoid and tanh that vectorise ---------------===//
//
// vmath.h against libm over the ranges it promises, plus its edges:
// underflow to 0, overflow to inf, NaN kept, tanh's switch to +-1 at 9.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/vmath.h"

#include <gtest/gtest.h>
#include <cmath>
#include <limits>

using namespace onnxcc::rt;

TEST(Vmath, ExpMatchesLibm) {
  for (float v = -87.0f; v <= 88.0f; v += 0.01337f) {
    double want = std::exp(double(v));
    EXPECT_NEAR(exp_poly(v), want, want * 4e-7) << "v " << v;
  }
  EXPECT_EQ(exp_poly(0.0f), 1.0f);
  EXPECT_EQ(exp_poly(-1000.0f), 0.0f);
  EXPECT_TRUE(std::isinf(exp_poly(200.0f)));
  EXPECT_TRUE(std::isnan(exp_poly(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(exp_poly(-std::numeric_limits<float>::quiet_NaN())));
}

TEST(Vmath, SigmoidMatchesLibm) {
  for (float v = -100.0f; v <= 100.0f; v += 0.00731f) {
    double want = 1.0 / (1.0 + std::exp(-double(v)));
    EXPECT_NEAR(sigmoid_rational(v), want, 2e-7) << "v " << v;
  }
  EXPECT_EQ(sigmoid_rational(0.0f), 0.5f);
  EXPECT_EQ(sigmoid_rational(-18.0f), 0.0f);
  EXPECT_EQ(sigmoid_rational(18.0f), 1.0f);
  EXPECT_EQ(sigmoid_rational(-200.0f), 0.0f);
  EXPECT_EQ(sigmoid_rational(std::numeric_limits<float>::infinity()), 1.0f);
  EXPECT_TRUE(std::isnan(sigmoid_rational(std::numeric_limits<float>::quiet_NaN())));
}

TEST(Vmath, TanhMatchesLibmRelatively) {
  // Relative, also near 0, and up to the switch to +-1 at 9.
  for (float v = -20.0f; v <= 20.0f; v += 0.000917f) {
    double want = std::tanh(double(v));
    EXPECT_NEAR(tanh_rational(v), want, 1e-30 + std::fabs(want) * 3.5e-7) << "v " << v;
  }
  for (float v : {1e-30f, -1e-20f, 1e-6f, 0.6249f, 7.05f, 8.9999f, -8.9999f})
    EXPECT_NEAR(tanh_rational(v), std::tanh(double(v)), std::fabs(std::tanh(double(v))) * 3.5e-7)
        << "v " << v;
  EXPECT_EQ(tanh_rational(0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(tanh_rational(-0.0f)));
  EXPECT_EQ(tanh_rational(9.0f), 1.0f);
  EXPECT_EQ(tanh_rational(-9.0f), -1.0f);
  EXPECT_EQ(tanh_rational(1e30f), 1.0f);
  EXPECT_EQ(tanh_rational(-std::numeric_limits<float>::infinity()), -1.0f);
  EXPECT_TRUE(std::isnan(tanh_rational(std::numeric_limits<float>::quiet_NaN())));
}
