// The board.h services for wasm32-wasip1 under node: stdout through WASI,
// nanoseconds from the monotonic clock. WebAssembly's stack is not
// addressable from C++, so its high-water mark is not measured (0).
#include "board.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <ctime>

extern "C" void board_puts(const char *text) { std::fputs(text, stdout); }

extern "C" void board_put_hex(uint32_t value) {
  std::printf("%08" PRIx32, value);
}

extern "C" void board_put_dec(uint64_t value) {
  std::printf("%" PRIu64, value);
}

extern "C" void board_exit(int status) {
  std::fflush(stdout);
  std::exit(status);
}

extern "C" uint64_t board_ticks(void) {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}

extern "C" std::size_t board_stack_used(void) { return 0; }

