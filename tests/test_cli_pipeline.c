/* test_cli_pipeline.c — `samplab pipeline`, `samplab compare` and `draw
 * --framework` as a user runs them: the printed distribution (hf's on the tie
 * case is torch.softmax's float32 values), compare's TV and kept-set differences
 * and its translations (llama.cpp's min-p as m^T, candle's top-p as p times the
 * top-k mass: the printed command keeps hf's 14 tokens of data/k40p09.txt),
 * words per draw, greedy at T = 0 where the library does it and transformers'
 * ValueError where it raises, candle's ArgMax note, options a framework lacks
 * and bad input (exit 2, one line, nothing on stdout). */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

Test(replay_pipeline, cli_pipeline_lines_and_json)
{
    sl_test_run r = sl_test_cli("pipeline --framework hf --logits 3,2,2,1 --top-k 2");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    /* torch.softmax(tensor([3., 2, 2, -inf])) prints 0.57611692 0.21194157 0.21194157 0 */
    cr_assert_str_eq(r.out, "0\t0.57611692\n1\t0.21194157\n2\t0.21194157\n");
    sl_test_run_free(&r);
    r = sl_test_cli("pipeline --framework llamacpp --logits 3,2,2,1 --top-k 2 --temperature 1 --json");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "\"kept\":[0,1]") && strstr(r.out, "\"probs\":[0.731058598,0.268941432,0.0,0.0]"),
              "json: %s", r.out);
    sl_test_run_free(&r);
    /* without --temperature: common_params_sampling's temp 0.8, echoed with the other defaults */
    r = sl_test_cli("pipeline --framework llamacpp --logits 3,2,2,1 --top-k 2 --json");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "\"probs\":[0.777299881,0.222700149,0.0,0.0]") &&
                  strstr(r.out, "\"settings\":{\"temperature\":0.8,\"top_k\":2,\"top_p\":0.95,\"min_p\":0.05,") &&
                  strstr(r.out, "\"defaulted\":[\"temperature\",\"top_p\",\"min_p\",\"typical\","),
              "json: %s", r.out);
    sl_test_run_free(&r);
    /* hf: top_k left unset is generate()'s 50; min_p's default is None */
    r = sl_test_cli("pipeline --framework hf --logits 3,2,2,1 --temperature 0.5 --json");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "\"steps\":[\"temperature\",\"top_k\"]") &&
                  strstr(r.out, "\"settings\":{\"temperature\":0.5,\"top_k\":50,\"top_p\":1.0,\"min_p\":null,") &&
                  strstr(r.out, "\"defaulted\":[\"top_k\",\"top_p\",\"min_p\",\"typical\",\"repetition_penalty\","
                                "\"min_keep\"]"),
              "json: %s", r.out);
    sl_test_run_free(&r);
    /* --top-k 0 is how transformers turns TopKLogitsWarper off */
    r = sl_test_cli("pipeline --framework hf --logits 3,2,2,1 --temperature 0.5 --top-k 0 --json");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "\"steps\":[\"temperature\"]") && strstr(r.out, "\"defaulted\":[\"top_p\","),
              "json: %s", r.out);
    sl_test_run_free(&r);
}

/* --json's "settings": each real with the fewest digits that read back as it,
 * whatever precision the rest of the object is printed with (check: 17 digits;
 * a float32 pipeline: 9; compare: 9). */
Test(replay_pipeline, cli_settings_echo_reads_back)
{
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"check --framework llamacpp --logits 3,2,2,1 --tokens 0 --trials 0 --json",
         "\"settings\":{\"temperature\":0.8,\"top_k\":40,\"top_p\":0.95,\"min_p\":0.05,\"typical\":1.0,"},
        {"pipeline --framework hf --logits 3,2,2,1 --temperature 0.123456789012 --json",
         "\"settings\":{\"temperature\":0.123456789012,\"top_k\":50,\"top_p\":1.0,\"min_p\":null,"},
        {"compare --logits 3,2,2,1 --temperature 0.3000000000000001 --frameworks hf,vllm --json",
         "\"settings\":{\"temperature\":0.3000000000000001,\"top_k\":0,"},
        {"exact --framework llamacpp --logits 3,2,2,1 --temperature 1e-05 --json", "\"settings\":{\"temperature\":1e-05}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sl_test_run r = sl_test_cli(cases[i].args);
        cr_assert_eq(r.status == 0 || r.status == 1, 1, "%s: exit %d: %s", cases[i].args, r.status, r.err);
        cr_assert(strstr(r.out, cases[i].want), "%s: %s", cases[i].args, r.out);
        cr_assert(!strstr(r.out, "\\u0001"), "%s: a mark left: %s", cases[i].args, r.out);
        sl_test_run_free(&r);
    }
}

Test(replay_pipeline, cli_pipeline_errors)
{
    sl_test_run r = sl_test_cli("pipeline --framework vllm --logits 3,2,2,1 --typical 0.5");
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.out, "");
    cr_assert(strstr(r.err, "--typical is not an option of framework vllm"), "%s", r.err);
    sl_test_run_free(&r);
    /* --defaults: refused, the defaults always apply */
    static const char *const with_defaults[] = {
        "pipeline --framework hf --logits 3,2,2,1 --defaults", "draw --framework llamacpp --logits 3,2,2,1 --seed 1 --defaults",
        "compare --logits 3,2,2,1 --defaults", "replay --framework hf --logits 3,2,2,1 --defaults"};
    for (size_t i = 0; i < sizeof with_defaults / sizeof *with_defaults; i++) {
        r = sl_test_cli(with_defaults[i]);
        cr_assert_eq(r.status, 2, "%s", with_defaults[i]);
        cr_assert_str_eq(r.out, "");
        cr_assert(strstr(r.err, ": --defaults: refused: each framework's own defaults now always apply") &&
                      sl_test_lines(r.err) == 1,
                  "%s: %s", with_defaults[i], r.err);
        sl_test_run_free(&r);
    }
    r = sl_test_cli("pipeline --framework hf --logits 3,2,2,1 --temperature 0");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "set `do_sample=False`"), "%s", r.err);
    cr_assert_eq(sl_test_lines(r.err), 1);
    sl_test_run_free(&r);
    r = sl_test_cli("pipeline --framework hf --logits 3,2,2,1 --repetition-penalty 1.2 --context 0,7");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "samplab pipeline: --context: entry 1 (7) is not a token id in 0..3"), "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("pipeline --framework nope --logits 1,2");
    cr_assert_eq(r.status, 2);
    sl_test_run_free(&r);
    r = sl_test_cli("pipeline --framework hf --logits 1,nan,2");
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.out, "");
    sl_test_run_free(&r);
}

Test(replay_pipeline, cli_compare_tie_case)
{
    sl_test_run r = sl_test_cli("compare --logits 3,2,2,1 --top-k 2 --frameworks hf,llamacpp");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "hf vs llamacpp: TV 0.211942; hf keeps 1 [2] that llamacpp drops; llamacpp keeps 0 that hf drops"), "%s", r.out);
    /* llama.cpp's own defaults (T 0.8, top-p 0.95, min-p 0.05) written off in the translation */
    cr_assert(strstr(r.out, "samplab pipeline --framework llamacpp --logits 3,2,2,1 --temperature 1 --top-k 3 --top-p 1 "
                            "--min-p 0 reproduces hf"),
              "%s", r.out);
    sl_test_run_free(&r);
    /* the min-p rule: llama.cpp filters before temperature, so its min-p is m^T */
    r = sl_test_cli("compare --logits data/weather.txt --min-p 0.2 --temperature 0.5 --frameworks hf,llamacpp");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "samplab pipeline --framework llamacpp --logits data/weather.txt --temperature 0.5 --top-k 50 "
                            "--top-p 1 --min-p 0.447213595 reproduces hf"),
              "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("compare --logits 3,2,2,1 --typical 0.5 --frameworks hf,vllm");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--typical is not an option of framework vllm"), "%s", r.err);
    sl_test_run_free(&r);
    /* --json: each framework with the settings it ran with, its defaults named */
    r = sl_test_cli("compare --logits 3,2,2,1 --temperature 0.7 --frameworks hf,llamacpp --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"framework\":\"hf\",\"ok\":true,\"settings\":{\"temperature\":0.7,\"top_k\":50,") &&
                  strstr(r.out, "\"framework\":\"llamacpp\",\"ok\":true,\"settings\":{\"temperature\":0.7,\"top_k\":40,"
                                "\"top_p\":0.95,\"min_p\":0.05,") &&
                  strstr(r.out, "\"defaulted\":[\"top_k\",\"top_p\",\"min_p\","),
              "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("compare --logits 3,2,2,1 --temperature 0 --json");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "\"ok\":false") && strstr(r.out, "do_sample=False"), "%s", r.out);
    sl_test_run_free(&r);
}

Test(replay_pipeline, cli_draw_llamacpp)
{
    /* the weather logits with llama.cpp's defaults: 4 candidates survive, two words per draw */
    sl_test_run r = sl_test_cli("draw --framework llamacpp --logits data/weather.txt --seed 42 --n 8 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"name\":\"std-mt19937\"") && strstr(r.out, "\"words\":16") &&
                  strstr(r.out, "\"defaulted\":[\"temperature\",\"top_k\",\"top_p\",\"min_p\","),
              "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework llamacpp --logits data/weather.txt --n 2");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "needs --seed"), "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework llamacpp --probs data/weather.txt --seed 1");
    cr_assert_eq(r.status, 2);
    sl_test_run_free(&r);
}

Test(replay_pipeline, cli_draw_vllm_and_hf)
{
    /* vLLM T = 0: greedy, the first maximum of the penalised logits, no words */
    sl_test_run r = sl_test_cli("draw --framework vllm --logits 1,3,3,2 --temperature 0 --n 3 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"tokens\":[1,1,1]") && strstr(r.out, "\"words\":0"), "%s", r.out);
    sl_test_run_free(&r);
    /* transformers T = 0: the ValueError, nothing drawn */
    r = sl_test_cli("draw --framework hf --logits 1,3,3,2 --temperature 0 --n 3");
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.out, "");
    cr_assert(strstr(r.err, "do_sample=False"), "%s", r.err);
    sl_test_run_free(&r);
    /* a one-sample race spends two words per vocabulary entry */
    r = sl_test_cli("draw --framework hf --logits data/weather.txt --seed 3 --n 5 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"words\":80"), "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework vllm --logits data/weather.txt --typical 0.5 --seed 3");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--typical is not an option of framework vllm"), "%s", r.err);
    sl_test_run_free(&r);
}

/* compare runs candle at temperature 1 when none is given (LogitsProcessor::new
 * without one is ArgMax), so the tie case shows candle's exactly-k rule, and
 * the translations into candle are printed and verified: transformers'
 * do_sample=True (top_k 50) is candle's TopK { k: 50 }, and transformers'
 * top-k + top-p is candle's TopKThenTopP at p x the top-k mass. */
Test(replay_pipeline, cli_compare_candle_translations)
{
    sl_test_run r = sl_test_cli("compare --logits 3,2,2,1 --top-k 2 --frameworks hf,candle");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "candle           2 "), "candle keeps exactly k = 2:\n%s", r.out);
    cr_assert(strstr(r.out, "samplab pipeline --framework candle --logits 3,2,2,1 --temperature 1 --top-k 3 reproduces hf"),
              "%s", r.out);
    cr_assert(strstr(r.out, "note: candle ran at temperature 1"), "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("compare --logits data/weather.txt --temperature 0.7 --frameworks hf,candle,llamacpp");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "note: transformers generate(do_sample=True, temperature=0.7) keeps top_k=50 by default"),
              "%s", r.out);
    cr_assert(strstr(r.out, "samplab pipeline --framework llamacpp --logits data/weather.txt --temperature 0.7 --top-k 50 "
                            "--top-p 1 --min-p 0 reproduces hf (TV 7.48e-09; rule: hf's defaults written out)"),
              "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("compare --logits data/k40p09.txt --temperature 0.7 --top-k 40 --top-p 0.9 --frameworks hf,candle");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "samplab pipeline --framework candle --logits data/k40p09.txt --temperature 0.7 --top-k 40 "
                            "--top-p 0.828719549 "
                            "reproduces hf"),
              "%s", r.out);
    sl_test_run_free(&r);
    /* and the printed command gives hf's 14 tokens */
    r = sl_test_cli("pipeline --framework candle --logits data/k40p09.txt --temperature 0.7 --top-k 40 --top-p 0.828719549");
    cr_assert_eq(r.status, 0, "%s", r.err);
    size_t lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, 14, "candle kept %zu, hf keeps 14:\n%s", lines, r.out);
    sl_test_run_free(&r);
}

/* logits no framework accepts: exit 2, one line on stderr, nothing on stdout */
Test(replay_pipeline, cli_compare_every_framework_refuses)
{
    sl_test_run r = sl_test_cli("compare --logits -inf,-inf,-inf");
    cr_assert_eq(r.status, 2, "status %d\n%s", r.status, r.out);
    cr_assert_str_eq(r.out, "");
    cr_assert_str_eq(r.err, "samplab compare: every framework refused the input: inline: all 3 logits are -infinity\n");
    sl_test_run_free(&r);
    r = sl_test_cli("compare --logits 1,2 --temperature 0 --frameworks hf,tutorial --json");
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.out, "");
    sl_test_run_free(&r);
}

/* candle without a temperature is ArgMax whatever --top-k says: say so on stderr */
Test(replay_pipeline, cli_pipeline_candle_argmax_note)
{
    sl_test_run r = sl_test_cli("pipeline --framework candle --logits 3,2,2,1 --top-k 2");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "0\t1\n");
    cr_assert(strstr(r.err, "candle without --temperature is ArgMax"), "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("pipeline --framework candle --logits 3,2,2,1 --top-k 2 --temperature 1");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    sl_test_run_free(&r);
}

/* a translation with a penalty names the user's own --context, so it runs as printed */
Test(replay_pipeline, cli_compare_translation_keeps_the_context)
{
    sl_test_run r = sl_test_cli("compare --logits data/weather.txt --repetition-penalty 1.3 --context 0,0,1,5 --top-p 0.7 "
                                "--temperature 0.5 --frameworks hf,llamacpp");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "--repetition-penalty 1.3 --context 0,0,1,5 --penalty-last-n 4 reproduces hf"), "%s", r.out);
    cr_assert(!strstr(r.out, "IDS"), "%s", r.out);
    sl_test_run_free(&r);
}

/* the same note from draw --framework candle */
Test(replay_pipeline, cli_draw_candle_argmax_note)
{
    sl_test_run r = sl_test_cli("draw --framework candle --logits 3,2,2,1 --top-k 2 --n 2");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "0\n0\n");
    cr_assert(strstr(r.err, "candle without --temperature is ArgMax"), "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework candle --logits 3,2,2,1 --top-k 2 --temperature 1 --n 2");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    sl_test_run_free(&r);
}
