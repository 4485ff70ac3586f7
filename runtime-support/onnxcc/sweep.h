//===- sweep.h - which way a kernel reads its weights this call -*- C++ -*-===//
//
// A weight read once per call and reused on the next call, as a Linear
// layer's at batch 1 is, comes back from L2 only where every cache set
// holds its lines. Which set a line maps to depends on the physical page
// the OS gave it, so an 802 KB weight in a 1 MiB, 16-way L2 leaves some
// sets with more lines than ways in some processes and not in others.
// Read in the same order every call, such a set misses on every one of
// its lines (least recently used is always the next needed); read
// forward on one call and backward on the next, it misses only its
// excess. The classifier's 256 x 784 layer at batch 1 took 3.7 to 5.3 us
// from process to process read forward every call, and 3.8 to 4.3
// alternating (AMD EPYC Zen 5, beside onnxruntime in the benchmark).
//
// The direction is the one thing predict() carries from a call to the
// next, in a byte of the workspace the planner reserves
// (kernel.call_state_offset); a kernel's outputs are the same bits either
// way.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_SWEEP_H
#define ONNXCC_RUNTIME_SWEEP_H

namespace onnxcc {
namespace rt {

/// The order in which a kernel reads its weight.
enum class sweep : unsigned char { forward, backward };

/// Flips the direction kept at `state` (a workspace byte, of any initial
/// value) and returns this call's.
inline sweep next_sweep(unsigned char *state) {
  const unsigned char flipped = static_cast<unsigned char>((*state ^ 1u) & 1u);
  *state = flipped;
  return flipped ? sweep::backward : sweep::forward;
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_SWEEP_H
