/* sl_logits.h — logits pipelines per framework (temperature, top-k, top-p, min-p, typical, penalties).
 * Included by samplab.h; see there for conventions. */
#ifndef SL_LOGITS_H
#define SL_LOGITS_H

#endif
