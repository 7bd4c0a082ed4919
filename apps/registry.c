#include "apps.h"

const struct app app_table[] = {
#define APP(name, restr, desc) { #name, app_##name },
#include "apps.def"
#undef APP
    { 0, 0 },
};
