/* fuzz_gguf.c — libFuzzer target for the GGUF tokenizer reader (see targets.h); built and
 * run by `make fuzz` (clang -fsanitize=fuzzer,address,undefined). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return sl_fuzz_gguf_one(data, size);
}
