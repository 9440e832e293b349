// Poster frames through the FFmpeg libraries; include/movie_poster.h says why they are opened at run time.
#ifdef __linux__
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "library_loading.h"
#include "movie_poster.h"

// The FFmpeg headers are a build dependency like libvips's (Debian libavformat-dev, libavcodec-dev,
// libswscale-dev, libavutil-dev). A build without them still compiles: every poster then reports the libraries
// unavailable, as a machine without FFmpeg does at run time.
#if __has_include(<libavformat/avformat.h>) && __has_include(<libswscale/swscale.h>)
#define PHOTOINTAKE_HAVE_FFMPEG 1
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#else
#define PHOTOINTAKE_HAVE_FFMPEG 0
#endif

#define PHOTOINTAKE_STRINGIFY_(x) #x
#define PHOTOINTAKE_STRINGIFY(x) PHOTOINTAKE_STRINGIFY_(x)

static struct photointake_library ffmpeg_library = {.once = PTHREAD_ONCE_INIT};

#if PHOTOINTAKE_HAVE_FFMPEG

// FFmpeg 7 (libavformat 61) removed the stream side data; the display matrix is in the codec parameters' coded
// side data, read with av_packet_side_data_get (libavcodec 60.31 and later).
#define PHOTOINTAKE_CODED_SIDE_DATA (LIBAVFORMAT_VERSION_MAJOR >= 61)

#define PHOTOINTAKE_AVFORMAT_FUNCTIONS(X)                                                                      \
    X(avformat_version)                                                                                        \
    X(avformat_alloc_context)                                                                                  \
    X(avformat_open_input)                                                                                     \
    X(avformat_close_input)                                                                                    \
    X(av_find_input_format)                                                                                    \
    X(av_find_best_stream)                                                                                     \
    X(av_read_frame)                                                                                           \
    X(av_seek_frame)                                                                                           \
    X(avio_alloc_context)                                                                                      \
    X(avio_context_free)

#if PHOTOINTAKE_CODED_SIDE_DATA
#define PHOTOINTAKE_SIDE_DATA_FUNCTION(X) X(av_packet_side_data_get)
#define PHOTOINTAKE_STREAM_SIDE_DATA_FUNCTION(X)
#else
#define PHOTOINTAKE_SIDE_DATA_FUNCTION(X)
#define PHOTOINTAKE_STREAM_SIDE_DATA_FUNCTION(X) X(av_stream_get_side_data)
#endif

#define PHOTOINTAKE_AVCODEC_FUNCTIONS(X)                                                                       \
    X(avcodec_version)                                                                                         \
    X(avcodec_find_decoder)                                                                                    \
    X(avcodec_alloc_context3)                                                                                  \
    X(avcodec_parameters_to_context)                                                                           \
    X(avcodec_open2)                                                                                           \
    X(avcodec_send_packet)                                                                                     \
    X(avcodec_receive_frame)                                                                                   \
    X(avcodec_flush_buffers)                                                                                   \
    X(avcodec_free_context)                                                                                    \
    X(av_packet_alloc)                                                                                         \
    X(av_packet_free)                                                                                          \
    X(av_packet_unref)                                                                                         \
    PHOTOINTAKE_SIDE_DATA_FUNCTION(X)

#define PHOTOINTAKE_AVUTIL_FUNCTIONS(X)                                                                        \
    X(avutil_version)                                                                                          \
    X(av_malloc)                                                                                               \
    X(av_freep)                                                                                                \
    X(av_frame_alloc)                                                                                          \
    X(av_frame_free)                                                                                           \
    X(av_frame_unref)                                                                                          \
    X(av_frame_move_ref)                                                                                       \
    X(av_display_rotation_get)                                                                                 \
    X(av_log_set_level)

#define PHOTOINTAKE_SWSCALE_FUNCTIONS(X)                                                                       \
    X(swscale_version)                                                                                         \
    X(sws_getContext)                                                                                          \
    X(sws_setColorspaceDetails)                                                                                \
    X(sws_getCoefficients)                                                                                     \
    X(sws_scale)                                                                                               \
    X(sws_freeContext)

/// One pointer per function, with the type of the library's own declaration (a wrong argument fails to compile,
/// as a direct call would). Written once under pthread_once, then only read.
#define PHOTOINTAKE_FUNCTION_POINTER(name) __typeof__(name) *name;
static struct {
    PHOTOINTAKE_AVFORMAT_FUNCTIONS(PHOTOINTAKE_FUNCTION_POINTER)
    PHOTOINTAKE_STREAM_SIDE_DATA_FUNCTION(PHOTOINTAKE_FUNCTION_POINTER)
    PHOTOINTAKE_AVCODEC_FUNCTIONS(PHOTOINTAKE_FUNCTION_POINTER)
    PHOTOINTAKE_AVUTIL_FUNCTIONS(PHOTOINTAKE_FUNCTION_POINTER)
    PHOTOINTAKE_SWSCALE_FUNCTIONS(PHOTOINTAKE_FUNCTION_POINTER)
} ff;
#undef PHOTOINTAKE_FUNCTION_POINTER

/// Opens one FFmpeg library by the soname of the headers' major version, and checks that the file's own
/// version function says the same major: the structures this file reads (AVFormatContext, AVStream,
/// AVCodecParameters, AVFrame, AVPacket) keep their layout only within a major version.
static void *open_ffmpeg(const char *variable, const char *soname, int major, const char *version_symbol) {
    const char *const names[] = {soname, NULL};
    const char *opened = NULL;
    void *handle = photointake_open_library(&ffmpeg_library, variable, names, &opened);
    if (handle == NULL) return NULL;
    unsigned (*version)(void) = (unsigned (*)(void))dlsym(handle, version_symbol);
    if (version == NULL || (int)(version() >> 16) != major) {
        snprintf(ffmpeg_library.detail, sizeof ffmpeg_library.detail, "%s is not major version %d", opened, major);
        return NULL;
    }
    return handle;
}

#define PHOTOINTAKE_LOOK_UP(name)                                                                              \
    if (missing == NULL && (ff.name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) missing = #name;

static void load_ffmpeg(void) {
    struct photointake_library *library = &ffmpeg_library;
    const char *missing = NULL;
    void *handle;
    // libavutil first: the others depend on it, and a missing one is reported by its own name.
    handle = open_ffmpeg("PHOTOINTAKE_LIBAVUTIL", "libavutil.so." PHOTOINTAKE_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
                         LIBAVUTIL_VERSION_MAJOR, "avutil_version");
    if (handle == NULL) goto not_found;
    PHOTOINTAKE_AVUTIL_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
    handle = open_ffmpeg("PHOTOINTAKE_LIBAVCODEC",
                         "libavcodec.so." PHOTOINTAKE_STRINGIFY(LIBAVCODEC_VERSION_MAJOR), LIBAVCODEC_VERSION_MAJOR,
                         "avcodec_version");
    if (handle == NULL) goto not_found;
    PHOTOINTAKE_AVCODEC_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
    handle = open_ffmpeg("PHOTOINTAKE_LIBAVFORMAT",
                         "libavformat.so." PHOTOINTAKE_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
                         LIBAVFORMAT_VERSION_MAJOR, "avformat_version");
    if (handle == NULL) goto not_found;
    PHOTOINTAKE_AVFORMAT_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
    PHOTOINTAKE_STREAM_SIDE_DATA_FUNCTION(PHOTOINTAKE_LOOK_UP)
    handle = open_ffmpeg("PHOTOINTAKE_LIBSWSCALE",
                         "libswscale.so." PHOTOINTAKE_STRINGIFY(LIBSWSCALE_VERSION_MAJOR), LIBSWSCALE_VERSION_MAJOR,
                         "swscale_version");
    if (handle == NULL) goto not_found;
    PHOTOINTAKE_SWSCALE_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
    if (missing != NULL) {
        snprintf(library->detail, sizeof library->detail, "the FFmpeg libraries have no function %s", missing);
        library->status = PHOTOINTAKE_LOAD_INCOMPATIBLE;
        return;
    }
    // Damaged movies are expected input: their diagnostics would only reach the host's stderr. Failures reach
    // the caller as statuses.
    ff.av_log_set_level(AV_LOG_QUIET);
    library->status = PHOTOINTAKE_LOAD_OK;
    return;
not_found:
    library->status = PHOTOINTAKE_LOAD_NOT_FOUND;
}
#undef PHOTOINTAKE_LOOK_UP

#else
static void load_ffmpeg(void) {
    snprintf(ffmpeg_library.detail, sizeof ffmpeg_library.detail,
             "this build of PhotoIntake was made without the FFmpeg headers");
    ffmpeg_library.status = PHOTOINTAKE_LOAD_NOT_FOUND;
}
#endif

const char *photointake_ffmpeg_packages(void) {
#if PHOTOINTAKE_HAVE_FFMPEG
    return "libavformat" PHOTOINTAKE_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR) " libavcodec" PHOTOINTAKE_STRINGIFY(
        LIBAVCODEC_VERSION_MAJOR) " libswscale" PHOTOINTAKE_STRINGIFY(LIBSWSCALE_VERSION_MAJOR);
#else
    return "libavformat-dev libavcodec-dev libswscale-dev";
#endif
}

photointake_load_status photointake_ffmpeg_load(const char **detail) {
    pthread_once(&ffmpeg_library.once, load_ffmpeg);
    return photointake_library_status(&ffmpeg_library, detail);
}

void photointake_movie_poster_free(struct photointake_movie_poster *poster) {
    free(poster->pixels);
    poster->pixels = NULL;
}

#if PHOTOINTAKE_HAVE_FFMPEG

/// The file libavformat reads through its custom I/O: pread at our own offset, so nothing depends on the
/// descriptor's offset, and nothing but this descriptor is ever opened.
struct source {
    int fd;
    int64_t size;
    int64_t position;
};

static int read_source(void *opaque, uint8_t *buffer, int length) {
    struct source *source = opaque;
    if (source->position >= source->size) return AVERROR_EOF;
    ssize_t count;
    do {
        count = pread(source->fd, buffer, (size_t)length, source->position);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return AVERROR(errno);
    if (count == 0) return AVERROR_EOF;
    source->position += count;
    return (int)count;
}

static int64_t seek_source(void *opaque, int64_t offset, int whence) {
    struct source *source = opaque;
    int64_t base;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return source->size;
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = source->position; break;
    case SEEK_END: base = source->size; break;
    default: return AVERROR(EINVAL);
    }
    if (offset > INT64_MAX - base || base + offset < 0) return AVERROR(EINVAL);
    source->position = base + offset;
    return source->position;
}

/// Everything one call allocates, freed by close_session whatever the outcome.
struct session {
    struct source source;
    AVIOContext *io;
    AVFormatContext *format;
    AVCodecContext *decoder;
    AVPacket *packet;
    AVFrame *frame;
    AVFrame *chosen;
    int stream;
    int packets_left;
};

static void close_session(struct session *s) {
    if (s->format != NULL) ff.avformat_close_input(&s->format);
    if (s->io != NULL) {
        // The buffer may have been replaced by libavformat; the context's pointer is the one to free.
        ff.av_freep(&s->io->buffer);
        ff.avio_context_free(&s->io);
    }
    ff.avcodec_free_context(&s->decoder);
    ff.av_packet_free(&s->packet);
    ff.av_frame_free(&s->frame);
    ff.av_frame_free(&s->chosen);
}

static photointake_poster_status fail(char *error, size_t length, photointake_poster_status status,
                                      const char *what) {
    snprintf(error, length, "%s", what);
    return status;
}

/// The EXIF orientation that shows the stored frame as the display matrix does (ISO/IEC 14496-12 §8.3.2 tkhd
/// matrix, as libavformat hands it over), with the rules of the ffmpeg tool's autorotate: the angle from
/// av_display_rotation_get (counter-clockwise), and mirroring from the signs the tool tests.
static int orientation_of(const int32_t *matrix) {
    if (matrix == NULL) return 1;
    double angle = ff.av_display_rotation_get(matrix);
    if (isnan(angle)) return 1;
    // Clockwise degrees in [0, 360), as the tool's get_rotation computes them.
    double theta = -round(angle);
    theta -= 360 * floor(theta / 360 + 0.9 / 360);
    if (fabs(theta - 90) < 1) return matrix[3] > 0 ? 5 : 6;
    if (fabs(theta - 270) < 1) return matrix[3] < 0 ? 7 : 8;
    if (fabs(theta - 180) < 1) {
        if (matrix[0] < 0 && matrix[4] < 0) return 3;
        if (matrix[0] < 0) return 2;
        return matrix[4] < 0 ? 4 : 1;
    }
    if (fabs(theta) < 1 && matrix[4] < 0) return 4;
    // Other angles are not turned: a poster slightly askew beats one cropped or padded.
    return 1;
}

static const int32_t *display_matrix(const AVStream *stream) {
#if PHOTOINTAKE_CODED_SIDE_DATA
    const AVPacketSideData *side = ff.av_packet_side_data_get(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    return side != NULL && side->size >= 9 * sizeof(int32_t) ? (const int32_t *)side->data : NULL;
#else
    size_t size = 0;
    const uint8_t *data = ff.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    return data != NULL && size >= 9 * sizeof(int32_t) ? (const int32_t *)data : NULL;
#endif
}

/// The frame shown at `target` (stream time base): seeks to the key frame at or before it, then decodes
/// forward to the first frame at or after it (or the last one, at the end of the stream). The frame is left in
/// `s->frame`. Returns 0, or a negative AVERROR (AVERROR(EAGAIN) when the packet budget ran out).
static int frame_at(struct session *s, int64_t target) {
    // A failed seek (no index) decodes from where the demuxer is: still a frame, only not the one asked for.
    // The decoder starts afresh either way (it may have been drained at the end of an earlier attempt).
    ff.av_seek_frame(s->format, s->stream, target, AVSEEK_FLAG_BACKWARD);
    ff.avcodec_flush_buffers(s->decoder);
    int have_frame = 0;
    int ended = 0;
    while (!ended) {
        int status;
        if (s->packets_left-- <= 0) return have_frame ? 0 : AVERROR(EAGAIN);
        status = ff.av_read_frame(s->format, s->packet);
        if (status < 0) {
            // The end (or damage past the index): drain what the decoder holds.
            ended = 1;
            status = ff.avcodec_send_packet(s->decoder, NULL);
        } else if (s->packet->stream_index != s->stream) {
            ff.av_packet_unref(s->packet);
            continue;
        } else {
            // Frames shown before the target are decoded only as references for the ones after it: a frame no
            // other refers to (most B-frames) is skipped there, as the decoder's own skip_frame allows.
            const int64_t shown = s->packet->pts;
            s->decoder->skip_frame =
                shown != AV_NOPTS_VALUE && shown < target ? AVDISCARD_NONREF : AVDISCARD_DEFAULT;
            status = ff.avcodec_send_packet(s->decoder, s->packet);
            ff.av_packet_unref(s->packet);
            // A damaged packet is skipped: the next key frame may decode.
            if (status < 0 && status != AVERROR(EAGAIN)) continue;
        }
        AVFrame *next = s->chosen;
        while (ff.avcodec_receive_frame(s->decoder, next) == 0) {
            // Keep the newest frame in s->frame; the next one is received into the other buffer.
            ff.av_frame_unref(s->frame);
            ff.av_frame_move_ref(s->frame, next);
            have_frame = 1;
            int64_t shown = s->frame->best_effort_timestamp;
            if (shown == AV_NOPTS_VALUE || shown >= target) return 0;
        }
    }
    return have_frame ? 0 : AVERROR_INVALIDDATA;
}

/// The mean luma (0-255, BT.601 weights) of packed RGB pixels, sampled on a grid of at most 64 × 64.
static double mean_luma(const unsigned char *rgb, int width, int height) {
    const int step_x = width > 64 ? width / 64 : 1, step_y = height > 64 ? height / 64 : 1;
    double sum = 0;
    long count = 0;
    for (int y = 0; y < height; y += step_y) {
        const unsigned char *row = rgb + (size_t)y * width * 3;
        for (int x = 0; x < width; x += step_x) {
            sum += 0.299 * row[x * 3] + 0.587 * row[x * 3 + 1] + 0.114 * row[x * 3 + 2];
            count++;
        }
    }
    return count == 0 ? 0 : sum / count;
}

/// Converts `frame` to packed RGB of `width` × `height` (swscale's area filter, the right low-pass for a large
/// reduction), with the YUV matrix and range the frame declares. Returns NULL when out of memory or the pixel
/// format is not one swscale converts.
static unsigned char *to_rgb(const AVFrame *frame, int width, int height) {
    struct SwsContext *scaler = ff.sws_getContext(frame->width, frame->height, frame->format, width, height,
                                                  AV_PIX_FMT_RGB24, SWS_AREA, NULL, NULL, NULL);
    if (scaler == NULL) return NULL;
    // Unspecified matrices are BT.709 for HD and BT.601 below it, as players assume (H.273 leaves it to them).
    int space = frame->colorspace;
    if (space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RGB || space >= AVCOL_SPC_NB) {
        space = frame->height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M;
    }
    const int full_range = frame->color_range == AVCOL_RANGE_JPEG;
    // Fails (harmlessly) for RGB sources, which have no matrix.
    ff.sws_setColorspaceDetails(scaler, ff.sws_getCoefficients(space), full_range,
                                ff.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    // swscale's vector code stores whole vectors and writes past the end of a row (42 bytes past a 2 × 2 RGB24
    // image, measured with guard bytes; ASan saw the heap corrupted): it writes rows with room to spare, and one
    // row more, which are then packed in place.
    const size_t row = (size_t)width * 3, padded = (row + 63) / 64 * 64 + 64;
    unsigned char *rgb = malloc(padded * ((size_t)height + 1));
    if (rgb != NULL) {
        uint8_t *planes[4] = {rgb, NULL, NULL, NULL};
        int strides[4] = {(int)padded, 0, 0, 0};
        if (ff.sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes,
                         strides) != height) {
            free(rgb);
            rgb = NULL;
        } else {
            for (int y = 1; y < height; y++) memmove(rgb + y * row, rgb + y * padded, row);
        }
    }
    ff.sws_freeContext(scaler);
    return rgb;
}

/// A mean luma below this (of 255) is a black or nearly black frame: a fade-in, a covered lens.
static const double near_black = 24;

static photointake_poster_status decode_poster(int fd, int max_side, long long max_pixels, long long coded_pixels,
                                               int max_packets, int first_frame,
                                               struct photointake_movie_poster *poster, char *error,
                                               size_t error_length) {
    const char *detail = NULL;
    memset(poster, 0, sizeof *poster);
    poster->duration = -1;
    if (photointake_ffmpeg_load(&detail) != PHOTOINTAKE_LOAD_OK) {
        return fail(error, error_length, PHOTOINTAKE_POSTER_UNAVAILABLE, detail ? detail : "not loaded");
    }
    if (max_side <= 0) return fail(error, error_length, PHOTOINTAKE_POSTER_DECODE_FAILED, "no size to make");
    struct session s = {.source = {.fd = fd, .position = 0}, .stream = -1, .packets_left = max_packets};
    struct stat info;
    s.source.size = fstat(fd, &info) == 0 ? info.st_size : 0;
    if (s.source.size <= 0) return fail(error, error_length, PHOTOINTAKE_POSTER_MALFORMED, "the file is empty");
    const int buffer_size = 64 << 10;
    unsigned char *buffer = ff.av_malloc(buffer_size);
    s.format = ff.avformat_alloc_context();
    s.packet = ff.av_packet_alloc();
    s.frame = ff.av_frame_alloc();
    s.chosen = ff.av_frame_alloc();
    if (buffer != NULL) s.io = ff.avio_alloc_context(buffer, buffer_size, 0, &s.source, read_source, NULL, seek_source);
    if (s.io == NULL || s.format == NULL || s.packet == NULL || s.frame == NULL || s.chosen == NULL) {
        if (s.io == NULL) ff.av_freep(&buffer);
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_DECODE_FAILED, "out of memory");
    }
    s.format->pb = s.io;
    s.format->flags |= AVFMT_FLAG_CUSTOM_IO;
    // Only the QuickTime/ISOBMFF demuxer (MOV, MP4, M4V, 3GP): the bytes were sniffed as one of those, and no
    // other demuxer's parser is exposed to them.
    const AVInputFormat *quicktime = ff.av_find_input_format("mov");
    if (ff.avformat_open_input(&s.format, NULL, quicktime, NULL) < 0) {
        // avformat_open_input freed the context.
        s.format = NULL;
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_MALFORMED,
                    "the movie's header (moov) is missing or damaged; the file may be cut short");
    }
    const AVCodec *codec = NULL;
    s.stream = ff.av_find_best_stream(s.format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (s.stream >= 0 && (s.format->streams[s.stream]->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
        // Cover art (an MP4's `covr`) is a one-frame "video" stream: the movie's own track is wanted.
        for (unsigned index = 0; index < s.format->nb_streams; index++) {
            const AVStream *candidate = s.format->streams[index];
            if (candidate->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
                !(candidate->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
                s.stream = ff.av_find_best_stream(s.format, AVMEDIA_TYPE_VIDEO, (int)index, -1, &codec, 0);
                break;
            }
        }
        // Only cover art (an audio file with its album picture): no movie to take a frame of. The picture's
        // stream declares no size until decoded, and it is no reason to call the file damaged.
        if (s.stream >= 0 && (s.format->streams[s.stream]->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
            s.stream = AVERROR_STREAM_NOT_FOUND;
        }
    }
    if (s.stream == AVERROR_DECODER_NOT_FOUND) {
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_NO_DECODER,
                    "no decoder for the movie's video codec is installed");
    }
    if (s.stream < 0) {
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_NO_VIDEO, "the movie has no video track");
    }
    AVStream *stream = s.format->streams[s.stream];
    const AVCodecParameters *parameters = stream->codecpar;
    const long long width = parameters->width, height = parameters->height;
    if (width <= 0 || height <= 0 || width > 65535 || height > 65535) {
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_MALFORMED, "the video track declares no valid size");
    }
    // The frames a decoder allocates are the coded stream's (its SPS), which the caller read when it could; the
    // header's size is only a claim. The decoder's own max_pixels (below) holds the stream to the limit.
    const long long declared = coded_pixels > 0 ? coded_pixels : width * height;
    if (declared > max_pixels) {
        poster->declared_pixels = declared;
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_TOO_MANY_PIXELS, "too many pixels");
    }
    if (s.format->duration != AV_NOPTS_VALUE && s.format->duration > 0) {
        poster->duration = (double)s.format->duration / AV_TIME_BASE;
    } else if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0) {
        poster->duration = stream->duration * av_q2d(stream->time_base);
    }
    poster->orientation = orientation_of(display_matrix(stream));
    s.decoder = ff.avcodec_alloc_context3(codec);
    if (s.decoder == NULL || ff.avcodec_parameters_to_context(s.decoder, parameters) < 0) {
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_DECODE_FAILED, "the decoder could not be set up");
    }
    // The decoder refuses frames larger than the limit itself (a stream whose SPS disagrees with the header).
    s.decoder->max_pixels = max_pixels;
    // A size claimed over the limit got here only because the coded stream's is within it: the decoder takes its
    // frame size from the stream, and opening it with the claim would fail the limit check in avcodec_open2.
    if ((long long)s.decoder->width * s.decoder->height > max_pixels) {
        s.decoder->width = s.decoder->height = 0;
        s.decoder->coded_width = s.decoder->coded_height = 0;
    }
    // One thread: renditions run one movie per core already, and frame threading would hold back the first
    // frames until every thread had one.
    s.decoder->thread_count = 1;
    if (ff.avcodec_open2(s.decoder, codec, NULL) < 0) {
        close_session(&s);
        return fail(error, error_length, PHOTOINTAKE_POSTER_DECODE_FAILED, "the decoder could not be opened");
    }

    // Where to look: about 10 % in (1 s to 10 s, at most half of the movie), then later points past a black frame.
    const double duration = poster->duration;
    double times[4];
    int count = 0;
    if (first_frame) {
        // An image sequence or burst (HEIF `pict` track): its first frame is the photo.
        times[count++] = 0;
    } else if (duration > 0) {
        double first = duration * 0.1;
        first = first < 1 ? 1 : first > 10 ? 10 : first;
        times[count++] = first < duration / 2 ? first : duration / 2;
        for (int quarter = 1; quarter <= 3; quarter++) {
            if (duration * quarter / 4 > times[count - 1] + 0.05) times[count++] = duration * quarter / 4;
        }
    } else {
        times[count++] = 0;
    }
    unsigned char *best = NULL;
    double best_luma = -1, best_time = 0;
    int best_width = 0, best_height = 0;
    const double time_base = av_q2d(stream->time_base);
    const int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    int decode_error = 0;
    for (int index = 0; index < count && best_luma < near_black; index++) {
        // In doubles, kept within int64_t: a header may declare a duration of millions of years in a time base
        // of 1/2^31 s, and a start anywhere (converting an out-of-range double is undefined behaviour).
        double ticks = (double)start + times[index] / (time_base > 0 ? time_base : 1.0 / 90000);
        const double bound = 0x1p62;
        int64_t target = (int64_t)(ticks > bound ? bound : ticks < -bound ? -bound : ticks);
        int found = frame_at(&s, target);
        if (found < 0) {
            decode_error = found;
            if (found == AVERROR(EAGAIN)) break;
            continue;
        }
        const AVFrame *frame = s.frame;
        if (frame->width <= 0 || frame->height <= 0 || (long long)frame->width * frame->height > max_pixels) {
            decode_error = AVERROR_INVALIDDATA;
            break;
        }
        // The displayed shape: non-square pixels (anamorphic video) are made square.
        AVRational aspect = frame->sample_aspect_ratio;
        double shown_width = frame->width;
        if (aspect.num > 0 && aspect.den > 0) shown_width = frame->width * av_q2d(aspect);
        double longest = shown_width > frame->height ? shown_width : frame->height;
        double scale = longest > max_side ? max_side / longest : 1;
        int out_width = (int)(shown_width * scale + 0.5), out_height = (int)(frame->height * scale + 0.5);
        if (out_width < 1) out_width = 1;
        if (out_height < 1) out_height = 1;
        unsigned char *rgb = to_rgb(frame, out_width, out_height);
        if (rgb == NULL) {
            decode_error = AVERROR(ENOMEM);
            break;
        }
        double luma = mean_luma(rgb, out_width, out_height);
        if (luma > best_luma) {
            free(best);
            best = rgb;
            best_luma = luma;
            best_width = out_width;
            best_height = out_height;
            int64_t shown = frame->best_effort_timestamp;
            best_time = shown == AV_NOPTS_VALUE ? times[index] : ((double)shown - (double)start) * time_base;
        } else {
            free(rgb);
        }
    }
    close_session(&s);
    if (best == NULL) {
        if (decode_error == AVERROR(EAGAIN)) {
            snprintf(error, error_length, "no frame decoded within %d packets", max_packets);
        } else if (decode_error == AVERROR(ENOMEM)) {
            snprintf(error, error_length, "out of memory");
        } else {
            snprintf(error, error_length, "no frame of the video could be decoded; its data is damaged");
        }
        return PHOTOINTAKE_POSTER_DECODE_FAILED;
    }
    poster->pixels = best;
    poster->width = best_width;
    poster->height = best_height;
    poster->time = best_time < 0 ? 0 : best_time;
    return PHOTOINTAKE_POSTER_OK;
}

photointake_poster_status photointake_movie_poster(int fd, int max_side, long long max_pixels,
                                                   long long coded_pixels, int max_packets,
                                                   struct photointake_movie_poster *poster, char *error,
                                                   size_t error_length) {
    return decode_poster(fd, max_side, max_pixels, coded_pixels, max_packets, 0, poster, error, error_length);
}

photointake_poster_status photointake_sequence_first_frame(int fd, int max_side, long long max_pixels,
                                                           long long coded_pixels, int max_packets,
                                                           struct photointake_movie_poster *poster, char *error,
                                                           size_t error_length) {
    return decode_poster(fd, max_side, max_pixels, coded_pixels, max_packets, 1, poster, error, error_length);
}

#else
photointake_poster_status photointake_movie_poster(int fd, int max_side, long long max_pixels,
                                                   long long coded_pixels, int max_packets,
                                                   struct photointake_movie_poster *poster, char *error,
                                                   size_t error_length) {
    (void)fd, (void)max_side, (void)max_pixels, (void)coded_pixels, (void)max_packets;
    const char *detail = NULL;
    memset(poster, 0, sizeof *poster);
    photointake_ffmpeg_load(&detail);
    snprintf(error, error_length, "%s", detail ? detail : "FFmpeg is not available");
    return PHOTOINTAKE_POSTER_UNAVAILABLE;
}

photointake_poster_status photointake_sequence_first_frame(int fd, int max_side, long long max_pixels,
                                                           long long coded_pixels, int max_packets,
                                                           struct photointake_movie_poster *poster, char *error,
                                                           size_t error_length) {
    return photointake_movie_poster(fd, max_side, max_pixels, coded_pixels, max_packets, poster, error,
                                    error_length);
}
#endif
#endif
