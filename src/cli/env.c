/* env.c — the OpenMP settings of the environment, checked before libgomp reads them.
 * libgomp (GCC 12, libgomp/env.c initialize_env) parses OMP_* and GOMP_* in a
 * constructor that runs before main: a value it cannot parse (a newline in it, a
 * stack size of "100T") gets a two-line warning and is ignored, and a thread
 * count it can parse is taken as is, so OMP_NUM_THREADS=100000 ends the first
 * parallel region in SIGSEGV. main.c calls sl_cli_env_check from .preinit_array,
 * which runs before any shared library's constructor (ELF gABI, DT_PREINIT_ARRAY),
 * so such a value is refused in one line first. The settings checked here are
 * the ones that change what samplab runs; the rest go to libgomp as given. */
#include <string.h>

#include "cli/sl_cli.h"

/* Whether v is d1[,d2...]: decimal integers (spaces around each) from lo to hi. */
static int int_list(const char *v, unsigned long long lo, unsigned long long hi)
{
    for (;;) {
        while (*v == ' ')
            v++;
        if (*v < '0' || *v > '9')
            return 0;
        unsigned long long x = 0;
        for (; *v >= '0' && *v <= '9'; v++) {
            if (x > hi)
                return 0;
            x = 10 * x + (unsigned long long)(*v - '0');
        }
        if (x < lo || x > hi)
            return 0;
        while (*v == ' ')
            v++;
        if (!*v)
            return 1;
        if (*v++ != ',')
            return 0;
    }
}

/* Whether v is one of the words in list (case-insensitive, spaces around it), as libgomp's parse_boolean reads. */
static int word(const char *v, const char *const *list)
{
    while (*v == ' ')
        v++;
    size_t n = strlen(v);
    while (n && v[n - 1] == ' ')
        n--;
    for (; *list; list++) {
        size_t k = strlen(*list), i = 0;
        if (k != n)
            continue;
        while (i < k && (v[i] | 0x20) == (*list)[i])
            i++;
        if (i == k)
            return 1;
    }
    return 0;
}

/* Whether v is a stack size libgomp reads (digits, an optional B, K, M or G; no suffix: K) of at most 1 GiB. */
static int stack_size(const char *v)
{
    while (*v == ' ')
        v++;
    unsigned long long x = 0;
    if (*v < '0' || *v > '9')
        return 0;
    for (; *v >= '0' && *v <= '9'; v++)
        if ((x = 10 * x + (unsigned long long)(*v - '0')) > (1ull << 40))
            return 0;
    while (*v == ' ')
        v++;
    int shift = 10;
    switch (*v | 0x20) {
    case 'b': shift = 0; v++; break;
    case 'k': shift = 10; v++; break;
    case 'm': shift = 20; v++; break;
    case 'g': shift = 30; v++; break;
    default: break;
    }
    while (*v == ' ')
        v++;
    return !*v && x > 0 && x <= (1ull << 30) >> shift;
}

int sl_cli_env_check(char *const *envp, char *msg, size_t n)
{
    static const char *const booleans[] = {"true", "false", NULL};
    static const char *const display[] = {"true", "false", "verbose", NULL};
    for (; envp && *envp; envp++) {
        const char *e = *envp, *eq = strchr(e, '=');
        if (!eq || (strncmp(e, "OMP_", 4) && strncmp(e, "GOMP_", 5)))
            continue;
        char name[64], esc[256];
        size_t nl = (size_t)(eq - e) < sizeof name - 1 ? (size_t)(eq - e) : sizeof name - 1;
        memcpy(name, e, nl);
        name[nl] = '\0';
        const char *v = eq + 1, *why = NULL;
        for (const char *c = v; *c && !why; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
                why = "a control or non-ASCII byte: an OpenMP setting is one line of ASCII";
        if (why)
            ;
        else if (!strcmp(name, "OMP_NUM_THREADS") && !int_list(v, 1, SL_CLI_MAX_THREADS))
            why = "each entry is a thread count from 1 to " SL_CLI_MAX_THREADS_TEXT;
        else if (!strcmp(name, "OMP_THREAD_LIMIT") && !int_list(v, 1, 1ull << 31))
            why = "a thread limit is one positive integer";
        else if ((!strcmp(name, "OMP_STACKSIZE") || !strcmp(name, "GOMP_STACKSIZE")) && !stack_size(v))
            why = "a stack size such as 512K, 8M or 1G, at most 1G";
        else if ((!strcmp(name, "OMP_DYNAMIC") || !strcmp(name, "OMP_NESTED") || !strcmp(name, "OMP_CANCELLATION") ||
                  !strcmp(name, "OMP_DISPLAY_AFFINITY")) && !word(v, booleans))
            why = "true or false";
        else if (!strcmp(name, "OMP_DISPLAY_ENV") && !word(v, display))
            why = "true, false or verbose";
        if (why) {
            /* the message is built without stdio: libc's constructors have not run yet */
            sl_base_esc_str(v, esc, sizeof esc);
            size_t k = 0;
            const char *parts[] = {"samplab: ", name, "='", esc, "': ", why, "\n", NULL};
            for (size_t i = 0; parts[i] && n; i++)
                for (const char *c = parts[i]; *c && k + 1 < n; c++)
                    msg[k++] = *c;
            if (n) {
                if (k && msg[k - 1] != '\n')
                    msg[k - 1] = '\n';
                msg[k] = '\0';
            }
            return 2;
        }
    }
    return 0;
}
