/* sl_stats.h — statistics: goodness of fit, total variation, power, calibration, exact audit.
 * Included by samplab.h; see there for conventions. */
#ifndef SL_STATS_H
#define SL_STATS_H

#endif
