//===- digits_web.cpp - digits_cnn as a browser-facing wasm reactor -------===//
//
// The C API the page (app.js) calls: it writes the 8x8 drawing into
// digits_input(), calls digits_run(), and reads ten probabilities from
// digits_probs(). All buffers are static, so the module needs no heap and
// no allocator export; the arena is a static digits_cnn::Workspace.
//
//===----------------------------------------------------------------------===//

#include "digits_cnn.h"

#include <cmath>

namespace {
digits_cnn::Input0 input;
digits_cnn::Output0 logits;
float probs[10];
digits_cnn::Workspace workspace;
} // namespace

#define DIGITS_EXPORT(name) extern "C" __attribute__((export_name(#name)))

/// The model's input, float[1][1][8][8], intensities in [0, 1].
DIGITS_EXPORT(digits_input) float *digits_input() { return &input[0][0][0][0]; }

/// Softmax of the last digits_run()'s logits, float[10].
DIGITS_EXPORT(digits_probs) float *digits_probs() { return probs; }

/// The raw logits of the last digits_run(), float[10].
DIGITS_EXPORT(digits_logits) float *digits_logits() { return logits[0]; }

/// Runs the model on digits_input() and fills digits_probs() with the
/// softmax of its logits (max subtracted first, so exp cannot overflow).
DIGITS_EXPORT(digits_run) void digits_run() {
  digits_cnn::predict(input, logits, workspace);
  float max_logit = logits[0][0];
  for (float l : logits[0])
    max_logit = l > max_logit ? l : max_logit;
  float sum = 0.0f;
  for (int k = 0; k < 10; ++k)
    sum += probs[k] = std::exp(logits[0][k] - max_logit);
  for (float &p : probs)
    p /= sum;
}
