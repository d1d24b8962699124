// libcrypto loaded on first use: CryptoLibrary.c defines the OpenSSL functions AuthCrypto calls (declared by
// COpenSSL's headers) and forwards them to libcrypto.so.3, opened by the first call.
#ifndef AUTHVAULT_COPENSSL_LOADER_H
#define AUTHVAULT_COPENSSL_LOADER_H

/// Loads libcrypto once per process (thread-safe). NULL when it is ready; otherwise why it is not.
const char *authvault_crypto_load_error(void);

#endif
