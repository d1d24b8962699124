// Loading a shared library on first use (dlopen/dlsym), for the C targets that wrap libcurl, libsecret and libqrencode: a
// command that needs neither the network nor the keyring then never maps them (nor their own dependencies and
// constructors), which keeps start-up in the low milliseconds.
#ifndef AUTHVAULT_LIBRARY_LOADER_H
#define AUTHVAULT_LIBRARY_LOADER_H

#include <stddef.h>

/// A function to resolve: its name in the library and the function pointer variable that receives its address.
typedef struct {
    const char *name;
    void *function_pointer;
} authvault_library_symbol;

/// Opens `soname` (RTLD_NOW | RTLD_LOCAL; never closed) and resolves every symbol. A soname, never a path: the
/// system's search path finds it (ld.so.cache, the default directories), since the binaries carry no RUNPATH
/// naming their own directory (the Makefile builds with --disable-local-rpath; LibrarySearchPathTests checks both). Returns NULL on success, or
/// `message` filled with why not, naming `library_name` and ending with `install_hint`. Not thread-safe: call it
/// from a pthread_once routine.
const char *authvault_library_load(const char *soname, const char *library_name, const char *install_hint,
                                   const authvault_library_symbol *symbols, size_t count,
                                   char *message, size_t message_size);

/// Initializes OpenSSL (libcrypto.so.3, opened here if nothing has yet) once per process; call it before the first
/// OpenSSL call of any library, ours or libcurl's. OpenSSL does not tear itself down in an exit handler: its clean-up
/// frees state that threads still running may use, and a thread that ends during it keeps its per-thread error
/// state for good (seen as a leak under LeakSanitizer); the process's memory goes with the process anyway. It reads
/// no openssl.cnf: the vault's cryptography needs none, and a token read from the vault opens no file it needs not.
void authvault_openssl_initialize(void);

/// Loads openssl.cnf as OpenSSL's default initialization would (OPENSSL_CONF, else the system's), once per process:
/// for libcurl's TLS, after libcurl has initialized libssl (whose `ssl_conf` module the file may configure).
void authvault_openssl_load_config(void);

/// Ends the process: a wrapper was called although its library failed to load, so the caller skipped the check
/// it must make first. Names the library and the load failure.
_Noreturn void authvault_library_misuse(const char *library_name, const char *load_error);

#endif
