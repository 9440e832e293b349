#ifndef PHOTOINTAKE_CVIPS_IMAGING_LOADER_H
#define PHOTOINTAKE_CVIPS_IMAGING_LOADER_H
// libvips and libheif are opened with dlopen at the first thumbnail instead of being linked. With their 106
// dependencies, most of which Debian builds with BIND_NOW (libvips included), linking them cost every `intake`
// process 45 ms in the dynamic loader and 20 MB, even `intake --version`. The wrappers in shim.h and
// heif_shim.h call each function through the pointer table below; PhotoIntake loads a library
// (photointake_vips_load, photointake_heif_load) before it calls any wrapper of that library, and only the
// wrappers reach the table.
//
// The pointers have the types of the libraries' own declarations (__typeof__), so a wrapper passing a wrong
// argument fails to compile exactly as a direct call would.
//
// PhotoIntake depends on CVips on Linux only (Apple platforms decode with ImageIO); the guard lets a build of every
// target on a Mac compile this target without libvips's headers.
#ifdef __linux__
#include <vips/vips.h>
#include <libheif/heif.h>

/// The libvips functions the wrappers call, with the GObject and GLib ones: those are looked up through
/// libvips, which depends on them, so they are used from the copies libvips itself uses.
#define PHOTOINTAKE_VIPS_FUNCTIONS(X)                                                                          \
    X(vips_version)                                                                                            \
    X(vips_init)                                                                                               \
    X(vips_block_untrusted_set)                                                                                \
    X(vips_cache_set_max)                                                                                      \
    X(vips_concurrency_set)                                                                                    \
    X(vips_error_buffer_copy)                                                                                  \
    X(vips_image_new_from_file)                                                                                \
    X(vips_image_new_from_buffer)                                                                              \
    X(vips_image_new_from_memory)                                                                              \
    X(vips_image_new_from_memory_copy)                                                                         \
    X(vips_image_get_width)                                                                                    \
    X(vips_image_get_height)                                                                                   \
    X(vips_image_get_bands)                                                                                    \
    X(vips_image_get_format)                                                                                   \
    X(vips_image_get_interpretation)                                                                           \
    X(vips_image_hasalpha)                                                                                     \
    X(vips_image_get_typeof)                                                                                   \
    X(vips_image_set_blob_copy)                                                                                \
    X(vips_image_get_blob)                                                                                     \
    X(vips_image_copy_memory)                                                                                  \
    X(vips_image_write_to_memory)                                                                              \
    X(vips_thumbnail)                                                                                          \
    X(vips_thumbnail_buffer)                                                                                   \
    X(vips_thumbnail_image)                                                                                    \
    X(vips_jpegload)                                                                                           \
    X(vips_jpegsave_buffer)                                                                                    \
    X(vips_rot)                                                                                                \
    X(vips_flip)                                                                                               \
    X(vips_icc_transform)                                                                                      \
    X(vips_colourspace)                                                                                        \
    X(vips_flatten)                                                                                            \
    X(vips_cast)                                                                                               \
    X(vips_array_double_new)                                                                                   \
    X(vips_area_unref)                                                                                         \
    X(g_object_unref)                                                                                          \
    X(g_log_set_handler)                                                                                       \
    X(g_free)

/// The libheif functions the wrappers call.
#define PHOTOINTAKE_HEIF_FUNCTIONS(X)                                                                          \
    X(heif_init)                                                                                               \
    X(heif_context_alloc)                                                                                      \
    X(heif_context_free)                                                                                       \
    X(heif_context_set_maximum_image_size_limit)                                                               \
    X(heif_context_read_from_file)                                                                             \
    X(heif_context_get_primary_image_handle)                                                                   \
    X(heif_image_handle_release)                                                                               \
    X(heif_image_handle_get_width)                                                                             \
    X(heif_image_handle_get_height)                                                                            \
    X(heif_image_handle_has_alpha_channel)                                                                     \
    X(heif_image_handle_get_list_of_thumbnail_IDs)                                                             \
    X(heif_image_handle_get_thumbnail)                                                                         \
    X(heif_image_handle_get_color_profile_type)                                                                \
    X(heif_image_handle_get_raw_color_profile_size)                                                            \
    X(heif_image_handle_get_raw_color_profile)                                                                 \
    X(heif_decoding_options_alloc)                                                                             \
    X(heif_decoding_options_free)                                                                              \
    X(heif_decode_image)                                                                                       \
    X(heif_image_release)                                                                                      \
    X(heif_image_get_width)                                                                                    \
    X(heif_image_get_height)                                                                                   \
    X(heif_image_get_plane_readonly)

#define PHOTOINTAKE_FUNCTION_POINTER(name) __typeof__(name) *name;
/// One pointer per function above, named after it. Written once per library by its loader (under pthread_once,
/// which orders the writes before any caller's reads), then only read.
struct photointake_imaging_functions {
    PHOTOINTAKE_VIPS_FUNCTIONS(PHOTOINTAKE_FUNCTION_POINTER)
    PHOTOINTAKE_HEIF_FUNCTIONS(PHOTOINTAKE_FUNCTION_POINTER)
};
#undef PHOTOINTAKE_FUNCTION_POINTER

/// The table, defined in imaging_loader.c. For the wrappers only.
extern struct photointake_imaging_functions photointake_imaging;

/// The pointer to one library function. The parentheses keep a function-like macro of the same name (GLib
/// defines some for type checking) from expanding.
#define PHOTOINTAKE_CALL(name) (photointake_imaging.name)

/// The outcome of loading a library.
typedef enum photointake_load_status {
    /// Loaded: its wrappers may be called.
    PHOTOINTAKE_LOAD_OK = 0,
    /// No file by any of the library's names could be opened (not installed, or a dependency missing).
    PHOTOINTAKE_LOAD_NOT_FOUND = 1,
    /// The file opened, but lacks a function or has another ABI than the headers this was built with.
    PHOTOINTAKE_LOAD_INCOMPATIBLE = 2,
} photointake_load_status;

/// Opens libvips (libvips.so.42, else libvips.so; or, in test builds only, the file $PHOTOINTAKE_LIBVIPS names) and looks up its
/// functions, once per process; later calls return the first call's outcome. Thread-safe.
///
/// Does not start libvips (photointake_vips_init does). On failure, `*detail` (if `detail` is not NULL) points to
/// a sentence saying what failed, for the error message, valid for the life of the process.
photointake_load_status photointake_vips_load(const char **detail);

/// The same for libheif (libheif.so.1, else libheif.so; or $PHOTOINTAKE_LIBHEIF in test builds). Separate from libvips because
/// libvips does not need it, and it brings the HEVC and AV1 decoders (x265, libde265, dav1d, aom) with it: a
/// process rendering only JPEG never loads them.
photointake_load_status photointake_heif_load(const char **detail);
#endif
#endif
