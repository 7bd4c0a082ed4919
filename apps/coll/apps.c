/* The node's entry points of the collective apps, one per line of
 * algos.def: app_alltoall_pex() ... */
#include "../apps.h"
#include "coll.h"

#define COLL_ALGO(op, name, restr, desc) \
    int app_##op##_##name(void) { return coll_app(#op "_" #name); }
#include "algos.def"
#undef COLL_ALGO
