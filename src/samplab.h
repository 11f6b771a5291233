/* samplab.h — the public C API of samplab, for programs outside the library.
 * No file of the library includes it: each layer includes only its own header
 * and, through it, the layers below (see docs/architecture.md).
 *
 *   base/      errors, seeds, vectors                       sl_base_
 *   rng/       random sources, uniform conversions           sl_rng_
 *   draw/      draw methods over a probability vector        sl_draw_
 *   logits/    softmax and the per-framework pipelines        sl_logits_
 *   framework/ bit-exact framework emulations                 sl_fw_
 *   stats/     goodness of fit, power, exact bookkeeping      sl_stat_
 *   io/        readers and writers                            sl_io_
 *   api/       each command's computation and its JSON        sl_api_
 *   report/    the report runner and its sections             sl_report_
 */
#ifndef SAMPLAB_H
#define SAMPLAB_H

#include "base/sl_base.h"
#include "rng/sl_rng.h"
#include "draw/sl_draw.h"
#include "logits/sl_logits.h"
#include "framework/sl_fw.h"
#include "stats/sl_stat.h"
#include "io/sl_io.h"
#include "api/sl_api.h"
#include "report/sl_report.h"

#endif
