// libkeyutils: the kernel key retention service (the user keyring caches the file vault's data key).
#ifndef AUTHVAULT_CKEYUTILS_SHIM_H
#define AUTHVAULT_CKEYUTILS_SHIM_H

#include <keyutils.h>

#endif
