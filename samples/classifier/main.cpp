// Runs the compiled classifier on the reference input and compares with the
// PyTorch reference output. Usage: classifier_demo DATA_DIR
// (DATA_DIR holds input_0.pb and output_0.pb, ONNX TensorProtos).
#include "classifier.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// Reads a TensorProto's raw_data (field 9) without a protobuf dependency:
// the sample should link nothing but the generated library.
static bool read_raw_data(const std::string &path, void *dst, size_t bytes) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return false;
  std::vector<unsigned char> buf;
  unsigned char chunk[4096];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;)
    buf.insert(buf.end(), chunk, chunk + n);
  std::fclose(f);
  size_t i = 0;
  auto varint = [&](uint64_t &v) {
    v = 0;
    for (int shift = 0; i < buf.size() && shift < 64; shift += 7) {
      unsigned char b = buf[i++];
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return true;
    }
    return false;
  };
  while (i < buf.size()) {
    uint64_t key, len;
    if (!varint(key))
      return false;
    switch (key & 7) {
    case 0: if (!varint(len)) return false; break;
    case 1: i += 8; break;
    case 5: i += 4; break;
    case 2:
      if (!varint(len) || len > buf.size() - i)
        return false;
      if ((key >> 3) == 9) { // raw_data
        if (len != bytes)
          return false;
        std::memcpy(dst, buf.data() + i, bytes);
        return true;
      }
      i += len;
      break;
    default: return false;
    }
  }
  return false;
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : "test_data_set_0";
  static classifier::Input0 input;
  static classifier::Output0 expected, output;
  if (!read_raw_data(dir + "/input_0.pb", &input, sizeof input) ||
      !read_raw_data(dir + "/output_0.pb", &expected, sizeof expected)) {
    std::fprintf(stderr, "classifier_demo: cannot read %s/{input,output}_0.pb\n",
                 dir.c_str());
    return 1;
  }
  static classifier::Workspace workspace; // kWorkspaceBytes, no heap
  classifier::predict(input, output, workspace);

  int top = 0;
  float max_err = 0.0f;
  for (int c = 0; c < 10; ++c) {
    if (output[0][c] > output[0][top])
      top = c;
    max_err = std::fmax(max_err, std::fabs(output[0][c] - expected[0][c]));
  }
  std::printf("classifier: top class %d (score %.4f)\n", top, output[0][top]);
  std::printf("max abs error vs PyTorch reference: %.3g\n", max_err);
  std::printf("workspace %zu bytes, weights %zu bytes\n",
              classifier::kWorkspaceBytes, classifier::kWeightBytes);
  return max_err <= 1e-4f ? 0 : 1;
}
