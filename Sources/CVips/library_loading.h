#ifndef PHOTOINTAKE_CVIPS_LIBRARY_LOADING_H
#define PHOTOINTAKE_CVIPS_LIBRARY_LOADING_H
// The loading steps every run-time-opened library shares (libvips, libheif, FFmpeg): private to CVips, not part
// of its module.
#ifdef __linux__
#include <pthread.h>

#include "imaging_loader.h"

/// One library's loading, done once; `detail` explains a failure.
struct photointake_library {
    pthread_once_t once;
    photointake_load_status status;
    char detail[400];
};

/// Opens the file `$variable` names if it is set (ignored in set-user-ID processes), else the first of `names`
/// (NULL-terminated) that opens, with RTLD_LAZY | RTLD_LOCAL; the handle is never closed.
///
/// Returns the handle, with `*opened` set to the name that opened, or NULL with `library->detail` filled.
void *photointake_open_library(struct photointake_library *library, const char *variable, const char *const names[],
                               const char **opened);

/// The outcome recorded in `library`, with `*detail` (if not NULL) pointing to its explanation on failure.
photointake_load_status photointake_library_status(struct photointake_library *library, const char **detail);
#endif
#endif
