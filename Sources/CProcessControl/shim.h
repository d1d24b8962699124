// prctl(2) is variadic, which Swift cannot call: fixed-argument wrappers for the calls AuthVault makes.
#ifndef AUTHVAULT_CPROCESSCONTROL_SHIM_H
#define AUTHVAULT_CPROCESSCONTROL_SHIM_H

#include <sys/prctl.h>

/// PR_SET_DUMPABLE: 0 means no core dump, and no ptrace or /proc/PID/mem access by other processes of the user.
static inline int authvault_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

/// PR_GET_DUMPABLE: 1 when the process may dump core, 0 when not (or -1 with errno).
static inline int authvault_get_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

#endif
