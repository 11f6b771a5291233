/* lsan_runner.c — LeakSanitizer checks every test's process, not Criterion's runner.
 * Criterion 2.4 (Debian 12) loses a 48-byte timeout record of its own in the runner
 * process when a run holds many tests with .timeout; a suppression would have to name
 * libcriterion, which is in every test's stack too and would hide the tests' leaks.
 * BoxFort starts each test's process with BXFI_MAP set; the runner has none. */
#include <stdlib.h>

int __lsan_is_turned_off(void);

int __lsan_is_turned_off(void)
{
    return getenv("BXFI_MAP") == NULL;
}
