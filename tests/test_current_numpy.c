/* test_current_numpy.c — NumPy 2.4.6 (Debian sid, data/golden/current/numpy_*.txt,
 * made by the same analysis/golden/numpy_golden.py) against NumPy 1.24.2's files,
 * which tests/test_framework_numpy.c, tests/test_rng_pcg64.c and (the race of
 * exprace_numpy.txt) tests/test_draw_exprace.c replay through the
 * emulation: where the records are the same bytes, 2.4.6 is replayed too. What 2.x
 * changes is pinned: Generator.choice's reworded ValueErrors (numpy_validate: the
 * same inputs refused, other words), and the last bit of two entries of the float64
 * weather vector and of rand1000 that NumPy's exp/log/sum compute (numpy_vectors:
 * inputs, not draws). */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

/* the next line of *p that is not a '#' comment, NUL-terminated in place; NULL at the end */
static char *next_record(char **p)
{
    while (*p && **p) {
        char *line = *p, *nl = strchr(line, '\n');
        *p = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        if (line[0] != '#' && line[0])
            return line;
    }
    return NULL;
}

/* compares the records of two golden files; returns how many differ (*n: how many compared) */
static size_t compare(const char *name, size_t *n, size_t fields, size_t *same_key)
{
    char a[128], b[128];
    snprintf(a, sizeof a, "data/golden/%s", name);
    snprintf(b, sizeof b, "data/golden/current/%s", name);
    char *ta = sl_test_slurp(a), *tb = sl_test_slurp(b);
    cr_assert(ta && tb, "%s or %s missing", a, b);
    char *pa = ta, *pb = tb, *la, *lb;
    size_t differ = 0;
    *n = 0;
    if (same_key)
        *same_key = 0;
    while ((la = next_record(&pa)) && (lb = next_record(&pb))) {
        (*n)++;
        if (strcmp(la, lb)) {
            differ++;
            if (same_key) { /* the first `fields` words (kind, case, name) agree */
                const char *x = la, *y = lb;
                size_t f = 0;
                while (*x && *x == *y && f < fields) {
                    f += *x == ' ';
                    x++, y++;
                }
                *same_key += f >= fields;
            }
        }
    }
    cr_assert(!next_record(&pa) && !next_record(&pb), "%s: the files hold different numbers of records", name);
    free(ta);
    free(tb);
    return differ;
}

Test(replay_current, numpy_2_4_6_draws_as_1_24_2)
{
    static const char *const same[] = {"numpy_choice.txt", "numpy_legacy.txt", "numpy_pcg64.txt", "numpy_seedseq.txt",
                                       "exprace_numpy.txt"};
    for (size_t i = 0; i < 5; i++) {
        size_t n, d = compare(same[i], &n, 0, NULL);
        cr_log_info("NumPy 2.4.6 %s: %zu records, %zu differ from 1.24.2", same[i], n, d);
        cr_assert(n > 10 || (i == 4 && n > 0), "%s: only %zu records", same[i], n);
        cr_assert_eq(d, 0, "%s: %zu of %zu records of NumPy 2.4.6 differ from 1.24.2's", same[i], d, n);
    }
}

Test(replay_current, numpy_2_4_6_rewords_choice_errors)
{
    size_t n, key, d = compare("numpy_validate.txt", &n, 3, &key);
    cr_log_info("NumPy 2.4.6 numpy_validate.txt: %zu records, %zu reworded", n, d);
    cr_assert(n > 50, "only %zu records", n);
    /* every difference is the same case refused with other words, none a new verdict */
    cr_assert_eq(key, d, "%zu of %zu differing records differ beyond their message", d - key, d);
    cr_assert(d > 0 && d < n, "%zu of %zu records differ: the files changed?", d, n);
    size_t nv, dv = compare("numpy_vectors.txt", &nv, 4, NULL);
    cr_assert_eq(dv, 2, "numpy_vectors: %zu vectors differ (weather and rand1000 in the last bits expected)", dv);
}
