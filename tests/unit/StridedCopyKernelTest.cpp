//===- StridedCopyKernelTest.cpp - strided_copy against a naive copy ------===//
//
// strided_copy (Slice, Transpose, Expand, Tile, ...) against the naive
// per-element copy: rows of 1, 7, 8 and 9 elements (memcpy, fill and
// strided rows), negative and zero strides, and transposed blocks through
// 4 x 4 register tiles with their tails. Runtime only, so it also runs in
// the native-ISA and scalar kernel test builds.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include "RandomData.h"

#include <gtest/gtest.h>
#include <vector>

using namespace onnxcc::rt;

namespace {

using onnxcc::test::iota;

/// The naive strided copy: out[i] = in[offset + sum idx_d * strides_d].
template <typename T>
std::vector<T> naiveCopy(const std::vector<T> &in, std::vector<int64_t> shape,
                         std::vector<int64_t> strides, int64_t offset) {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
  std::vector<T> out(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, src = offset;
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      src += (rest % shape[d]) * strides[d];
      rest /= shape[d];
    }
    out[i] = in[src];
  }
  return out;
}

template <typename Shape, typename Strides, int64_t Offset, typename T>
void checkCopy(size_t inSize) {
  std::vector<T> in = iota<T>(inSize, 1);
  std::vector<T> out(Shape::product());
  strided_copy<Shape, Strides, Offset>(in.data(), out.data());
  std::vector<int64_t> shape(Shape::at, Shape::at + Shape::rank);
  std::vector<int64_t> strides(Strides::at, Strides::at + Strides::rank);
  EXPECT_EQ(out, naiveCopy(in, shape, strides, Offset));
}

TEST(StridedCopy, RowKinds) {
  // Contiguous rows (memcpy) of 1, 7, 8, 9 elements.
  checkCopy<dims<3, 1>, dims<4, 1>, 2, float>(12);
  checkCopy<dims<2, 7>, dims<9, 1>, 1, float>(18);
  checkCopy<dims<2, 8>, dims<8, 1>, 0, int64_t>(16);
  checkCopy<dims<3, 9>, dims<10, 1>, 0, int8_t>(30);
  // Fill rows (stride 0: Expand) and strided rows (Transpose).
  checkCopy<dims<4, 9>, dims<1, 0>, 0, float>(4);
  checkCopy<dims<3, 2>, dims<1, 3>, 0, double>(6);
  // A rank-1 copy, and the 3-D permutation of a 2x3x4 tensor.
  checkCopy<dims<5>, dims<2>, 1, uint16_t>(11);
  checkCopy<dims<4, 2, 3>, dims<1, 12, 4>, 0, float>(24);
}

TEST(StridedCopy, TransposedBlocks) {
  // The last two dimensions swapped go through 4 x 4 register tiles: whole
  // tiles, a row and a column tail, an offset source, and outer dimensions
  // walking it (attention's heads).
  checkCopy<dims<128, 32>, dims<1, 128>, 0, float>(4096);
  checkCopy<dims<4, 4>, dims<1, 4>, 0, float>(16);
  checkCopy<dims<7, 6>, dims<1, 9>, 2, float>(56);
  checkCopy<dims<2, 3, 5, 9>, dims<100, 200, 1, 11>, 3, float>(600);
  checkCopy<dims<3, 8, 5>, dims<5, 1, 15>, 0, float>(78);
  // Too narrow for a tile: element by element.
  checkCopy<dims<3, 8>, dims<1, 3>, 0, float>(24);
  checkCopy<dims<8, 3>, dims<1, 8>, 0, float>(24);
}

TEST(StridedCopy, NegativeStrides) {
  // Slice [::-1, 1:4] of a 10x5 tensor, and every other element backwards.
  checkCopy<dims<10, 3>, dims<-5, 1>, 46, float>(50);
  checkCopy<dims<5>, dims<-2>, 9, int32_t>(10);
}

TEST(StridedCopy, TypedElements) {
  bool in[6] = {true, false, false, true, true, false}, out[6];
  strided_copy<dims<3, 2>, dims<1, 3>, 0>(in, out); // transpose 2x3 -> 3x2
  bool want[6] = {in[0], in[3], in[1], in[4], in[2], in[5]};
  EXPECT_TRUE(std::equal(out, out + 6, want));
  f16 h[4] = {f16(1.0f), f16(-2.5f), f16(3.0f), f16(65504.0f)}, ho[4];
  strided_copy<dims<2, 2>, dims<1, 2>, 0>(h, ho);
  EXPECT_EQ(ho[1].bits, h[2].bits);
  EXPECT_EQ(ho[3].bits, h[3].bits);
}

TEST(StridedCopy, Empty) {
  float in[1] = {1.0f}, out[1] = {7.0f};
  strided_copy<dims<0>, dims<0>, 0>(in, out);
  EXPECT_EQ(out[0], 7.0f);
}

} // namespace
