// Opens libcrypto at run time for SHA-256 (CCrypto.h says why it is not linked).
#ifdef __linux__
#define _GNU_SOURCE  // secure_getenv
#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "CCrypto.h"

/// Every function looked up, X(name) each.
#define PHOTOINTAKE_CRYPTO_FUNCTIONS(X)                                                                         \
    X(EVP_MD_CTX_new)                                                                                           \
    X(EVP_MD_CTX_free)                                                                                          \
    X(EVP_sha256)                                                                                               \
    X(EVP_DigestInit_ex)                                                                                        \
    X(EVP_DigestUpdate)                                                                                         \
    X(EVP_DigestFinal_ex)

#define PHOTOINTAKE_FIELD(name) __typeof__(name) *name;
static struct {
    PHOTOINTAKE_CRYPTO_FUNCTIONS(PHOTOINTAKE_FIELD)
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[400];

static void load(void) {
    // OpenSSL 3's soname; the unversioned name exists only with libssl-dev and may be another major version,
    // which the lookups below would notice only if a function were missing, so it is not tried.
    const char *name = "libcrypto.so.3";
#ifdef PHOTOINTAKE_TEST_HOOKS
    // Only test builds (the TestHooks trait) let the environment name the file, as for libsqlite3.
    const char *chosen = secure_getenv("PHOTOINTAKE_LIBCRYPTO");
    if (chosen != NULL && chosen[0] != '\0') name = chosen;
#endif
    void *handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "libcrypto could not be loaded: %s", reason ? reason : name);
        return;
    }
    const char *missing = NULL;
#define PHOTOINTAKE_LOOK_UP(name)                                                                               \
    if (missing == NULL && (api.name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) missing = #name;
    PHOTOINTAKE_CRYPTO_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
#undef PHOTOINTAKE_LOOK_UP
    if (missing != NULL) {
        snprintf(failure, sizeof failure, "%s has no function %s", name, missing);
        return;
    }
    loaded = 1;
}

const char *photointake_crypto_load_failure(void) {
    pthread_once(&once, load);
    return loaded ? NULL : failure;
}

photointake_sha256_context *photointake_sha256_new(void) {
    pthread_once(&once, load);
    if (!loaded) return NULL;
    EVP_MD_CTX *context = api.EVP_MD_CTX_new();
    if (context != NULL && api.EVP_DigestInit_ex(context, api.EVP_sha256(), NULL) != 1) {
        api.EVP_MD_CTX_free(context);
        return NULL;
    }
    return (photointake_sha256_context *)context;
}

// The functions below take a context that photointake_sha256_new made, so the library is loaded.

int photointake_sha256_update(photointake_sha256_context *context, const void *bytes, size_t count) {
    return api.EVP_DigestUpdate((EVP_MD_CTX *)context, bytes, count);
}

int photointake_sha256_final(photointake_sha256_context *context, unsigned char *out) {
    unsigned int length = 0;
    return api.EVP_DigestFinal_ex((EVP_MD_CTX *)context, out, &length);
}

void photointake_sha256_free(photointake_sha256_context *context) {
    if (context != NULL) api.EVP_MD_CTX_free((EVP_MD_CTX *)context);
}
#endif
