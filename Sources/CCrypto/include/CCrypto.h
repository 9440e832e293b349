#ifndef PHOTOINTAKE_CCRYPTO_H
#define PHOTOINTAKE_CCRYPTO_H
// SHA-256 through OpenSSL's EVP interface, which picks the SHA-NI or AVX2 implementation at run time (OpenSSL 3
// deprecates SHA256_Init/Update/Final). crypto_loader.c opens libcrypto.so.3 at the first context and calls it
// through pointers: nothing links libcrypto, so a process that hashes nothing (`intake audit`, `intake metadata`)
// does not map it and resolve its symbols at start.
#ifdef __linux__
#include <stddef.h>

/// An EVP_MD_CTX of libcrypto, opaque here.
typedef struct photointake_sha256_context photointake_sha256_context;

/// A context initialised for SHA-256, or NULL when libcrypto cannot be loaded (photointake_crypto_load_failure()
/// says why) or allocation failed.
photointake_sha256_context *photointake_sha256_new(void);

int photointake_sha256_update(photointake_sha256_context *context, const void *bytes, size_t count);

/// Writes the 32-byte digest into `out`.
int photointake_sha256_final(photointake_sha256_context *context, unsigned char *out);

void photointake_sha256_free(photointake_sha256_context *context);

/// Why libcrypto could not be loaded, or NULL when it was loaded or nothing has tried yet.
const char *photointake_crypto_load_failure(void);
#endif
#endif
