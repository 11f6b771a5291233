/* sl_io.h — readers and writers beyond the core vector readers (safetensors, draws/counts files, JSON, Markdown, gnuplot).
 * Included by samplab.h; see there for conventions. */
#ifndef SL_IO_H
#define SL_IO_H

#endif
