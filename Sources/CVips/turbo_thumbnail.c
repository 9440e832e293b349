// JPEG renditions through TurboJPEG; include/turbo_thumbnail.h says why.
#ifdef __linux__
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "turbo_thumbnail.h"

/// The TurboJPEG functions used, looked up once; the types are the library's own declarations.
static struct {
    __typeof__(tjInitDecompress) *init_decompress;
    __typeof__(tjInitCompress) *init_compress;
    __typeof__(tjDecompressHeader3) *decompress_header;
    __typeof__(tjDecompress2) *decompress;
    __typeof__(tjCompress2) *compress;
    __typeof__(tjDestroy) *destroy;
    __typeof__(tjFree) *free;
    __typeof__(tjGetErrorStr2) *error_string;
} turbo;

static pthread_once_t turbo_once = PTHREAD_ONCE_INIT;
static int turbo_loaded = 0;

static void load_turbo(void) {
    // The versioned name is what the runtime package (libturbojpeg0) installs.
    void *handle = dlopen("libturbojpeg.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) return;
#define LOOK_UP(field, name)                                                                                   \
    if ((turbo.field = (__typeof__(name) *)dlsym(handle, #name)) == NULL) return;
    LOOK_UP(init_decompress, tjInitDecompress)
    LOOK_UP(init_compress, tjInitCompress)
    LOOK_UP(decompress_header, tjDecompressHeader3)
    LOOK_UP(decompress, tjDecompress2)
    LOOK_UP(compress, tjCompress2)
    LOOK_UP(destroy, tjDestroy)
    LOOK_UP(free, tjFree)
    LOOK_UP(error_string, tjGetErrorStr2)
#undef LOOK_UP
    turbo_loaded = 1;
}

int photointake_turbo_available(void) {
    pthread_once(&turbo_once, load_turbo);
    return turbo_loaded;
}

void photointake_turbo_free(unsigned char *data) {
    if (data != NULL) turbo.free(data);
}

/// Reduces an RGB image by area averaging: each output pixel is the mean of the input area it covers, with
/// partial pixels at its edges weighted by how much of them it covers. Without the ringing of Lanczos, and a
/// proper low-pass filter for a reduction of less than 2x, which is all that is left after DCT scaling.
static void reduce(const unsigned char *in, int width, int height, unsigned char *out, int out_width,
                   int out_height) {
    const double sx = (double)width / out_width, sy = (double)height / out_height;
    for (int oy = 0; oy < out_height; oy++) {
        const double y0 = oy * sy, y1 = y0 + sy;
        for (int ox = 0; ox < out_width; ox++) {
            const double x0 = ox * sx, x1 = x0 + sx;
            double sum[3] = {0, 0, 0}, total = 0;
            for (int y = (int)y0; y < height && y < y1; y++) {
                const double wy = (y + 1 < y1 ? y + 1 : y1) - (y > y0 ? y : y0);
                const unsigned char *row = in + (size_t)y * width * 3;
                for (int x = (int)x0; x < width && x < x1; x++) {
                    const double w = wy * ((x + 1 < x1 ? x + 1 : x1) - (x > x0 ? x : x0));
                    sum[0] += w * row[x * 3];
                    sum[1] += w * row[x * 3 + 1];
                    sum[2] += w * row[x * 3 + 2];
                    total += w;
                }
            }
            unsigned char *pixel = out + ((size_t)oy * out_width + ox) * 3;
            for (int c = 0; c < 3; c++) pixel[c] = (unsigned char)(sum[c] / total + 0.5);
        }
    }
}

/// Applies EXIF orientation 1-8 (CIPA DC-008 §4.6.4 Table 6: where the 0th row and column were) to an RGB image,
/// writing the upright image to `out` (width and height swapped for 5 to 8).
static void orient(const unsigned char *in, int width, int height, int orientation, unsigned char *out) {
    const int swap = orientation >= 5 && orientation <= 8;
    const int out_width = swap ? height : width;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            int ox, oy;
            switch (orientation) {
            case 2: ox = width - 1 - x; oy = y; break;
            case 3: ox = width - 1 - x; oy = height - 1 - y; break;
            case 4: ox = x; oy = height - 1 - y; break;
            case 5: ox = y; oy = x; break;
            case 6: ox = height - 1 - y; oy = x; break;
            case 7: ox = height - 1 - y; oy = width - 1 - x; break;
            case 8: ox = y; oy = width - 1 - x; break;
            default: ox = x; oy = y; break;
            }
            memcpy(out + ((size_t)oy * out_width + ox) * 3, in + ((size_t)y * width + x) * 3, 3);
        }
    }
}

static int fail(char *error, size_t length, const char *what, tjhandle handle) {
    snprintf(error, length, "%s: %s", what, turbo.error_string(handle));
    return -1;
}

/// Reduces `decoded` (RGB, dw × dh) to fit each of `sizes`, applies `orientation` and encodes each; on failure
/// frees what was made. Shared by the JPEG path and movie posters (which arrive as RGB).
static int encode_sizes(const unsigned char *decoded, int dw, int dh, const int *sizes, int count, int orientation,
                        int quality, struct photointake_turbo_output *outputs, char *error, size_t error_length) {
    tjhandle encoder = turbo.init_compress();
    int status = encoder == NULL ? -1 : 0;
    if (encoder == NULL) snprintf(error, error_length, "TurboJPEG did not start");
    for (int i = 0; i < count && status == 0; i++) {
        // Fit inside sizes[i] without enlarging; the longest side is exactly the size when it is smaller.
        const int size = sizes[i];
        int tw = dw, th = dh;
        const int dlong = dw > dh ? dw : dh;
        if (dlong > size) {
            tw = dw >= dh ? size : (int)((double)dw * size / dh + 0.5);
            th = dw >= dh ? (int)((double)dh * size / dw + 0.5) : size;
            if (tw < 1) tw = 1;
            if (th < 1) th = 1;
        }
        unsigned char *reduced = malloc((size_t)tw * th * 3);
        unsigned char *upright = malloc((size_t)tw * th * 3);
        if (reduced == NULL || upright == NULL) {
            snprintf(error, error_length, "out of memory");
            status = -1;
        } else {
            if (tw == dw && th == dh) memcpy(reduced, decoded, (size_t)tw * th * 3);
            else reduce(decoded, dw, dh, reduced, tw, th);
            orient(reduced, tw, th, orientation, upright);
            const int swap = orientation >= 5 && orientation <= 8;
            const int uw = swap ? th : tw, uh = swap ? tw : th;
            unsigned char *data = NULL;
            unsigned long size_out = 0;
            if (turbo.compress(encoder, upright, uw, 0, uh, TJPF_RGB, &data, &size_out, TJSAMP_420, quality, 0) !=
                0) {
                status = fail(error, error_length, "encode", encoder);
            } else {
                outputs[i] = (struct photointake_turbo_output){data, size_out, uw, uh};
            }
        }
        free(reduced);
        free(upright);
    }
    if (encoder != NULL) turbo.destroy(encoder);
    if (status != 0) {
        for (int i = 0; i < count; i++) {
            photointake_turbo_free(outputs[i].data);
            outputs[i].data = NULL;
        }
    }
    return status;
}

int photointake_turbo_thumbnails(const unsigned char *jpeg, unsigned long length, const int *sizes, int count,
                                 int orientation, int quality, long long max_decoded_pixels,
                                 struct photointake_turbo_output *outputs, char *error, size_t error_length) {
    if (!photointake_turbo_available()) {
        snprintf(error, error_length, "libturbojpeg is not installed");
        return -1;
    }
    int largest = 0;
    for (int i = 0; i < count; i++) largest = sizes[i] > largest ? sizes[i] : largest;
    if (count <= 0 || largest <= 0) {
        snprintf(error, error_length, "no size to make");
        return -1;
    }
    tjhandle decoder = turbo.init_decompress();
    if (decoder == NULL) {
        snprintf(error, error_length, "TurboJPEG did not start");
        return -1;
    }
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (turbo.decompress_header(decoder, jpeg, length, &width, &height, &subsampling, &colorspace) != 0) {
        int result = fail(error, error_length, "header", decoder);
        turbo.destroy(decoder);
        return result;
    }
    if (width <= 0 || height <= 0 || (long long)width * height > max_decoded_pixels ||
        colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) {
        snprintf(error, error_length, "not decoded here (%dx%d, colour space %d)", width, height, colorspace);
        turbo.destroy(decoder);
        return -1;
    }
    // The largest DCT scaling that keeps the longest side at least the largest size asked for.
    const int longest = width > height ? width : height;
    int shrink = 1;
    for (int candidate = 8; candidate >= 2; candidate /= 2) {
        if ((longest + candidate - 1) / candidate >= largest) {
            shrink = candidate;
            break;
        }
    }
    const int dw = (width + shrink - 1) / shrink, dh = (height + shrink - 1) / shrink;
    unsigned char *decoded = malloc((size_t)dw * dh * 3);
    if (decoded == NULL) {
        snprintf(error, error_length, "out of memory");
        turbo.destroy(decoder);
        return -1;
    }
    // TJFLAG_STOPONWARNING: a truncated or damaged file is refused rather than padded with grey.
    if (turbo.decompress(decoder, jpeg, length, decoded, dw, 0, dh, TJPF_RGB, TJFLAG_STOPONWARNING) != 0) {
        int result = fail(error, error_length, "decode", decoder);
        free(decoded);
        turbo.destroy(decoder);
        return result;
    }
    turbo.destroy(decoder);
    const int status = encode_sizes(decoded, dw, dh, sizes, count, orientation, quality, outputs, error, error_length);
    free(decoded);
    return status;
}

int photointake_turbo_encode_rgb(const unsigned char *rgb, int width, int height, const int *sizes, int count,
                                 int orientation, int quality, struct photointake_turbo_output *outputs, char *error,
                                 size_t error_length) {
    if (!photointake_turbo_available()) {
        snprintf(error, error_length, "libturbojpeg is not installed");
        return -1;
    }
    if (rgb == NULL || width <= 0 || height <= 0 || count <= 0) {
        snprintf(error, error_length, "no picture to encode");
        return -1;
    }
    return encode_sizes(rgb, width, height, sizes, count, orientation, quality, outputs, error, error_length);
}
#endif
