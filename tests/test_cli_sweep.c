/* test_cli_sweep.c — `samplab sweep`: records that equal the subcommand run by
 * hand, serial and MPI runs byte-identical, kill-then-resume (tests/sweep/run.sh),
 * a tampered checkpoint run again where it does not verify (tests/sweep/tamper.sh),
 * and a malformed spec refused with the key and its line and column. */
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

/* Writes spec to a temporary .json file; returns its path (malloc'd). */
static char *spec_file(const char *spec)
{
    char *p = sl_test_tmpfile(".json", spec, strlen(spec));
    cr_assert(p);
    return p;
}

/* The sweep of spec must be refused with want in the message, and leave no folder. */
static void refused(const char *spec, const char *want)
{
    char *p = spec_file(spec), dir[] = "/tmp/sl-test-sweep-XXXXXX", args[512];
    cr_assert(mkdtemp(dir));
    rmdir(dir);
    snprintf(args, sizeof args, "sweep --spec %s --out %s", p, dir);
    sl_test_expect_refused(args, want);
    char where[300];
    snprintf(where, sizeof where, "%s:", p);
    sl_test_expect_refused(args, where);
    struct stat st;
    cr_expect(stat(dir, &st) != 0, "%s: the folder was made for a refused spec", spec);
    unlink(p);
    free(p);
}

Test(sweep_cli, malformed_spec_names_key_and_position)
{
    refused("{\"studies\": [}", ":1:14:");
    refused("{\"studies\": [{\"job\": \"gof\", \"job\": \"draw\"}]}", "duplicate");
    refused("[1, 2]", "a spec is an object");
    refused("{\"studies\": []}", "key studies: a non-empty list");
    refused("{\"studies\": [{\"jobb\": \"gof\"}]}", "key studies[0].jobb: unknown key");
    refused("{\"studies\": [{\"job\": \"gamble\", \"inputs\": [{\"probs\": \"1,2\"}]}]}",
            "key studies[0].job: not a job");
    refused("{\"studies\": [{\"job\": \"draw\"}]}", "no \"inputs\"");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\", \"logits\": \"1,2\"}]}]}",
            "exactly one of logits and probs");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\", \"weights\": \"x\"}]}]}",
            "key studies[0].inputs[0].weights");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}],\n"
            "  \"settings\": {\"top_kk\": 3}}]}",
            ":2:16: key studies[0].settings.top_kk: no samplab option --top-kk");
    /* a setting of the real library that samplab does not model: refused as such, not as no option */
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"frameworks\": [\"hf\"],"
            " \"settings\": {\"epsilon_cutoff\": 0.1}}]}",
            "key studies[0].settings.epsilon_cutoff: --epsilon-cutoff: transformers' EpsilonLogitsWarper is not "
            "modelled by samplab");
    refused("{\"studies\": [{\"job\": \"power\", \"inputs\": [{\"probs\": \"1,2\"}], \"settings\": {\"mirostat\": 2}}]}",
            "key studies[0].settings.mirostat: power does not take --mirostat");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"settings\": {\"top_k\": []}}]}",
            "an empty list");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"settings\": {\"top_k\": {}}}]}",
            "key studies[0].settings.top_k: not a number");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"options\": {\"n\": [1, 2]}}]}",
            "one value here, not a list");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"settings\": {\"seed\": 3}}]}",
            "comes from the grid");
    refused("{\"studies\": [{\"job\": \"calibrate\", \"inputs\": [{\"probs\": \"1,2\"}], \"methods\": [\"cdf\"],\n"
            " \"seeds\": [1]}]}",
            "calibrate takes no --seed");
    refused("{\"studies\": [{\"job\": \"power\", \"inputs\": [{\"probs\": \"1,2\"}], \"frameworks\": [\"hf\"]}]}",
            "power does not take --framework");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"frameworks\": [\"tensorflow\"]}]}",
            "key studies[0].frameworks[0]: not a framework");
    refused("{\"studies\": [{\"job\": \"gof\", \"inputs\": [{\"probs\": \"1,2\"}], \"frameworks\": [\"torch\"]}]}",
            "needs \"n\"");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"seeds\": {\"count\": 0}}]}",
            "count is an integer >= 1");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"seeds\": [-1]}]}",
            "not a seed");
    refused("{\"studies\": [{\"job\": \"check\", \"inputs\": [{\"logits\": \"1,2\"}], \"frameworks\": [\"hf\"]}]}",
            "needs \"tokens\"");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}],\n"
            " \"settings\": {\"temperature\": [1,2,3,4,5,6,7,8,9,10], \"top_k\": [1,2,3,4,5,6,7,8,9,10],\n"
            " \"top_p\": [1,2,3,4,5,6,7,8,9,10], \"min_p\": [1,2,3,4,5,6,7,8,9,10]},\n"
            " \"seeds\": {\"count\": 100000}}]}",
            "more than 100000000");
    /* values the option's parser refuses fail every point alike: spec errors, not records */
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"methods\": [\"cdf\"],\n"
            " \"settings\": {\"n\": \"abc\"}}]}",
            ":2:15: key studies[0].settings.n: --n takes a non-negative integer, not 'abc'");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"methods\": [\"cdf\"],"
            " \"settings\": {\"n\": [3, 2.5]}}]}",
            "settings.n: element 1: --n takes a non-negative integer, not '2.5'");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"logits\": \"1,2\"}], \"frameworks\": [\"hf\"],"
            " \"options\": {\"temperature\": \"warm\"}}]}",
            "options.temperature: --temperature takes a number, not 'warm'");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"methods\": [\"cdf\"],"
            " \"settings\": {\"n\": [3, true]}}]}",
            "element 1: --n takes a value, not true");
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], \"methods\": [\"cdf\"],"
            " \"seeds\": [\"0x10\", \"abc\"]}]}",
            "key studies[0].seeds: element 1: seed 'abc': character 1 ('a') is not a decimal digit");
    /* a study without its axis, power without inputs or the MKL fault, a title that is no string */
    refused("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}]}]}",
            "key studies[0]: draw needs \"frameworks\" or \"methods\"");
    refused("{\"studies\": [{\"job\": \"calibrate\", \"inputs\": [{\"probs\": \"1,2\"}], \"options\": {\"n\": 5}}]}",
            "calibrate needs \"methods\"");
    refused("{\"studies\": [{\"job\": \"power\", \"options\": {\"trials\": 5}}]}",
            "power leaves them out only with \"fault\": \"mkl-seed-collision\"");
    refused("{\"name\": 5, \"studies\": [{\"job\": \"power\", \"options\": {\"fault\": \"mkl-seed-collision\"}}]}",
            "key name: a name is a string");
    /* a NUL byte: the spec is not JSON text, said with its offset */
    char *p = sl_test_tmpfile(".json", "{\"studies\"\0: []}", 16), args[400];
    cr_assert(p);
    snprintf(args, sizeof args, "sweep --spec %s --out /tmp/sl-test-sweep-never", p ? p : "");
    sl_test_expect_refused(args, "byte 10 is NUL");
    unlink(p);
    free(p);
    sl_test_expect_refused("sweep --spec /tmp --out /tmp/sl-test-sweep-never", "Is a directory");
    sl_test_expect_refused("sweep --spec tests/sweep/small.json", "--out DIR is needed");
}

Test(sweep_cli, refuses_a_folder_it_did_not_make)
{
    char dir[] = "/tmp/sl-test-sweep-XXXXXX", path[300], args[400];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("mine\n", f);
    fclose(f);
    snprintf(args, sizeof args, "sweep --spec tests/sweep/small.json --out %s", dir);
    sl_test_expect_refused(args, "holds files but no sweep");
    char *kept = sl_test_slurp(path);
    cr_expect_str_eq(kept, "mine\n");
    free(kept);
    unlink(path);
    rmdir(dir);
}

Test(sweep_cli, keeps_what_the_user_put_in_its_folder)
{
    /* a sweep's own folder that also holds the user's file (or another run's --out
     * DIR/sub) was replaced whole, the file lost */
    char dir[] = "/tmp/sl-test-sweep-XXXXXX", path[300], args[400];
    cr_assert(mkdtemp(dir));
    rmdir(dir);
    char *spec = spec_file("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], "
                           "\"methods\": [\"cdf\"], \"options\": {\"n\": 3}}]}");
    snprintf(args, sizeof args, "sweep --spec %s --out %s", spec, dir);
    sl_test_run a = sl_test_cli(args);
    cr_assert_eq(a.status, 0, "%s", a.err);
    sl_test_run_free(&a);
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("mine\n", f);
    fclose(f);
    sl_test_expect_refused(args, "holds notes.txt, which no sweep writes");
    char *kept = sl_test_slurp(path);
    cr_expect_str_eq(kept, "mine\n");
    free(kept);
    unlink(path);
    /* without it the folder is the sweep's again */
    sl_test_run b = sl_test_cli(args);
    cr_assert_eq(b.status, 0, "%s", b.err);
    sl_test_run_free(&b);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
    unlink(spec);
    free(spec);
}

/* The report's output-folder policy (io/outdir.c): the set is built in
 * DIR/../.NAME.staging.PID and swapped in; a staging folder a dead run left is
 * removed, a live process's is not; a trailing '/' names the same folder. */
Test(sweep_cli, staging_beside_the_folder_as_the_report)
{
    char root[] = "/tmp/sl-test-sweep-XXXXXX", dead[400], live[400], args[600];
    cr_assert(mkdtemp(root));
    /* pid_max is at most 2^22 on Linux: 4194303 + 1 is no process */
    snprintf(dead, sizeof dead, "%s/.out.staging.4194304", root);
    snprintf(live, sizeof live, "%s/.out.staging.%ld", root, (long)getppid());
    cr_assert_eq(mkdir(dead, 0777), 0);
    cr_assert_eq(mkdir(live, 0777), 0);
    char *spec = spec_file("{\"studies\": [{\"job\": \"draw\", \"inputs\": [{\"probs\": \"1,2\"}], "
                           "\"methods\": [\"cdf\"], \"options\": {\"n\": 3}}]}");
    snprintf(args, sizeof args, "sweep --spec %s --out %s/out/", spec, root);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    sl_test_run_free(&r);
    struct stat st;
    cr_expect(stat(dead, &st) != 0, "the dead run's staging folder is left");
    cr_expect(stat(live, &st) == 0, "a live process's staging folder was removed");
    char path[500];
    snprintf(path, sizeof path, "%s/out/draw.jsonl", root);
    cr_expect(stat(path, &st) == 0, "no %s", path);
    snprintf(args, sizeof args, "rm -rf %s", root);
    cr_assert_eq(system(args), 0);
    unlink(spec);
    free(spec);
}

/* One record's "result" is the subcommand's own --json line, byte for byte. */
Test(sweep_cli, record_is_the_subcommand_output)
{
    char dir[] = "/tmp/sl-test-sweep-XXXXXX", args[400], path[300];
    cr_assert(mkdtemp(dir));
    snprintf(args, sizeof args, "sweep --spec tests/sweep/small.json --out %s", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_empty(r.out);
    sl_test_run_free(&r);
    snprintf(path, sizeof path, "%s/gof.jsonl", dir);
    char *gof = sl_test_slurp(path);
    cr_assert(gof);
    /* point 25: study "methods", cdf, seed "0x10" */
    sl_test_run d = sl_test_cli("gof --method cdf --probs 3,2,2,1 --seed 0x10 --n 5000 --null-reps 0 --json");
    cr_assert_eq(d.status, 0);
    char want[8192];
    d.out[strcspn(d.out, "\n")] = 0;
    snprintf(want, sizeof want,
             "{\"point\":25,\"study\":\"methods\",\"job\":\"gof\",\"input\":{\"probs\":\"3,2,2,1\"},\"method\":\"cdf\","
             "\"settings\":{},\"seed\":\"0x10\",\"exit\":0,\"error\":null,\"result\":%s}\n",
             d.out);
    cr_expect(strstr(gof, want) != NULL, "record of point 25 is not gof's output:\n%s", want);
    /* a refused point keeps its one-line error and exit 2 */
    cr_expect(strstr(gof, "\"framework\":\"candle\",\"settings\":{\"temperature\":0.7,\"top_k\":0},\"seed\":5,"
                          "\"exit\":2,\"error\":\"samplab: data/weather.txt: top-k 0 keeps no token") != NULL);
    /* the gof chain names the draws and the reference by what made them, not by scratch files */
    cr_expect(strstr(gof, "\"reference\":\"pipeline --framework hf\",\"draws\":\"draw --framework hf\"") != NULL);
    cr_expect(strstr(gof, "/tmp/") == NULL, "a scratch path leaked into the records");
    free(gof);
    sl_test_run_free(&d);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
}

/* Serial and 2- and 3-rank runs, kill -9 then --resume, a rank killed under
 * mpirun: tests/sweep/run.sh, on the release binary (built with Open MPI). */
Test(sweep_cli, mpi_ranks_kill_and_resume)
{
    int st = system("sh tests/sweep/run.sh bin/samplab > build/sweep-test.log 2>&1");
    char *log = sl_test_slurp("build/sweep-test.log");
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tests/sweep/run.sh failed:\n%s", log ? log : "");
    cr_log_info("%s", log ? log : "");
    free(log);
}

/* --resume takes only the checkpoint lines that verify, and a second run on a busy
 * folder is refused at once (tests/sweep/tamper.sh), under ASan (the busy run: release) */
Test(sweep_cli, resume_reruns_what_does_not_verify_and_a_busy_folder_is_refused)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sh tests/sweep/tamper.sh %s %s > build/sweep-tamper.log 2>&1",
             getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab", sl_test_rel_bin());
    int st = system(cmd);
    char *log = sl_test_slurp("build/sweep-tamper.log");
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tests/sweep/tamper.sh failed:\n%s", log ? log : "");
    cr_log_info("%s", log ? log : "");
    free(log);
}
