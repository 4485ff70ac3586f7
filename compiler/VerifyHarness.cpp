//===- VerifyHarness.cpp - the programs `onnxcc verify` builds ------------===//
//
// Each harness reads raw input files named on its command line, calls the
// generated predict() and writes raw output files, which Verify.cpp
// compares with the reference. The single-shape harness calls it twice on
// one workspace and exits 5 if the second call's outputs differ in any
// bit: what one call leaves in the workspace (its buffers, the weight
// sweep's direction) must not change the next one's answer. Only the
// harness is built with the user's toolchain, so it uses nothing beyond
// <cstdio> and <vector>.
//
//===----------------------------------------------------------------------===//
#include "compiler/VerifyHarness.h"

namespace onnxcc {

std::string harnessSource(const std::string &name, int numInputs,
                          int numOutputs) {
  std::string s = "// onnxcc verify harness: raw inputs in, raw outputs out.\n"
                  "#include \"" + name + ".h\"\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n"
                  "#include <type_traits>\n#include <vector>\n\n"
                  "#include \"onnxcc/types.h\"\n\n"
                  "// A port with no elements is an empty tag: no bytes to move.\n"
                  "template <typename T> static std::size_t bytes_of(const T &) {\n"
                  "  return sizeof(T);\n}\n"
                  "template <typename T>\n"
                  "static std::size_t bytes_of(const onnxcc::rt::empty_tensor<T> &) {\n"
                  "  return 0;\n}\n\n"
                  "[[maybe_unused]] static bool io(const char *path, void *p, std::size_t n, bool rd) {\n"
                  "  std::FILE *f = std::fopen(path, rd ? \"rb\" : \"wb\");\n"
                  "  if (!f) return false;\n"
                  "  std::size_t got = rd ? std::fread(p, 1, n, f) : std::fwrite(p, 1, n, f);\n"
                  "  std::fclose(f);\n  return got == n;\n}\n\n"
                  "// String ports hold one const char * per element; their files hold\n"
                  "// the strings, each followed by a NUL byte.\n"
                  "template <typename T>\n"
                  "static constexpr bool is_strings =\n"
                  "    std::is_same<typename std::remove_all_extents<T>::type, const char *>::value;\n\n"
                  "[[maybe_unused]] static bool read_strings(const char *path, const char **p, std::size_t n) {\n"
                  "  std::FILE *f = std::fopen(path, \"rb\");\n"
                  "  if (!f) return false;\n"
                  "  std::vector<char> bytes;\n"
                  "  char chunk[4096];\n"
                  "  for (std::size_t got; (got = std::fread(chunk, 1, sizeof chunk, f)) > 0;)\n"
                  "    bytes.insert(bytes.end(), chunk, chunk + got);\n"
                  "  std::fclose(f);\n"
                  "  // Kept for the life of the program (p points into it).\n"
                  "  char *kept = static_cast<char *>(std::malloc(bytes.size() + 1));\n"
                  "  if (!kept) return false;\n"
                  "  std::memcpy(kept, bytes.data(), bytes.size());\n"
                  "  std::size_t at = 0;\n"
                  "  for (std::size_t i = 0; i < n; ++i) {\n"
                  "    const void *end = std::memchr(kept + at, 0, bytes.size() - at);\n"
                  "    if (!end) return false;\n"
                  "    p[i] = kept + at;\n"
                  "    at = static_cast<const char *>(end) - kept + 1;\n"
                  "  }\n"
                  "  return at == bytes.size();\n}\n\n"
                  "[[maybe_unused]] static bool write_strings(const char *path, const char *const *p, std::size_t n) {\n"
                  "  std::FILE *f = std::fopen(path, \"wb\");\n"
                  "  if (!f) return false;\n"
                  "  bool ok = true;\n"
                  "  for (std::size_t i = 0; i < n; ++i) {\n"
                  "    const char *v = p[i] ? p[i] : \"\";\n"
                  "    std::size_t len = std::strlen(v) + 1;\n"
                  "    ok &= std::fwrite(v, 1, len, f) == len;\n"
                  "  }\n"
                  "  std::fclose(f);\n  return ok;\n}\n\n"
                  "template <typename T> static bool read_port(const char *path, T &p) {\n"
                  "  if constexpr (is_strings<T>)\n"
                  "    return read_strings(path, reinterpret_cast<const char **>(&p),\n"
                  "                        sizeof(T) / sizeof(const char *));\n"
                  "  else\n"
                  "    return io(path, &p, bytes_of(p), true);\n}\n\n"
                  "template <typename T> static bool write_port(const char *path, T &p) {\n"
                  "  if constexpr (is_strings<T>)\n"
                  "    return write_strings(path, reinterpret_cast<const char *const *>(&p),\n"
                  "                         sizeof(T) / sizeof(const char *));\n"
                  "  else\n"
                  "    return io(path, &p, bytes_of(p), false);\n}\n\n";
  for (int i = 0; i < numInputs; ++i)
    s += "static " + name + "::Input" + std::to_string(i) + " in" + std::to_string(i) + ";\n";
  for (int i = 0; i < numOutputs; ++i)
    s += "static " + name + "::Output" + std::to_string(i) + " out" + std::to_string(i) + ";\n";
  s += "static " + name + "::Workspace workspace;\n\nint main(int argc, char **argv) {\n"
       "  if (argc != " + std::to_string(1 + numInputs + numOutputs) + ") return 2;\n";
  for (int i = 0; i < numInputs; ++i)
    s += "  if (!read_port(argv[" + std::to_string(1 + i) + "], in" +
         std::to_string(i) + ")) return 3;\n";
  std::string call = "  " + name + "::predict(";
  for (int i = 0; i < numInputs; ++i)
    call += "in" + std::to_string(i) + ", ";
  for (int i = 0; i < numOutputs; ++i)
    call += "out" + std::to_string(i) + ", ";
  call += "workspace);\n";
  s += call;
  for (int i = 0; i < numOutputs; ++i) {
    std::string out = "out" + std::to_string(i);
    // A static copy: a vector's allocation pulls in exception support,
    // which the bare-metal targets' links lack.
    s += "  static unsigned char first" + std::to_string(i) + "[sizeof(" + out +
         ")];\n  std::memcpy(first" + std::to_string(i) + ", &" + out +
         ", bytes_of(" + out + "));\n";
  }
  s += call;
  for (int i = 0; i < numOutputs; ++i) {
    std::string n = std::to_string(i);
    s += "  if (std::memcmp(first" + n + ", &out" + n + ", bytes_of(out" + n +
         ")) != 0) return 5;\n";
  }
  for (int i = 0; i < numOutputs; ++i)
    s += "  if (!write_port(argv[" + std::to_string(1 + numInputs + i) + "], out" +
         std::to_string(i) + ")) return 4;\n";
  return s + "  return 0;\n}\n";
}

std::string bucketHarnessSource(const std::string &name, int numInputs,
                                int numOutputs) {
  std::string s = "// onnxcc verify harness for shape buckets: a row count, raw\n"
                  "// inputs in, raw outputs out, through " + name + "::predict(rows, ...).\n"
                  "#include \"" + name + ".h\"\n#include <cstdio>\n#include <cstdlib>\n"
                  "#include <vector>\n\n"
                  "static bool io(const char *path, void *p, std::size_t n, bool rd) {\n"
                  "  std::FILE *f = std::fopen(path, rd ? \"rb\" : \"wb\");\n"
                  "  if (!f) return false;\n"
                  "  std::size_t got = rd ? std::fread(p, 1, n, f) : std::fwrite(p, 1, n, f);\n"
                  "  std::fclose(f);\n  return got == n;\n}\n\n"
                  "static " + name + "::Workspace workspace;\n\n"
                  "int main(int argc, char **argv) {\n"
                  "  if (argc != " + std::to_string(2 + numInputs + numOutputs) +
                  ") return 2;\n"
                  "  std::size_t rows = std::strtoull(argv[1], nullptr, 10);\n";
  std::string args;
  auto port = [&](bool input, int i) {
    std::string kind = input ? "Input" : "Output", var = (input ? "in" : "out") +
                                                         std::to_string(i);
    std::string type = name + "::" + kind + std::to_string(i);
    s += "  std::vector<" + type + "Element> " + var + "(rows * " + name + "::k" +
         kind + std::to_string(i) + "RowElements);\n";
    args += var + ".data(), ";
  };
  for (int i = 0; i < numInputs; ++i)
    port(true, i);
  for (int i = 0; i < numOutputs; ++i)
    port(false, i);
  for (int i = 0; i < numInputs; ++i) {
    std::string var = "in" + std::to_string(i);
    s += "  if (!io(argv[" + std::to_string(2 + i) + "], " + var + ".data(), " + var +
         ".size() * sizeof(" + var + "[0]), true)) return 3;\n";
  }
  s += "  " + name + "::predict(rows, " + args + "workspace);\n";
  for (int i = 0; i < numOutputs; ++i) {
    std::string var = "out" + std::to_string(i);
    s += "  if (!io(argv[" + std::to_string(2 + numInputs + i) + "], " + var +
         ".data(), " + var + ".size() * sizeof(" + var + "[0]), false)) return 4;\n";
  }
  return s + "  return 0;\n}\n";
}

} // namespace onnxcc
