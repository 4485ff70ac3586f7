//===- MemoryPlanner.h - static arena planning ------------------*- C++ -*-===//
//
// Greedy-by-size offset assignment (TFLite's arena planner; Pisarchyk & Lee,
// "Efficient Memory Management for Deep Neural Net Inference", 2020):
// buffers are placed largest first, each at the lowest aligned offset that
// does not overlap a placed buffer whose lifetime intersects its own. It is
// a heuristic: optimal on chains and most CNNs, not on every interval set.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_PASSES_MEMORYPLANNER_H
#define ONNXCC_PASSES_MEMORYPLANNER_H

#include <cstdint>
#include <vector>

namespace onnxcc {

/// One buffer: its size in bytes and the inclusive range of program points
/// (op indices) over which it must hold its value.
struct BufferRequest {
  int64_t size;
  int64_t firstUse;
  int64_t lastUse;
};

struct MemoryPlan {
  std::vector<int64_t> offsets; ///< one per request, multiples of alignment
  int64_t arenaBytes = 0;
};

/// Plans `requests` into one arena. Deterministic: ties are broken by index.
MemoryPlan planMemory(const std::vector<BufferRequest> &requests,
                      int64_t alignment);

/// The lower bound no plan can beat: the largest total size live at once.
int64_t peakLiveBytes(const std::vector<BufferRequest> &requests,
                      int64_t alignment);

/// The first program point at which peakLiveBytes() is reached (0 when
/// there are no requests).
int64_t peakLivePosition(const std::vector<BufferRequest> &requests,
                         int64_t alignment);

/// The largest sum of two buffers live at the same time (a reference point
/// for reports: a plan needs at least this much).
int64_t largestLivePairBytes(const std::vector<BufferRequest> &requests,
                             int64_t alignment);

inline int64_t alignTo(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/// The bytes a request occupies in the arena: its size rounded up to the
/// alignment, at least one unit so that every buffer has its own address.
inline int64_t alignedSize(const BufferRequest &r, int64_t alignment) {
  return alignTo(r.size > 0 ? r.size : 1, alignment);
}

} // namespace onnxcc

#endif // ONNXCC_PASSES_MEMORYPLANNER_H
