//===- CompareTest.cpp - verify's tensor comparison -----------------------===//
//
// compareTensors() decides PASS or MISMATCH for `onnxcc verify` and the
// bisection: NaN matches only NaN, equal infinities match, integers match
// exactly even beyond 2^53, floats within atol + rtol * |ref|.
//
//===----------------------------------------------------------------------===//
#include "compiler/Compare.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace onnxcc;

namespace {

template <typename T> llvm::ArrayRef<char> bytes(const std::vector<T> &v) {
  return {reinterpret_cast<const char *>(v.data()), v.size() * sizeof(T)};
}

class CompareTest : public ::testing::Test {
protected:
  mlir::MLIRContext ctx;
  mlir::Builder b{&ctx};
};

TEST_F(CompareTest, NanMatchesOnlyNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> got{nan, 1.0f, nan}, ref{nan, nan, 1.0f};
  Comparison c = compareTensors(b.getF32Type(), bytes(got), bytes(ref), 1e-4, 1e-4);
  EXPECT_EQ(c.count, 3u);
  EXPECT_EQ(c.mismatches, 2u); // element 0 agrees
}

TEST_F(CompareTest, InfinitiesMatchThemselves) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> got{inf, -inf, inf}, ref{inf, -inf, -inf};
  Comparison c = compareTensors(b.getF32Type(), bytes(got), bytes(ref), 1e-4, 1e-4);
  EXPECT_EQ(c.mismatches, 1u);
}

TEST_F(CompareTest, FloatTolerance) {
  std::vector<float> got{1.00005f, 2.0f, 100.0f}, ref{1.0f, 2.001f, 100.009f};
  Comparison c = compareTensors(b.getF32Type(), bytes(got), bytes(ref), 1e-4, 1e-4);
  // 5e-5 <= 2e-4 ok; 1e-3 > 3e-4 no; 9e-3 <= 1.01e-2 ok.
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(c.worst, 2u);
}

TEST_F(CompareTest, LargeIntegersExactly) {
  std::vector<int64_t> got{(int64_t(1) << 53) + 1, 7}, ref{int64_t(1) << 53, 7};
  Comparison c = compareTensors(b.getI64Type(), bytes(got), bytes(ref), 1e-4, 1e-4);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(c.worst, 0u);
}

} // namespace
