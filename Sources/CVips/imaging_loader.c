// Opens libvips and libheif at run time and fills the function table; include/imaging_loader.h says why.
#ifdef __linux__
// secure_getenv: the library overrides are ignored in set-user-ID processes, as LD_LIBRARY_PATH is.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "imaging_loader.h"
#include "library_loading.h"

struct photointake_imaging_functions photointake_imaging;

static struct photointake_library vips_library = {.once = PTHREAD_ONCE_INIT};
static struct photointake_library heif_library = {.once = PTHREAD_ONCE_INIT};

/// Opens the file `$variable` names if it is set, else the first of `names` that opens.
///
/// RTLD_LAZY binds as linking did: the libraries Debian builds with BIND_NOW are still bound at once, the others
/// at their first call. RTLD_NOW would bind every function of all ~100 libraries now (8,000 more symbol lookups,
/// 6 ms per process measured), and the table's own functions are bound by dlsym anyway. RTLD_LOCAL: nothing else
/// in the process should bind to these libraries' symbols by accident; the table is the only way in. The handle
/// is never closed (the table points into it, and libvips registers GObject types that cannot be unloaded).
///
/// Returns the handle, with `*opened` set to the name that opened, or NULL with `library->detail` filled.
void *photointake_open_library(struct photointake_library *library, const char *variable, const char *const names[],
                               const char **opened) {
#ifdef PHOTOINTAKE_TEST_HOOKS
    // Only test builds (the TestHooks trait, Package.swift) let the environment name the library to load: the
    // tests use it to make a library missing or wrong. An app or a release `intake` loads the system's own, so
    // that no variable can make it run code from another file.
    const char *chosen = secure_getenv(variable);
#else
    (void)variable;
    const char *chosen = NULL;
#endif
    if (chosen != NULL && chosen[0] != '\0') {
        // The host asked for this file: no fallback, so that a wrong path is reported, not silently replaced.
        void *handle = dlopen(chosen, RTLD_LAZY | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(library->detail, sizeof library->detail, "%s", reason ? reason : chosen);
        }
        *opened = chosen;
        return handle;
    }
    for (size_t index = 0; names[index] != NULL; index++) {
        void *handle = dlopen(names[index], RTLD_LAZY | RTLD_LOCAL);
        if (handle != NULL) {
            *opened = names[index];
            return handle;
        }
        // The first name is the versioned one an installed runtime package provides; its error is the one that
        // explains the failure (the unversioned name exists only with the -dev package).
        const char *reason = dlerror();
        if (index == 0) snprintf(library->detail, sizeof library->detail, "%s", reason ? reason : names[index]);
    }
    return NULL;
}

/// Stores dlsym's answer for `name` in the table, or notes the first function missing.
#define PHOTOINTAKE_LOOK_UP(name)                                                                              \
    if (missing == NULL && (photointake_imaging.name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) {      \
        missing = #name;                                                                                       \
    }

static void load_vips(void) {
    static const char *const names[] = {"libvips.so.42", "libvips.so", NULL};
    struct photointake_library *library = &vips_library;
    const char *opened = NULL;
    void *handle = photointake_open_library(library, "PHOTOINTAKE_LIBVIPS", names, &opened);
    if (handle == NULL) {
        library->status = PHOTOINTAKE_LOAD_NOT_FOUND;
        return;
    }
    const char *missing = NULL;
    PHOTOINTAKE_VIPS_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
    if (missing != NULL) {
        snprintf(library->detail, sizeof library->detail, "%s has no function %s", opened, missing);
        library->status = PHOTOINTAKE_LOAD_INCOMPATIBLE;
        return;
    }
    // The check VIPS_INIT makes before vips_init: the library's ABI (current - age, 42 for libvips 8.x) must be
    // the one of the headers the table's types come from. It matters most for the unversioned fallback name.
    int found = photointake_imaging.vips_version(3) - photointake_imaging.vips_version(5);
    int needed = VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE;
    if (found != needed) {
        snprintf(library->detail, sizeof library->detail, "%s has ABI version %d; this build needs %d", opened,
                 found, needed);
        library->status = PHOTOINTAKE_LOAD_INCOMPATIBLE;
        return;
    }
    library->status = PHOTOINTAKE_LOAD_OK;
}

static void load_heif(void) {
    // libheif has kept soname 1 since its first release; its API only grows, and the lookups below find out
    // whether the functions this build calls are there.
    static const char *const names[] = {"libheif.so.1", "libheif.so", NULL};
    struct photointake_library *library = &heif_library;
    const char *opened = NULL;
    void *handle = photointake_open_library(library, "PHOTOINTAKE_LIBHEIF", names, &opened);
    if (handle == NULL) {
        library->status = PHOTOINTAKE_LOAD_NOT_FOUND;
        return;
    }
    const char *missing = NULL;
    PHOTOINTAKE_HEIF_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
    if (missing != NULL) {
        snprintf(library->detail, sizeof library->detail, "%s has no function %s", opened, missing);
        library->status = PHOTOINTAKE_LOAD_INCOMPATIBLE;
        return;
    }
    library->status = PHOTOINTAKE_LOAD_OK;
}

#undef PHOTOINTAKE_LOOK_UP

photointake_load_status photointake_library_status(struct photointake_library *library, const char **detail) {
    if (detail != NULL) *detail = library->status == PHOTOINTAKE_LOAD_OK ? NULL : library->detail;
    return library->status;
}

photointake_load_status photointake_vips_load(const char **detail) {
    pthread_once(&vips_library.once, load_vips);
    return photointake_library_status(&vips_library, detail);
}

photointake_load_status photointake_heif_load(const char **detail) {
    pthread_once(&heif_library.once, load_heif);
    return photointake_library_status(&heif_library, detail);
}
#endif
