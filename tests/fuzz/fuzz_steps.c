/* fuzz_steps.c — libFuzzer target for the per-step logits readers (see
 * targets.h); built and run by `make fuzz` (clang -fsanitize=fuzzer,address,undefined). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return sl_fuzz_steps_one(data, size);
}
