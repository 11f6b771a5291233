/* sweep_mpi.c — `samplab sweep` under mpirun (Open MPI). Rank 0 reads the spec,
 * broadcasts its bytes, prepares the folder, and hands out grid points one at a
 * time, since their costs differ by orders of magnitude: a rank asks, is given
 * a point, sends back its record and asks again. Rank 0 computes too, in a
 * second thread, while its main thread serves the others (MPI_THREAD_SERIALIZED:
 * only that thread calls MPI). Every rank appends its finished points to its own
 * checkpoint file; rank 0 gathers the records and writes them in grid order, so
 * the bytes are those of a serial run. Built only when Open MPI is found
 * (SL_HAVE_MPI); without it, a run under mpirun is refused rather than run P
 * times over. */
#define _GNU_SOURCE /* strndup, pthreads with -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

int sl_cli_sweep_mpi_launched(void)
{
    /* mpirun sets these in every rank it starts (Open MPI, PMIx, MPICH's PMI) */
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

#ifndef SL_HAVE_MPI

int sl_cli_sweep_mpi(int argc, char **argv, const char *spec, const char *dir, int resume)
{
    (void)argc;
    (void)argv;
    (void)spec;
    (void)dir;
    (void)resume;
    sl_cli_errf("samplab sweep: this samplab was built without Open MPI (libopenmpi-dev), so under "
                    "mpirun each rank would run the whole study; rebuild with it, or run without mpirun\n");
    return 2;
}

#else

#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { TAG_RESULT = 1, TAG_WORK = 2 };
/* up to this many ranks, rank 0 also computes points (docs/sweep.md) */
enum { SERVE_AND_COMPUTE_MAX = 8 };

typedef struct shared {
    sl_cli_sweep_run *r;
    pthread_mutex_t mu;
    size_t next;      /* the next entry of r->todo to hand out */
    size_t done;      /* records gathered */
    int local_done, oom;
} shared;

/* Ctrl-C under mpirun: Open MPI 4.1's mpirun answers it by sending SIGTERM to
 * every rank (never SIGINT; the ranks are not in the terminal's process group)
 * and then exits 1 itself, whatever the ranks return. So each rank takes
 * SIGTERM as the interrupt: rank 0 says, in the serial run's one line, that
 * the checkpoint keeps the finished points, and every rank stops with 130. */
static volatile sig_atomic_t stop_finished; /* rank 0: records gathered, resumed ones included */
static char stop_head[SL_CLI_ESC_MAX + 128];
static size_t stop_head_len;
static int stop_rank, stop_progress; /* stop_progress: a progress line to end first */

static void on_term(int sig)
{
    (void)sig;
    if (stop_rank == 0) {
        static const char tail[] = " finished points: run again with --resume\n";
        char num[24];
        size_t k = sizeof num;
        unsigned long v = (unsigned long)stop_finished;
        do
            num[--k] = (char)('0' + v % 10);
        while ((v /= 10) && k);
        ssize_t w = stop_progress ? write(2, "\n", 1) : 0;
        w = write(2, stop_head, stop_head_len);
        w = write(2, num + k, sizeof num - k);
        w = write(2, tail, sizeof tail - 1);
        (void)w;
    } else {
        /* Open MPI 4.1's mpirun signals the ranks one after another, and one
         * rank's exit during that teardown makes it SIGKILL those it has not
         * reached yet: a rank other than 0 lingers so rank 0 gets its SIGTERM
         * and its line out (mpirun's own SIGKILL follows a second later) */
        struct timespec ts = {0, 300000000};
        nanosleep(&ts, NULL);
    }
    _exit(SL_CLI_EXIT_INTERRUPTED);
}

static void catch_term(int rank, const char *dir)
{
    char e[SL_CLI_ESC_MAX];
    stop_rank = rank;
    int n = snprintf(stop_head, sizeof stop_head,
                     "samplab sweep: interrupted (Ctrl-C: mpirun stopped the ranks); %s/checkpoint keeps at least ",
                     sl_cli_esc(dir, e, sizeof e));
    stop_head_len = n < 0 ? 0 : (size_t)n < sizeof stop_head ? (size_t)n : sizeof stop_head - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
}

/* Whether the progress line has a terminal to go to: rank 0's own stderr, or,
 * as mpirun hands its ranks a pipe for stderr, mpirun's (the parent of a rank
 * it starts on this host). In that case rank 0's stderr becomes that terminal:
 * Open MPI 4.1's mpirun, tearing a job down after Ctrl-C, at times drops what a
 * rank wrote last, and that last line is the one saying how to resume. */
static int progress_tty(void)
{
    if (isatty(2))
        return 1;
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/%ld/fd/2", (long)getppid());
    if (stat(path, &st) || !S_ISCHR(st.st_mode))
        return 0;
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    int tty = fd >= 0 && isatty(fd) && dup2(fd, 2) == 2;
    if (fd >= 0)
        close(fd);
    return tty;
}

/* The next point to run, or -1 when all are handed out. */
static long long take(shared *s)
{
    pthread_mutex_lock(&s->mu);
    long long i = s->next < s->r->n_todo ? (long long)s->r->todo[s->next++] : -1;
    pthread_mutex_unlock(&s->mu);
    return i;
}

static void *compute(void *arg)
{
    shared *s = arg;
    for (long long i; (i = take(s)) >= 0;) {
        char *rec = sl_cli_sweep_do(s->r, (size_t)i);
        pthread_mutex_lock(&s->mu);
        s->r->records[i] = rec;
        s->oom |= rec == NULL;
        s->done++;
        stop_finished = (sig_atomic_t)(s->done + s->r->n_resumed);
        pthread_mutex_unlock(&s->mu);
        if (!rec) /* out of memory, or Ctrl-C (r->interrupted): this rank computes no more */
            break;
    }
    pthread_mutex_lock(&s->mu);
    s->local_done = 1;
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static int lost(int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    sl_cli_errf("samplab sweep: %s failed (%.*s): a rank has stopped; the checkpoint keeps the finished "
                    "points, run again with --resume\n", what, len, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 2;
}

/* Rank 0's main thread: answers every request with a point (or -1: stop),
 * gathers the records, and prints the progress line. */
static int serve(shared *s, int size, FILE *progress)
{
    sl_cli_sweep_run *r = s->r;
    int active = size - 1;
    char *buf = NULL;
    int cap = 0;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        int local = s->local_done;
        size_t done = s->done;
        pthread_mutex_unlock(&s->mu);
        if (!active && local)
            break;
        int flag = 0, rc;
        MPI_Status st;
        if ((rc = MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st)) != MPI_SUCCESS)
            return lost(rc, "MPI_Iprobe");
        if (!flag) {
            r->progress = progress;
            sl_cli_sweep_progress(r, done, 0);
            /* a short sleep, not a spin: rank 0's own points need the core */
            struct timespec ts = {0, 300000};
            nanosleep(&ts, NULL);
            continue;
        }
        int n = 0;
        MPI_Get_count(&st, MPI_CHAR, &n);
        if (n + 1 > cap) {
            char *nb = realloc(buf, (size_t)n + 1);
            if (!nb) {
                free(buf);
                sl_cli_errf("samplab sweep: out of memory gathering a record\n");
                MPI_Abort(MPI_COMM_WORLD, 2);
                return 2;
            }
            buf = nb;
            cap = n + 1;
        }
        if ((rc = MPI_Recv(buf, n, MPI_CHAR, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return lost(rc, "MPI_Recv");
        if (n >= 8) { /* a record: its point, then its text; an empty message only asks */
            long long i;
            memcpy(&i, buf, 8);
            char *rec = strndup(buf + 8, (size_t)n - 8);
            pthread_mutex_lock(&s->mu);
            if (i >= 0 && (size_t)i < r->sw.n_points && !r->records[i])
                r->records[i] = rec;
            else
                free(rec);
            s->oom |= rec == NULL;
            s->done++;
            stop_finished = (sig_atomic_t)(s->done + r->n_resumed);
            pthread_mutex_unlock(&s->mu);
        }
        long long next = take(s);
        if ((rc = MPI_Send(&next, 1, MPI_LONG_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD)) != MPI_SUCCESS)
            return lost(rc, "MPI_Send");
        active -= next < 0;
    }
    free(buf);
    r->progress = progress;
    sl_cli_sweep_progress(r, s->done, 1);
    return r->interrupted ? SL_CLI_EXIT_INTERRUPTED : s->oom ? 2 : 0;
}

/* Any other rank: ask, run what is given, send the record, until told to stop. */
static int work(sl_cli_sweep_run *r)
{
    int rc;
    if ((rc = MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD)) != MPI_SUCCESS)
        return lost(rc, "MPI_Send");
    for (;;) {
        long long i;
        if ((rc = MPI_Recv(&i, 1, MPI_LONG_LONG, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return lost(rc, "MPI_Recv");
        if (i < 0)
            return 0;
        char *rec = sl_cli_sweep_do(r, (size_t)i);
        if (!rec) {
            if (!r->write_failed)
                sl_cli_errf("samplab sweep: %s at point %lld; the checkpoint keeps the finished points: run "
                            "again with --resume", r->interrupted ? "interrupted (Ctrl-C)" : "out of memory", i);
            MPI_Abort(MPI_COMM_WORLD, r->interrupted ? SL_CLI_EXIT_INTERRUPTED : 2);
            return 2;
        }
        size_t n = strlen(rec);
        char *msg = malloc(n + 8);
        if (!msg || n > (size_t)0x7fffffff - 8) {
            sl_cli_errf("samplab sweep: the record of point %lld is too large to send\n", i);
            MPI_Abort(MPI_COMM_WORLD, 2);
            return 2;
        }
        memcpy(msg, &i, 8);
        memcpy(msg + 8, rec, n);
        free(rec);
        rc = MPI_Send(msg, (int)(n + 8), MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD);
        free(msg);
        if (rc != MPI_SUCCESS)
            return lost(rc, "MPI_Send");
    }
}

int sl_cli_sweep_mpi(int argc, char **argv, const char *spec, const char *dir, int resume)
{
    (void)argc;
    (void)argv;
    int provided = 0, rank = 0, size = 1;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        sl_cli_errf("samplab sweep: MPI_Init_thread failed\n");
        return 2;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_SERIALIZED && rank == 0 && size > 1)
        sl_cli_errf("samplab sweep: this MPI gives no MPI_THREAD_SERIALIZED; rank 0 only hands out points\n");

    sl_cli_sweep_run r;
    memset(&r, 0, sizeof r);
    r.dir = dir;
    r.resume = resume;
    r.rank = rank;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    r.t0 = (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;

    /* rank 0 reads and checks the spec; the others parse the same bytes */
    long long len = -1;
    int rc = 0;
    if (rank == 0)
        len = sl_cli_sweep_read(&r.sw, spec, stderr) ? -1 : (long long)r.sw.text_len;
    MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (len < 0) {
        sl_cli_sweep_run_free(&r);
        MPI_Finalize();
        return 2;
    }
    if (rank != 0) {
        FILE *quiet = fopen("/dev/null", "w");
        r.sw.path = spec;
        r.sw.err = quiet ? quiet : stderr;
        r.sw.text = malloc((size_t)len + 1);
        if (!r.sw.text)
            MPI_Abort(MPI_COMM_WORLD, 2);
        r.sw.text_len = (size_t)len;
    }
    MPI_Bcast(r.sw.text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        r.sw.text[len] = 0;
        rc = sl_cli_sweep_parse(&r.sw);
        if (r.sw.err != stderr)
            fclose(r.sw.err);
        r.sw.err = stderr;
    }
    /* rank 0 prepares the folder; every rank then opens its checkpoint file */
    if (rank == 0)
        rc = sl_cli_sweep_setup(&r);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!rc)
        rc = sl_cli_sweep_open_rank(&r);
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst) {
        sl_cli_sweep_run_free(&r);
        MPI_Finalize();
        return 2;
    }

    catch_term(rank, dir);
    stop_finished = (sig_atomic_t)r.n_resumed;
    if (size == 1) { /* one rank: the serial loop, no thread to serve others */
        r.progress = progress_tty() ? stderr : NULL;
        stop_progress = r.progress != NULL;
        for (size_t k = 0; !rc && k < r.n_todo; k++) {
            r.records[r.todo[k]] = sl_cli_sweep_do(&r, r.todo[k]);
            stop_finished = (sig_atomic_t)(k + 1 + r.n_resumed);
            rc = r.records[r.todo[k]] ? 0 : r.interrupted ? SL_CLI_EXIT_INTERRUPTED : 2;
            sl_cli_sweep_progress(&r, k + 1, k + 1 == r.n_todo);
        }
        r.progress = NULL;
    } else if (rank == 0) {
        FILE *progress = progress_tty() ? stderr : NULL; /* the points never touch stderr: no thread swaps it */
        stop_progress = progress != NULL;
        shared s;
        memset(&s, 0, sizeof s);
        s.r = &r;
        pthread_mutex_init(&s.mu, NULL);
        pthread_t th;
        /* with many ranks rank 0 only serves: a point it computed would keep
         * the others waiting for their next one */
        int threaded = provided >= MPI_THREAD_SERIALIZED && size <= SERVE_AND_COMPUTE_MAX;
        if (threaded && pthread_create(&th, NULL, compute, &s) != 0)
            threaded = 0;
        if (!threaded)
            s.local_done = 1;
        rc = serve(&s, size, progress);
        if (threaded)
            pthread_join(th, NULL);
        pthread_mutex_destroy(&s.mu);
        r.progress = NULL;
        if (!rc && s.oom)
            rc = 2;
    } else {
        rc = work(&r);
    }
    /* every rank has closed its last point before rank 0 swaps the folder */
    if (r.ckpt) {
        fclose(r.ckpt);
        r.ckpt = NULL;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && !rc)
        rc = sl_cli_sweep_finish(&r);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    sl_cli_sweep_run_free(&r);
    MPI_Finalize();
    return rc;
}

#endif
