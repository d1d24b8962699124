// Loading a shared library on first use (dlopen/dlsym), for the C targets that wrap libcurl, libsecret, libdbus,
// libqrencode and libcrypto: a command that needs neither the network nor the keyring then never maps them (nor their
// own dependencies and constructors), which keeps start-up in the low milliseconds.
#ifndef AUTHVAULT_LIBRARY_LOADER_H
#define AUTHVAULT_LIBRARY_LOADER_H

#include <pthread.h>
#include <stddef.h>

/// A function to resolve: its name in the library and the function pointer variable that receives its address.
typedef struct {
    const char *name;
    void *function_pointer;
} authvault_library_symbol;

/// A library opened on first use: what to open (a soname, never a path: the system's search path finds it, through
/// ld.so.cache and the default directories, since the binaries carry no RUNPATH naming their own directory; the
/// Makefile builds with --disable-local-rpath and LibrarySearchPathTests checks both), the name and install command
/// its load errors give, and what to run around the load.
typedef struct {
    const char *soname;
    const char *library_name;
    const char *install_hint;
    /// Runs before the library is opened, or NULL.
    void (*prepare)(void);
    /// Runs once the library is loaded and its symbols resolved, or NULL: NULL on success, or `message` filled with
    /// why not.
    const char *(*initialize)(char *message, size_t message_size);
} authvault_library;

/// A loaded library's outcome: `error` is NULL on success, or points at `message`, which says why not.
typedef struct {
    const char *error;
    char message[512];
} authvault_library_state;

/// Runs `library`'s prepare step, opens it (RTLD_NOW | RTLD_LOCAL; never closed), resolves every symbol, then runs
/// its initialize step; a failure names `library_name` and ends with `install_hint`. Not thread-safe: call it from
/// a pthread_once routine (AUTHVAULT_LAZY_LIBRARY's).
void authvault_library_load(const authvault_library *library, const authvault_library_symbol *symbols, size_t count,
                            authvault_library_state *state);

/// Defines, for a loader source file: `load_error_function` (public), which loads `description` with `symbols` into
/// the function table `functions` on its first call, from any thread, and returns NULL or why the load failed; and
/// `loaded()` (file-local), the table, which ends the process if the load failed (the caller skipped the check).
#define AUTHVAULT_LAZY_LIBRARY(load_error_function, description, symbols, functions)                      \
    static pthread_once_t load_once = PTHREAD_ONCE_INIT;                                                  \
    static authvault_library_state load_state;                                                            \
    static void load(void) {                                                                              \
        authvault_library_load(&(description), symbols, sizeof symbols / sizeof symbols[0], &load_state); \
    }                                                                                                     \
    const char *load_error_function(void) {                                                               \
        pthread_once(&load_once, load);                                                                   \
        return load_state.error;                                                                          \
    }                                                                                                     \
    static const __typeof__(functions) *loaded(void) {                                                    \
        const char *error = load_error_function();                                                        \
        if (error != NULL) authvault_library_misuse((description).library_name, error);                   \
        return &(functions);                                                                              \
    }

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
