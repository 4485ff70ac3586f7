//===- MlStringsTest.cpp - string tables and string literals --------------===//
//
// ml_string_table() clamps indices into its table; ml_string_lookup()
// against a linear search, with keys sorted the way the printer sorts them
// (llvm::StringRef order) and strings with bytes above 0x7f, so that the
// compiler's order and strcmp's agree. cppStringLiteral(): every byte
// reads back through the C++ escape rules, and the literal is printable
// ASCII without a `??` (trigraph) or a hex escape.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/ml_strings.h"

#include "dialects/Onnx/InertText.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace onnxcc::rt;

namespace {

TEST(MlStringTable, ClampsIndices) {
  static const char *const table[] = {"a", "b", "c"};
  const int64_t idx[] = {0, 2, 1, -5, 3, INT64_MAX};
  const char *out[6];
  ml_string_table<6, 3>(idx, table, out);
  const char *want[] = {table[0], table[2], table[1], table[0], table[2], table[2]};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(out[i], want[i]) << "index " << i;
}

/// Random strings over a small alphabet with high bytes, so that prefixes,
/// repeats and bytes >= 0x80 all occur.
std::string randomString(std::mt19937 &rng) {
  static const char alphabet[] = {'a', 'b', '\x7f', '\x80', '\xff', ' '};
  std::string s;
  for (int n = rng() % 4; n > 0; --n)
    s += alphabet[rng() % sizeof alphabet];
  return s;
}

template <int64_t N, int64_t K> void checkLookup(unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> keys;
  while ((int64_t)keys.size() < K) {
    std::string s = randomString(rng);
    if (!llvm::is_contained(keys, s))
      keys.push_back(s);
  }
  // As MlStringPrinters.cpp: positions sorted by StringRef order.
  std::vector<int64_t> order(K);
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t a, int64_t b) {
    return llvm::StringRef(keys[a]) < llvm::StringRef(keys[b]);
  });
  std::vector<const char *> sorted;
  for (int64_t i : order)
    sorted.push_back(keys[i].c_str());
  std::vector<std::string> xs;
  for (int64_t n = 0; n < N; ++n)
    xs.push_back(rng() % 2 ? keys[rng() % K] : randomString(rng));
  std::vector<const char *> x;
  for (const std::string &s : xs)
    x.push_back(s.c_str());
  x[N / 2] = nullptr; // a null pointer matches nothing
  int64_t out[N];
  ml_string_lookup<N, K>(x.data(), sorted.data(), order.data(), out);
  for (int64_t n = 0; n < N; ++n) {
    int64_t want = K;
    for (int64_t k = 0; x[n] && k < K; ++k)
      if (keys[k] == x[n])
        want = k;
    EXPECT_EQ(out[n], want) << "element " << n << " of seed " << seed;
  }
}

TEST(MlStringLookup, MatchesLinearSearch) {
  for (unsigned seed = 0; seed < 20; ++seed) {
    checkLookup<9, 1>(seed);
    checkLookup<16, 2>(seed);
    checkLookup<33, 7>(seed);
    checkLookup<64, 40>(seed);
  }
}

/// Reads a literal back by the C++ escape rules it may use.
std::string decodeLiteral(const std::string &lit) {
  std::string out;
  EXPECT_GE(lit.size(), 2u);
  EXPECT_EQ(lit.front(), '"');
  EXPECT_EQ(lit.back(), '"');
  for (size_t i = 1; i + 1 < lit.size(); ++i) {
    char c = lit[i];
    EXPECT_NE(c, '"') << "an unescaped quote at " << i;
    if (c != '\\') {
      out += c;
      continue;
    }
    char e = lit[++i];
    if (e == '"' || e == '\\' || e == '?') {
      out += e;
      continue;
    }
    EXPECT_TRUE(e >= '0' && e <= '3') << "escape \\" << e;
    int v = 0;
    for (int d = 0; d < 3; ++d, ++i)
      v = v * 8 + (lit[i] - '0');
    --i;
    out += static_cast<char>(v);
  }
  return out;
}

TEST(CppStringLiteral, EveryByteRoundTrips) {
  std::string all;
  for (int c = 1; c < 256; ++c)
    all += static_cast<char>(c);
  for (const std::string &s :
       {all, std::string("\x07" "B\xff" "F7"), std::string("?\?/?\?=*/"),
        std::string("")}) {
    std::string lit = onnxcc::cppStringLiteral(s);
    for (char c : lit)
      EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "byte " << int(c) << " in " << lit;
    EXPECT_EQ(lit.find("??"), std::string::npos) << lit;
    EXPECT_EQ(lit.find("\\x"), std::string::npos) << lit;
    EXPECT_EQ(decodeLiteral(lit), s) << lit;
  }
}

} // namespace
