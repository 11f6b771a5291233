/* sl_framework.h — framework emulations: generators and helpers of the bit-exact emulations.
 * Included by samplab.h; see there for conventions. */
#ifndef SL_FRAMEWORK_H
#define SL_FRAMEWORK_H

#endif
