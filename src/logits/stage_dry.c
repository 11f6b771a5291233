/* stage_dry.c — llama.cpp's DRY ("don't repeat yourself") stage: a token that
 * would extend a sequence already seen in the last dry_penalty_last_n
 * accepted tokens loses multiplier * base ^ (length - allowed_length) of its
 * logit, the length counted back to the newest sequence breaker.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp (0.7.0, as v0.4.0's source reads)
 * llama_sampler_init_dry (last_n clamped to >= 0; multiplier 0, base < 1 or
 * last_n 0 make it the no-op "?dry"), llama_sampler_dry_accept (a ring buffer
 * of last_n tokens), llama_sampler_dry_apply (step 1: the newest breaker limits
 * the repeat length; step 2: the reverse Z-algorithm over the window; step 3:
 * the longest repeat each next token would extend; step 4: the penalty, its
 * exponent clamped at 88.7228391 / log(base) when base > 1.000001) with
 * common/common.h's defaults: multiplier 0, base 1.75, allowed length 2,
 * last_n 64. Step 1 reads the restart sequences as sl_logits_dry_restarts
 * resolves them: a breaker alone, or a head token and the tails that must
 * follow it (the longest that matches wins). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct dry {
    float multiplier, base;
    long allowed, last_n;
    const unsigned char *breaker; /* V SL_LOGITS_DRY_* flags (cfg's, outlives the chain), or NULL */
    size_t breaker_n;
    const sl_logits_dry_tails *tails; /* the heads' tails (in cfg's block), or NULL */
    sl_logits_window w;           /* the last last_n accepted tokens */
    int *rep;                     /* dry_repeat_count: w.n entries (grows with it) */
    size_t rep_n;
    int *best;                    /* dry_max_token_repeat by token id, -1 none; grows */
    size_t best_n;
    long *touched;                /* the ids best[] holds this step (at most the window's size) */
    size_t touched_n;
} dry;

const char *const sl_logits_dry_default_breakers[] = {"\n", ":", "\"", "*", NULL};

static const sl_logits_param dry_params[] = {
    {"dry_multiplier", SL_LOGITS_PARAM_FLOAT, 0.0, -HUGE_VAL, HUGE_VAL, "dry_multiplier",
     "DRY penalty multiplier (0: off)"},
    {"dry_base", SL_LOGITS_PARAM_FLOAT, 1.75, 1.0, HUGE_VAL, "dry_base",
     "DRY penalty base: multiplier * base ^ (repeat length - allowed length)"},
    {"dry_allowed_length", SL_LOGITS_PARAM_INT, 2, -2147483648.0, 2147483647.0, "dry_allowed_length",
     "repeats up to this length are not penalised"},
    {"dry_penalty_last_n", SL_LOGITS_PARAM_INT, 64, 0, 2147483647.0, "dry_penalty_last_n",
     "how many of the last accepted tokens DRY scans (0: off)"},
};

static int dry_on(const dry *d)
{
    return d->multiplier != 0.0f && d->base >= 1.0f && d->last_n != 0;
}

/* Reads the settings in force (sl_logits_cfg_resolve has put common_params_sampling's defaults in). */
static int dry_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    dry *d = st;
    memset(d, 0, sizeof *d);
    if (!(fabs(c->dry_mult) <= FLT_MAX))
        return sl_base_error_set(err, SL_EINVAL, "--dry-multiplier %g is outside float: llama.cpp's std::stof "
                                 "refuses it", c->dry_mult);
    if (!(c->dry_base <= FLT_MAX))
        return sl_base_error_set(err, SL_EINVAL, "--dry-base %g is outside float: llama.cpp's std::stof refuses it",
                                 c->dry_base);
    d->multiplier = (float)c->dry_mult;
    d->base = (float)c->dry_base;
    d->allowed = c->dry_allowed;
    d->last_n = c->dry_last_n;
    if (d->base < 1.0f)
        /* common/arg.cpp's --dry-base and llama-server keep the default 1.75 for a base < 1 (v0.4.0's
         * source); the C API's llama_sampler_init_dry runs the no-op ?dry */
        return sl_base_error_set(err, SL_EINVAL,
                                 "--dry-base %g is below 1: llama.cpp's --dry-base and llama-server ignore it (and "
                                 "keep 1.75), libllama's llama_sampler_init_dry turns DRY off; give a base >= 1",
                                 c->dry_base);
    if (d->allowed < -2147483647L - 1 || d->allowed > 2147483647L)
        return sl_base_error_set(err, SL_EINVAL, "--dry-allowed-length %ld is outside int32_t", d->allowed);
    if (d->last_n < 0)
        /* measured: llama-completion 0.7.0 stops at 'invalid dry-penalty-last-n = -1'; v0.4.0's llama-server
         * takes 0 .. INT32_MAX only; libllama 0.7.0's llama_sampler_init_dry clamps it to 0 (llamacpp_dry.txt) */
        return sl_base_error_set(err, SL_EINVAL,
                                 "--dry-penalty-last-n %ld is negative: llama.cpp's --dry-penalty-last-n and "
                                 "llama-server refuse it (libllama's llama_sampler_init_dry clamps it to 0, DRY "
                                 "off); give the number of tokens to scan, or 0",
                                 d->last_n);
    if (d->last_n > 2147483647L)
        return sl_base_error_set(err, SL_EINVAL, "--dry-penalty-last-n %ld is outside int32_t", d->last_n);
    if (!dry_on(d))
        return SL_OK;
    if (!c->has_dry_breakers)
        return sl_base_error_set(err, SL_EINVAL,
                                 "dry: on (--dry-multiplier %g), its sequence breakers are matched against the vocabulary's token "
                                 "texts: give --vocab FILE.gguf, or --dry-sequence-breaker none", c->dry_mult);
    d->breaker = c->dry_breaker;
    d->breaker_n = c->dry_breaker ? c->dry_breaker_n : 0;
    d->tails = c->dry_breaker ? c->dry_tails : NULL;
    return SL_OK;
}

static int dry_uses_history(const void *st)
{
    return dry_on(st);
}

static int dry_active(const void *st)
{
    const dry *d = st;
    return dry_on(d) && (long)d->w.n > d->allowed;
}

static const char *dry_step(const void *st)
{
    (void)st;
    return "dry";
}

/* ring_buffer::rat(i): the i-th newest token (0: the newest). */
static long rat(const dry *d, size_t i)
{
    return d->w.buf[d->w.start + d->w.n - 1 - i];
}

static int flags_of(const dry *d, long t)
{
    return t >= 0 && (size_t)t < d->breaker_n ? d->breaker[t] : 0;
}

/* Step 1 at the token i back: the longest restart sequence it heads that the newer tokens complete
 * (0: a breaker alone), or -1. */
static int restart_len(const dry *d, long t, int i)
{
    int f = flags_of(d, t), longest = f & SL_LOGITS_DRY_SINGLE ? 0 : -1;
    if (!(f & SL_LOGITS_DRY_HEAD) || !d->tails)
        return longest;
    const sl_logits_dry_tails *T = d->tails;
    size_t lo = 0, hi = T->n; /* the first pair of head t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (T->head[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < T->n && T->head[k] == t; k++) {
        int len = (int)(T->off[k + 1] - T->off[k]);
        if (len <= longest || len > i)
            continue;
        int match = 1;
        for (int o = 0; o < len && match; o++)
            match = T->tok[T->off[k] + (size_t)o] == rat(d, (size_t)(i - o - 1));
        if (match)
            longest = len;
    }
    return longest;
}

static int dry_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    dry *d = st;
    int n = (int)d->w.n; /* min(size, last_n): the window never holds more */
    if (n <= d->allowed)
        return SL_OK;
    if ((size_t)n > d->rep_n) {
        int *r = realloc(d->rep, (size_t)n * sizeof *r);
        if (!r)
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: dry: out of memory for %d tokens", n);
        d->rep = r;
        d->rep_n = (size_t)n;
    }
    /* step 1: the newest restart sequence, its head i tokens back and len tokens long, limits a repeat
     * to i - len tokens */
    int limit = n;
    for (int i = 0; i < n; i++) {
        int len = restart_len(d, rat(d, (size_t)i), i);
        if (len >= 0) {
            limit = i - len;
            break;
        }
    }
    if (limit < d->allowed)
        return SL_OK;
    /* step 2: rep[last - k] = the length of the longest suffix that also ends k tokens back */
    int last = n - 1, lt = 0, rt = 0;
    memset(d->rep, 0, (size_t)n * sizeof *d->rep);
    for (int k = 1; k < n; k++) {
        if (k > rt) {
            int m = 0;
            while (m + k < n && rat(d, (size_t)m) == rat(d, (size_t)(m + k)))
                m++;
            d->rep[last - k] = m < limit ? m : limit;
            if (m > 0) {
                lt = k;
                rt = k + m - 1;
            }
        } else {
            int p = k - lt, right = rt - k + 1;
            if (d->rep[last - p] < right) {
                d->rep[last - k] = d->rep[last - p] < limit ? d->rep[last - p] : limit;
            } else {
                int i = rt + 1;
                while (i < n && rat(d, (size_t)i) == rat(d, (size_t)(i - k)))
                    i++;
                d->rep[last - k] = i - k < limit ? i - k : limit;
                lt = k;
                rt = i - 1;
            }
        }
    }
    /* step 3: the token after each repeat would extend it; keep the longest per token. At most n tokens
     * get one, so best[] (by token id, -1 none) is reset only where it was set (touched[]). */
    long maxid = -1;
    for (int i = 0; i < n; i++)
        if (rat(d, (size_t)i) > maxid)
            maxid = rat(d, (size_t)i);
    if ((size_t)(maxid + 1) > d->best_n) {
        int *b = realloc(d->best, (size_t)(maxid + 1) * sizeof *b);
        if (!b)
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: dry: out of memory for %ld tokens", maxid + 1);
        for (size_t i = d->best_n; i < (size_t)(maxid + 1); i++)
            b[i] = -1;
        d->best = b;
        d->best_n = (size_t)(maxid + 1);
    }
    if ((size_t)n > d->touched_n) {
        long *t = realloc(d->touched, (size_t)n * sizeof *t);
        if (!t)
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: dry: out of memory for %d tokens", n);
        d->touched = t;
        d->touched_n = (size_t)n;
    }
    size_t nt = 0;
    for (int i = 0; i < n - 1; i++)
        if (d->rep[i] >= d->allowed) {
            long t = rat(d, (size_t)(n - 2 - i));
            if (d->best[t] < 0)
                d->touched[nt++] = t;
            if (d->best[t] < d->rep[i])
                d->best[t] = d->rep[i];
        }
    /* step 4: the penalty, for every such candidate that is not itself a breaker. Each candidate's penalty
     * is its own, so the order they are visited in changes nothing: where every such token still sits at
     * its own index (the candidates as the chain built them, ids unique), it is found there; otherwise
     * every candidate is looked up, as llama.cpp's loop does. */
    const float FLOAT_MAX_LOG = 88.7228391f;
    int max_exp = 0;
    if (d->base > 1.000001f)
        max_exp = (int)(FLOAT_MAX_LOG / logf(d->base));
    int direct = 1;
    for (size_t k = 0; k < nt && direct; k++)
        direct = (size_t)d->touched[k] < a->size && a->data[d->touched[k]].id == d->touched[k];
    for (size_t k = 0, i = 0; direct ? k < nt : i < a->size; direct ? k++ : i++) {
        size_t at = direct ? (size_t)d->touched[k] : i;
        long id = a->data[at].id;
        if (id < 0 || (size_t)id >= d->best_n || d->best[id] < 0 || flags_of(d, id) & SL_LOGITS_DRY_SINGLE)
            continue;
        int e = (int)(d->best[id] - d->allowed);
        if (max_exp > 0 && e > max_exp)
            e = max_exp;
        /* std::pow(float, int) promotes to double: the power in double, then rounded once */
        a->data[at].logit -= (float)((double)d->multiplier * pow((double)d->base, (double)e));
    }
    for (size_t k = 0; k < nt; k++)
        d->best[d->touched[k]] = -1;
    a->sorted = 0;
    return SL_OK;
}

static int dry_accept(void *st, long token, sl_error *err)
{
    dry *d = st;
    return dry_on(d) ? sl_logits_window_push(&d->w, (size_t)d->last_n, token, err) : SL_OK;
}

static void dry_reset(void *st)
{
    dry *d = st;
    d->w.start = d->w.n = 0;
}

static int dry_clone(void *dst, const void *src, sl_error *err)
{
    const dry *s = src;
    dry *d = dst;
    *d = *s;
    d->rep = NULL;
    d->rep_n = 0;
    d->best = NULL;
    d->best_n = 0;
    d->touched = NULL;
    d->touched_n = 0;
    return sl_logits_window_clone(&d->w, &s->w, err);
}

static void dry_free(void *st)
{
    dry *d = st;
    sl_logits_window_free(&d->w);
    free(d->rep);
    free(d->best);
    free(d->touched);
    d->rep = NULL;
    d->best = NULL;
    d->touched = NULL;
}

const sl_logits_stage_type sl_logits_stage_dry = {
    .name = "dry",
    .label = "dry",
    .letter = 'd',
    .upstream = "llama_sampler_init_dry, llama_sampler_dry_accept, llama_sampler_dry_apply",
    .params = dry_params,
    .n_params = sizeof dry_params / sizeof *dry_params,
    .size = sizeof(dry),
    .init = dry_init,
    .active = dry_active,
    .step = dry_step,
    .apply = dry_apply,
    .accept = dry_accept,
    .uses_history = dry_uses_history,
    .reset = dry_reset,
    .clone = dry_clone,
    .free = dry_free,
};
