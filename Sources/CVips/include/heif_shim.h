#ifndef PHOTOINTAKE_CVIPS_HEIF_SHIM_H
#define PHOTOINTAKE_CVIPS_HEIF_SHIM_H
// libheif is called directly for HEIF/AVIF rather than through libvips's heifload module: it lets us decode the
// thumbnail item we chose, and it is 2-3x faster than heifload for a small thumbnail (heifload re-reads the file
// through a VipsSource). Its C API is plain, so these wrappers exist only because libheif is not linked: each
// calls through the table photointake_heif_load fills (imaging_loader.h). Call none before photointake_heif_load
// has returned PHOTOINTAKE_LOAD_OK.
#include "imaging_loader.h"
#ifdef __linux__

/// Registers libheif's decoder plugins (HEVC, AV1); reference counted, once per process is enough.
static inline struct heif_error photointake_heif_init(void) {
    return PHOTOINTAKE_CALL(heif_init)(NULL);
}

/// A new, empty context (NULL when out of memory).
static inline struct heif_context *photointake_heif_context_alloc(void) {
    return PHOTOINTAKE_CALL(heif_context_alloc)();
}

/// Frees a context; handles made from it keep their own reference to its data.
static inline void photointake_heif_context_free(struct heif_context *context) {
    PHOTOINTAKE_CALL(heif_context_free)(context);
}

/// Refuses images wider or taller than `limit` when the file is read.
static inline void photointake_heif_context_set_maximum_image_size_limit(struct heif_context *context, int limit) {
    PHOTOINTAKE_CALL(heif_context_set_maximum_image_size_limit)(context, limit);
}

/// Reads a file's boxes (not its pixels) into the context, with libheif's default reading options.
static inline struct heif_error photointake_heif_context_read_from_file(struct heif_context *context,
                                                                        const char *filename) {
    return PHOTOINTAKE_CALL(heif_context_read_from_file)(context, filename, NULL);
}

/// The primary image (`pitm`); release it with photointake_heif_image_handle_release.
static inline struct heif_error
photointake_heif_context_get_primary_image_handle(struct heif_context *context, struct heif_image_handle **handle) {
    return PHOTOINTAKE_CALL(heif_context_get_primary_image_handle)(context, handle);
}

/// Releases an image handle.
static inline void photointake_heif_image_handle_release(const struct heif_image_handle *handle) {
    PHOTOINTAKE_CALL(heif_image_handle_release)(handle);
}

/// The item's width after its transformations (`irot`, `clap`).
static inline int photointake_heif_image_handle_get_width(const struct heif_image_handle *handle) {
    return PHOTOINTAKE_CALL(heif_image_handle_get_width)(handle);
}

/// The item's height after its transformations.
static inline int photointake_heif_image_handle_get_height(const struct heif_image_handle *handle) {
    return PHOTOINTAKE_CALL(heif_image_handle_get_height)(handle);
}

/// Whether the item has an alpha plane (an `auxl` item of type alpha).
static inline int photointake_heif_image_handle_has_alpha_channel(const struct heif_image_handle *handle) {
    return PHOTOINTAKE_CALL(heif_image_handle_has_alpha_channel)(handle);
}

/// Writes up to `count` thumbnail item IDs (`thmb` references) to `ids`; returns how many it wrote.
static inline int photointake_heif_image_handle_get_list_of_thumbnail_IDs(const struct heif_image_handle *handle,
                                                                          heif_item_id *ids, int count) {
    return PHOTOINTAKE_CALL(heif_image_handle_get_list_of_thumbnail_IDs)(handle, ids, count);
}

/// The thumbnail item `id` of an image; release it with photointake_heif_image_handle_release.
static inline struct heif_error photointake_heif_image_handle_get_thumbnail(const struct heif_image_handle *handle,
                                                                            heif_item_id id,
                                                                            struct heif_image_handle **thumbnail) {
    return PHOTOINTAKE_CALL(heif_image_handle_get_thumbnail)(handle, id, thumbnail);
}

/// The kind of colour description (`colr`) the item has: an ICC profile, nclx, or none.
static inline enum heif_color_profile_type
photointake_heif_image_handle_get_color_profile_type(const struct heif_image_handle *handle) {
    return PHOTOINTAKE_CALL(heif_image_handle_get_color_profile_type)(handle);
}

/// The size in bytes of the item's ICC profile (0 when none).
static inline size_t
photointake_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *handle) {
    return PHOTOINTAKE_CALL(heif_image_handle_get_raw_color_profile_size)(handle);
}

/// Copies the item's ICC profile into `profile`, which holds the size the function above gave.
static inline struct heif_error
photointake_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *handle, void *profile) {
    return PHOTOINTAKE_CALL(heif_image_handle_get_raw_color_profile)(handle, profile);
}

/// Decodes an item to interleaved 8-bit samples (`chroma` RGB or RGBA) with its transformations applied. HDR
/// (10/12-bit) content is reduced to 8 bits, which needs decoding options: they are allocated by libheif (the
/// struct grows between versions) and set here, so that Swift need not know their layout.
static inline struct heif_error photointake_heif_decode_8bit(const struct heif_image_handle *handle,
                                                             struct heif_image **image, enum heif_chroma chroma) {
    struct heif_decoding_options *options = PHOTOINTAKE_CALL(heif_decoding_options_alloc)();
    if (options == NULL) {
        struct heif_error error = {heif_error_Memory_allocation_error, heif_suberror_Unspecified,
                                   "libheif could not allocate decoding options"};
        return error;
    }
    options->convert_hdr_to_8bit = 1;
    struct heif_error error =
        PHOTOINTAKE_CALL(heif_decode_image)(handle, image, heif_colorspace_RGB, chroma, options);
    PHOTOINTAKE_CALL(heif_decoding_options_free)(options);
    return error;
}

/// Frees decoded pixels.
static inline void photointake_heif_image_release(const struct heif_image *image) {
    PHOTOINTAKE_CALL(heif_image_release)(image);
}

/// The width of the decoded interleaved plane.
static inline int photointake_heif_image_get_width(const struct heif_image *image) {
    return PHOTOINTAKE_CALL(heif_image_get_width)(image, heif_channel_interleaved);
}

/// The height of the decoded interleaved plane.
static inline int photointake_heif_image_get_height(const struct heif_image *image) {
    return PHOTOINTAKE_CALL(heif_image_get_height)(image, heif_channel_interleaved);
}

/// The decoded interleaved plane, owned by `image`, and its row stride in bytes.
static inline const uint8_t *photointake_heif_image_get_plane_readonly(const struct heif_image *image,
                                                                       int *stride) {
    return PHOTOINTAKE_CALL(heif_image_get_plane_readonly)(image, heif_channel_interleaved, stride);
}
#endif
#endif
