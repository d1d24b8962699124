// Opens libqrencode.so.4 on first use and forwards the wrappers of CQRencode.h to it.
#include "CQRencode.h"

#include <CLibraryLoader.h>

// qrencode.h's enums, by value (stable since libqrencode 3): QR_ECLEVEL_L and QR_MODE_8.
enum { QR_ECLEVEL_L = 0, QR_MODE_8 = 2 };

static struct {
    authvault_QRcode *(*QRcode_encodeString)(const char *string, int version, int level, int hint, int casesensitive);
    void (*QRcode_free)(authvault_QRcode *code);
} library;

static const authvault_library_symbol symbols[] = {
    {"QRcode_encodeString", &library.QRcode_encodeString},
    {"QRcode_free", &library.QRcode_free},
};
static const authvault_library description = {
    .soname = "libqrencode.so.4", .library_name = "libqrencode", .install_hint = "apt-get install libqrencode4"};
AUTHVAULT_LAZY_LIBRARY(authvault_qrencode_load_error, description, symbols, library)

authvault_QRcode *authvault_QRcode_encode_bytes(const char *string) {
    return loaded()->QRcode_encodeString(string, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
}

void authvault_QRcode_free(authvault_QRcode *code) { loaded()->QRcode_free(code); }
