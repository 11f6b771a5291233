/* fuzz_sweep_spec.c — libFuzzer target for the sweep's spec files (see
 * targets_sweep.h); built and run by `make fuzz` (clang -fsanitize=fuzzer,address,undefined). */
#include "targets_sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return sl_fuzz_sweep_spec_one(data, size);
}
