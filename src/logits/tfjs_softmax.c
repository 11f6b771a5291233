/* tfjs_softmax.c — tf.softmax over the last axis as TensorFlow.js 4.22.0's CPU
 * backend computes it (tfjs-backend-cpu kernels/Softmax.js): one kernel after
 * another, each result a Float32Array: max (Max_impl.js: NaN if any entry is
 * NaN), x - max, Math.exp (V8's fdlibm exp, sl_base_exp), the sum (Sum.js: a
 * double accumulator, left to right, stored to float32), then e / sum. A float32
 * quotient through double rounds once (53 >= 2 * 24 + 2), as float32 division.
 * tf.multinomial with normalized = false draws from it (kernels/Multinomial.js). */
#include <math.h>

#include "logits/sl_logits.h"

void sl_logits_tfjs_softmax(const float *x, size_t V, float *out)
{
    float mx = V ? x[0] : 0.0f;
    for (size_t i = 0; i < V; i++)
        if (isnan(x[i]) || x[i] > mx)
            mx = x[i];
    double sum = 0;
    for (size_t i = 0; i < V; i++) {
        float a = x[i] - mx; /* the Sub kernel's float32 */
        out[i] = (float)sl_base_exp((double)a);
        sum += (double)out[i];
    }
    float s = (float)sum;
    for (size_t i = 0; i < V; i++)
        out[i] = (float)((double)out[i] / (double)s);
}
