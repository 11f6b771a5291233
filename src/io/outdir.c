/* outdir.c — the output-folder policy of the commands that write a set of
 * files (report, sweep): the target folder (its link resolved) is replaced as
 * a whole. The new set is built in a staging folder beside it,
 * DIR/.NAME.staging.PID, which starts empty or from hard links to the old
 * set's files in the sub-folders the caller keeps (a partial run keeps the
 * rest); staging folders of processes that died are removed first; the new
 * set goes in with sl_io_dir_swap and the old one, then under the staging
 * name, goes. A run stopped half-way (a signal) leaves the old set in place
 * (sl_io_outdir_recover). What the target may hold is the caller's rule.
 * Also the file writer the set is made with (a temporary file renamed into
 * place: rename(2) is atomic within one file system, so readers see the old
 * file or the new one, never half of it) and mkdir -p. No upstream
 * counterpart; plain C11 + POSIX. */
#define _XOPEN_SOURCE 700 /* realpath, for an --out that is a link */
#define _DEFAULT_SOURCE    /* flock */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "io/sl_io.h"

int sl_io_outdir_target(const char *outdir, char *buf, size_t n, sl_error *err)
{
    struct stat st;
    const char *t = outdir;
    char *real = NULL;
    if (lstat(outdir, &st) == 0 && S_ISLNK(st.st_mode)) {
        if (!(real = realpath(outdir, NULL)))
            return sl_base_error_set(err, SL_EIO, "%s: a link to nothing usable: %s", outdir, strerror(errno));
        t = real;
    }
    size_t len = strlen(t);
    while (len > 1 && t[len - 1] == '/')
        len--;
    int rc = 0;
    if (len == 0 || len >= n)
        rc = sl_base_error_set(err, SL_EINVAL, "--out: '%s' is no usable folder name", outdir);
    else {
        memcpy(buf, t, len);
        buf[len] = '\0';
    }
    free(real);
    return rc;
}

int sl_io_outdir_beside(const char *outdir, const char *what, char *buf, size_t n, sl_error *err)
{
    char t[4096];
    int rc = sl_io_outdir_target(outdir, t, sizeof t, err);
    if (rc)
        return rc;
    const char *slash = strrchr(t, '/');
    const char *base = slash ? slash + 1 : t;
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        return sl_base_error_set(err, SL_EINVAL, "--out %s: name a folder of its own (it is replaced as a whole)",
                                 outdir);
    int k = slash ? snprintf(buf, n, "%.*s/.%s.%s", (int)(slash - t), t, base, what)
                  : snprintf(buf, n, ".%s.%s", base, what);
    if (k < 0 || (size_t)k >= n)
        return sl_base_error_set(err, SL_EINVAL, "--out %s: path too long", outdir);
    return 0;
}

int sl_io_outdir_staging_path(const char *outdir, long pid, char *buf, size_t n, sl_error *err)
{
    char what[40];
    snprintf(what, sizeof what, "staging.%ld", pid);
    return sl_io_outdir_beside(outdir, what, buf, n, err);
}

/* The pid a lock file names (its holder writes it once locked), 0 if none yet. */
static long lock_pid(int fd)
{
    char b[32];
    ssize_t n = pread(fd, b, sizeof b - 1, 0);
    if (n <= 0)
        return 0;
    b[n] = 0;
    char *end;
    long pid = strtol(b, &end, 10);
    return end != b && *end == '\n' && pid > 0 ? pid : 0;
}

int sl_io_outdir_lock(sl_io_lock *l, const char *outdir, sl_error *err)
{
    l->fd = -1;
    l->held = 0;
    int rc = sl_io_outdir_beside(outdir, "lock", l->path, sizeof l->path, err);
    /* flock(2): the lock belongs to the open file, so a child forked to do the work
     * (the report's) holds it with its parent and it ends when both have closed it or
     * died (no stale lock); the holder writes its pid for the refusal. The file is
     * checked to be the one at the path after locking, since the holder removes it */
    for (int tries = 0; !rc && tries < 200; tries++) {
        int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0 && errno == ENOENT && !tries) { /* --out a/b/c with a/b new: made, as the set would make it */
            char parent[4200];
            snprintf(parent, sizeof parent, "%s", l->path);
            char *slash = strrchr(parent, '/');
            if (slash && slash != parent) {
                *slash = 0;
                if ((rc = sl_io_mkdir_p(parent, err)))
                    return rc;
                fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
            }
        }
        if (fd < 0 && errno == ENOTDIR) /* --out under a file: said as the folder checks say it */
            return sl_base_error_set(err, SL_EINVAL, "--out %s: not a folder: a part of its path is a file", outdir);
        if (fd < 0)
            return sl_base_error_set(err, SL_EIO, "--out %s: cannot make its lock %s: %s", outdir, l->path,
                                     strerror(errno));
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            long pid = e == EWOULDBLOCK ? lock_pid(fd) : 0;
            close(fd);
            if (e != EWOULDBLOCK)
                return sl_base_error_set(err, SL_EIO, "--out %s: cannot lock %s: %s", outdir, l->path, strerror(e));
            if (!pid && tries < 199) { /* locked a moment ago, its pid not yet written */
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
                continue;
            }
            char who[64] = "another samplab process";
            if (pid)
                snprintf(who, sizeof who, "samplab process %ld", pid);
            return sl_base_error_set(err, SL_EINVAL, "--out %s is in use: %s is held by %s; wait for it to end "
                                     "or name another folder", outdir, l->path, who);
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
                int e = errno;
                unlink(l->path);
                close(fd);
                return sl_base_error_set(err, SL_EIO, "--out %s: cannot write its lock %s: %s", outdir, l->path,
                                         strerror(e));
            }
            l->fd = fd;
            l->held = 1;
            return 0;
        }
        close(fd); /* removed by its holder after we opened it: the lock is on a new file */
    }
    return rc ? rc : sl_base_error_set(err, SL_EIO, "--out %s: cannot lock %s", outdir, l->path);
}

void sl_io_outdir_unlock(sl_io_lock *l)
{
    if (!l->held)
        return;
    unlink(l->path); /* while still held: a process that opened it finds another file at the path */
    close(l->fd);
    l->fd = -1;
    l->held = 0;
}

int sl_io_outdir_init(sl_io_outdir *o, const char *outdir, const char *staging, long pid, sl_error *err)
{
    memset(o, 0, sizeof *o);
    int rc = sl_io_outdir_target(outdir, o->target, sizeof o->target, err);
    if (rc)
        return rc;
    if (!staging)
        return sl_io_outdir_staging_path(o->target, pid, o->staging, sizeof o->staging, err);
    if (strlen(staging) >= sizeof o->staging)
        return sl_base_error_set(err, SL_EINVAL, "%s: path too long", staging);
    strcpy(o->staging, staging);
    return 0;
}

/* Removes staging folders of runs that died without cleaning up (their
 * process is gone): DIR/.NAME.staging.PID[.old] beside our own. */
static void remove_stale(const char *staging)
{
    const char *slash = strrchr(staging, '/');
    const char *base = slash ? slash + 1 : staging;
    const char *dot = strrchr(base, '.'); /* before our PID */
    if (!dot)
        return;
    size_t plen = (size_t)(dot - base) + 1;
    char dir[4200];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - staging) : 1, slash ? staging : ".");
    if (slash && slash == staging)
        snprintf(dir, sizeof dir, "/");
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, base, plen) || !strcmp(e->d_name, base))
            continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if (end == e->d_name + plen || (*end && strcmp(end, ".old")) || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[8400];
        sl_error ignored;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        sl_io_tree_remove(path, &ignored);
    }
    if (d)
        closedir(d);
}

int sl_io_outdir_begin(sl_io_outdir *o, const char *const *keep, sl_error *err)
{
    remove_stale(o->staging);
    o->open = 1;
    int rc = sl_io_tree_remove(o->staging, err);
    if (!rc)
        rc = sl_io_mkdir_p(o->staging, err);
    struct stat st;
    if (!rc && stat(o->target, &st) == 0)
        chmod(o->staging, st.st_mode & 07777); /* the mode of the folder it replaces */
    for (size_t i = 0; !rc && keep && keep[i]; i++) {
        char from[4200], to[4300];
        snprintf(from, sizeof from, "%s%s%s", o->target, *keep[i] ? "/" : "", keep[i]);
        snprintf(to, sizeof to, "%s%s%s", o->staging, *keep[i] ? "/" : "", keep[i]);
        rc = sl_io_dir_link_files(from, to, err);
    }
    return rc;
}

int sl_io_outdir_commit(sl_io_outdir *o, sl_error *err)
{
    int rc = sl_io_dir_swap(o->staging, o->target, err);
    if (!rc) {
        sl_error ignored;
        sl_io_tree_remove(o->staging, &ignored); /* the old set */
        o->open = 0;
    }
    return rc;
}

void sl_io_outdir_discard(sl_io_outdir *o)
{
    if (!o->open)
        return;
    sl_error ignored;
    sl_io_tree_remove(o->staging, &ignored);
    o->open = 0;
}

void sl_io_outdir_recover(const char *staging, const char *target)
{
    char aside[4300];
    struct stat st;
    sl_error ignored;
    snprintf(aside, sizeof aside, "%s.old", staging);
    /* stopped between the two renames of a swap without renameat2: the old set goes back */
    if (lstat(target, &st) != 0 && lstat(aside, &st) == 0)
        rename(aside, target);
    sl_io_tree_remove(aside, &ignored);
    sl_io_tree_remove(staging, &ignored);
}

int sl_io_write_atomic(const char *path, const char *data, size_t len, sl_error *err)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp)
        return sl_base_error_set(err, SL_EINVAL, "%s: path too long", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return sl_base_error_set(err, SL_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    size_t w = len ? fwrite(data, 1, len, f) : 0;
    int bad = (w != len) | ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        int e = errno;
        remove(tmp);
        return sl_base_error_set(err, SL_EIO, "%s: write failed: %s", path, strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return sl_base_error_set(err, SL_EIO, "%s: cannot rename into place: %s", path, strerror(e));
    }
    return 0;
}

int sl_io_mkdir_p(const char *path, sl_error *err)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return sl_base_error_set(err, SL_EINVAL, "bad directory name '%s'", path);
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return sl_base_error_set(err, SL_EIO, "%s: cannot create directory: %s", buf, strerror(errno));
            buf[i] = c;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return sl_base_error_set(err, SL_EIO, "%s: not a directory", path);
    return 0;
}
