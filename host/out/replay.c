/* A run's command, build and node images, and its replay (replay.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include "replay.h"
#include "results.h"
#include "show.h"
#include "files.h"

#define ARGV_MAX 1024            /* options a stored invocation may hold */
#define ARG_MAX_LEN 4096         /* bytes of one of them */
#define IMAGE_MAX (64ll << 20)   /* a node image is at most its RAM's size, far less */

/* The SHA-256 of file path as 64 hex digits in hex, or "unreadable". */
static void file_sha256(const char *path, char hex[65])
{
    char err[256];
    strcpy(hex, "unreadable");
    FILE *f = file_fopen_regular(path, "node image", IMAGE_MAX, err, sizeof err);   /* no FIFO or device */
    if (!f)
        return;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    size_t k, total = 0;
    int ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    while (ok && (k = fread(buf, 1, sizeof buf, f)) > 0 && (total += k) <= IMAGE_MAX)
        ok = EVP_DigestUpdate(ctx, buf, k);
    ok = ok && !ferror(f) && total <= IMAGE_MAX && EVP_DigestFinal_ex(ctx, md, &mdlen) && mdlen == 32;
    EVP_MD_CTX_free(ctx);
    fclose(f);
    if (ok)
        for (unsigned i = 0; i < mdlen; i++)
            sprintf(hex + 2 * i, "%02x", md[i]);
}

json_t *replay_invocation(int argc, char *const argv[], const char *const kernel[], const int used[],
                          int arches, const char *const arch_names[])
{
    json_t *args = json_array(), *images = json_object();
    char why[96] = "";
    for (int i = 1; i < argc && !*why; i++)       /* json_string: NULL unless UTF-8 */
        if (json_array_append_new(args, json_string(argv[i])))
            snprintf(why, sizeof why, "option %d is not UTF-8 text", i);
    for (int a = 0; a < arches; a++) {
        if (!used[a])
            continue;
        char hex[65];
        file_sha256(kernel[a], hex);
        json_object_set_new(images, arch_names[a], json_pack("{s:s, s:s}", "path", kernel[a], "sha256", hex));
    }
    char *cwd = getcwd(NULL, 0);
    json_t *where = cwd ? json_string(cwd) : NULL;
    if (!where && !*why)
        snprintf(why, sizeof why, "its directory's path is %s", cwd ? "not UTF-8 text" : "unknown");
    free(cwd);
    if (*why) {                                   /* kept as what it is: not replayable, and why */
        json_decref(args);
        args = json_null();
        json_decref(where);
        where = json_null();
    }
    json_t *inv = json_pack("{s:o, s:o, s:s, s:b, s:o}", "argv", args, "cwd", where, "commit", build_commit,
                            "dirty", build_dirty, "images", images);
    if (inv && *why)
        json_object_set_new(inv, "not_replayable", json_string(why));
    return inv;
}

/* s quoted for a POSIX shell: as is when only safe bytes, else '...'. */
static void put_quoted(FILE *f, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        *s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
    fputc('\'', f);
}

int replay_write_command(const char *dir, const json_t *inv)
{
    char path[4200], exe[4096];
    snprintf(path, sizeof path, "%s/command", dir);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const char *why = json_string_value(json_object_get(inv, "not_replayable"));
    if (why) {
        fprintf(f, "# This run cannot be replayed: %s.\n", why);
        return file_close_written(f);
    }
    fputs("# The command of this run; wormsim --replay on this directory runs it again and compares.\ncd ", f);
    put_quoted(f, json_string_value(json_object_get(inv, "cwd")));
    fputs(" && ", f);
    put_quoted(f, n > 0 ? exe : "wormsim");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(inv, "argv"), i, v) {
        fputc(' ', f);
        put_quoted(f, json_string_value(v));
    }
    fputc('\n', f);
    return file_close_written(f);
}

int replay_load(const char *dir, int *argc, char ***argv, char *cwd, size_t cwdlen, char *err, size_t errlen)
{
    char b[SHOW_LEN];
    json_t *s = results_load(dir, err, errlen);
    if (!s)
        return -1;
    json_t *inv = json_object_get(s, "invocation"), *args = json_object_get(inv, "argv");
    const char *c = json_string_value(json_object_get(inv, "cwd"));
    const char *why = json_string_value(json_object_get(inv, "not_replayable"));
    int rc = -1;
    char b2[SHOW_LEN];
    if (!inv)
        snprintf(err, errlen, "%s/summary.json has no \"invocation\": its run predates recorded commands "
                 "(its params.conf holds the network parameters)", show(b, dir, 0));
    else if (why)
        snprintf(err, errlen, "%s cannot be replayed: %s", show(b, dir, 0), show(b2, why, 0));
    else if (!json_is_array(args) || json_array_size(args) > ARGV_MAX || !c || *c != '/' || strlen(c) >= cwdlen)
        snprintf(err, errlen, "%s/summary.json's \"invocation\" is malformed: it needs \"argv\", an array of at "
                 "most %d strings, and \"cwd\", an absolute path", show(b, dir, 0), ARGV_MAX);
    else {
        size_t n = json_array_size(args), i;
        char **v = calloc(n + 2, sizeof *v);
        json_t *a;
        rc = v && (v[0] = strdup("wormsim")) ? 0 : -1;
        if (rc)
            snprintf(err, errlen, "out of memory");
        json_array_foreach(args, i, a) {
            const char *t = json_string_value(a);
            if (rc)
                break;
            if (!t || strlen(t) > ARG_MAX_LEN || !(v[i + 1] = strdup(t))) {
                snprintf(err, errlen, "%s/summary.json's \"invocation\" argv[%zu] is not a string of at most %d "
                         "bytes", show(b, dir, 0), i, ARG_MAX_LEN);
                rc = -1;
                break;
            }
        }
        if (rc) {
            replay_free_argv((int)n + 1, v);
        } else {
            *argc = (int)n + 1;
            *argv = v;
            snprintf(cwd, cwdlen, "%s", c);
        }
    }
    json_decref(s);
    return rc;
}

void replay_free_argv(int argc, char **argv)
{
    if (!argv)
        return;
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
}

/* A run a signal stopped (summary.json's interrupted_by_signal) kept the
 * figures of the point it reached, which a replay, run to the end, cannot
 * reproduce: say so before the list of differences. 1 if said, else 0. */
static int note_stopped(json_t *summary, FILE *f)
{
    json_t *sig = json_object_get(summary, "interrupted_by_signal");
    if (!json_is_integer(sig))
        return 0;
    fprintf(f, "replay: the run was stopped by signal %lld (%s); the replay runs to the end, so its figures "
            "will differ from those the run kept\n", (long long)json_integer_value(sig),
            json_integer_value(sig) > 0 && json_integer_value(sig) < NSIG ? strsignal((int)json_integer_value(sig)) : "?");
    return 1;
}

int replay_note_build(const char *dir, FILE *f)
{
    char err[512];
    json_t *s = results_load(dir, err, sizeof err);
    json_t *inv = json_object_get(s, "invocation"), *images = json_object_get(inv, "images"), *im;
    const char *commit = json_string_value(json_object_get(inv, "commit")), *isa;
    int lines = 0;
    if (commit && (strcmp(commit, build_commit) || json_is_true(json_object_get(inv, "dirty")) != build_dirty)) {
        char b[SHOW_LEN];
        fprintf(f, "replay: the run was made by build %s%s; this one is %s%s\n", show(b, commit, 0),
                json_is_true(json_object_get(inv, "dirty")) ? " (dirty)" : "", build_commit,
                build_dirty ? " (dirty)" : "");
        lines++;
    }
    lines += note_stopped(s, f);
    json_object_foreach(images, isa, im) {
        const char *path = json_string_value(json_object_get(im, "path"));
        const char *was = json_string_value(json_object_get(im, "sha256"));
        char now[65], b[SHOW_LEN];
        if (!path || !was)
            continue;
        file_sha256(path, now);
        if (strcmp(now, was)) {
            char b2[SHOW_LEN], b3[SHOW_LEN];
            fprintf(f, "replay: the %s node image %s is not the run's (SHA-256 %.12s... now, %.12s... then)\n",
                    show(b2, isa, 0), show(b, path, 0), now, show(b3, was, 0));
            lines++;
        }
    }
    json_decref(s);
    return lines;
}

/* summary.json's keys that vary between host runs of the same command */
static const char *const varying[] = { "wall_s", "engine", "placement", "invocation" };

/* The summaries x (then) and y (now), less the varying keys: 0 same, 1
 * different, each differing key printed to f. Takes both references. */
static int compare_summaries(json_t *x, json_t *y, FILE *f)
{
    for (size_t i = 0; i < sizeof varying / sizeof varying[0]; i++) {
        json_object_del(x, varying[i]);
        json_object_del(y, varying[i]);
    }
    int differ = 0;
    const char *key;
    json_t *v;
    json_object_foreach(x, key, v) {
        json_t *w = json_object_get(y, key);
        if (w && json_equal(v, w))
            continue;
        char *s1 = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY), *s2 = w ? json_dumps(w, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        char b1[SHOW_LEN], b2[SHOW_LEN];
        char bk[SHOW_LEN];
        fprintf(f, "  summary.json %s: %s then, %s now\n", show(bk, key, 0), show(b1, s1 ? s1 : "?", 0),
                show(b2, s2 ? s2 : "absent", 0));
        free(s1);
        free(s2);
        differ = 1;
    }
    json_object_foreach(y, key, v)
        if (!json_object_get(x, key)) {
            char bk[SHOW_LEN];
            fprintf(f, "  summary.json %s: absent then\n", show(bk, key, 0));
            differ = 1;
        }
    json_decref(x);
    json_decref(y);
    return differ;
}

/* 0 same bytes (or both absent), 1 different; where goes to out unless
 * it is NULL. */
static int compare_file(const char *a, const char *b, const char *name, FILE *out)
{
    char pa[4200], pb[4200];
    snprintf(pa, sizeof pa, "%s/%s", a, name);
    snprintf(pb, sizeof pb, "%s/%s", b, name);
    FILE *x = fopen(pa, "rb"), *y = fopen(pb, "rb");
    int differ = !x != !y, line = 1, cx = 0, cy = 0;
    while (x && y && !differ) {
        cx = getc(x);
        cy = getc(y);
        differ = cx != cy;
        if (cx == EOF || cy == EOF)
            break;
        line += cx == '\n';
    }
    if (differ && out && (!x || !y))
        fprintf(out, "  %s: absent %s\n", name, !x ? "then" : "now");
    else if (differ && out)
        fprintf(out, "  %s: differs from line %d\n", name, line);
    if (x) fclose(x);
    if (y) fclose(y);
    return differ;
}

int replay_compare(const char *a, const char *b, FILE *f)
{
    static const char *const csvs[] = { "messages.csv", "links.csv", "steps.csv", "records.csv" };
    char err[512];
    json_t *x = results_load(a, err, sizeof err), *y = x ? results_load(b, err, sizeof err) : NULL;
    if (!x || !y) {
        fprintf(f, "replay: %s\n", err);
        json_decref(x);
        return -1;
    }
    json_int_t nodes = json_integer_value(json_object_get(x, "nodes"));   /* the original's node logs */
    int differ = compare_summaries(x, y, f);
    for (size_t i = 0; i < sizeof csvs / sizeof csvs[0]; i++)
        differ |= compare_file(a, b, csvs[i], f);
    int logs = 0;
    for (json_int_t i = 0; i < nodes && i < 1 << 20; i++) {
        char log[32];
        snprintf(log, sizeof log, "node-%03d.log", (int)i);
        logs += compare_file(a, b, log, logs < 4 ? f : NULL);
    }
    if (logs > 4)
        fprintf(f, "  ... and %d more node logs\n", logs - 4);
    return differ || logs;
}
