#ifndef PHOTOINTAKE_CVIPS_SHIM_H
#define PHOTOINTAKE_CVIPS_SHIM_H
// libvips's operation API is variadic (name/value pairs ending in NULL), which Swift cannot call, and VIPS_INIT
// is a macro Swift does not import. Each wrapper below fixes one call's option list, so the Swift side sees a
// plain C function with typed parameters. Every function returns 0 on success and -1 on failure (the reason is
// then in vips_error_buffer), like the libvips calls it wraps.
//
// Every wrapper, variadic or not, also exists because libvips is not linked: it calls through the table that
// photointake_vips_load fills (imaging_loader.h). Call none before photointake_vips_load has returned
// PHOTOINTAKE_LOAD_OK.
#include "imaging_loader.h"
#ifdef __linux__
#ifdef __GLIBC__
#include <malloc.h>
#endif

/// Starts libvips. VIPS_INIT's ABI check has been made by photointake_vips_load, against the library actually
/// opened; what remains of the macro is this call.
static inline int photointake_vips_init(const char *argv0) {
    return PHOTOINTAKE_CALL(vips_init)(argv0);
}

/// A GLib log handler that drops the message.
static inline void photointake_vips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message,
                                             gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/// libvips reports each damaged tile with g_warning on stderr ("error in tile 0 x 16"), many lines per file;
/// the failure itself reaches us as the operation's result, which we turn into a typed error. The lines would
/// only clutter the output of `intake` and of apps embedding PhotoIntake, so the VIPS log domain's warnings are
/// dropped. A function pointer to a C function is needed, hence this wrapper.
static inline void photointake_vips_drop_warnings(void) {
    PHOTOINTAKE_CALL(g_log_set_handler)("VIPS", G_LOG_LEVEL_WARNING, photointake_vips_drop_log, NULL);
}

/// Refuses the loaders libvips marks as unfuzzed, whatever the bytes claim (vips_block_untrusted_set).
static inline void photointake_vips_block_untrusted(void) {
    PHOTOINTAKE_CALL(vips_block_untrusted_set)(TRUE);
}

/// Sets how many operations libvips keeps for reuse (vips_cache_set_max).
static inline void photointake_vips_cache_set_max(int max) {
    PHOTOINTAKE_CALL(vips_cache_set_max)(max);
}

/// Sets how many worker threads each libvips pipeline uses (vips_concurrency_set).
static inline void photointake_vips_concurrency_set(int concurrency) {
    PHOTOINTAKE_CALL(vips_concurrency_set)(concurrency);
}

/// libvips's error text since the last call, which it then clears; free it with photointake_g_free.
static inline char *photointake_vips_error_buffer_copy(void) {
    return PHOTOINTAKE_CALL(vips_error_buffer_copy)();
}

/// Frees memory libvips allocated with GLib (error text, encoded JPEG, pixel copies).
static inline void photointake_g_free(void *memory) {
    PHOTOINTAKE_CALL(g_free)(memory);
}

/// Drops one reference to an image (a GObject); the last one frees it and releases its inputs.
static inline void photointake_vips_image_unref(VipsImage *image) {
    PHOTOINTAKE_CALL(g_object_unref)(image);
}

/// The image's width in pixels.
static inline int photointake_vips_image_get_width(const VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_get_width)(image);
}

/// The image's height in pixels.
static inline int photointake_vips_image_get_height(const VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_get_height)(image);
}

/// The number of samples per pixel.
static inline int photointake_vips_image_get_bands(const VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_get_bands)(image);
}

/// The sample format (VIPS_FORMAT_UCHAR for 8 bits).
static inline VipsBandFormat photointake_vips_image_get_format(const VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_get_format)(image);
}

/// How the samples are meant (VIPS_INTERPRETATION_sRGB, grey, CMYK...).
static inline VipsInterpretation photointake_vips_image_get_interpretation(const VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_get_interpretation)(image);
}

/// Whether the last band is alpha, by libvips's reading of the interpretation and band count.
static inline int photointake_vips_image_hasalpha(VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_hasalpha)(image);
}

/// Whether an ICC profile is attached. The field's name is libvips's macro (VIPS_META_ICC_NAME), which Swift
/// would otherwise have to spell.
static inline int photointake_vips_image_has_icc_profile(const VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_get_typeof)(image, VIPS_META_ICC_NAME) != 0;
}

/// Attaches a copy of an ICC profile, which the colour conversion then reads.
static inline void photointake_vips_image_set_icc_profile(VipsImage *image, const void *profile, size_t length) {
    PHOTOINTAKE_CALL(vips_image_set_blob_copy)(image, VIPS_META_ICC_NAME, profile, length);
}

/// The attached ICC profile (the image owns the bytes: valid while it lives), or NULL when there is none. A
/// compatible export embeds it as it is, so that Display P3 pixels stay P3 (the colour conversion of a thumbnail
/// is what an export must not do).
static inline const void *photointake_vips_image_get_icc_profile(VipsImage *image, size_t *length) {
    const void *data = NULL;
    if (PHOTOINTAKE_CALL(vips_image_get_typeof)(image, VIPS_META_ICC_NAME) == 0) return NULL;
    if (PHOTOINTAKE_CALL(vips_image_get_blob)(image, VIPS_META_ICC_NAME, &data, length) != 0) return NULL;
    return data;
}

/// Wraps pixels in memory without copying them (8 bits per sample, interleaved): `data` must outlive the image
/// and everything computed from it.
static inline VipsImage *photointake_vips_image_new_from_memory(const void *data, size_t length, int width,
                                                                int height, int bands) {
    return PHOTOINTAKE_CALL(vips_image_new_from_memory)(data, length, width, height, bands, VIPS_FORMAT_UCHAR);
}

/// The same, copying the pixels, for buffers that do not live long enough.
static inline VipsImage *photointake_vips_image_new_from_memory_copy(const void *data, size_t length, int width,
                                                                     int height, int bands) {
    return PHOTOINTAKE_CALL(vips_image_new_from_memory_copy)(data, length, width, height, bands, VIPS_FORMAT_UCHAR);
}

/// Computes every pixel into a new image in memory (NULL on failure).
static inline VipsImage *photointake_vips_image_copy_memory(VipsImage *image) {
    return PHOTOINTAKE_CALL(vips_image_copy_memory)(image);
}

/// Computes the pixels into one buffer, row by row; free it with photointake_g_free. NULL on failure.
static inline void *photointake_vips_image_write_to_memory(VipsImage *image, size_t *length) {
    return PHOTOINTAKE_CALL(vips_image_write_to_memory)(image, length);
}

/// What a decode does with truncated or damaged pixel data: fail (`strict` non-zero: exports, and the first
/// try of a rendition) or go on as libvips does by default, the missing part padded (a rendition's second try,
/// marked partial; vipsthumbnail shows such files the same way).
static inline VipsFailOn photointake_fail_on(int strict) {
    return strict ? VIPS_FAIL_ON_TRUNCATED : VIPS_FAIL_ON_NONE;
}

/// Opens a file lazily: libvips reads the header (size, bands, format) and decodes no pixels until something
/// asks for them. Sequential access lets a later decode stream through the file with bounded memory. Truncated
/// data fails the decode when `strict`: without fail_on, libvips pads a cut PNG with black and reports success, and a
/// full-size conversion would export that as the picture. (Some loaders scan the whole file here: libnsgif does.)
static inline VipsImage *photointake_vips_open_header(const char *filename, int strict) {
    return PHOTOINTAKE_CALL(vips_image_new_from_file)(filename, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                                      photointake_fail_on(strict), NULL);
}

/// vips_thumbnail with our fixed choices: fit inside width x height, never enlarge (VIPS_SIZE_DOWN), leave
/// orientation to the caller when no_rotate is set (we apply the orientation the metadata states), and, when
/// `strict`, fail on truncated data instead of padding the picture with grey. Shrink-on-load happens inside for
/// JPEG and WebP.
static inline int photointake_vips_thumbnail_file(const char *filename, VipsImage **out, int width, int height,
                                                  int no_rotate, int strict) {
    return PHOTOINTAKE_CALL(vips_thumbnail)(filename, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                            "no_rotate", no_rotate, "fail_on", photointake_fail_on(strict), NULL);
}

/// Loads a JPEG reduced while decoding by `shrink` (1, 2, 4 or 8: libjpeg's DCT scaling, which skips most of
/// the inverse DCT and colour conversion work), streaming, failing on truncated data when `strict`.
static inline int photointake_vips_jpegload_shrink(const char *filename, VipsImage **out, int shrink, int strict) {
    return PHOTOINTAKE_CALL(vips_jpegload)(filename, out, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL,
                                           "fail_on", photointake_fail_on(strict), NULL);
}

/// The same for coded bytes in memory (an embedded EXIF or MPF preview). libvips does not copy `buffer`: it must
/// stay alive until the result has been computed.
static inline int photointake_vips_thumbnail_buffer(void *buffer, size_t length, VipsImage **out, int width,
                                                    int height) {
    return PHOTOINTAKE_CALL(vips_thumbnail_buffer)(buffer, length, out, width, "height", height, "size",
                                                   VIPS_SIZE_DOWN, "no_rotate", TRUE, "fail_on",
                                                   VIPS_FAIL_ON_TRUNCATED, NULL);
}

/// Resizes an image already open to fit inside width x height, never enlarging, without rotating.
static inline int photointake_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height) {
    return PHOTOINTAKE_CALL(vips_thumbnail_image)(in, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                                  "no_rotate", TRUE, NULL);
}

/// Turns an image clockwise by a multiple of 90 degrees.
static inline int photointake_vips_rot(VipsImage *in, VipsImage **out, VipsAngle angle) {
    return PHOTOINTAKE_CALL(vips_rot)(in, out, angle, NULL);
}

/// Mirrors an image left to right (VIPS_DIRECTION_HORIZONTAL) or top to bottom.
static inline int photointake_vips_flip(VipsImage *in, VipsImage **out, VipsDirection direction) {
    return PHOTOINTAKE_CALL(vips_flip)(in, out, direction, NULL);
}

/// Converts pixels from the embedded ICC profile to sRGB (8 bits per sample).
static inline int photointake_vips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return PHOTOINTAKE_CALL(vips_icc_transform)(in, out, "srgb", "embedded", TRUE, "depth", 8, NULL);
}

/// Converts any interpretation libvips knows (grey, CMYK, 16-bit RGB, Lab...) to 8-bit sRGB.
static inline int photointake_vips_colourspace_srgb(VipsImage *in, VipsImage **out) {
    return PHOTOINTAKE_CALL(vips_colourspace)(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

/// Composites the alpha channel onto white: JPEG has no alpha, and black (vips_flatten's default) turns
/// transparent areas of icons and screenshots into black blocks.
static inline int photointake_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = {255.0, 255.0, 255.0};
    VipsArrayDouble *background = PHOTOINTAKE_CALL(vips_array_double_new)(white, 3);
    int result = PHOTOINTAKE_CALL(vips_flatten)(in, out, "background", background, NULL);
    PHOTOINTAKE_CALL(vips_area_unref)(VIPS_AREA(background));
    return result;
}

/// Casts to 8 bits per sample (after vips_colourspace, only odd inputs still need it).
static inline int photointake_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return PHOTOINTAKE_CALL(vips_cast)(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/// Encodes baseline JPEG without any metadata: renditions must not carry the original's EXIF or GPS, and their
/// pixels are already upright, so an orientation tag would only mislead. The caller frees *buffer with
/// photointake_g_free.
static inline int photointake_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality) {
    return PHOTOINTAKE_CALL(vips_jpegsave_buffer)(in, buffer, length, "Q", quality, "strip", TRUE,
                                                  "optimize_coding", TRUE, NULL);
}

/// Gives memory freed by decoders back to the system. libvips decodes on short-lived worker threads; glibc gives
/// each thread its own malloc arena and keeps freed blocks there, so a process rendering many photos grows by
/// about a megabyte per photo (measured: 42 MB after one 12 MP JPEG, 81 MB after forty) although nothing is
/// live. malloc_trim returns the free pages of every arena, in well under a millisecond. malloc.h is not part
/// of Swift's Glibc module, hence this wrapper; other C libraries return memory on their own.
static inline void photointake_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/// Caps glibc's malloc arenas for the rest of the process. glibc gives each thread that allocates an arena of
/// its own (up to eight per core) and keeps memory freed there: with an import's I/O lanes, decode lanes and
/// dispatch threads, peak RSS grew by a fifth (83 MB against 71 MB with two arenas, whole benchmark corpus).
/// For a process (the `intake` tool), not for a library inside an app.
///
/// It also fixes the size from which malloc maps a block on its own (1 MiB): glibc otherwise raises that
/// threshold to the largest block freed so far (up to 32 MiB), after which the 3-15 MB buffers of each JPEG
/// read and decoded stay in the arenas when freed instead of going back to the system.
static inline void photointake_limit_malloc_arenas(int count) {
#ifdef __GLIBC__
    mallopt(M_ARENA_MAX, count);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

/// Decodes a JPEG in memory to pixels, for tests comparing renditions with references.
static inline int photointake_vips_load_buffer(void *buffer, size_t length, VipsImage **out) {
    VipsImage *image =
        PHOTOINTAKE_CALL(vips_image_new_from_buffer)(buffer, length, "", "access", VIPS_ACCESS_RANDOM, NULL);
    if (image == NULL) return -1;
    *out = image;
    return 0;
}
#endif
#endif
