//===- MemoryPlannerTest.cpp - greedy-by-size arena planning --------------===//
#include "passes/MemoryPlanner.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <random>

using namespace onnxcc;

namespace {

/// No two buffers that are live at the same time may share a byte.
void expectNoLiveOverlap(const std::vector<BufferRequest> &reqs,
                         const MemoryPlan &plan, int64_t align) {
  for (size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(plan.offsets[i] % align, 0) << "buffer " << i;
    EXPECT_LE(plan.offsets[i] + reqs[i].size, plan.arenaBytes) << "buffer " << i;
    for (size_t j = i + 1; j < reqs.size(); ++j) {
      bool liveTogether = reqs[i].firstUse <= reqs[j].lastUse &&
                          reqs[j].firstUse <= reqs[i].lastUse;
      bool bytesOverlap = plan.offsets[i] < plan.offsets[j] + reqs[j].size &&
                          plan.offsets[j] < plan.offsets[i] + reqs[i].size;
      EXPECT_FALSE(liveTogether && bytesOverlap)
          << "buffers " << i << " [" << plan.offsets[i] << ", +" << reqs[i].size
          << ") and " << j << " [" << plan.offsets[j] << ", +" << reqs[j].size
          << ") are live together and overlap";
    }
  }
}

TEST(MemoryPlanner, ChainNeedsOnlyTwoBuffers) {
  // a -> b -> c -> d: each value dies when the next is made.
  std::vector<BufferRequest> reqs = {
      {1024, 0, 1}, {512, 1, 2}, {1024, 2, 3}, {256, 3, 4}};
  MemoryPlan plan = planMemory(reqs, 64);
  expectNoLiveOverlap(reqs, plan, 64);
  EXPECT_EQ(plan.arenaBytes, 1536); // the largest live pair
  EXPECT_EQ(largestLivePairBytes(reqs, 64), 1536);
  EXPECT_EQ(plan.arenaBytes, peakLiveBytes(reqs, 64));
}

TEST(MemoryPlanner, ResidualBlockKeepsSkipAlive) {
  // x (live across the block), conv1, conv2, add(x, conv2).
  std::vector<BufferRequest> reqs = {
      {4096, 0, 3}, {4096, 1, 2}, {4096, 2, 3}, {4096, 3, 4}};
  MemoryPlan plan = planMemory(reqs, 64);
  expectNoLiveOverlap(reqs, plan, 64);
  EXPECT_EQ(plan.arenaBytes, 3 * 4096);
  EXPECT_EQ(plan.arenaBytes, peakLiveBytes(reqs, 64));
}

TEST(MemoryPlanner, DisjointLifetimesShareOffsetZero) {
  std::vector<BufferRequest> reqs = {{100, 0, 0}, {200, 1, 1}, {300, 2, 2}};
  MemoryPlan plan = planMemory(reqs, 64);
  for (int64_t off : plan.offsets)
    EXPECT_EQ(off, 0);
  EXPECT_EQ(plan.arenaBytes, 320); // 300 rounded up to the alignment
}

TEST(MemoryPlanner, RoundsSizesToAlignment) {
  std::vector<BufferRequest> reqs = {{1, 0, 1}, {1, 0, 1}, {1, 0, 1}};
  MemoryPlan plan = planMemory(reqs, 64);
  expectNoLiveOverlap(reqs, plan, 64);
  EXPECT_EQ(plan.arenaBytes, 192);
}

TEST(MemoryPlanner, RandomGraphsNeverAliasLiveBuffers) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 200; ++round) {
    std::vector<BufferRequest> reqs;
    int n = 1 + rng() % 40;
    for (int i = 0; i < n; ++i) {
      int64_t first = rng() % 30;
      reqs.push_back({1 + int64_t(rng() % 5000), first, first + int64_t(rng() % 8)});
    }
    MemoryPlan plan = planMemory(reqs, 64);
    expectNoLiveOverlap(reqs, plan, 64);
    int64_t sum = 0;
    for (auto &r : reqs)
      sum += alignTo(r.size, 64);
    EXPECT_GE(plan.arenaBytes, peakLiveBytes(reqs, 64)); // lower bound holds
    EXPECT_LE(plan.arenaBytes, sum);                     // never worse than no reuse
  }
}

/// The greedy-by-size rule written the obvious quadratic way: every placed
/// buffer is checked for a lifetime overlap. The planner's lifetime index
/// must find exactly the same placements.
MemoryPlan referencePlan(const std::vector<BufferRequest> &reqs, int64_t align) {
  MemoryPlan plan;
  plan.offsets.assign(reqs.size(), 0);
  std::vector<size_t> order(reqs.size()), placed;
  for (size_t i = 0; i < reqs.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return reqs[a].size > reqs[b].size; });
  for (size_t i : order) {
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (size_t j : placed)
      if (reqs[i].firstUse <= reqs[j].lastUse && reqs[j].firstUse <= reqs[i].lastUse)
        busy.push_back({plan.offsets[j], plan.offsets[j] + alignedSize(reqs[j], align)});
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0, size = alignedSize(reqs[i], align);
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

int64_t referencePair(const std::vector<BufferRequest> &reqs, int64_t align) {
  int64_t best = 0;
  for (size_t i = 0; i < reqs.size(); ++i) {
    best = std::max(best, alignedSize(reqs[i], align));
    for (size_t j = i + 1; j < reqs.size(); ++j)
      if (reqs[i].firstUse <= reqs[j].lastUse && reqs[j].firstUse <= reqs[i].lastUse)
        best = std::max(best, alignedSize(reqs[i], align) + alignedSize(reqs[j], align));
  }
  return best;
}

TEST(MemoryPlanner, LifetimeIndexMatchesQuadraticReference) {
  std::mt19937 rng(99);
  for (int round = 0; round < 300; ++round) {
    std::vector<BufferRequest> reqs;
    int n = 1 + rng() % 60;
    int64_t span = 1 + rng() % 50;
    for (int i = 0; i < n; ++i) {
      int64_t first = rng() % span;
      // Mostly short lifetimes, some spanning most of the program.
      int64_t len = rng() % 4 == 0 ? int64_t(rng() % span) : int64_t(rng() % 3);
      reqs.push_back({int64_t(rng() % 4096), first, first + len});
    }
    MemoryPlan got = planMemory(reqs, 64), want = referencePlan(reqs, 64);
    EXPECT_EQ(got.offsets, want.offsets) << "round " << round;
    EXPECT_EQ(got.arenaBytes, want.arenaBytes) << "round " << round;
    EXPECT_EQ(largestLivePairBytes(reqs, 64), referencePair(reqs, 64))
        << "round " << round;
  }
}

TEST(MemoryPlanner, LongChainPlansInTwoBuffers) {
  // 200,000 buffers, each live for two program points: the shape of a long
  // Softmax chain. Quadratic planning took seconds here; the plan is two
  // buffers wide.
  std::vector<BufferRequest> reqs;
  for (int64_t i = 0; i < 200000; ++i)
    reqs.push_back({1024, i, i + 1});
  MemoryPlan plan = planMemory(reqs, 64);
  EXPECT_EQ(plan.arenaBytes, 2048);
  EXPECT_EQ(largestLivePairBytes(reqs, 64), 2048);
}

TEST(MemoryPlanner, IsDeterministic) {
  std::vector<BufferRequest> reqs = {{64, 0, 2}, {64, 1, 3}, {64, 0, 3}, {64, 2, 4}};
  MemoryPlan a = planMemory(reqs, 64), b = planMemory(reqs, 64);
  EXPECT_EQ(a.offsets, b.offsets);
}

} // namespace
