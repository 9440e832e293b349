// JPEG renditions through TurboJPEG; include/turbo_thumbnail.h says why.
#ifdef __linux__
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <unistd.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "dc_scaled.h"
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

/// What a rendition needs besides the photo: TurboJPEG handles and buffers for the file and the decode. Kept in a
/// small pool between renditions (decode lanes are dispatch queues, whose blocks run on whichever thread of the
/// pool is free, so a thread-local would be made again for most photos). Making them again for every photo cost
/// about 4 ms of a 33 ms rendition here (the benchmark corpus's 12 MP JPEGs): fresh pages are faulted in and
/// zeroed, and libjpeg sets up its pools each time. A buffer over `kept_buffer_limit` is freed after use (and
/// the freed memory handed back), so the pool holds at most `kept_states` × 2 × that between photos.
struct turbo_state {
    tjhandle decoder;
    tjhandle encoder;
    unsigned char *file;
    size_t file_capacity;
    unsigned char *decoded;
    size_t decoded_capacity;
};

static const size_t kept_buffer_limit = 8 << 20;
enum { kept_states = 4 };
static struct turbo_state *pool[kept_states];
static int pooled = 0;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

/// A state from the pool, or a new one; NULL when out of memory.
static struct turbo_state *take_state(void) {
    struct turbo_state *state = NULL;
    pthread_mutex_lock(&pool_lock);
    if (pooled > 0) state = pool[--pooled];
    pthread_mutex_unlock(&pool_lock);
    return state != NULL ? state : calloc(1, sizeof *state);
}

static void free_state(struct turbo_state *state) {
    if (state->decoder != NULL) turbo.destroy(state->decoder);
    if (state->encoder != NULL) turbo.destroy(state->encoder);
    free(state->file);
    free(state->decoded);
    free(state);
}

/// A buffer of at least `size` bytes in *buffer (grown as needed); NULL when out of memory.
/// Rounded up to a power of two, so that photos of slightly different sizes reuse one buffer.
static unsigned char *room(unsigned char **buffer, size_t *capacity, size_t size) {
    if (*capacity >= size) return *buffer;
    size_t rounded = 1 << 16;
    while (rounded < size && rounded < ((size_t)1 << 40)) rounded <<= 1;
    free(*buffer);
    *capacity = 0;
    if ((*buffer = malloc(rounded)) != NULL) *capacity = rounded;
    return *buffer;
}

/// Frees *buffer when it is larger than the pool keeps; returns whether it did.
static int release_if_large(unsigned char **buffer, size_t *capacity) {
    if (*capacity <= kept_buffer_limit) return 0;
    free(*buffer);
    *buffer = NULL;
    *capacity = 0;
    return 1;
}

/// Returns a state to the pool (or frees it when the pool is full), after freeing buffers larger than the pool
/// keeps; hands the freed memory back to the system when it freed any.
static void return_state(struct turbo_state *state) {
    int freed = release_if_large(&state->file, &state->file_capacity);
    freed |= release_if_large(&state->decoded, &state->decoded_capacity);
    pthread_mutex_lock(&pool_lock);
    if (pooled < kept_states) {
        pool[pooled++] = state;
        state = NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    if (state != NULL) {
        free_state(state);
        freed = 1;
    }
#ifdef __GLIBC__
    if (freed) malloc_trim(0);
#else
    (void)freed;
#endif
}

/// Drops a handle that failed, so that the next photo starts from a fresh one.
static void drop(tjhandle *handle) {
    if (*handle != NULL) turbo.destroy(*handle);
    *handle = NULL;
}

/// For a reduction of `in` samples to `out`: output sample i covers the input interval [i*s, (i+1)*s) with
/// s = in/out. Its `taps` weights (how much of each input sample from first[i] on it covers, 0 past its end)
/// are normalised to sum 1.
static void coverage(int in, int out, int taps, int *first, float *weights) {
    const double s = (double)in / out;
    for (int i = 0; i < out; i++) {
        const double a = i * s, b = a + s;
        int start = (int)a;
        if (start > in - taps) start = in - taps;
        first[i] = start;
        double total = 0;
        for (int k = 0; k < taps; k++) {
            const int x = start + k;
            const double lo = x > a ? x : a, hi = x + 1 < b ? x + 1 : b;
            const double w = hi > lo ? hi - lo : 0;
            weights[i * taps + k] = (float)w;
            total += w;
        }
        for (int k = 0; k < taps; k++) weights[i * taps + k] = (float)(weights[i * taps + k] / total);
    }
}

/// How many input samples one output sample of a reduction from `in` to `out` can touch: ceil(in/out) + 1.
static int taps_for(int in, int out) {
    const int taps = (in + out - 1) / out + 1;
    return taps > in ? in : taps;
}

/// One RGB input row reduced horizontally to `out_width` pixels of float RGB.
static void reduce_row(const unsigned char *line, int out_width, int taps, const int *first, const float *weights,
                       float *row) {
    for (int ox = 0; ox < out_width; ox++) {
        const unsigned char *p = line + (size_t)first[ox] * 3;
        const float *w = weights + (size_t)ox * taps;
        float r = 0, g = 0, b = 0;
        for (int k = 0; k < taps; k++, p += 3) {
            r += w[k] * p[0];
            g += w[k] * p[1];
            b += w[k] * p[2];
        }
        row[ox * 3] = r;
        row[ox * 3 + 1] = g;
        row[ox * 3 + 2] = b;
    }
}

/// Reduces an RGB image by area averaging: each output pixel is the mean of the input area it covers, with
/// partial pixels at its edges weighted by how much of them it covers. Without the ringing of Lanczos, and a
/// proper low-pass filter for a reduction of less than 2x, which is all that is left after DCT scaling.
/// Separable: each input row is reduced horizontally once (kept in a ring of `ytaps` rows), then the rows an
/// output row covers are averaged. Returns -1 when out of memory.
static int reduce(const unsigned char *in, int width, int height, unsigned char *out, int out_width,
                  int out_height) {
    const int xtaps = taps_for(width, out_width), ytaps = taps_for(height, out_height);
    const size_t stride = (size_t)out_width * 3;
    int *xfirst = malloc(sizeof(int) * out_width), *yfirst = malloc(sizeof(int) * out_height);
    int *held = malloc(sizeof(int) * ytaps);
    float *xw = malloc(sizeof(float) * out_width * xtaps), *yw = malloc(sizeof(float) * out_height * ytaps);
    float *rows = malloc(sizeof(float) * stride * ytaps);
    const float **source = malloc(sizeof(float *) * ytaps);
    float *sum = malloc(sizeof(float) * stride);
    int status = -1;
    if (xfirst && yfirst && held && xw && yw && rows && source && sum) {
        coverage(width, out_width, xtaps, xfirst, xw);
        coverage(height, out_height, ytaps, yfirst, yw);
        for (int k = 0; k < ytaps; k++) held[k] = -1;
        for (int oy = 0; oy < out_height; oy++) {
            for (int k = 0; k < ytaps; k++) {
                const int y = yfirst[oy] + k, slot = y % ytaps;
                float *row = rows + (size_t)slot * stride;
                if (held[slot] != y) {
                    reduce_row(in + (size_t)y * width * 3, out_width, xtaps, xfirst, xw, row);
                    held[slot] = y;
                }
                source[k] = row;
            }
            // Row by row, so that the compiler can use vector instructions.
            const float *weight = yw + (size_t)oy * ytaps;
            unsigned char *target = out + (size_t)oy * stride;
            for (size_t i = 0; i < stride; i++) sum[i] = 0.5f;
            for (int k = 0; k < ytaps; k++) {
                const float w = weight[k], *line = source[k];
                for (size_t i = 0; i < stride; i++) sum[i] += w * line[i];
            }
            for (size_t i = 0; i < stride; i++) {
                target[i] = sum[i] >= 255 ? 255 : sum[i] <= 0 ? 0 : (unsigned char)sum[i];
            }
        }
        status = 0;
    }
    free(xfirst);
    free(yfirst);
    free(held);
    free(xw);
    free(yw);
    free(rows);
    free(source);
    free(sum);
    return status;
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

/// Reduces `decoded` (RGB, dw × dh) to fit each of `sizes`, applies `orientation` and encodes each with the
/// thread's encoder; on failure frees what was made. Shared by the JPEG path and movie posters (which arrive
/// as RGB).
static int encode_sizes(struct turbo_state *state, const unsigned char *decoded, int dw, int dh, const int *sizes,
                        int count, int orientation, int quality, struct photointake_turbo_output *outputs,
                        char *error, size_t error_length) {
    if (state->encoder == NULL) state->encoder = turbo.init_compress();
    int status = state->encoder == NULL ? -1 : 0;
    if (state->encoder == NULL) snprintf(error, error_length, "TurboJPEG did not start");
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
        // A buffer only for each step that changes the picture: the reduction (unless the decode already fits)
        // and the orientation (unless it is 1 or none).
        const size_t bytes = (size_t)tw * th * 3;
        const int reducing = tw != dw || th != dh;
        const int turned = orientation >= 2 && orientation <= 8;
        unsigned char *reduced = reducing ? malloc(bytes) : NULL;
        unsigned char *upright = turned ? malloc(bytes) : NULL;
        if ((reducing && (reduced == NULL || reduce(decoded, dw, dh, reduced, tw, th) != 0)) ||
            (turned && upright == NULL)) {
            snprintf(error, error_length, "out of memory");
            status = -1;
        } else {
            const unsigned char *picture = reducing ? reduced : decoded;
            if (turned) {
                orient(picture, tw, th, orientation, upright);
                picture = upright;
            }
            const int swap = orientation >= 5 && orientation <= 8;
            const int uw = swap ? th : tw, uh = swap ? tw : th;
            unsigned char *data = NULL;
            unsigned long size_out = 0;
            const int compressed =
                turbo.compress(state->encoder, picture, uw, 0, uh, TJPF_RGB, &data, &size_out, TJSAMP_420, quality, 0);
            if (compressed != 0) {
                status = fail(error, error_length, "encode", state->encoder);
                drop(&state->encoder);
            } else {
                outputs[i] = (struct photointake_turbo_output){data, size_out, uw, uh};
            }
        }
        free(reduced);
        free(upright);
    }
    if (status != 0) {
        for (int i = 0; i < count; i++) {
            photointake_turbo_free(outputs[i].data);
            outputs[i].data = NULL;
        }
    }
    return status;
}

/// The renditions of the JPEG in `jpeg`, with the thread's decoder and decode buffer.
static int thumbnails(struct turbo_state *state, const unsigned char *jpeg, unsigned long length, const int *sizes,
                      int count, int orientation, int quality, long long max_decoded_pixels,
                      struct photointake_turbo_output *outputs, char *error, size_t error_length) {
    int largest = 0;
    for (int i = 0; i < count; i++) largest = sizes[i] > largest ? sizes[i] : largest;
    if (count <= 0 || largest <= 0) {
        snprintf(error, error_length, "no size to make");
        return -1;
    }
    if (state->decoder == NULL) state->decoder = turbo.init_decompress();
    if (state->decoder == NULL) {
        snprintf(error, error_length, "TurboJPEG did not start");
        return -1;
    }
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (turbo.decompress_header(state->decoder, jpeg, length, &width, &height, &subsampling, &colorspace) != 0) {
        int result = fail(error, error_length, "header", state->decoder);
        drop(&state->decoder);
        return result;
    }
    if (width <= 0 || height <= 0 || (long long)width * height > max_decoded_pixels ||
        colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) {
        snprintf(error, error_length, "not decoded here (%dx%d, colour space %d)", width, height, colorspace);
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
    unsigned char *decoded = room(&state->decoded, &state->decoded_capacity, (size_t)dw * dh * 3);
    if (decoded == NULL) {
        snprintf(error, error_length, "out of memory");
        return -1;
    }
    // At 1/8 scale, the DC coefficients alone (dc_scaled.h), at about 2/3 of TurboJPEG's cost; a file that
    // decoder does not serve, or that it finds damaged, is decoded by TurboJPEG, which says what is wrong.
    int sw = 0, sh = 0;
    if (shrink == 8 && photointake_dc_scaled(jpeg, length, decoded, state->decoded_capacity, 0, &sw, &sh) == 0 &&
        sw == dw && sh == dh)
        return encode_sizes(state, decoded, dw, dh, sizes, count, orientation, quality, outputs, error, error_length);
    // TJFLAG_STOPONWARNING: a truncated or damaged file is refused rather than padded with grey.
    if (turbo.decompress(state->decoder, jpeg, length, decoded, dw, 0, dh, TJPF_RGB, TJFLAG_STOPONWARNING) != 0) {
        int result = fail(error, error_length, "decode", state->decoder);
        drop(&state->decoder);
        return result;
    }
    return encode_sizes(state, decoded, dw, dh, sizes, count, orientation, quality, outputs, error, error_length);
}

/// Checks that TurboJPEG is there and takes a state from the pool, or returns NULL with a sentence in `error`.
static struct turbo_state *start(char *error, size_t error_length) {
    if (!photointake_turbo_available()) {
        snprintf(error, error_length, "libturbojpeg is not installed");
        return NULL;
    }
    struct turbo_state *state = take_state();
    if (state == NULL) snprintf(error, error_length, "out of memory");
    return state;
}

int photointake_turbo_thumbnails_of_file(int descriptor, unsigned long length, const int *sizes, int count,
                                         int orientation, int quality, long long max_decoded_pixels,
                                         struct photointake_turbo_output *outputs, char *error,
                                         size_t error_length) {
    struct turbo_state *state = start(error, error_length);
    if (state == NULL) return -1;
    unsigned char *file = room(&state->file, &state->file_capacity, length > 0 ? length : 1);
    if (file == NULL) {
        snprintf(error, error_length, "out of memory");
        return_state(state);
        return -1;
    }
    size_t done = 0;
    while (done < length) {
        const ssize_t got = pread(descriptor, file + done, length - done, (off_t)done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            if (got == 0) snprintf(error, error_length, "the file is shorter than it was");
            else snprintf(error, error_length, "read: %s", strerror(errno));
            return_state(state);
            return -1;
        }
        done += (size_t)got;
    }
    const int status = thumbnails(state, file, length, sizes, count, orientation, quality, max_decoded_pixels,
                                  outputs, error, error_length);
    return_state(state);
    return status;
}

int photointake_turbo_scaled(const unsigned char *jpeg, size_t length, unsigned char *rgb, size_t capacity,
                             int gray, int *width, int *height) {
    char error[128];
    struct turbo_state *state = start(error, sizeof error);
    if (state == NULL) return -1;
    if (state->decoder == NULL) state->decoder = turbo.init_decompress();
    int w = 0, h = 0, subsampling = 0, colorspace = 0, status = -1;
    if (state->decoder != NULL &&
        turbo.decompress_header(state->decoder, jpeg, length, &w, &h, &subsampling, &colorspace) == 0) {
        const int dw = (w + 7) / 8, dh = (h + 7) / 8;
        if ((size_t)dw * dh * (gray ? 1 : 3) <= capacity &&
            turbo.decompress(state->decoder, jpeg, length, rgb, dw, 0, dh, gray ? TJPF_GRAY : TJPF_RGB,
                             TJFLAG_STOPONWARNING) == 0) {
            *width = dw;
            *height = dh;
            status = 0;
        }
    }
    if (status != 0) drop(&state->decoder);
    return_state(state);
    return status;
}

int photointake_turbo_encode_rgb(const unsigned char *rgb, int width, int height, const int *sizes, int count,
                                 int orientation, int quality, struct photointake_turbo_output *outputs, char *error,
                                 size_t error_length) {
    if (rgb == NULL || width <= 0 || height <= 0 || count <= 0) {
        snprintf(error, error_length, "no picture to encode");
        return -1;
    }
    struct turbo_state *state = start(error, error_length);
    if (state == NULL) return -1;
    const int status =
        encode_sizes(state, rgb, width, height, sizes, count, orientation, quality, outputs, error, error_length);
    return_state(state);
    return status;
}
#endif
