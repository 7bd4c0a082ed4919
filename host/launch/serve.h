/* wormsim --serve NAME keeps a node pool; wormsim --pool NAME [options]
 * hands it one run and waits for it, as if it ran the run itself.
 *
 * The protocol, on the abstract UNIX socket "wormsim-pool-NAME"
 * (SOCK_SEQPACKET, same user only):
 *   client -> server  one packet: the run's options, each ending in NUL,
 *                     with three descriptors (SCM_RIGHTS): the client's
 *                     working directory, standard output, standard error
 *   client -> server  one byte, a signal number, when the client is
 *                     interrupted: the run ends as if it had the signal
 *   server -> client  SERVE_TAKEN (int32) when the pool takes the run,
 *                     after any before it; then one packet: the run's
 *                     exit status (int32), or SERVE_OTHER_USER before it
 *                     closes a connection of another user
 * A client interrupted before its run is taken ends at once (the run
 * never starts), as a run alone interrupted before its nodes start
 * would, instead of waiting for the runs before it; the pool drops a
 * request whose client has gone.
 * The server reads relative paths from the client's directory and writes
 * the run's console output to the client's own output. A connection that
 * sends no request within SERVE_REQUEST_S seconds is closed, so an idle
 * client cannot hold the pool from the others.
 */
#ifndef SERVE_H
#define SERVE_H

#define SERVE_MAX_REQUEST 65536
#define SERVE_REQUEST_S   5
#define SERVE_OTHER_USER  (-2)
#define SERVE_TAKEN       (-3)
/* The longest pool name: an abstract socket's sun_path (108 bytes) holds
 * a leading NUL, "wormsim-pool-" and the name, with a byte to spare. */
#define SERVE_NAME_MAX    93

/* The pool's listening socket, or -1 with errno. */
int serve_listen(const char *name);

/* Read one request from a connection and tell the client it is taken:
 * argv[0] is "wormsim", the array and its strings in one allocation
 * (free(*argv)). fds: directory, output, error. Returns -1 if the peer is
 * another user (it is told so), sends nothing within SERVE_REQUEST_S, the
 * packet is bad, or the client has gone (interrupted while it waited). */
int serve_recv(int conn, int *argc, char ***argv, int fds[3]);

/* The client's value of an environment variable (from /proc/PID/environ),
 * malloc'd, or NULL if it has none. The server runs with the client's
 * PATH (where QEMU is found) and WORMSIM_DESC_LOG. */
char *serve_peer_getenv(int conn, const char *name);

/* The exit status to the client. */
void serve_reply(int conn, int status);

/* Client: run argv on the pool NAME; returns the run's exit status (2 if
 * no pool serves NAME). Signals INT, TERM and HUP must be blocked. */
int serve_client(const char *name, int argc, char **argv);

#endif
