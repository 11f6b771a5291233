/* go_pcg.c — the "go-pcg" random source: Go's math/rand/v2 PCG
 * (src/math/rand/v2/pcg.go, read in Go 1.27.3; the same since Go 1.22), as
 * Ollama's Go sampler seeds it (sample/samplers.go NewSampler, v0.6.0 to
 * v0.25.0-rc0): rand.New(rand.NewPCG(uint64(seed), uint64(seed) ^ 0x9E3779B9)).
 * The 128-bit LCG is pcg64's (rng/pcg64.c: same multiplier) with Go's fixed
 * increment; Uint64 steps first and returns DXSM of the new state:
 * hi ^= hi >> 32; hi *= 0xda942042e4dd58b5; hi ^= hi >> 48; hi *= lo | 1.
 * NewPCG stores seed1:seed2 as the state as given (no warm-up step).
 * Reference values: tests/test_rng_go_pcg.c against Go's own outputs
 * (data/golden/current/ollama_pcg.tsv, analysis/golden/current/ollama_golden.sh). */
#include "rng/sl_rng.h"

#define GO_PCG_INC_HI 0x5851f42d4c957f2dull /* incHi = 6364136223846793005 */
#define GO_PCG_INC_LO 0x14057b7ef767814full /* incLo = 1442695040888963407 */

/* Ollama's "golden ratio hash" of the seed into PCG's second word. */
#define OLLAMA_SEED_XOR 0x9E3779B9ull

void sl_rng_go_pcg_seed(sl_rng_pcg64_state *s, uint64_t seed1, uint64_t seed2)
{
    s->state_hi = seed1;
    s->state_lo = seed2;
    s->inc_hi = GO_PCG_INC_HI;
    s->inc_lo = GO_PCG_INC_LO;
}

uint64_t sl_rng_go_pcg_next(sl_rng_pcg64_state *s)
{
    sl_rng_pcg64_step(s);
    uint64_t hi = s->state_hi;
    hi ^= hi >> 32;
    hi *= 0xda942042e4dd58b5ull;
    hi ^= hi >> 48;
    return hi * (s->state_lo | 1u);
}

static int go_pcg_type_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "go-pcg: the seed is a uint64 (rand.NewPCG): give one below 2^64");
    sl_rng_go_pcg_seed(state, seed->lo, seed->has_stream ? seed->stream : seed->lo ^ OLLAMA_SEED_XOR);
    return SL_OK;
}

static uint64_t go_pcg_type_next(void *state)
{
    return sl_rng_go_pcg_next(state);
}

static void go_pcg_type_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    sl_rng_pcg64_advance(state, delta_lo, delta_hi);
}

const sl_rng_type sl_rng_go_pcg_type = {
    .name = "go-pcg",
    .word_bits = 64,
    .state_size = sizeof(sl_rng_pcg64_state),
    .seed = go_pcg_type_seed,
    .next = go_pcg_type_next,
    .advance = go_pcg_type_advance,
};
