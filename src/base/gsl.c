/* gsl.c — GSL's abort-on-error handler, switched off once for every layer that
 * calls GSL (rng's adapter, stats' distributions, the gsl framework, the report). */
#include <pthread.h>

#include <gsl/gsl_errno.h>

#include "base/sl_base.h"

/* GSL's default error handler aborts the process. Every samplab function
 * that calls GSL calls this first, so GSL reports through return values
 * instead. gsl_set_error_handler is one process-wide variable, so it is set
 * once (pthread_once) and never restored: a save/restore around each call
 * would race between the report's OpenMP threads. */
static pthread_once_t gsl_quiet_once = PTHREAD_ONCE_INIT;

static void gsl_quiet_init(void)
{
    gsl_set_error_handler_off();
}

void sl_base_gsl_quiet(void)
{
    pthread_once(&gsl_quiet_once, gsl_quiet_init);
}
