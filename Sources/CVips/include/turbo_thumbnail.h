#ifndef PHOTOINTAKE_CVIPS_TURBO_THUMBNAIL_H
#define PHOTOINTAKE_CVIPS_TURBO_THUMBNAIL_H
// JPEG renditions straight through libjpeg-turbo's TurboJPEG API, the fastest way to make a small picture of a
// large JPEG: one decode with DCT scaling (1/2, 1/4 or 1/8, which skips most of the inverse DCT), an
// area-averaging reduction of that small result to each size, the EXIF orientation applied, and one encode
// per size. libvips does the same decode through its own pipeline at about 1.5 times the cost per photo here
// (its Lanczos resampler, colour handling and JPEG writer are made for large images). At 1/8 scale, a baseline
// JPEG is decoded from its DC coefficients alone (dc_scaled.h), at about 2/3 of TurboJPEG's cost; TurboJPEG
// decodes whatever that decoder does not serve.
//
// libturbojpeg is opened with dlopen at the first use, like libvips (imaging_loader.h); when it is missing, or
// a file is something it does not decode (CMYK, damaged), the caller falls back to libvips.
#ifdef __linux__
#include <stddef.h>

/// One rendition made by photointake_turbo_thumbnails_of_file; `data` is freed with photointake_turbo_free.
struct photointake_turbo_output {
    unsigned char *data;
    unsigned long length;
    int width;
    int height;
};

/// Whether libturbojpeg could be opened (the first call opens it).
int photointake_turbo_available(void);

/// Makes one upright JPEG per entry of `sizes` (longest side at most that size, never enlarged) from the JPEG of
/// `length` bytes open at `descriptor`, decoded once. `orientation` is the EXIF orientation (1 to 8) to apply;
/// `quality` 1 to 100. `max_decoded_pixels` refuses a decode that would hold more pixels (the bomb guard's
/// limit, checked against the header TurboJPEG reads, which may disagree with ours).
///
/// The file is read whole with pread into a buffer kept in a small pool for the next photo, with TurboJPEG
/// handles (up to 8 MiB per buffer, four sets; larger ones are freed after use): no fresh pages to fault in and
/// no decoder to set up for each photo.
///
/// Returns 0 on success (every output filled), -1 on failure with a sentence in `error`; nothing to free then.
int photointake_turbo_thumbnails_of_file(int descriptor, unsigned long length, const int *sizes, int count,
                                         int orientation, int quality, long long max_decoded_pixels,
                                         struct photointake_turbo_output *outputs, char *error,
                                         size_t error_length);

/// The same reduction, orientation and encoding for a picture already decoded to 8-bit RGB (`width` × `height`,
/// rows without padding), such as a movie's poster frame. `rgb` stays the caller's.
int photointake_turbo_encode_rgb(const unsigned char *rgb, int width, int height, const int *sizes, int count,
                                 int orientation, int quality, struct photointake_turbo_output *outputs, char *error,
                                 size_t error_length);

/// Frees an output's data.
void photointake_turbo_free(unsigned char *data);

#endif
#endif
