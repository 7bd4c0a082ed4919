/* Run parameters: defaults, config files (presets/), --set key=value.
 * One table (params.c) names every key, its unit, range and meaning; the
 * config parser, the command line, summary.json and docs/network.md all
 * follow it. */
#ifndef PARAMS_H
#define PARAMS_H

#include <stdio.h>
#include "machine.h"
#include "../apps/number.h"

/* The built-in defaults (the same values as presets/default.conf). */
void params_defaults(struct params *p, enum topo_port *port_model);

/* A whole number as every option and parameter takes it: the syntax of
 * apps/number.h, without a sign. 0, or apps/number.h's NUMBER_BAD,
 * NUMBER_OCTAL (say NUMBER_FORM) or NUMBER_BIG if s is not one. */
int params_number(const char *s, uint64_t *out);

/* Set one key from text. Returns -1 with a message naming the key and the
 * accepted values in err. */
int params_set(struct params *p, enum topo_port *port_model, const char *key, const char *value,
               char *err, size_t errlen);

/* Apply a config file: "key = value" lines of any length, '#' comments. A
 * name without '/' means presets/<name>.conf (or presets/<name> if it ends
 * in .conf), else, if there is no such preset, the file of that name in
 * the current directory. The file must be a regular file of at most
 * PARAMS_FILE_MAX_MIB (params.c).
 * Errors name the file and line. */
int params_load(struct params *p, enum topo_port *port_model, const char *name_or_path,
                char *err, size_t errlen);

/* The words a named key (port_model, routing, ...) accepts, joined by sep,
 * in buf; "" for a numeric or unknown key. */
void params_accepted(const char *key, char *buf, size_t len, const char *sep);
/* Key's built-in default (params_defaults) as text, in buf; "" for an
 * unknown key. */
void params_default(const char *key, char *buf, size_t len);

/* Apply "k=v k=v ..." (the --set option), of any length. */
int params_set_list(struct params *p, enum topo_port *port_model, const char *list, char *err, size_t errlen);

/* Write every key = value (a config file that reproduces the run). */
void params_write(FILE *f, const struct params *p, enum topo_port port_model);

/* Key i (0 <= i < params_count()) and its value as text; *numeric is set
 * when the value is a number. */
int params_count(void);
const char *params_key(int i);
void params_value(const struct params *p, enum topo_port pm, int i, char *buf, size_t len, int *numeric);

/* Whether key i is the data network's (struct net_params, or the port
 * model, which sets the NICs' channels), not a node's or the hardware's
 * beside the network (barrier circuits, control network, fetch-and-increment). */
int params_is_network(int i);
/* The first key, in the table's order, that is not the network's and
 * whose value differs between a and b; NULL if none. */
const char *params_off_network_change(const struct params *a, const struct params *b);

/* Every key with its accepted values, built-in default and meaning
 * (wormsim --list-params): the table the parser itself uses. */
void params_list(FILE *f);

/* Cross-parameter checks (e.g. messages must fit NIC memory). */
int params_check(const struct params *p, char *err, size_t errlen);

/* Whether the network engine accepts these parameters on machine m (it is
 * built and freed); if not, -1 and its reason in err, followed by where the
 * parameters came from: "(a torus with the parameters of preset delta and
 * --set; ...)". A preset is made for one machine, so the preset is named. */
int params_check_net(const struct params *p, const struct topo_shape *m, const char *preset, int nsets,
                     char *err, size_t errlen);

#endif
