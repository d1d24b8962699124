// libqrencode as seen from Swift, loaded on first use: the device sign-in draws its address as a QR code, and no
// other command maps the library. The declarations are qrencode.h's (libqrencode4), the few this project calls.
#ifndef AUTHVAULT_CQRENCODE_H
#define AUTHVAULT_CQRENCODE_H

/// qrencode.h's QRcode: `width` modules a side, `data` width*width bytes, bit 0 of each set for a dark module.
typedef struct {
    int version;
    int width;
    unsigned char *data;
} authvault_QRcode;

/// Loads libqrencode.so.4 once per process (thread-safe). NULL when it is ready; otherwise why it is not.
const char *authvault_qrencode_load_error(void);

/// QRcode_encodeString(string, 0, QR_ECLEVEL_L, QR_MODE_8, 1): the smallest version that holds `string` as bytes,
/// case-sensitive. NULL when it cannot be encoded (too long). Free the answer with authvault_QRcode_free.
authvault_QRcode *authvault_QRcode_encode_bytes(const char *string);
void authvault_QRcode_free(authvault_QRcode *code);

#endif
