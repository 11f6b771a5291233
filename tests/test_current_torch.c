/* test_current_torch.c — the --torch 2 variant (SL_TORCH_2) against today's torch:
 * every case of data/golden/current/torch_multinomial.txt, written by Debian sid's
 * torch 2.14.1 (CPU, no MKL) through analysis/golden/current/run.sh, tokens and
 * the words consumed after every call. */
#include <criterion/criterion.h>

#include "torch_replay.h"

Test(replay_current, torch_2_14_multinomial)
{
    gold g;
    replay_file("data/golden/current/torch_multinomial.txt", &g);
    cr_assert_eq(g.version, SL_TORCH_2, "data/golden/current header does not name torch 2.x");
    cr_log_info("torch 2.14 golden: %zu cases and %zu error cases replayed, %zu mismatches", g.ncase, g.nerror,
                g.fail);
    cr_assert(g.ncase >= 700 && g.nerror >= 40, "golden file too small: %zu cases, %zu errors", g.ncase, g.nerror);
    cr_assert_eq(g.fail, 0, "%zu of %zu torch 2.14 cases differ; first: %s", g.fail, g.ncase + g.nerror,
                 g.first_fail);
}
