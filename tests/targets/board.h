// What a target-report program needs from its board (cortex-m/startup.cpp,
// wasm/board.cpp): output, exit, a clock and the stack's high-water mark.
#ifndef ONNXCC_TESTS_TARGETS_BOARD_H
#define ONNXCC_TESTS_TARGETS_BOARD_H

#include <cstddef>
#include <cstdint>

extern "C" {
/// Writes a NUL-terminated string to the host's stdout.
void board_puts(const char *text);
/// Writes `value` as 8 hex digits.
void board_put_hex(uint32_t value);
/// Writes `value` in decimal.
void board_put_dec(uint64_t value);
/// Ends the emulation with `status` as QEMU's exit code.
[[noreturn]] void board_exit(int status);
/// A monotonic clock: SysTick ticks of the processor clock on Cortex-M,
/// nanoseconds on WebAssembly.
uint64_t board_ticks(void);
/// Bytes of the stack touched since reset (painted at reset, scanned now).
std::size_t board_stack_used(void);
}

#endif
