// Opens libqrencode.so.4 on first use and forwards the wrappers of CQRencode.h to it.
#include "CQRencode.h"

#include <CLibraryLoader.h>
#include <pthread.h>

// qrencode.h's enums, by value (stable since libqrencode 3): QR_ECLEVEL_L and QR_MODE_8.
enum { QR_ECLEVEL_L = 0, QR_MODE_8 = 2 };

static struct {
    authvault_QRcode *(*QRcode_encodeString)(const char *string, int version, int level, int hint, int casesensitive);
    void (*QRcode_free)(authvault_QRcode *code);
} library;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error;
static char load_message[512];

static void load(void) {
    const authvault_library_symbol symbols[] = {
        {"QRcode_encodeString", &library.QRcode_encodeString},
        {"QRcode_free", &library.QRcode_free},
    };
    load_error = authvault_library_load("libqrencode.so.4", "libqrencode", "apt-get install libqrencode4", symbols,
                                        sizeof symbols / sizeof symbols[0], load_message, sizeof load_message);
}

const char *authvault_qrencode_load_error(void) {
    pthread_once(&load_once, load);
    return load_error;
}

authvault_QRcode *authvault_QRcode_encode_bytes(const char *string) {
    if (authvault_qrencode_load_error() != NULL) authvault_library_misuse("libqrencode", load_error);
    return library.QRcode_encodeString(string, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
}

void authvault_QRcode_free(authvault_QRcode *code) {
    if (authvault_qrencode_load_error() != NULL) authvault_library_misuse("libqrencode", load_error);
    library.QRcode_free(code);
}
