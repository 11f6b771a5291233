/* sl_framework.h — framework emulations: generators and helpers of the bit-exact emulations.
 * Included by samplab.h; see there for conventions. */
#ifndef SL_FRAMEWORK_H
#define SL_FRAMEWORK_H

/* llama.cpp (framework/llamacpp.c): the chain of logits/llamacpp.c, then
 * llama_sampler_dist_apply with std::mt19937 and libstdc++'s uniform double. */
extern const sl_framework_type sl_framework_llamacpp_type;
/* std::uniform_real_distribution<double>(0, 1) over std::mt19937 as
 * libstdc++ computes it: generate_canonical<double, 53>, two 32-bit words. */
double sl_fw_llamacpp_uniform(sl_rng *r);

#endif
