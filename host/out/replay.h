/* What made a run, and running it again.
 *
 * Every run directory holds the exact command that made it: the file
 * `command` (a shell line: cd to the directory it ran in, then the tool
 * and its options) and summary.json's "invocation" object:
 *   argv     the run's options, as the tool received them (no program name)
 *   cwd      the directory it ran in (relative paths in argv are from there)
 *   commit   the build's git commit, "unknown" outside a git tree
 *   dirty    whether tracked files differed from that commit at build time
 *            (results/ and docs/ aside, which the tools write: build_info.sh)
 *   images   per ISA the runs' nodes used: the node image's path and SHA-256
 *
 * wormsim --replay DIR runs DIR's argv again, from its cwd, into a new run
 * directory, then compares the two runs' figures: summary.json less what
 * varies between host runs (wall_s, engine, placement, invocation), the
 * CSVs (messages, links, steps, records) and each node's log. Simulated
 * results are deterministic, so with the same build and images they match
 * bit for bit; a different commit or image is named before the run. A
 * run's --gdb is left out of its replay, which runs unattended (wormsim.c),
 * and out of the replay's own invocation. */
#ifndef REPLAY_H
#define REPLAY_H

#include <stdio.h>
#include <jansson.h>

/* The build's identity (build_info.c, made by host/build_info.sh). */
extern const char build_commit[];
extern const int build_dirty;

/* The invocation object described above; kernel[a] is ISA a's image path,
 * used[a] nonzero if a node ran it. NULL only when out of memory. */
json_t *replay_invocation(int argc, char *const argv[], const char *const kernel[], const int used[],
                          int arches, const char *const arch_names[]);

/* Write DIR/command from the invocation. Returns 0 or -1. */
int replay_write_command(const char *dir, const json_t *invocation);

/* Read DIR/summary.json's invocation: a new argv (program name "wormsim"
 * first, NULL-terminated; free with replay_free_argv) and its cwd into
 * cwd[cwdlen]. Names what is wrong in err and returns -1 when DIR holds
 * no run, an old run without an invocation, or one that is malformed. */
int  replay_load(const char *dir, int *argc, char ***argv, char *cwd, size_t cwdlen, char *err, size_t errlen);
void replay_free_argv(int argc, char **argv);

/* Print to f how DIR's build and images differ from this build's (one line
 * each), if they do, and that DIR's run was stopped by a signal, if it was
 * (its figures end where the signal stopped it; a replay runs to the end,
 * so they cannot match). Returns the number of lines printed. */
int replay_note_build(const char *dir, FILE *f);

/* Compare the figures of run directories a (the original) and b (the
 * replay), as described above; print every difference to f, at most a
 * few lines each. Returns 0 same, 1 different, -1 unreadable. */
int replay_compare(const char *a, const char *b, FILE *f);

#endif
