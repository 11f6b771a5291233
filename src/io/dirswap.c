/* dirswap.c — replacing a whole folder of outputs in one step: a new set is
 * built in a staging folder beside the target, files of the old set that the
 * new one keeps are hard-linked in (a rewrite renames a new file over the
 * link, so the old set's files are never touched), and the staging folder
 * and the target are exchanged. On Linux renameat2(RENAME_EXCHANGE) swaps the
 * two names atomically (Linux 3.15, glibc 2.28); elsewhere, or on a file
 * system without it, two renames leave a window in which the target is
 * absent and the old set sits under the staging name. No upstream
 * counterpart; plain C11 + POSIX. */
#define _GNU_SOURCE /* syscall() for renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "io/sl_io.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1) /* linux/fs.h */
#endif

/* 1 if the two names were exchanged atomically, 0 if this system cannot. */
static int exchange(const char *a, const char *b)
{
#if defined(__linux__) && defined(SYS_renameat2)
    if (syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0)
        return 1;
#else
    (void)a;
    (void)b;
#endif
    return 0;
}

int sl_io_dir_swap(const char *staging, const char *target, sl_error *err)
{
    struct stat st;
    if (lstat(target, &st) != 0) {
        if (errno != ENOENT)
            return sl_base_error_set(err, SL_EIO, "%s: %s", target, strerror(errno));
        if (rename(staging, target) != 0)
            return sl_base_error_set(err, SL_EIO, "%s: cannot rename %s into place: %s", target, staging,
                                     strerror(errno));
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return sl_base_error_set(err, SL_EIO, "%s: not a directory", target);
    if (exchange(staging, target))
        return 0;
    /* Two renames: the old set moves aside, the new one in, the old one to the staging name. */
    char aside[4200];
    int n = snprintf(aside, sizeof aside, "%s.old", staging);
    if (n < 0 || (size_t)n >= sizeof aside)
        return sl_base_error_set(err, SL_EINVAL, "%s: path too long", staging);
    if (rename(target, aside) != 0)
        return sl_base_error_set(err, SL_EIO, "%s: cannot move aside: %s", target, strerror(errno));
    if (rename(staging, target) != 0) {
        int e = errno;
        if (rename(aside, target) != 0)
            return sl_base_error_set(err, SL_EIO, "%s: cannot rename %s into place (%s), and the old set is "
                                     "left in %s", target, staging, strerror(e), aside);
        return sl_base_error_set(err, SL_EIO, "%s: cannot rename %s into place: %s", target, staging, strerror(e));
    }
    if (rename(aside, staging) != 0)
        return sl_io_tree_remove(aside, err);
    return 0;
}

/* Depth-first removal below path (at most 32 levels: more is no output folder). */
static int remove_below(const char *path, int depth, sl_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : sl_base_error_set(err, SL_EIO, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        if (depth > 32)
            return sl_base_error_set(err, SL_EIO, "%s: more than 32 levels of folders", path);
        DIR *d = opendir(path);
        if (!d)
            return sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", path, strerror(errno));
        struct dirent *e;
        int rc = 0;
        while (!rc && (e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char child[4200];
            int n = snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            if (n < 0 || (size_t)n >= sizeof child)
                rc = sl_base_error_set(err, SL_EINVAL, "%s/%s: path too long", path, e->d_name);
            else
                rc = remove_below(child, depth + 1, err);
        }
        closedir(d);
        if (rc)
            return rc;
        if (rmdir(path) != 0 && errno != ENOENT)
            return sl_base_error_set(err, SL_EIO, "%s: cannot remove: %s", path, strerror(errno));
        return 0;
    }
    if (unlink(path) != 0 && errno != ENOENT)
        return sl_base_error_set(err, SL_EIO, "%s: cannot remove: %s", path, strerror(errno));
    return 0;
}

int sl_io_tree_remove(const char *path, sl_error *err)
{
    return remove_below(path, 0, err);
}

/* Copies a regular file (where a hard link is refused, e.g. across file systems). */
static int copy_file(const char *from, const char *to, sl_error *err)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", from, strerror(errno));
    FILE *out = fopen(to, "wb");
    if (!out) {
        int e = errno;
        fclose(in);
        return sl_base_error_set(err, SL_EIO, "%s: cannot create: %s", to, strerror(e));
    }
    char buf[65536];
    size_t k;
    int bad = 0;
    while (!bad && (k = fread(buf, 1, sizeof buf, in)) > 0)
        bad = fwrite(buf, 1, k, out) != k;
    bad |= ferror(in);
    fclose(in);
    if (fclose(out) != 0)
        bad = 1;
    if (bad) {
        remove(to);
        return sl_base_error_set(err, SL_EIO, "%s: copy failed", to);
    }
    return 0;
}

int sl_io_dir_link_files(const char *from, const char *to, sl_error *err)
{
    DIR *d = opendir(from);
    if (!d)
        return errno == ENOENT ? 0 : sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", from, strerror(errno));
    int rc = sl_io_mkdir_p(to, err);
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        if (strstr(e->d_name, ".tmp.")) /* an interrupted writer's temporary file */
            continue;
        char src[4200], dst[4200];
        int a = snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        int b = snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
        if (a < 0 || b < 0 || (size_t)a >= sizeof src || (size_t)b >= sizeof dst) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s/%s: path too long", from, e->d_name);
            break;
        }
        struct stat st;
        if (lstat(src, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (link(src, dst) != 0)
            rc = copy_file(src, dst, err);
    }
    closedir(d);
    return rc;
}
