//===- MemoryPlanner.cpp - static arena planning --------------------------===//
#include "passes/MemoryPlanner.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace onnxcc {

static bool overlapInTime(const BufferRequest &a, const BufferRequest &b) {
  return a.firstUse <= b.lastUse && b.firstUse <= a.lastUse;
}

MemoryPlan planMemory(const std::vector<BufferRequest> &requests,
                      int64_t alignment) {
  MemoryPlan plan;
  plan.offsets.assign(requests.size(), 0);
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return requests[a].size > requests[b].size;
  });
  std::vector<size_t> placed;
  for (size_t i : order) {
    const BufferRequest &r = requests[i];
    int64_t size = alignedSize(r, alignment);
    // Busy byte ranges of buffers live at the same time, by start offset.
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (size_t j : placed)
      if (overlapInTime(r, requests[j]))
        busy.push_back({plan.offsets[j],
                        plan.offsets[j] + alignedSize(requests[j], alignment)});
    std::sort(busy.begin(), busy.end());
    // Lowest gap that fits (first fit over sorted ranges).
    int64_t offset = 0;
    for (auto [begin, end] : busy) {
      if (begin - offset >= size)
        break;
      offset = std::max(offset, end);
    }
    plan.offsets[i] = offset;
    plan.arenaBytes = std::max(plan.arenaBytes, offset + size);
    placed.push_back(i);
  }
  return plan;
}

int64_t peakLiveBytes(const std::vector<BufferRequest> &requests,
                      int64_t alignment) {
  std::map<int64_t, int64_t> delta;
  for (const BufferRequest &r : requests) {
    int64_t size = alignedSize(r, alignment);
    delta[r.firstUse] += size;
    delta[r.lastUse + 1] -= size;
  }
  int64_t live = 0, peak = 0;
  for (auto [t, d] : delta) {
    live += d;
    peak = std::max(peak, live);
  }
  return peak;
}

int64_t largestLivePairBytes(const std::vector<BufferRequest> &requests,
                             int64_t alignment) {
  int64_t best = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    int64_t a = alignedSize(requests[i], alignment);
    best = std::max(best, a);
    for (size_t j = i + 1; j < requests.size(); ++j)
      if (overlapInTime(requests[i], requests[j]))
        best = std::max(best, a + alignedSize(requests[j], alignment));
  }
  return best;
}

} // namespace onnxcc
