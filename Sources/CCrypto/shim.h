#ifndef PHOTOINTAKE_CCRYPTO_SHIM_H
#define PHOTOINTAKE_CCRYPTO_SHIM_H
// SHA-256 through OpenSSL's EVP interface. OpenSSL 3 deprecates SHA256_Init/Update/Final (they warn at every
// call site), and EVP picks the SHA-NI / AVX2 implementation at run time. The wrappers keep the EVP plumbing
// (context allocation, the EVP_sha256() method) out of Swift.
#include <openssl/evp.h>

static inline EVP_MD_CTX *photointake_sha256_new(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx != 0 && EVP_DigestInit_ex(ctx, EVP_sha256(), 0) != 1) {
        EVP_MD_CTX_free(ctx);
        return 0;
    }
    return ctx;
}

static inline int photointake_sha256_update(EVP_MD_CTX *ctx, const void *bytes, size_t count) {
    return EVP_DigestUpdate(ctx, bytes, count);
}

/// Writes the 32-byte digest into `out`.
static inline int photointake_sha256_final(EVP_MD_CTX *ctx, unsigned char *out) {
    unsigned int length = 0;
    return EVP_DigestFinal_ex(ctx, out, &length);
}

static inline void photointake_sha256_free(EVP_MD_CTX *ctx) {
    EVP_MD_CTX_free(ctx);
}
#endif
