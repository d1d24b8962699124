// OpenSSL 3 as seen from Swift. Function-like and composite macros do not import into Swift,
// so the few we need are wrapped here as static inline functions.
#ifndef AUTHVAULT_COPENSSL_SHIM_H
#define AUTHVAULT_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

static inline int authvault_BN_num_bytes(const BIGNUM *bn) { return BN_num_bytes(bn); }
static inline void authvault_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }
static inline int authvault_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline OSSL_PARAM authvault_OSSL_PARAM_END(void) { OSSL_PARAM end = OSSL_PARAM_END; return end; }
static inline int authvault_EVP_MD_size(const EVP_MD *md) { return EVP_MD_get_size(md); }

#endif
