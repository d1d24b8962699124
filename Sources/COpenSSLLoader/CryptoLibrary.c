// Opens libcrypto.so.3 on first use and forwards to it every OpenSSL function AuthCrypto calls. libcrypto costs
// more in the dynamic loader than the rest of authvault together (about 4,200 symbol relocations, measured with
// callgrind and LD_DEBUG=statistics), so a command that needs no cryptography (--version, --help, a token through
// the agent) never maps it. AuthCrypto calls the functions by their OpenSSL names, declared by COpenSSL's headers;
// the definitions here are hidden, so no library loaded later (libcurl's libssl, libcrypto itself) can bind to them.
#include "COpenSSLLoader.h"

#include <CLibraryLoader.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <pthread.h>

// After the includes: the definitions below are hidden, the libraries' own declarations (pthread_once, ...) are not.
#pragma GCC visibility push(hidden)

// The functions forwarded, each typed by OpenSSL's own prototype.
#define CRYPTO_FUNCTIONS(X) \
    X(BN_CTX_free) X(BN_CTX_new) X(BN_add) X(BN_bin2bn) X(BN_bn2binpad) X(BN_clear_free) X(BN_cmp) X(BN_dup) \
    X(BN_free) X(BN_hex2bn) X(BN_is_odd) X(BN_is_one) X(BN_is_zero) X(BN_mod_add) X(BN_mod_exp) X(BN_mod_mul) \
    X(BN_mod_sub) X(BN_mul) X(BN_new) X(BN_nnmod) X(BN_num_bits) X(BN_set_flags) X(CRYPTO_free) \
    X(ECDSA_SIG_free) X(ECDSA_SIG_new) X(ECDSA_SIG_set0) \
    X(ERR_clear_error) X(ERR_error_string_n) X(ERR_get_error) X(ERR_peek_error) X(EVP_CIPHER_CTX_ctrl) \
    X(EVP_CIPHER_CTX_free) X(EVP_CIPHER_CTX_new) X(EVP_CIPHER_fetch) X(EVP_CipherUpdate) X(EVP_DecryptFinal_ex) \
    X(EVP_DecryptInit_ex2) X(EVP_DigestFinal_ex) X(EVP_DigestInit_ex2) X(EVP_DigestUpdate) X(EVP_DigestVerifyFinal) \
    X(EVP_DigestVerifyInit) X(EVP_DigestVerifyUpdate) X(EVP_EncryptFinal_ex) X(EVP_EncryptInit_ex2) \
    X(EVP_KDF_CTX_free) X(EVP_KDF_CTX_new) X(EVP_KDF_derive) X(EVP_KDF_fetch) X(EVP_MAC_CTX_dup) X(EVP_MAC_CTX_free) \
    X(EVP_MAC_CTX_new) X(EVP_MAC_CTX_set_params) X(EVP_MAC_fetch) X(EVP_MAC_final) X(EVP_MAC_init) X(EVP_MAC_update) \
    X(EVP_MD_CTX_free) X(EVP_MD_CTX_new) X(EVP_MD_fetch) X(EVP_MD_get_size) X(EVP_PBE_scrypt) X(EVP_PKEY_CTX_free) \
    X(EVP_PKEY_CTX_new_from_name) X(EVP_PKEY_CTX_new_from_pkey) X(EVP_PKEY_free) X(EVP_PKEY_fromdata) \
    X(EVP_PKEY_fromdata_init) X(EVP_PKEY_public_check) X(OSSL_PARAM_BLD_free) X(OSSL_PARAM_BLD_new) \
    X(OSSL_PARAM_BLD_push_BN) X(OSSL_PARAM_BLD_push_octet_string) X(OSSL_PARAM_BLD_push_utf8_string) \
    X(OSSL_PARAM_BLD_to_param) \
    X(OSSL_PARAM_construct_octet_string) X(OSSL_PARAM_construct_utf8_string) X(OSSL_PARAM_free) X(RAND_bytes) \
    X(i2d_ECDSA_SIG)

static struct functions {
#define CRYPTO_POINTER(name) __typeof__(name) *name;
    CRYPTO_FUNCTIONS(CRYPTO_POINTER)
} library;

#define CRYPTO_SYMBOL(name) {#name, &library.name},
static const authvault_library_symbol symbols[] = {CRYPTO_FUNCTIONS(CRYPTO_SYMBOL)};
/// OpenSSL is part of the base system, so a wrapper called after a failed load ends the process with the reason, as
/// a missing libcrypto at start-up did before it was loaded lazily.
static const authvault_library description = {
    .soname = "libcrypto.so.3", .library_name = "libcrypto (OpenSSL 3)", .install_hint = "apt-get install libssl3",
    .prepare = authvault_openssl_initialize};
AUTHVAULT_LAZY_LIBRARY(authvault_crypto_load_error, description, symbols, library)

void BN_CTX_free(BN_CTX *c) { loaded()->BN_CTX_free(c); }
BN_CTX *BN_CTX_new(void) { return loaded()->BN_CTX_new(); }
int BN_add(BIGNUM *r, const BIGNUM *a, const BIGNUM *b) { return loaded()->BN_add(r, a, b); }
BIGNUM *BN_bin2bn(const unsigned char *s, int len, BIGNUM *ret) { return loaded()->BN_bin2bn(s, len, ret); }
int BN_bn2binpad(const BIGNUM *a, unsigned char *to, int tolen) { return loaded()->BN_bn2binpad(a, to, tolen); }
void BN_clear_free(BIGNUM *a) { loaded()->BN_clear_free(a); }
int BN_cmp(const BIGNUM *a, const BIGNUM *b) { return loaded()->BN_cmp(a, b); }
BIGNUM *BN_dup(const BIGNUM *a) { return loaded()->BN_dup(a); }
void BN_free(BIGNUM *a) { loaded()->BN_free(a); }
int BN_hex2bn(BIGNUM **a, const char *str) { return loaded()->BN_hex2bn(a, str); }
int BN_is_odd(const BIGNUM *a) { return loaded()->BN_is_odd(a); }
int BN_is_one(const BIGNUM *a) { return loaded()->BN_is_one(a); }
int BN_is_zero(const BIGNUM *a) { return loaded()->BN_is_zero(a); }
int BN_mod_add(BIGNUM *r, const BIGNUM *a, const BIGNUM *b, const BIGNUM *m, BN_CTX *ctx) {
    return loaded()->BN_mod_add(r, a, b, m, ctx);
}
int BN_mod_exp(BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx) {
    return loaded()->BN_mod_exp(r, a, p, m, ctx);
}
int BN_mod_mul(BIGNUM *r, const BIGNUM *a, const BIGNUM *b, const BIGNUM *m, BN_CTX *ctx) {
    return loaded()->BN_mod_mul(r, a, b, m, ctx);
}
int BN_mod_sub(BIGNUM *r, const BIGNUM *a, const BIGNUM *b, const BIGNUM *m, BN_CTX *ctx) {
    return loaded()->BN_mod_sub(r, a, b, m, ctx);
}
int BN_mul(BIGNUM *r, const BIGNUM *a, const BIGNUM *b, BN_CTX *ctx) { return loaded()->BN_mul(r, a, b, ctx); }
BIGNUM *BN_new(void) { return loaded()->BN_new(); }
int BN_nnmod(BIGNUM *r, const BIGNUM *m, const BIGNUM *d, BN_CTX *ctx) { return loaded()->BN_nnmod(r, m, d, ctx); }
int BN_num_bits(const BIGNUM *a) { return loaded()->BN_num_bits(a); }
void BN_set_flags(BIGNUM *b, int n) { loaded()->BN_set_flags(b, n); }
void CRYPTO_free(void *ptr, const char *file, int line) { loaded()->CRYPTO_free(ptr, file, line); }
void ECDSA_SIG_free(ECDSA_SIG *sig) { loaded()->ECDSA_SIG_free(sig); }
ECDSA_SIG *ECDSA_SIG_new(void) { return loaded()->ECDSA_SIG_new(); }
int ECDSA_SIG_set0(ECDSA_SIG *sig, BIGNUM *r, BIGNUM *s) { return loaded()->ECDSA_SIG_set0(sig, r, s); }
void ERR_clear_error(void) { loaded()->ERR_clear_error(); }
void ERR_error_string_n(unsigned long e, char *buf, size_t len) { loaded()->ERR_error_string_n(e, buf, len); }
unsigned long ERR_get_error(void) { return loaded()->ERR_get_error(); }
unsigned long ERR_peek_error(void) { return loaded()->ERR_peek_error(); }
int EVP_CIPHER_CTX_ctrl(EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr) {
    return loaded()->EVP_CIPHER_CTX_ctrl(ctx, type, arg, ptr);
}
void EVP_CIPHER_CTX_free(EVP_CIPHER_CTX *c) { loaded()->EVP_CIPHER_CTX_free(c); }
EVP_CIPHER_CTX *EVP_CIPHER_CTX_new(void) { return loaded()->EVP_CIPHER_CTX_new(); }
EVP_CIPHER *EVP_CIPHER_fetch(OSSL_LIB_CTX *ctx, const char *algorithm, const char *properties) {
    return loaded()->EVP_CIPHER_fetch(ctx, algorithm, properties);
}
int EVP_CipherUpdate(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, int inl) {
    return loaded()->EVP_CipherUpdate(ctx, out, outl, in, inl);
}
int EVP_DecryptFinal_ex(EVP_CIPHER_CTX *ctx, unsigned char *outm, int *outl) {
    return loaded()->EVP_DecryptFinal_ex(ctx, outm, outl);
}
int EVP_DecryptInit_ex2(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, const unsigned char *key,
                        const unsigned char *iv, const OSSL_PARAM params[]) {
    return loaded()->EVP_DecryptInit_ex2(ctx, cipher, key, iv, params);
}
int EVP_DigestFinal_ex(EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s) {
    return loaded()->EVP_DigestFinal_ex(ctx, md, s);
}
int EVP_DigestInit_ex2(EVP_MD_CTX *ctx, const EVP_MD *type, const OSSL_PARAM params[]) {
    return loaded()->EVP_DigestInit_ex2(ctx, type, params);
}
int EVP_DigestUpdate(EVP_MD_CTX *ctx, const void *d, size_t cnt) { return loaded()->EVP_DigestUpdate(ctx, d, cnt); }
int EVP_DigestVerifyFinal(EVP_MD_CTX *ctx, const unsigned char *sig, size_t siglen) {
    return loaded()->EVP_DigestVerifyFinal(ctx, sig, siglen);
}
int EVP_DigestVerifyInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey) {
    return loaded()->EVP_DigestVerifyInit(ctx, pctx, type, e, pkey);
}
int EVP_DigestVerifyUpdate(EVP_MD_CTX *ctx, const void *data, size_t dsize) {
    return loaded()->EVP_DigestVerifyUpdate(ctx, data, dsize);
}
int EVP_EncryptFinal_ex(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl) {
    return loaded()->EVP_EncryptFinal_ex(ctx, out, outl);
}
int EVP_EncryptInit_ex2(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, const unsigned char *key,
                        const unsigned char *iv, const OSSL_PARAM params[]) {
    return loaded()->EVP_EncryptInit_ex2(ctx, cipher, key, iv, params);
}
void EVP_KDF_CTX_free(EVP_KDF_CTX *ctx) { loaded()->EVP_KDF_CTX_free(ctx); }
EVP_KDF_CTX *EVP_KDF_CTX_new(EVP_KDF *kdf) { return loaded()->EVP_KDF_CTX_new(kdf); }
int EVP_KDF_derive(EVP_KDF_CTX *ctx, unsigned char *key, size_t keylen, const OSSL_PARAM params[]) {
    return loaded()->EVP_KDF_derive(ctx, key, keylen, params);
}
EVP_KDF *EVP_KDF_fetch(OSSL_LIB_CTX *libctx, const char *algorithm, const char *properties) {
    return loaded()->EVP_KDF_fetch(libctx, algorithm, properties);
}
EVP_MAC_CTX *EVP_MAC_CTX_dup(const EVP_MAC_CTX *src) { return loaded()->EVP_MAC_CTX_dup(src); }
void EVP_MAC_CTX_free(EVP_MAC_CTX *ctx) { loaded()->EVP_MAC_CTX_free(ctx); }
EVP_MAC_CTX *EVP_MAC_CTX_new(EVP_MAC *mac) { return loaded()->EVP_MAC_CTX_new(mac); }
int EVP_MAC_CTX_set_params(EVP_MAC_CTX *ctx, const OSSL_PARAM params[]) {
    return loaded()->EVP_MAC_CTX_set_params(ctx, params);
}
EVP_MAC *EVP_MAC_fetch(OSSL_LIB_CTX *libctx, const char *algorithm, const char *properties) {
    return loaded()->EVP_MAC_fetch(libctx, algorithm, properties);
}
int EVP_MAC_final(EVP_MAC_CTX *ctx, unsigned char *out, size_t *outl, size_t outsize) {
    return loaded()->EVP_MAC_final(ctx, out, outl, outsize);
}
int EVP_MAC_init(EVP_MAC_CTX *ctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[]) {
    return loaded()->EVP_MAC_init(ctx, key, keylen, params);
}
int EVP_MAC_update(EVP_MAC_CTX *ctx, const unsigned char *data, size_t datalen) {
    return loaded()->EVP_MAC_update(ctx, data, datalen);
}
void EVP_MD_CTX_free(EVP_MD_CTX *ctx) { loaded()->EVP_MD_CTX_free(ctx); }
EVP_MD_CTX *EVP_MD_CTX_new(void) { return loaded()->EVP_MD_CTX_new(); }
EVP_MD *EVP_MD_fetch(OSSL_LIB_CTX *ctx, const char *algorithm, const char *properties) {
    return loaded()->EVP_MD_fetch(ctx, algorithm, properties);
}
int EVP_MD_get_size(const EVP_MD *md) { return loaded()->EVP_MD_get_size(md); }
int EVP_PBE_scrypt(const char *pass, size_t passlen, const unsigned char *salt, size_t saltlen, uint64_t N, uint64_t r,
                   uint64_t p, uint64_t maxmem, unsigned char *key, size_t keylen) {
    return loaded()->EVP_PBE_scrypt(pass, passlen, salt, saltlen, N, r, p, maxmem, key, keylen);
}
void EVP_PKEY_CTX_free(EVP_PKEY_CTX *ctx) { loaded()->EVP_PKEY_CTX_free(ctx); }
EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_name(OSSL_LIB_CTX *libctx, const char *name, const char *propquery) {
    return loaded()->EVP_PKEY_CTX_new_from_name(libctx, name, propquery);
}
EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_pkey(OSSL_LIB_CTX *libctx, EVP_PKEY *pkey, const char *propquery) {
    return loaded()->EVP_PKEY_CTX_new_from_pkey(libctx, pkey, propquery);
}
void EVP_PKEY_free(EVP_PKEY *pkey) { loaded()->EVP_PKEY_free(pkey); }
int EVP_PKEY_fromdata(EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey, int selection, OSSL_PARAM param[]) {
    return loaded()->EVP_PKEY_fromdata(ctx, ppkey, selection, param);
}
int EVP_PKEY_fromdata_init(EVP_PKEY_CTX *ctx) { return loaded()->EVP_PKEY_fromdata_init(ctx); }
int EVP_PKEY_public_check(EVP_PKEY_CTX *ctx) { return loaded()->EVP_PKEY_public_check(ctx); }
void OSSL_PARAM_BLD_free(OSSL_PARAM_BLD *bld) { loaded()->OSSL_PARAM_BLD_free(bld); }
OSSL_PARAM_BLD *OSSL_PARAM_BLD_new(void) { return loaded()->OSSL_PARAM_BLD_new(); }
int OSSL_PARAM_BLD_push_BN(OSSL_PARAM_BLD *bld, const char *key, const BIGNUM *bn) {
    return loaded()->OSSL_PARAM_BLD_push_BN(bld, key, bn);
}
int OSSL_PARAM_BLD_push_octet_string(OSSL_PARAM_BLD *bld, const char *key, const void *buf, size_t bsize) {
    return loaded()->OSSL_PARAM_BLD_push_octet_string(bld, key, buf, bsize);
}
int OSSL_PARAM_BLD_push_utf8_string(OSSL_PARAM_BLD *bld, const char *key, const char *buf, size_t bsize) {
    return loaded()->OSSL_PARAM_BLD_push_utf8_string(bld, key, buf, bsize);
}
OSSL_PARAM *OSSL_PARAM_BLD_to_param(OSSL_PARAM_BLD *bld) { return loaded()->OSSL_PARAM_BLD_to_param(bld); }
OSSL_PARAM OSSL_PARAM_construct_octet_string(const char *key, void *buf, size_t bsize) {
    return loaded()->OSSL_PARAM_construct_octet_string(key, buf, bsize);
}
OSSL_PARAM OSSL_PARAM_construct_utf8_string(const char *key, char *buf, size_t bsize) {
    return loaded()->OSSL_PARAM_construct_utf8_string(key, buf, bsize);
}
void OSSL_PARAM_free(OSSL_PARAM *p) { loaded()->OSSL_PARAM_free(p); }
int RAND_bytes(unsigned char *buf, int num) { return loaded()->RAND_bytes(buf, num); }
int i2d_ECDSA_SIG(const ECDSA_SIG *sig, unsigned char **out) { return loaded()->i2d_ECDSA_SIG(sig, out); }
