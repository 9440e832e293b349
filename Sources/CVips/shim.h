#ifndef PHOTOINTAKE_CVIPS_SHIM_H
#define PHOTOINTAKE_CVIPS_SHIM_H
// libvips's operation API is variadic (name/value pairs ending in NULL), which Swift cannot call, and VIPS_INIT
// is a macro Swift does not import. Each wrapper below fixes one call's option list, so the Swift side sees a
// plain C function with typed parameters. Every function returns 0 on success and -1 on failure (the reason is
// then in vips_error_buffer), like the libvips calls it wraps.
#include <vips/vips.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
// libheif is called directly for HEIF/AVIF rather than through libvips's heifload module: its C API is plain
// (no variadic calls, no wrappers needed), it lets us decode the thumbnail item we chose, and it is 2-3x faster
// than heifload for a small thumbnail (heifload re-reads the file through a VipsSource).
#include <libheif/heif.h>

/// VIPS_INIT checks that the library we link matches the headers we compiled against (an ABI check the plain
/// vips_init skips), then starts libvips. It is a macro, so Swift needs this function to call it.
static inline int photointake_vips_init(const char *argv0) {
    return VIPS_INIT(argv0);
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
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, photointake_vips_drop_log, NULL);
}

/// Opens a file lazily: libvips reads the header (size, bands, format) and decodes no pixels until something
/// asks for them. Sequential access lets a later decode stream through the file with bounded memory.
static inline VipsImage *photointake_vips_open_header(const char *filename) {
    return vips_image_new_from_file(filename, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/// vips_thumbnail with our fixed choices: fit inside width x height, never enlarge (VIPS_SIZE_DOWN), leave
/// orientation to the caller when no_rotate is set (we apply the orientation the metadata states), and fail on
/// truncated data instead of padding the picture with grey. Shrink-on-load happens inside for JPEG and WebP.
static inline int photointake_vips_thumbnail_file(const char *filename, VipsImage **out, int width, int height,
                                                  int no_rotate) {
    return vips_thumbnail(filename, out, width, "height", height, "size", VIPS_SIZE_DOWN, "no_rotate", no_rotate,
                          "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/// Loads a JPEG reduced while decoding by `shrink` (1, 2, 4 or 8: libjpeg's DCT scaling, which skips most of
/// the inverse DCT and colour conversion work), streaming, failing on truncated data.
static inline int photointake_vips_jpegload_shrink(const char *filename, VipsImage **out, int shrink) {
    return vips_jpegload(filename, out, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                         VIPS_FAIL_ON_TRUNCATED, NULL);
}

/// The same for coded bytes in memory (an embedded EXIF or MPF preview). libvips does not copy `buffer`: it must
/// stay alive until the result has been computed.
static inline int photointake_vips_thumbnail_buffer(void *buffer, size_t length, VipsImage **out, int width,
                                                    int height) {
    return vips_thumbnail_buffer(buffer, length, out, width, "height", height, "size", VIPS_SIZE_DOWN, "no_rotate",
                                 TRUE, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/// Resizes an image already open to fit inside width x height, never enlarging, without rotating.
static inline int photointake_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_DOWN, "no_rotate", TRUE, NULL);
}

/// Turns an image clockwise by a multiple of 90 degrees.
static inline int photointake_vips_rot(VipsImage *in, VipsImage **out, VipsAngle angle) {
    return vips_rot(in, out, angle, NULL);
}

/// Mirrors an image left to right (VIPS_DIRECTION_HORIZONTAL) or top to bottom.
static inline int photointake_vips_flip(VipsImage *in, VipsImage **out, VipsDirection direction) {
    return vips_flip(in, out, direction, NULL);
}

/// Converts pixels from the embedded ICC profile to sRGB (8 bits per sample).
static inline int photointake_vips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "depth", 8, NULL);
}

/// Converts any interpretation libvips knows (grey, CMYK, 16-bit RGB, Lab...) to 8-bit sRGB.
static inline int photointake_vips_colourspace_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

/// Composites the alpha channel onto white: JPEG has no alpha, and black (vips_flatten's default) turns
/// transparent areas of icons and screenshots into black blocks.
static inline int photointake_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = {255.0, 255.0, 255.0};
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

/// Casts to 8 bits per sample (after vips_colourspace, only odd inputs still need it).
static inline int photointake_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/// Encodes baseline JPEG without any metadata: renditions must not carry the original's EXIF or GPS, and their
/// pixels are already upright, so an orientation tag would only mislead. The caller frees *buffer with g_free.
static inline int photointake_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
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

/// Decodes a JPEG in memory to pixels, for tests comparing renditions with references.
static inline int photointake_vips_load_buffer(void *buffer, size_t length, VipsImage **out) {
    VipsImage *image = vips_image_new_from_buffer(buffer, length, "", "access", VIPS_ACCESS_RANDOM, NULL);
    if (image == NULL) return -1;
    *out = image;
    return 0;
}
#endif
