/* torch_mt19937.c — PyTorch's CPU generator (at::mt19937 in ATen/core/MT19937RNGEngine.h,
 * torch 1.13.1): MT19937 (Matsumoto & Nishimura 1998) seeded by init_genrand with the low
 * 32 bits of the 64-bit manual_seed value, so seeds equal mod 2^32 give the same stream.
 * Type "torch-mt19937": the same words as "mt19937" seeded with seed mod 2^32; it differs in
 * taking any seed in [0, 2^64) (torch keeps the whole value as initial_seed()) and in the
 * float conversions torch applies (rng/uniform.c: low24, 2x32_hifirst_low53).
 * The twist, the tempering and the block fills are rng/mt19937.c's. */
#include "rng/sl_rng.h"

int sl_rng_torch_mt19937_seed(sl_rng_mt19937_state *s, const sl_seed *seed, sl_error *err)
{
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "torch seeds are 64-bit: the seed must be below 2^64 "
                                            "(torch.manual_seed raises 'Overflow when unpacking long')");
    /* CPUGeneratorImpl::set_current_seed -> mt19937(seed) -> init_with_uint32(seed & 0xffffffff) */
    sl_rng_mt19937_init_genrand(s, (uint32_t)(seed->lo & 0xFFFFFFFFu));
    return SL_OK;
}

static int torch_mt_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL, "torch-mt19937 has no streams (torch.manual_seed takes a seed only)");
    return sl_rng_torch_mt19937_seed(state, seed, err);
}

const sl_rng_type sl_rng_torch_mt19937_type = {
    .name = "torch-mt19937",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_mt19937_state),
    .seed = torch_mt_seed,
    .next = sl_rng_mt19937_type_next,
    .fill = sl_rng_mt19937_type_fill,
    .fill32 = sl_rng_mt19937_type_fill32,
};
