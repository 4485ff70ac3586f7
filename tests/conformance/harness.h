//===- harness.h - runner support for the batched node-test builds -------===//
//
// Included once by every unity_K.cpp that tests/conformance/run_node_tests.py
// generates. A unity file holds many generated models; each gets a
// run_<name>(in_dir, out_dir) function that reads in<K>.bin into its InputK,
// calls predict() and writes out<K>.bin from its OutputK. main() dispatches
// on argv[1]:
//
//   unity_K <name> <in_dir> <out_dir>
//
// Exit codes: 0 ran, 2 usage or unknown name, 3 an input file's size is not
// sizeof(InputK) (the message says both) or a string input file does not
// hold one string per element, 4 a file could not be read or written, 5 out
// of memory.
//
// String ports (one `const char *` per element) travel as their strings,
// each followed by a NUL byte.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_CONFORMANCE_HARNESS_H
#define ONNXCC_CONFORMANCE_HARNESS_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "onnxcc/types.h"

namespace conformance {

/// A 64-byte aligned heap block for T: heap, not static storage, because a
/// workspace may take GiBs. `fill` >= 0 sets every byte, so that an output
/// predict() never writes shows up as a pattern (0xA5) rather than zeros
/// that a reference may hold; -1 leaves inputs and the workspace unset.
template <typename T> T &buffer(int fill) {
  std::size_t bytes = (sizeof(T) + 63) / 64 * 64;
  void *p = std::aligned_alloc(64, bytes);
  if (!p) {
    std::fprintf(stderr, "out of memory allocating %zu bytes\n", bytes);
    std::exit(5);
  }
  if (fill >= 0)
    std::memset(p, fill, bytes);
  return *static_cast<T *>(p);
}

/// The bytes of an InputK/OutputK: none for a port with no elements.
template <typename T> constexpr std::size_t bytes_of(const T &) {
  return sizeof(T);
}
template <typename T>
constexpr std::size_t bytes_of(const onnxcc::rt::empty_tensor<T> &) {
  return 0;
}

inline void file_path(char (&path)[4096], const char *dir, const char *kind,
                      int index) {
  std::snprintf(path, sizeof path, "%s/%s%d.bin", dir, kind, index);
}

/// Reads `dir`/in<index>.bin, which must hold exactly `size` bytes.
inline int read_input(const char *dir, int index, void *data, std::size_t size,
                      const char *type_name) {
  char path[4096];
  file_path(path, dir, "in", index);
  std::FILE *f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return 4;
  }
  std::fseek(f, 0, SEEK_END);
  long have = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  if (have < 0 || static_cast<std::size_t>(have) != size) {
    std::fclose(f);
    std::fprintf(stderr, "input %d: the reference has %ld bytes, %s has %zu\n",
                 index, have, type_name, size);
    return 3;
  }
  std::size_t got = std::fread(data, 1, size, f);
  std::fclose(f);
  return got == size ? 0 : 4;
}

/// Writes `dir`/out<index>.bin.
inline int write_output(const char *dir, int index, const void *data,
                        std::size_t size) {
  char path[4096];
  file_path(path, dir, "out", index);
  std::FILE *f = std::fopen(path, "wb");
  if (!f) {
    std::fprintf(stderr, "cannot create %s\n", path);
    return 4;
  }
  std::size_t put = std::fwrite(data, 1, size, f);
  return std::fclose(f) == 0 && put == size ? 0 : 4;
}

/// Whether port type T holds strings.
template <typename T>
constexpr bool is_strings =
    std::is_same<typename std::remove_all_extents<T>::type, const char *>::value;

/// Reads `dir`/in<index>.bin as `n` NUL-terminated strings into `p`; the
/// bytes stay allocated for the life of the program.
inline int read_strings(const char *dir, int index, const char **p,
                        std::size_t n) {
  char path[4096];
  file_path(path, dir, "in", index);
  std::FILE *f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return 4;
  }
  std::fseek(f, 0, SEEK_END);
  long have = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  char *bytes = static_cast<char *>(std::malloc(have > 0 ? have : 1));
  if (have < 0 || !bytes) {
    std::fclose(f);
    return have < 0 ? 4 : 5;
  }
  std::size_t got = std::fread(bytes, 1, have, f);
  std::fclose(f);
  if (got != static_cast<std::size_t>(have))
    return 4;
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const void *end = std::memchr(bytes + at, 0, got - at);
    if (!end) {
      std::fprintf(stderr, "input %d: the reference has fewer than %zu strings\n",
                   index, n);
      return 3;
    }
    p[i] = bytes + at;
    at = static_cast<const char *>(end) - bytes + 1;
  }
  if (at != got) {
    std::fprintf(stderr, "input %d: the reference has more than %zu strings\n",
                 index, n);
    return 3;
  }
  return 0;
}

/// Writes `n` strings to `dir`/out<index>.bin, each followed by a NUL byte.
inline int write_strings(const char *dir, int index, const char *const *p,
                         std::size_t n) {
  char path[4096];
  file_path(path, dir, "out", index);
  std::FILE *f = std::fopen(path, "wb");
  if (!f) {
    std::fprintf(stderr, "cannot create %s\n", path);
    return 4;
  }
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    const char *v = p[i] ? p[i] : "";
    std::size_t len = std::strlen(v) + 1;
    ok &= std::fwrite(v, 1, len, f) == len;
  }
  return std::fclose(f) == 0 && ok ? 0 : 4;
}

/// Reads input port `index` (raw bytes, or strings).
template <typename T>
int read_port(const char *dir, int index, T &port, const char *type_name) {
  if constexpr (is_strings<T>)
    return read_strings(dir, index, reinterpret_cast<const char **>(&port),
                        sizeof(T) / sizeof(const char *));
  else
    return read_input(dir, index, &port, bytes_of(port), type_name);
}

/// Writes output port `index` (raw bytes, or strings).
template <typename T> int write_port(const char *dir, int index, const T &port) {
  if constexpr (is_strings<T>)
    return write_strings(dir, index, reinterpret_cast<const char *const *>(&port),
                         sizeof(T) / sizeof(const char *));
  else
    return write_output(dir, index, &port, bytes_of(port));
}

struct entry {
  const char *name;
  int (*run)(const char *in_dir, const char *out_dir);
};

template <std::size_t N>
int dispatch(int argc, char **argv, const entry (&table)[N]) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <name> <in_dir> <out_dir>\n", argv[0]);
    return 2;
  }
  for (const entry &e : table)
    if (std::strcmp(e.name, argv[1]) == 0)
      return e.run(argv[2], argv[3]);
  std::fprintf(stderr, "no model named '%s' in this program\n", argv[1]);
  return 2;
}

} // namespace conformance

#endif // ONNXCC_CONFORMANCE_HARNESS_H
