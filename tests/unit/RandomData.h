//===- RandomData.h - seeded random operands for kernel tests ---*- C++ -*-===//
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

} // namespace onnxcc::test

#endif // ONNXCC_TESTS_UNIT_RANDOMDATA_H
