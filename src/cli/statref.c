/* statref.c — what `samplab gof`, `power` and `calibrate` share: reading the
 * reference distribution (--probs weights normalised by their sum, or
 * --logits through the stable softmax with --temperature) and drawing N
 * tokens into counts with a draw method over a random source, as
 * `samplab draw --method` does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

void sl_cli_ref_from(const sl_cli_parsed *p, sl_api_ref_opts *o)
{
    memset(o, 0, sizeof *o);
    o->probs = p->a[SL_API_OPT_PROBS].text;
    o->logits = p->a[SL_API_OPT_LOGITS].text;
    o->tensor = p->a[SL_API_OPT_TENSOR].text;
    o->row = p->a[SL_API_OPT_ROW].given ? p->a[SL_API_OPT_ROW].l : -1;
    o->has_temperature = p->a[SL_API_OPT_TEMPERATURE].given;
    o->temperature = p->a[SL_API_OPT_TEMPERATURE].d;
}
