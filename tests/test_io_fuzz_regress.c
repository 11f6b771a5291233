/* test_io_fuzz_regress.c — replays every fuzz input kept in the tree through the
 * same code the libFuzzer targets run (tests/fuzz/targets.h), under this test
 * build's ASan and UBSan: tests/fuzz/regress/<target>/ (inputs that once found
 * a bug) and tests/fuzz/corpus/<target>/ (the seeds). A crash, a leak or a
 * sanitizer report fails make test; `make fuzz` searches for new ones. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/targets.h"
#include "fuzz/targets_sweep.h"

typedef int (*sl_fuzz_fn)(const uint8_t *, size_t);

/* Feeds each regular file of dir to fn; returns how many it fed. */
static size_t replay_dir(const char *dir, sl_fuzz_fn fn)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unsigned char *buf;
        size_t len;
        sl_error err;
        cr_assert_eq(sl_io_file_slurp(path, &buf, &len, &err), 0, "%s", err.msg);
        /* an exact-size copy, as libFuzzer passes it, so reading one byte
         * past the input is an ASan report (the slurp buffer is larger) */
        unsigned char *exact = malloc(len ? len : 1);
        cr_assert_not_null(exact);
        memcpy(exact, buf, len);
        free(buf);
        cr_log_info("replay %s (%zu bytes)", path, len);
        fn(exact, len);
        free(exact);
        n++;
    }
    closedir(d);
    return n;
}

static void replay(const char *target, sl_fuzz_fn fn)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", target);
    size_t seeds = replay_dir(dir, fn);
    snprintf(dir, sizeof dir, "tests/fuzz/regress/%s", target);
    size_t regress = replay_dir(dir, fn);
    cr_assert_gt(seeds, 0, "no seeds in tests/fuzz/corpus/%s", target);
    cr_log_info("fuzz %s: %zu seeds and %zu regression inputs replayed", target, seeds, regress);
}

Test(replay_io, fuzz_regress_text) { replay("text", sl_fuzz_text_one); }
Test(replay_io, fuzz_regress_npy) { replay("npy", sl_fuzz_npy_one); }
Test(replay_io, fuzz_regress_safetensors) { replay("safetensors", sl_fuzz_safetensors_one); }
Test(replay_io, fuzz_regress_draws) { replay("draws", sl_fuzz_draws_one); }
Test(replay_io, fuzz_regress_gguf) { replay("gguf", sl_fuzz_gguf_one); }
Test(replay_io, fuzz_regress_counts) { replay("counts", sl_fuzz_counts_one); }
Test(replay_io, fuzz_regress_steps) { replay("steps", sl_fuzz_steps_one); }
Test(replay_io, fuzz_regress_sweep_spec) { replay("sweep_spec", sl_fuzz_sweep_spec_one); }
Test(replay_io, fuzz_regress_sweep_ckpt) { replay("sweep_ckpt", sl_fuzz_sweep_ckpt_one); }
