// The C side of the fuzz targets.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// libFuzzer's driver entry (compiler-rt, linked by -sanitize=fuzzer). SwiftPM gives every executable its own
// `main`, so the fuzz targets start libFuzzer from theirs instead of using libFuzzer's.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

// Forgets the end of input stdio saw on descriptor 0, once another input is put there (`stdin` is a C global
// that Swift 6 will not touch).
static inline void fuzz_reset_standard_input(void) { clearerr(stdin); }
