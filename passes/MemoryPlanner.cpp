//===- MemoryPlanner.cpp - static arena planning --------------------------===//
#include "passes/MemoryPlanner.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <set>

namespace onnxcc {

namespace {
/// Placed buffers indexed by lifetime: a segment tree over program points
/// in which each buffer is stored in the O(log T) nodes that exactly cover
/// its lifetime. A query visits only nodes that intersect its range and
/// hold something below them, so placing a buffer costs about the number
/// of placed buffers live with it, not the number placed so far (which
/// made planning quadratic on long graphs).
class LifetimeIndex {
public:
  LifetimeIndex(int64_t points, size_t buffers) : seen(buffers, 0) {
    while (leaves < points)
      leaves *= 2;
    cover.resize(2 * leaves);
    stored.assign(2 * leaves, 0);
  }

  void insert(int64_t first, int64_t last, size_t id) {
    insert(1, 0, leaves - 1, first, last, id);
  }

  /// Calls `fn(id)` once for each inserted buffer live at some point of
  /// [first, last].
  template <typename Fn> void forEachOverlapping(int64_t first, int64_t last,
                                                 Fn fn) {
    ++stamp;
    query(1, 0, leaves - 1, first, last, fn);
  }

private:
  void insert(size_t node, int64_t lo, int64_t hi, int64_t first,
              int64_t last, size_t id) {
    if (last < lo || hi < first)
      return;
    ++stored[node];
    if (first <= lo && hi <= last) {
      cover[node].push_back(id);
      return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    insert(2 * node, lo, mid, first, last, id);
    insert(2 * node + 1, mid + 1, hi, first, last, id);
  }

  template <typename Fn>
  void query(size_t node, int64_t lo, int64_t hi, int64_t first, int64_t last,
             Fn &fn) {
    if (last < lo || hi < first || !stored[node])
      return;
    for (size_t id : cover[node])
      if (seen[id] != stamp) {
        seen[id] = stamp;
        fn(id);
      }
    if (lo == hi)
      return;
    int64_t mid = lo + (hi - lo) / 2;
    query(2 * node, lo, mid, first, last, fn);
    query(2 * node + 1, mid + 1, hi, first, last, fn);
  }

  int64_t leaves = 1;
  std::vector<std::vector<size_t>> cover; ///< buffers covering each node
  std::vector<int64_t> stored;            ///< buffers stored in each subtree
  std::vector<uint64_t> seen;             ///< last query that reported a buffer
  uint64_t stamp = 0;
};
} // namespace

MemoryPlan planMemory(const std::vector<BufferRequest> &requests,
                      int64_t alignment) {
  MemoryPlan plan;
  plan.offsets.assign(requests.size(), 0);
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return requests[a].size > requests[b].size;
  });
  int64_t points = 1;
  for (const BufferRequest &r : requests)
    points = std::max(points, r.lastUse + 1);
  LifetimeIndex placed(points, requests.size());
  std::vector<std::pair<int64_t, int64_t>> busy;
  for (size_t i : order) {
    const BufferRequest &r = requests[i];
    int64_t size = alignedSize(r, alignment);
    // Busy byte ranges of buffers live at the same time, by start offset.
    busy.clear();
    placed.forEachOverlapping(r.firstUse, r.lastUse, [&](size_t j) {
      busy.push_back({plan.offsets[j],
                      plan.offsets[j] + alignedSize(requests[j], alignment)});
    });
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
    placed.insert(r.firstUse, r.lastUse, i);
  }
  return plan;
}

/// The most aligned bytes live at one program point, and the first point
/// where it is reached: a sweep over lifetime starts and ends.
static std::pair<int64_t, int64_t>
peakLive(const std::vector<BufferRequest> &requests, int64_t alignment) {
  std::map<int64_t, int64_t> delta;
  for (const BufferRequest &r : requests) {
    int64_t size = alignedSize(r, alignment);
    delta[r.firstUse] += size;
    delta[r.lastUse + 1] -= size;
  }
  int64_t live = 0, peak = 0, at = 0;
  for (auto [t, d] : delta) {
    live += d;
    if (live > peak) {
      peak = live;
      at = t;
    }
  }
  return {peak, at};
}

int64_t peakLiveBytes(const std::vector<BufferRequest> &requests,
                      int64_t alignment) {
  return peakLive(requests, alignment).first;
}

int64_t peakLivePosition(const std::vector<BufferRequest> &requests,
                         int64_t alignment) {
  return peakLive(requests, alignment).second;
}

int64_t largestLivePairBytes(const std::vector<BufferRequest> &requests,
                             int64_t alignment) {
  // Sweep by start: a buffer overlaps exactly the buffers still live when it
  // starts among those that started before it, so pairing each with the
  // largest of those finds the best pair in O(n log n).
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return requests[a].firstUse < requests[b].firstUse;
  });
  std::multiset<int64_t> liveSizes;
  using End = std::pair<int64_t, int64_t>; // lastUse, size
  std::priority_queue<End, std::vector<End>, std::greater<End>> ends;
  int64_t best = 0;
  for (size_t i : order) {
    const BufferRequest &r = requests[i];
    while (!ends.empty() && ends.top().first < r.firstUse) {
      liveSizes.erase(liveSizes.find(ends.top().second));
      ends.pop();
    }
    int64_t size = alignedSize(r, alignment);
    best = std::max(best, size + (liveSizes.empty() ? 0 : *liveSizes.rbegin()));
    liveSizes.insert(size);
    ends.push({r.lastUse, size});
  }
  return best;
}

} // namespace onnxcc
