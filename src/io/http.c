/* http.c — JSON over HTTP for `samplab audit`, through libcurl: one request,
 * or several started together (curl's multi interface), so that a server with
 * two slots batches them. Every transfer is bounded in time (connect and
 * total) and in size: a server that does not answer, answers without end or
 * closes mid-body is one line naming the URL, never a hang.
 * libcurl is opened (dlopen) on the first request, not linked: a process that
 * never talks HTTP does not load it and its TLS-using dependencies (with them
 * loaded, clang 14's LeakSanitizer crashes at exit in OpenMP programs). */
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/sl_io.h"

/* The libcurl calls used, resolved from libcurl.so.4 (its soname since 7.16). */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_cleanup)(CURLM *);
} cu;

/* the calls go through the pointers, not curl.h's own macros of these two */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init cu.global_init
#define curl_easy_init cu.easy_init
#define curl_easy_setopt cu.easy_setopt
#define curl_easy_getinfo cu.easy_getinfo
#define curl_easy_cleanup cu.easy_cleanup
#define curl_easy_strerror cu.easy_strerror
#define curl_slist_append cu.slist_append
#define curl_slist_free_all cu.slist_free_all
#define curl_multi_init cu.multi_init
#define curl_multi_add_handle cu.multi_add_handle
#define curl_multi_remove_handle cu.multi_remove_handle
#define curl_multi_perform cu.multi_perform
#define curl_multi_poll cu.multi_poll
#define curl_multi_info_read cu.multi_info_read
#define curl_multi_cleanup cu.multi_cleanup

static int curl_open(sl_error *err)
{
    void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return sl_base_error_set(err, SL_EIO, "http: libcurl.so.4 could not be loaded (Debian: libcurl4): %s",
                                 dlerror());
    static const char *const names[] = {
        "curl_global_init", "curl_easy_init", "curl_easy_setopt", "curl_easy_getinfo", "curl_easy_cleanup",
        "curl_easy_strerror", "curl_slist_append", "curl_slist_free_all", "curl_multi_init",
        "curl_multi_add_handle", "curl_multi_remove_handle", "curl_multi_perform", "curl_multi_poll",
        "curl_multi_info_read", "curl_multi_cleanup"};
    void *fn[sizeof names / sizeof *names];
    _Static_assert(sizeof cu == sizeof fn, "one pointer per name");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!(fn[i] = dlsym(h, names[i])))
            return sl_base_error_set(err, SL_EIO, "http: libcurl.so.4 has no %s (libcurl 7.66 or later is needed)",
                                     names[i]);
    /* POSIX: a dlsym result converts to a function pointer; copied as bytes, which C11 allows */
    memcpy(&cu, fn, sizeof cu);
    return SL_OK;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* curl_global_init is not thread-safe before 7.84; the audit is single-threaded, once is enough */
static int curl_ready(sl_error *err)
{
    static int done;
    if (!done) {
        if (curl_open(err))
            return SL_EIO;
        if (curl_global_init(CURL_GLOBAL_DEFAULT))
            return sl_base_error_set(err, SL_EIO, "http: libcurl failed to initialise");
        done = 1;
    }
    return SL_OK;
}

typedef struct transfer {
    CURL *h;
    struct curl_slist *hdr;
    sl_buf body;
    size_t max;
    int too_big;
    sl_io_http_reply *r;
    double t0;
    char cerr[CURL_ERROR_SIZE];
} transfer;

static size_t on_data(char *p, size_t sz, size_t n, void *u)
{
    transfer *x = u;
    size_t k = sz * n;
    if (x->body.len + k > x->max) {
        x->too_big = 1;
        return 0; /* curl stops the transfer: CURLE_WRITE_ERROR */
    }
    sl_io_buf_append(&x->body, p, k);
    return x->body.oom ? 0 : k;
}

static int setup(transfer *x, const char *url, const char *json, const sl_io_http_opts *o, sl_io_http_reply *r,
                 sl_error *err)
{
    memset(x, 0, sizeof *x);
    memset(r, 0, sizeof *r);
    sl_io_buf_init(&x->body);
    x->r = r;
    x->max = o->max_bytes;
    if (!(x->h = curl_easy_init()))
        return sl_base_error_set(err, SL_ENOMEM, "http: out of memory for a request to %s", url);
    curl_easy_setopt(x->h, CURLOPT_URL, url);
    curl_easy_setopt(x->h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(x->h, CURLOPT_CONNECTTIMEOUT_MS, (long)(o->connect_s * 1e3));
    curl_easy_setopt(x->h, CURLOPT_TIMEOUT_MS, (long)(o->timeout_s * 1e3));
    curl_easy_setopt(x->h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(x->h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(x->h, CURLOPT_ERRORBUFFER, x->cerr);
    curl_easy_setopt(x->h, CURLOPT_PROTOCOLS_STR, "http,https");
    /* a proxy from the environment would send a loopback audit elsewhere */
    curl_easy_setopt(x->h, CURLOPT_NOPROXY, "*");
    if (json) {
        x->hdr = curl_slist_append(NULL, "Content-Type: application/json");
        if (o->bearer) {
            char h[600];
            snprintf(h, sizeof h, "Authorization: Bearer %s", o->bearer);
            x->hdr = curl_slist_append(x->hdr, h);
        }
        curl_easy_setopt(x->h, CURLOPT_HTTPHEADER, x->hdr);
        curl_easy_setopt(x->h, CURLOPT_POSTFIELDS, json);
        curl_easy_setopt(x->h, CURLOPT_POSTFIELDSIZE, (long)strlen(json));
    }
    return SL_OK;
}

/* What the finished transfer x answered, into x->r; the failure as one line. */
static int finish(transfer *x, const char *url, CURLcode cc, const sl_io_http_opts *o, sl_error *err)
{
    sl_io_http_reply *r = x->r;
    r->time_ms = now_ms() - x->t0;
    curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &r->status);
    int rc = SL_OK;
    if (x->body.oom)
        rc = sl_base_error_set(err, SL_ENOMEM, "http: out of memory for the answer of %s", url);
    else if (x->too_big)
        rc = sl_base_error_set(err, SL_EIO, "%s: the answer exceeds %zu bytes (a server that does not stop)", url,
                               o->max_bytes);
    else if (cc != CURLE_OK)
        rc = sl_base_error_set(err, SL_EIO, "%s: %s", url, x->cerr[0] ? x->cerr : curl_easy_strerror(cc));
    r->body = x->body.data;
    r->len = x->body.len;
    x->body.data = NULL;
    if (!r->body && !(r->body = calloc(1, 1)) && !rc)
        rc = sl_base_error_set(err, SL_ENOMEM, "http: out of memory");
    curl_slist_free_all(x->hdr);
    curl_easy_cleanup(x->h);
    sl_io_buf_free(&x->body);
    return rc;
}

int sl_io_http_many(const char *url, const char *const *json, size_t n, const sl_io_http_opts *o,
                    sl_io_http_reply *replies, sl_error *err)
{
    if (curl_ready(err))
        return SL_EIO;
    if (!n)
        return SL_OK;
    transfer *x = calloc(n, sizeof *x);
    CURLM *m = curl_multi_init();
    if (!x || !m) {
        free(x);
        if (m)
            curl_multi_cleanup(m);
        return sl_base_error_set(err, SL_ENOMEM, "http: out of memory for %zu requests", n);
    }
    int rc = SL_OK;
    size_t made = 0;
    for (; made < n; made++) {
        if ((rc = setup(&x[made], url, json ? json[made] : NULL, o, &replies[made], err))) {
            if (x[made].h)
                curl_easy_cleanup(x[made].h);
            break;
        }
        curl_multi_add_handle(m, x[made].h);
    }
    double t0 = now_ms();
    for (size_t i = 0; i < made; i++)
        x[i].t0 = t0;
    if (!rc) {
        int running = 1;
        while (running) {
            if (curl_multi_perform(m, &running) != CURLM_OK)
                break;
            if (running)
                curl_multi_poll(m, NULL, 0, 100, NULL);
        }
    }
    /* each transfer's own result; the first failure is the message */
    CURLMsg *msg;
    int left;
    CURLcode *codes = calloc(made ? made : 1, sizeof *codes);
    for (size_t i = 0; codes && i < made; i++)
        codes[i] = CURLE_OPERATION_TIMEDOUT;
    while (codes && (msg = curl_multi_info_read(m, &left)))
        if (msg->msg == CURLMSG_DONE)
            for (size_t i = 0; i < made; i++)
                if (x[i].h == msg->easy_handle)
                    codes[i] = msg->data.result;
    for (size_t i = 0; i < made; i++) {
        curl_multi_remove_handle(m, x[i].h);
        sl_error e;
        int r1 = finish(&x[i], url, codes ? codes[i] : CURLE_OUT_OF_MEMORY, o, &e);
        replies[i].started_ms = t0;
        if (r1 && !rc) {
            rc = r1;
            *err = e;
        }
    }
    free(codes);
    free(x);
    curl_multi_cleanup(m);
    return rc;
}

int sl_io_http(const char *url, const char *json, const sl_io_http_opts *o, sl_io_http_reply *r, sl_error *err)
{
    const char *one[1] = {json};
    return sl_io_http_many(url, json ? one : NULL, 1, o, r, err);
}

void sl_io_http_reply_free(sl_io_http_reply *r)
{
    if (r) {
        free(r->body);
        r->body = NULL;
    }
}
