/* llamacpp.c — llama.cpp's sampler chain over a candidate array, in float32
 * as its C++ computes it.
 *
 * Reproduces llama.cpp src/llama-sampling.cpp (read at commit 0344068c, after
 * PR #15704 of 2025-08-31 made the dist sampler normalise and sample in one
 * pass; test vectors from tests/test-sampling.cpp at 07e4038):
 * llama_sampler_penalties_apply, llama_sampler_top_k_impl,
 * llama_sampler_typical_apply, llama_sampler_top_p_apply,
 * llama_sampler_min_p_apply, llama_sampler_temp_impl,
 * llama_sampler_softmax_impl and llama_sampler_dist_apply; and the default
 * chain order of common/sampling.cpp common_sampler_init (penalties → dry →
 * top-n-sigma → top-k → typical → top-p → min-p → xtc → temperature → dist;
 * dry, top-n-sigma and xtc are off by default and not emulated) with the
 * defaults of common/common.h common_params_sampling (the table at the end:
 * top_k 40, top_p 0.95, min_p 0.05, temp 0.8, penalty_last_n 64, repeat 1.0,
 * typical 1.0, min_keep 0; llama-completion 0.7.0 prints them,
 * data/golden/current/llamacpp_defaults.txt).
 *
 * Every filter works on the current candidate array and recomputes its own
 * softmax over it (so each sees a renormalised distribution); top-k keeps
 * exactly k; top-p walks the descending order with a float running sum and
 * keeps through the first token where it reaches p (p = 0 keeps one); min-p
 * compares logits with max + logf(p) (before temperature in this chain);
 * temperature <= 0 keeps the first maximum and sets every other logit to
 * -inf without shrinking the array.
 *
 * Sorting is llama.cpp's own: std::partial_sort for up to 128 candidates, its
 * 128-bucket partial sort (logits bucketed over [-10, 10], std::sort per
 * bucket) beyond, the adaptive top-256 first pass of top-p, std::sort of
 * indices in typical — with libstdc++'s algorithms reproduced in stdsort.c,
 * so tied logits end in the same order as in a GCC build (which tied token
 * top-k keeps, and the order the dist sampler walks).
 *
 * Known divergences: a build whose compiler contracts 6.4f * logit + 64.0f
 * into an FMA (-march=native) can put a logit on a bucket boundary into the
 * next bucket, which changes only the order among ties; libc++ (clang/macOS)
 * and MSVC sort ties differently. With a probability that underflows to 0,
 * typical's entropy is NaN in llama.cpp (0 * -inf) and its order is then
 * whatever std::sort makes of NaN comparisons; the same happens here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

/* The bucket index of llama_token_data_array_partial_sort:
 * int(6.4f * logit + 64.0f) clamped to [0, 127]. An out-of-range float to int
 * conversion gives INT_MIN on x86 (cvttss2si), i.e. bucket 0. */
static int sl_llama_bucket(float logit)
{
    float x = 6.4f * logit + 64.0f;
    if (!(x > -2147483648.0f && x < 2147483648.0f))
        return 0;
    int ib = (int)x;
    return ib < 0 ? 0 : ib > 127 ? 127 : ib;
}

/* llama_token_data_array_partial_sort: the top npartial of a (not changed)
 * into res, sorted descending, via 128 logit buckets over [-10, 10]; res gets
 * every candidate of the buckets it needed (*nres of them). */
static int llama_bucket_sort(const sl_logits_llama_array *a, size_t npartial, sl_logits_cand *res, size_t *nres,
                             sl_error *err)
{
    size_t histo[128] = {0}, pos[128];
    unsigned char *bi = malloc(a->size ? a->size : 1);
    if (!bi)
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory bucketing %zu candidates", a->size);
    for (size_t i = 0; i < a->size; i++) {
        bi[i] = (unsigned char)sl_llama_bucket(a->data[i].logit);
        histo[bi[i]]++;
    }
    size_t nhave = 0;
    int ib = 127;
    for (; ib >= 0; --ib) {
        nhave += histo[ib];
        if (nhave >= npartial)
            break;
    }
    if (ib < 0)
        ib = 0;
    size_t off = 0;
    for (int j = 127; j >= ib; --j) {
        pos[j] = off;
        off += histo[j];
    }
    for (size_t i = 0; i < a->size; i++)
        if (bi[i] >= ib)
            res[pos[bi[i]]++] = a->data[i];
    free(bi);
    size_t done = 0;
    off = 0;
    for (int j = 127; j > ib; --j) {
        sl_base_std_sort_cand(res + off, histo[j]);
        off += histo[j];
        done += histo[j];
    }
    sl_base_std_partial_sort_cand(res + off, npartial - done, histo[ib]);
    *nres = nhave;
    return SL_OK;
}

/* llama_token_data_array_partial_sort_inplace: keep the top npartial,
 * sorted; std::partial_sort up to 128, the bucket sort beyond. Out of memory
 * is an error (a is unchanged): another sort would order ties differently. */
static int llama_partial_sort_inplace(sl_logits_llama_array *a, size_t npartial, sl_error *err)
{
    if (npartial <= 128) {
        sl_base_std_partial_sort_cand(a->data, npartial, a->size);
    } else {
        sl_logits_cand *tmp = malloc(a->size * sizeof *tmp);
        size_t n = 0;
        if (!tmp) {
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory sorting %zu candidates", a->size);
        }
        int rc = llama_bucket_sort(a, npartial, tmp, &n, err);
        if (rc) {
            free(tmp);
            return rc;
        }
        memcpy(a->data, tmp, npartial * sizeof *tmp);
        free(tmp);
    }
    a->size = npartial;
    a->sorted = 1;
    return SL_OK;
}

void sl_logits_llama_softmax_f32(const float *l, size_t ls, float *p, size_t ps, size_t n, int sorted)
{
    const char *lb = (const char *)l;
    char *pb = (char *)p;
#define L_AT(i) (*(const float *)(const void *)(lb + (i) * ls))
#define P_AT(i) (*(float *)(void *)(pb + (i) * ps))
    float max_l = L_AT(0);
    if (!sorted)
        for (size_t i = 1; i < n; i++) /* std::max(max_l, logit): max_l unless max_l < logit */
            max_l = max_l < L_AT(i) ? L_AT(i) : max_l;
    float cum = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float e = expf(L_AT(i) - max_l);
        P_AT(i) = e;
        cum += e;
    }
    for (size_t i = 0; i < n; i++)
        P_AT(i) /= cum;
#undef L_AT
#undef P_AT
}

int sl_logits_llama_softmax(sl_logits_llama_array *a, int do_sort, sl_error *err)
{
    if (!a->size)
        return SL_OK;
    if (do_sort && !a->sorted) {
        int rc = llama_partial_sort_inplace(a, a->size, err);
        if (rc)
            return rc;
    }
    sl_logits_llama_softmax_f32(&a->data[0].logit, sizeof *a->data, &a->data[0].p, sizeof *a->data, a->size,
                                a->sorted);
    return SL_OK;
}

/* The candidates of buckets lo .. hi into r, highest bucket first, each in array order (as
 * llama_token_data_array_partial_sort places them). */
static void bucket_scatter(const sl_logits_llama_array *a, const unsigned char *bi, int lo, int hi,
                           const size_t *histo, sl_logits_cand *r)
{
    size_t pos[128], off = 0;
    for (int j = hi; j >= lo; j--) {
        pos[j] = off;
        off += histo[j];
    }
    for (size_t i = 0; i < a->size; i++)
        if (bi[i] >= lo && bi[i] <= hi)
            r[pos[bi[i]]++] = a->data[i];
}

/* Puts the n largest of r[0..m) first in descending order (any algorithm: a heap) and returns 1
 * when they are strictly decreasing and above every other logit: then every sort leaves the
 * same n first, so they are the full sort's. 0: some tie (-0.0 and 0.0 included), r reordered. */
static int top_unique(sl_logits_cand *r, size_t n, size_t m)
{
    sl_base_std_partial_sort_cand(r, n, m);
    for (size_t i = 1; i < n; i++)
        if (!(r[i - 1].logit > r[i].logit))
            return 0;
    for (size_t i = n; i < m; i++)
        if (!(r[n - 1].logit > r[i].logit))
            return 0;
    return 1;
}

/* What llama_sampler_softmax_impl(cur_p, true) leaves in the top n places, computed from the
 * sorted logit values (a radix sort of the terms expf(l - max): their sorted order is the
 * logits', so the float sum adds the same terms in the same order) and a sort of only the
 * buckets of llama_token_data_array_partial_sort that hold those places. The full sort there
 * std::sorts every bucket above the lowest non-empty one and heap-sorts that one
 * (std::partial_sort with middle = last): each bucket is sorted here as it is there, so the
 * places hold the same candidates in the same order. A non-finite maximum, a NaN or at most
 * 128 candidates (std::partial_sort over all) take the full sort. */
int sl_logits_llama_softmax_top(sl_logits_llama_array *a, size_t (*need)(const float *p, size_t n, void *ctx),
                                void *ctx, sl_error *err)
{
    size_t V = a->size, n;
    if (!V)
        return SL_OK;
    float *ps = malloc(V * sizeof *ps);
    sl_base_f32i *ev = malloc(2 * V * sizeof *ev);
    unsigned char *bi = malloc(V);
    int rc = SL_OK;
    if (!ps || !ev || !bi) {
        rc = sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory sorting %zu candidates", V);
        goto out;
    }
    float max_l = a->data[0].logit;
    int nan = 0;
    for (size_t i = 0; i < V; i++) {
        nan |= isnan(a->data[i].logit);
        max_l = fmaxf(max_l, a->data[i].logit);
    }
    if (a->sorted || V <= 128 || V >= UINT32_MAX || nan || !isfinite(max_l)) { /* the full sort, read off */
        if (!(rc = sl_logits_llama_softmax(a, 1, err))) {
            for (size_t i = 0; i < V; i++)
                ps[i] = a->data[i].p;
            n = need(ps, V, ctx);
            a->size = n < 1 ? 1 : n > V ? V : n;
        }
        goto out;
    }
    size_t histo[128] = {0};
    float *e = ps; /* the terms in array order, then the probabilities in sorted order */
    for (size_t i = 0; i < V; i++) {
        bi[i] = (unsigned char)sl_llama_bucket(a->data[i].logit);
        histo[bi[i]]++;
        e[i] = expf(a->data[i].logit - max_l);
    }
    sl_logits_sort_any_f32(e, V, ev, ev + V); /* ascending */
    float cum = 0.0f;
    for (size_t i = V; i-- > 0;)
        cum += ev[i].v;
    for (size_t i = 0; i < V; i++)
        ps[i] = ev[V - 1 - i].v / cum;
    n = need(ps, V, ctx);
    n = n < 1 ? 1 : n > V ? V : n;
    int lowest = 0; /* the full sort's last bucket: the lowest non-empty one */
    while (!histo[lowest])
        lowest++;
    int ib = 127;
    size_t nhave = 0;
    for (; ib > lowest; ib--) {
        nhave += histo[ib];
        if (nhave >= n)
            break;
    }
    if (ib == lowest)
        nhave += histo[ib];
    sl_logits_cand *res = malloc(nhave * sizeof *res);
    if (!res) {
        rc = sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory sorting %zu candidates", V);
        goto out;
    }
    /* the buckets above ib are wholly among the top n: sorted as the full sort sorts them; of
     * bucket ib only its top `left` are read */
    bucket_scatter(a, bi, ib, 127, histo, res);
    size_t o = 0;
    for (int j = 127; j > ib; o += histo[j--])
        sl_base_std_sort_cand(res + o, histo[j]);
    size_t left = n - o, m = histo[ib];
    if (left == m || !top_unique(res + o, left, m)) { /* tied logits there: the bucket as the full sort sorts it */
        bucket_scatter(a, bi, ib, ib, histo, res + o);
        if (ib == lowest)
            sl_base_std_partial_sort_cand(res + o, m, m);
        else
            sl_base_std_sort_cand(res + o, m);
    }
    for (size_t i = 0; i < n; i++) {
        a->data[i] = res[i];
        a->data[i].p = expf(res[i].logit - max_l) / cum;
    }
    free(res);
    a->size = n;
    a->sorted = 1;
out:
    free(ps);
    free(ev);
    free(bi);
    return rc;
}

void sl_logits_llama_penalties(sl_logits_llama_array *a, const long *ctx, size_t ctx_n, long last_n,
                               float repeat, float freq, float present)
{
    if (last_n <= 0 || (repeat == 1.0f && freq == 0.0f && present == 0.0f))
        return;
    /* the ring buffer holds the last last_n accepted tokens */
    size_t from = ctx_n > (size_t)last_n ? ctx_n - (size_t)last_n : 0;
    for (size_t i = 0; i < a->size; i++) {
        int count = 0;
        for (size_t j = from; j < ctx_n; j++)
            count += ctx[j] == a->data[i].id;
        if (!count)
            continue;
        if (a->data[i].logit <= 0)
            a->data[i].logit *= repeat;
        else
            a->data[i].logit /= repeat;
        a->data[i].logit -= (float)count * freq + (float)(count > 0) * present;
    }
    a->sorted = 0;
}

int sl_logits_llama_top_k(sl_logits_llama_array *a, long k, sl_error *err)
{
    if (k <= 0)
        return SL_OK;
    if ((size_t)k > a->size)
        k = (long)a->size;
    if (!a->sorted) {
        int rc = llama_partial_sort_inplace(a, (size_t)k, err);
        if (rc)
            return rc;
    }
    a->size = (size_t)k;
    return SL_OK;
}

/* the typical sampler's index sort: shifted_scores[a] < shifted_scores[b] */
static int llama_shift_less(const void *a, const void *b, const void *ctx)
{
    const float *sh = ctx;
    return sh[*(const size_t *)a] < sh[*(const size_t *)b];
}

int sl_logits_llama_typical(sl_logits_llama_array *a, float p, size_t min_keep, sl_error *err)
{
    if (p >= 1.0f || !a->size)
        return SL_OK;
    int rc = sl_logits_llama_softmax(a, 1, err);
    if (rc)
        return rc;
    float entropy = 0.0f;
    for (size_t i = 0; i < a->size; i++)
        entropy += -a->data[i].p * logf(a->data[i].p);
    size_t n = a->size;
    float *sh = malloc(n * sizeof *sh);
    size_t *idx = malloc(n * sizeof *idx);
    sl_logits_cand *nd = malloc(n * sizeof *nd);
    if (!sh || !idx || !nd) {
        free(sh);
        free(idx);
        free(nd);
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: typical: out of memory for %zu candidates", n);
    }
    for (size_t i = 0; i < n; i++) {
        sh[i] = fabsf(-logf(a->data[i].p) - entropy);
        idx[i] = i;
    }
    sl_base_std_sort(idx, n, sizeof *idx, llama_shift_less, sh);
    float cum = 0.0f;
    size_t last = n;
    for (size_t i = 0; i < n; i++) {
        cum += a->data[idx[i]].p;
        if (cum > p && (min_keep == 0 || i >= min_keep - 1)) {
            last = i + 1;
            break;
        }
    }
    for (size_t i = 0; i < last; i++)
        nd[i] = a->data[idx[i]];
    memcpy(a->data, nd, last * sizeof *nd);
    a->size = last;
    a->sorted = 0;
    free(sh);
    free(idx);
    free(nd);
    return SL_OK;
}

int sl_logits_llama_top_p(sl_logits_llama_array *a, float p, size_t min_keep, sl_error *err)
{
    if (p >= 1.0f || !a->size)
        return SL_OK;
    int rc = sl_logits_llama_softmax(a, 0, err); /* probabilities in the current order */
    if (rc)
        return rc;
    sl_logits_cand *buf = NULL, *pd = a->data;
    size_t k = a->size, nbuf = 0;
    if (!a->sorted && a->size > 1024) {
        /* adaptive: bucket-sort the top 256 first, everything if that is not enough */
        k = 256;
        buf = malloc(a->size * sizeof *buf);
        if (!buf)
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: top-p: out of memory for %zu candidates", a->size);
        if ((rc = llama_bucket_sort(a, k, buf, &nbuf, err))) {
            free(buf);
            return rc;
        }
        pd = buf;
    } else if (!a->sorted) {
        if ((rc = llama_partial_sort_inplace(a, a->size, err)))
            return rc;
    }
    float cum = 0.0f;
    size_t last = a->size;
    for (size_t i = 0; i < a->size; i++) {
        cum += pd[i].p;
        if (cum >= p && i + 1 >= min_keep) {
            last = i + 1;
            break;
        }
        if (!a->sorted && i == k - 1) {
            k = a->size;
            if ((rc = llama_bucket_sort(a, k, buf, &nbuf, err))) {
                free(buf);
                return rc;
            }
            pd = buf;
        }
    }
    if (!a->sorted) {
        memcpy(a->data, buf, last * sizeof *buf);
        a->sorted = 1;
    }
    free(buf);
    a->size = last;
    return SL_OK;
}

int sl_logits_llama_min_p(sl_logits_llama_array *a, float p, size_t min_keep, sl_error *err)
{
    if (p <= 0.0f || !a->size)
        return SL_OK;
    if (!a->sorted) {
        float max_l = -3.40282347e+38f; /* -FLT_MAX */
        for (size_t i = 0; i < a->size; i++)
            max_l = fmaxf(max_l, a->data[i].logit);
        const float min_l = max_l + logf(p);
        size_t n = 0;
        for (size_t i = 0; i < a->size; i++)
            n += a->data[i].logit >= min_l;
        if (n && n >= min_keep) { /* filtered in place, array order kept */
            size_t w = 0;
            for (size_t i = 0; i < a->size; i++)
                if (a->data[i].logit >= min_l)
                    a->data[w++] = a->data[i];
            a->size = w;
            return SL_OK;
        }
        int rc = llama_partial_sort_inplace(a, a->size, err);
        if (rc)
            return rc;
    }
    const float min_l = a->data[0].logit + logf(p);
    size_t i = 1;
    for (; i < a->size; i++)
        if (a->data[i].logit < min_l && i >= min_keep)
            break;
    a->size = i;
    return SL_OK;
}

void sl_logits_llama_temp(sl_logits_llama_array *a, float temp)
{
    if (!a->size)
        return;
    if (temp <= 0.0f) {
        size_t max_i = 0;
        float max_l = a->data[0].logit;
        for (size_t i = 1; i < a->size; i++) {
            if (a->data[i].logit > max_l) {
                a->data[max_i].logit = -INFINITY;
                max_i = i;
                max_l = a->data[i].logit;
            } else {
                a->data[i].logit = -INFINITY;
            }
        }
        return;
    }
    for (size_t i = 0; i < a->size; i++)
        a->data[i].logit /= temp;
}

size_t sl_logits_llama_dist(sl_logits_llama_array *a, double u)
{
    if (a->size <= 1) {
        if (a->size)
            a->data[0].p = 1.0f;
        return 0;
    }
    float max_l = a->data[0].logit;
    if (!a->sorted)
        for (size_t i = 1; i < a->size; i++)
            max_l = fmaxf(max_l, a->data[i].logit);
    double sum_cum = 0.0;
    for (size_t i = 0; i < a->size; i++) {
        float p = expf(a->data[i].logit - max_l);
        a->data[i].p = p;
        sum_cum += p;
    }
    const double sum_tgt = sum_cum * u;
    double sum_run = 0.0;
    size_t sel = a->size;
    for (size_t i = 0; i < a->size; i++) {
        if (sel == a->size) {
            sum_run += a->data[i].p;
            if (sum_run >= sum_tgt)
                sel = i;
        }
        a->data[i].p = (float)(a->data[i].p / sum_cum);
    }
    return sel == a->size ? a->size - 1 : sel;
}

int sl_logits_llama_chain(const float *lf, size_t V, const sl_logits_cfg *c, sl_logits_llama_array *a,
                          sl_logits_result *trace, sl_error *err)
{
    /* one use of the chain: built, fed the history oldest first, run, freed */
    sl_logits_chain *ch;
    a->data = NULL;
    a->size = 0;
    int rc = sl_logits_chain_new_llama(c, &ch, err);
    if (rc)
        return rc;
    if (sl_logits_chain_selects(ch)) { /* its cut and its probabilities follow its own draw and state */
        const char *name = sl_logits_chain_stage(ch, sl_logits_chain_n(ch) - 1)->name;
        sl_logits_chain_free(ch);
        return sl_base_error_set(err, SL_EINVAL,
                                 "llamacpp: %s's kept set and probabilities over one vector: not modelled by samplab "
                                 "(it cuts and draws in one step, with state carried across steps): draw, replay and "
                                 "check run it",
                                 name);
    }
    for (size_t i = 0; !rc && i < c->context_n; i++)
        rc = sl_logits_chain_accept(ch, c->context[i], err);
    if (!rc)
        rc = sl_logits_chain_run(ch, lf, V, a, trace, err);
    sl_logits_chain_free(ch);
    return rc;
}

static int llamacpp_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *c,
                        sl_logits_result *out, sl_error *err)
{
    (void)ld;
    int rc = sl_logits_result_alloc(out, V, err);
    if (rc)
        return rc;
    out->precision = 32;
    sl_logits_llama_array a;
    if ((rc = sl_logits_llama_chain(lf, V, c, &a, out, err))) {
        sl_logits_result_free(out);
        return rc;
    }
    /* the dist sampler's normalisation gives the final probabilities; run
     * it on a copy so the result keeps the array as the draw will see it */
    sl_logits_llama_array b = {malloc(a.size * sizeof *a.data), a.size, a.sorted};
    if (!b.data) {
        free(a.data);
        sl_logits_result_free(out);
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for %zu candidates", a.size);
    }
    memcpy(b.data, a.data, a.size * sizeof *a.data);
    sl_logits_llama_dist(&b, 0.0);
    for (size_t i = 0; i < b.size; i++) {
        size_t id = (size_t)b.data[i].id;
        out->probs[id] = b.data[i].p;
        if (b.data[i].logit != -INFINITY && !out->kept[id]) {
            out->kept[id] = 1;
            out->n_kept++;
        }
    }
    free(b.data);
    out->cand = a.data;
    out->n_cand = a.size;
    out->cand_sorted = a.sorted;
    return SL_OK;
}

/* common/common.h struct common_params_sampling of 0.7.0 (build b11669), as
 * llama-completion -v prints it (data/golden/current/llamacpp_defaults.txt).
 * Each value is its stage parameter's default (stage_*.c), written there once;
 * each stage does nothing at the value that turns it off: top_k <= 0, top_p >= 1,
 * min_p <= 0, typ_p >= 1, temp 1 (divides by 1), penalties at 1/0/0. */
static const sl_logits_default llamacpp_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 0, "common_params_sampling.temp", &sl_logits_stage_temperature, 0},
    {SL_KEY_TOP_K, 0, 0, "common_params_sampling.top_k (<= 0: the stage does nothing)", &sl_logits_stage_top_k, 0},
    {SL_KEY_TOP_P, 0, 0, "common_params_sampling.top_p", &sl_logits_stage_top_p, 0},
    {SL_KEY_MIN_P, 0, 0, "common_params_sampling.min_p", &sl_logits_stage_min_p, 0},
    {SL_KEY_TYPICAL, 0, 0, "common_params_sampling.typ_p", &sl_logits_stage_typical, 0},
    {SL_KEY_PENALTY, 0, 0, "common_params_sampling.penalty_repeat", &sl_logits_stage_penalties, 1},
    {SL_KEY_FREQ, 0, 0, "common_params_sampling.penalty_freq", &sl_logits_stage_penalties, 2},
    {SL_KEY_PRESENCE, 0, 0, "common_params_sampling.penalty_present", &sl_logits_stage_penalties, 3},
    {SL_KEY_LAST_N, 0, 0, "common_params_sampling.penalty_last_n", &sl_logits_stage_penalties, 0},
    {SL_KEY_MIN_KEEP, 0, 0, "common_params_sampling.min_keep", &sl_logits_stage_typical, 1},
    {SL_KEY_XTC_P, 0, 0, "common_params_sampling.xtc_probability", &sl_logits_stage_xtc, 0},
    {SL_KEY_XTC_T, 0, 0, "common_params_sampling.xtc_threshold", &sl_logits_stage_xtc, 1},
    {SL_KEY_NSIGMA, 0, 0, "common_params_sampling.top_n_sigma", &sl_logits_stage_top_n_sigma, 0},
    {SL_KEY_DYN_RANGE, 0, 0, "common_params_sampling.dynatemp_range", &sl_logits_stage_temperature, 1},
    {SL_KEY_DYN_EXP, 0, 0, "common_params_sampling.dynatemp_exponent", &sl_logits_stage_temperature, 2},
    {SL_KEY_DRY_MULT, 0, 0, "common_params_sampling.dry_multiplier", &sl_logits_stage_dry, 0},
    {SL_KEY_DRY_BASE, 0, 0, "common_params_sampling.dry_base", &sl_logits_stage_dry, 1},
    {SL_KEY_DRY_ALLOWED, 0, 0, "common_params_sampling.dry_allowed_length", &sl_logits_stage_dry, 2},
    {SL_KEY_DRY_LAST_N, 0, 0, "common_params_sampling.dry_penalty_last_n", &sl_logits_stage_dry, 3},
    {SL_KEY_MIROSTAT, 0, 0, "common_params_sampling.mirostat (0: off; 1, 2 replace the chain)", NULL, 0},
    {SL_KEY_MIROSTAT_ENT, 0, 0, "common_params_sampling.mirostat_tau", &sl_logits_stage_mirostat, 0},
    {SL_KEY_MIROSTAT_LR, 0, 0, "common_params_sampling.mirostat_eta", &sl_logits_stage_mirostat, 1},
    {SL_KEY_ADAPTIVE_TARGET, 0, 0, "common_params_sampling.adaptive_target (< 0: a plain draw)",
     &sl_logits_stage_adaptive_p, 0},
    {SL_KEY_ADAPTIVE_DECAY, 0, 0, "common_params_sampling.adaptive_decay", &sl_logits_stage_adaptive_p, 1},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

const sl_logits_pipeline_type sl_logits_pipeline_llamacpp_type = {
    .name = "llamacpp",
    .summary = "llama.cpp default chain: penalties (last N) -> top-k (exactly k) -> typical -> top-p -> min-p "
               "(logit space) -> temperature -> dist, float32; unset: top-k 40, top-p 0.95, min-p 0.05, T 0.8",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL |
               SL_OPT_PENALTY | SL_OPT_MIN_KEEP | SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE | SL_OPT_ORDER,
    .run = llamacpp_run,
    .traits = SL_LOGITS_TRAIT_MIN_P_BEFORE_T,
    .defaults = llamacpp_defaults,
};
