/* softmax.c — numerically stable softmax of x/T in double (the tutorial's
 * Softmax in 003_1857ebf1d0eff5ab.txt, with temperature): subtract the
 * maximum before exp so logits of 1000 do not overflow; -inf logits give 0. */
#include <math.h>

#include "logits/sl_logits.h"

int sl_logits_softmax(const double *x, size_t n, double temperature, double *out, sl_error *err)
{
    if (n == 0)
        return sl_base_error_set(err, SL_EINVAL, "softmax of an empty vector");
    if (!(temperature > 0) || isinf(temperature))
        return sl_base_error_set(err, SL_EINVAL,
                            "temperature %g is not a positive finite number (for temperature 0 use --method greedy)",
                            temperature);
    double mx = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            return sl_base_error_set(err, SL_EINVAL, "logit %zu is NaN", i);
        if (x[i] == INFINITY)
            return sl_base_error_set(err, SL_EINVAL, "logit %zu is +infinite", i);
        if (x[i] > mx)
            mx = x[i];
    }
    if (mx == -INFINITY)
        return sl_base_error_set(err, SL_EINVAL, "all %zu logits are -infinite", n);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = exp((x[i] - mx) / temperature);
        sum += out[i];
    }
    for (size_t i = 0; i < n; i++)
        out[i] /= sum;
    return SL_OK;
}
