#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include "merge.h"

#ifndef PR_SET_MEMORY_MERGE          /* Linux 6.4, include/uapi/linux/prctl.h */
#define PR_SET_MEMORY_MERGE 67
#define PR_GET_MEMORY_MERGE 68
#endif

#define KSM_RUN "/sys/kernel/mm/ksm/run"
#define KSM_FULL_SCANS "/sys/kernel/mm/ksm/full_scans"

int merge_check(char *err, size_t errlen)
{
    FILE *f = fopen(KSM_RUN, "r");
    int run = -1;
    if (!f) {
        snprintf(err, errlen, "--merge-pages: this kernel has no samepage merging (%s: %s)", KSM_RUN,
                 strerror(errno));
        return -1;
    }
    if (fscanf(f, "%d", &run) != 1)
        run = -1;
    fclose(f);
    if (run != 1) {
        snprintf(err, errlen,
                 "--merge-pages: the kernel's samepage merging is not running (%s is %d, it must be 1); "
                 "as root: echo 1 > %s", KSM_RUN, run, KSM_RUN);
        return -1;
    }
    /* PR_SET_MEMORY_MERGE came in Linux 6.4; it outlives exec from 6.7 on
     * (before, a node's QEMU would lose it and never merge). */
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2 || major < 6 || (major == 6 && minor < 7) ||
        prctl(PR_GET_MEMORY_MERGE, 0, 0, 0, 0) < 0) {
        snprintf(err, errlen, "--merge-pages: this kernel (%s) cannot merge a whole process's pages past "
                 "exec; it needs Linux 6.7 or later", uname(&u) ? "unknown" : u.release);
        return -1;
    }
    return 0;
}

int merge_may_start(const struct merge_pace *p, unsigned long long *want)
{
    unsigned long long terms = p->booting_extra + p->later + p->slack;
    *want = p->rest_merged + terms;
    if (!p->available || p->available >= p->rest_whole + terms)
        return 1;
    return p->booting < p->booting_max && p->available >= *want;
}

long long merge_full_scans(void)
{
    FILE *f = fopen(KSM_FULL_SCANS, "r");
    long long n = -1;
    if (f) {
        if (fscanf(f, "%lld", &n) != 1)
            n = -1;
        fclose(f);
    }
    return n;
}

int merge_child(void)
{
    int p = personality(0xffffffff);
    if (p < 0 || personality((unsigned long)p | ADDR_NO_RANDOMIZE) < 0)
        return -1;
    return prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0) < 0 ? -1 : 0;
}
