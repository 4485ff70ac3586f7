//===- ml_strings.h - string tables of the ai.onnx.ml ops -------*- C++ -*-===//
//
// String tensors are arrays of `const char *` (NUL-terminated). Outputs
// point into constant tables the generated code defines (escaped literals
// of the model's class names and values): nothing is allocated or copied.
// ml_string_table(): index -> string. ml_string_lookup(): string -> index,
// a binary search with strcmp (which compares bytes as unsigned char, the
// order the compiler sorted the keys in).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ML_STRINGS_H
#define ONNXCC_RUNTIME_ML_STRINGS_H

#include "onnxcc/config.h"

#include <cstdint>
#include <cstring>

namespace onnxcc {
namespace rt {

/// out[n] = table[indices[n]], an index outside [0, C) clamped to it.
template <int64_t N, int64_t C>
inline void ml_string_table(const int64_t *ONNXCC_RESTRICT indices,
                            const char *const *ONNXCC_RESTRICT table,
                            const char **ONNXCC_RESTRICT out) {
  // The memory plan gives each string element 8 bytes.
  static_assert(sizeof(const char *) <= 8, "string tensors need pointers of at most 8 bytes");
  static_assert(C >= 1, "an empty string table");
  for (int64_t n = 0; n < N; ++n) {
    int64_t i = indices[n];
    i = i < 0 ? 0 : i >= C ? C - 1 : i;
    out[n] = table[i];
  }
}

/// out[n] = positions[k] where sorted[k] equals x[n], else K (also for a
/// null x[n]). `sorted` holds the K distinct keys in strcmp order and
/// `positions` each one's place in the model's list.
template <int64_t N, int64_t K>
inline void ml_string_lookup(const char *const *ONNXCC_RESTRICT x,
                             const char *const *ONNXCC_RESTRICT sorted,
                             const int64_t *ONNXCC_RESTRICT positions,
                             int64_t *ONNXCC_RESTRICT out) {
  static_assert(sizeof(const char *) <= 8, "string tensors need pointers of at most 8 bytes");
  static_assert(K >= 1, "an empty key table");
  for (int64_t n = 0; n < N; ++n) {
    out[n] = K;
    if (!x[n])
      continue;
    int64_t lo = 0, hi = K;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      int c = std::strcmp(x[n], sorted[mid]);
      if (c == 0) {
        out[n] = positions[mid];
        break;
      }
      if (c < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_ML_STRINGS_H
