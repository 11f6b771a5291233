/* rand_wi_tmpl.h — the one body of Rust rand's WeightedIndex::new and
 * UniformFloat::new (src/distributions/weighted_index.rs, uniform.rs of rand
 * 0.8.5; distr/weighted/weighted_index.rs, distr/uniform_float.rs of 0.9 and
 * 0.10.3), written once over the float type and included by rand_wi.c once for
 * f32 and once for f64. Not a header of the layer: only rand_wi.c includes it,
 * after defining
 *   RW_FN(name)   the instance's name for name
 *   RW_T          float or double
 *   RW_BITS       its unsigned integer of the same width
 *   RW_MAX_RAND   the bits of 1 - EPSILON (rand's max_rand: 1 - 2^-23, 1 - 2^-52)
 * which it undefines at its end. */

static RW_T RW_FN(from_bits)(RW_BITS u)
{
    RW_T f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static RW_BITS RW_FN(to_bits)(RW_T f)
{
    RW_BITS u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* UniformFloat<T>::new(low, high): scale = high - low, shrunk one ulp at a time
 * while the largest sample reaches high (0.8: >=; 0.9+, new_bounded: > only). */
static sl_draw_rand_status RW_FN(uniform_new)(RW_T low, RW_T high, int version, RW_T *scale)
{
    /* assert!(low < high) (0.9+: Err(EmptyRange)); then the range must be finite */
    if (!(low < high))
        return SL_RAND_PANIC_RANGE;
    RW_T s = high - low;
    if (!isfinite(s))
        return SL_RAND_PANIC_RANGE;
    const RW_T max_rand = RW_FN(from_bits)(RW_MAX_RAND);
    if (version >= 9) {
        while (!(s * max_rand + low <= high))
            s = RW_FN(from_bits)(RW_FN(to_bits)(s) - 1u);
    } else {
        while (s * max_rand + low >= high)
            s = RW_FN(from_bits)(RW_FN(to_bits)(s) - 1u);
    }
    *scale = s;
    return SL_RAND_OK;
}

/* WeightedIndex<T>::new(w[0..n]): the first weight must be >= 0, each later one
 * too (its running total stored before it is added), a zero total is an error,
 * then the uniform over [0, total). *cum gets the n - 1 stored sums (malloc'd);
 * on an error nothing stays allocated and *bad (if given) is the entry. */
static sl_draw_rand_status RW_FN(wi_new)(RW_T **cum_out, RW_T *total_out, RW_T *scale_out, const RW_T *w, size_t n,
                                         int version, size_t *bad)
{
    *cum_out = NULL;
    if (bad)
        *bad = n;
    if (n == 0)
        return SL_RAND_NO_ITEM;
    RW_T total = w[0];
    if (!(total >= 0)) {
        if (bad)
            *bad = 0;
        return SL_RAND_INVALID_WEIGHT;
    }
    RW_T *cum = malloc((n > 1 ? n - 1 : 1) * sizeof *cum);
    if (!cum)
        return SL_RAND_NOMEM;
    for (size_t i = 1; i < n; i++) {
        if (!(w[i] >= 0)) { /* negative, NaN, -inf */
            free(cum);
            if (bad)
                *bad = i;
            return SL_RAND_INVALID_WEIGHT;
        }
        cum[i - 1] = total;
        total += w[i];
    }
    if (total == 0) {
        free(cum);
        return SL_RAND_ALL_WEIGHTS_ZERO;
    }
    RW_T scale;
    sl_draw_rand_status st = RW_FN(uniform_new)(0, total, version, &scale);
    if (st) {
        free(cum);
        return st;
    }
    *cum_out = cum;
    *total_out = total;
    *scale_out = scale;
    return SL_RAND_OK;
}

#undef RW_FN
#undef RW_T
#undef RW_BITS
#undef RW_MAX_RAND
