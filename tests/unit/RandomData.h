//===- RandomData.h - seeded random and counting test operands -*- C++ -*-===//
#ifndef ONNXCC_TESTS_UNIT_RANDOMDATA_H
#define ONNXCC_TESTS_UNIT_RANDOMDATA_H

#include <cstddef>
#include <random>
#include <vector>

namespace onnxcc::test {

/// n standard-normal floats from `seed`: the same operands on every run.
inline std::vector<float> randomVector(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist;
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// start, start + 1, ... as T: operands whose every element is distinct,
/// so a copy that reads the wrong element shows.
template <typename T> std::vector<T> iota(std::size_t n, int start = 0) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<T>(static_cast<int>(i) + start);
  return v;
}

} // namespace onnxcc::test

#endif // ONNXCC_TESTS_UNIT_RANDOMDATA_H
