// Start-up code for QEMU's mps2-an500 (Cortex-M7, hard float): the vector
// table, the reset handler (FPU on, .data copied, .bss zeroed, stack
// painted, SysTick started, constructors run, argv read from the host
// through semihosting), and the board_* services of board.h. Built with
// -nostartfiles and mps2_an500.ld. With ONNXCC_SEMIHOST_STDIO the program
// may use <cstdio> on host files through newlib's librdimon (the verify
// harness); without it the program uses no C library I/O and no heap.
#include "board.h"

#if defined(ONNXCC_SEMIHOST_STDIO)
#include <cstdio>
extern "C" void initialise_monitor_handles(void);
#endif

extern "C" {
// Linker-script symbols, declared as functions or words only to take their
// addresses.
void __stack_top(void);
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[], __stack_limit[];
extern void (*__preinit_array_start[])(void), (*__preinit_array_end[])(void);
extern void (*__init_array_start[])(void), (*__init_array_end[])(void);

int main(int argc, char **argv);
[[noreturn]] void Reset_Handler(void);
void HardFault_Handler(void);
void SysTick_Handler(void);
void Default_Handler(void);
// newlib's __libc_init_array calls these; crti.o is not linked.
void _init(void) {}
void _fini(void) {}
}

using Handler = void (*)(void);
__attribute__((section(".vectors"), used)) const Handler vectors[16] = {
    __stack_top,     Reset_Handler,   Default_Handler, HardFault_Handler,
    Default_Handler, Default_Handler, Default_Handler, nullptr,
    nullptr,         nullptr,         nullptr,         Default_Handler,
    Default_Handler, nullptr,         Default_Handler, SysTick_Handler};

namespace {
constexpr uint32_t kStackPaint = 0xA5A5A5A5u;
volatile uint32_t systickWraps = 0;

volatile uint32_t &reg(uintptr_t address) {
  return *reinterpret_cast<volatile uint32_t *>(address);
}

/// ARM semihosting call: operation in r0, argument block in r1.
int semihost(int operation, const void *argument) {
  register int r0 asm("r0") = operation;
  register const void *r1 asm("r1") = argument;
  asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

constexpr int kSysWrite0 = 0x04, kSysGetCmdline = 0x15, kSysExitExtended = 0x20;

/// Splits the host's command line (SYS_GET_CMDLINE) into argv. Arguments
/// hold no spaces: they are paths that `onnxcc verify` made.
int readArguments(char **argv, int maxArgs) {
  static char line[1024];
  struct {
    char *buffer;
    int length;
  } block = {line, sizeof line - 1};
  if (semihost(kSysGetCmdline, &block) != 0)
    return 0;
  line[block.length] = 0;
  int argc = 0;
  for (char *p = line; *p && argc < maxArgs;) {
    while (*p == ' ')
      *p++ = 0;
    if (!*p)
      break;
    argv[argc++] = p;
    while (*p && *p != ' ')
      ++p;
  }
  argv[argc] = nullptr;
  return argc;
}
} // namespace

extern "C" [[noreturn]] void Reset_Handler(void) {
  // Full access to the FPU (CP10, CP11) before any floating-point code.
  reg(0xE000ED88) |= 0xFu << 20;
  asm volatile("dsb\n\tisb" ::: "memory");
  for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;)
    *dst++ = *src++;
  for (uint32_t *dst = __bss_start; dst < __bss_end;)
    *dst++ = 0;
  // Paint the stack below this frame so board_stack_used() can find the
  // deepest word ever written.
  uint32_t *sp;
  asm volatile("mov %0, sp" : "=r"(sp));
  for (volatile uint32_t *p = __stack_limit; p < sp - 16;)
    *p++ = kStackPaint;
  // SysTick on the processor clock, interrupting on every wrap of 2^24.
  reg(0xE000E014) = 0xFFFFFFu;
  reg(0xE000E018) = 0;
  reg(0xE000E010) = 7;
#if defined(ONNXCC_SEMIHOST_STDIO)
  initialise_monitor_handles();
#endif
  for (auto **f = __preinit_array_start; f < __preinit_array_end; ++f)
    (*f)();
  for (auto **f = __init_array_start; f < __init_array_end; ++f)
    (*f)();
  static char *argv[32];
  int argc = readArguments(argv, 31);
  int status = main(argc, argv);
#if defined(ONNXCC_SEMIHOST_STDIO)
  std::fflush(nullptr);
#endif
  board_exit(status);
}

extern "C" void SysTick_Handler(void) { systickWraps = systickWraps + 1; }

extern "C" void HardFault_Handler(void) {
  board_puts("onnxcc cortex-m: HardFault\n");
  board_exit(70);
}

extern "C" void Default_Handler(void) {
  board_puts("onnxcc cortex-m: unexpected exception\n");
  board_exit(71);
}

extern "C" void board_puts(const char *text) { semihost(kSysWrite0, text); }

extern "C" void board_put_hex(uint32_t value) {
  char text[9];
  for (int i = 7; i >= 0; --i, value >>= 4)
    text[i] = "0123456789abcdef"[value & 15];
  text[8] = 0;
  board_puts(text);
}

extern "C" void board_put_dec(uint64_t value) {
  char text[21];
  int at = 20;
  text[at] = 0;
  do {
    text[--at] = char('0' + value % 10);
    value /= 10;
  } while (value);
  board_puts(text + at);
}

extern "C" void board_exit(int status) {
  // SYS_EXIT_EXTENDED: QEMU exits with `status` for ADP_Stopped_ApplicationExit.
  const uint32_t block[2] = {0x20026u, static_cast<uint32_t>(status)};
  for (;;)
    semihost(kSysExitExtended, block);
}

extern "C" uint64_t board_ticks(void) {
  uint32_t wraps, count;
  do {
    wraps = systickWraps;
    count = reg(0xE000E018);
  } while (wraps != systickWraps);
  return (uint64_t(wraps) << 24) + (0xFFFFFFu - count);
}

extern "C" std::size_t board_stack_used(void) {
  const uint32_t *p = __stack_limit;
  while (p < reinterpret_cast<const uint32_t *>(__stack_top) && *p == kStackPaint)
    ++p;
  return reinterpret_cast<uintptr_t>(__stack_top) - reinterpret_cast<uintptr_t>(p);
}
