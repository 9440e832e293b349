#ifndef PHOTOINTAKE_CVIPS_MOVIE_POSTER_H
#define PHOTOINTAKE_CVIPS_MOVIE_POSTER_H
// Poster frames of movies through the FFmpeg libraries (libavformat, libavcodec, libswscale, libavutil), opened
// with dlopen at the first poster like libvips (imaging_loader.h): a process that never makes one does not load
// them and their codecs. The file is read through a descriptor the caller opened (never a path or URL that
// libavformat would interpret as a protocol), with the QuickTime/MP4 demuxer only, and only the one frame the
// poster shows (and the frames it depends on) is decoded.
#ifdef __linux__
#include <stddef.h>

#include "imaging_loader.h"

/// The outcome of photointake_movie_poster.
typedef enum photointake_poster_status {
    PHOTOINTAKE_POSTER_OK = 0,
    /// The FFmpeg libraries could not be loaded (or this build had no FFmpeg headers); `error` says why.
    PHOTOINTAKE_POSTER_UNAVAILABLE = 1,
    /// The container could not be read: truncated (no movie header), damaged, or not QuickTime/MP4.
    PHOTOINTAKE_POSTER_MALFORMED = 2,
    /// The movie has no video track.
    PHOTOINTAKE_POSTER_NO_VIDEO = 3,
    /// The video declares more pixels than allowed; `declared_pixels` says how many. Nothing was decoded.
    PHOTOINTAKE_POSTER_TOO_MANY_PIXELS = 4,
    /// No decoder for the video's codec is installed.
    PHOTOINTAKE_POSTER_NO_DECODER = 5,
    /// No frame could be decoded (damaged data), or the packet budget ran out before one was.
    PHOTOINTAKE_POSTER_DECODE_FAILED = 6,
} photointake_poster_status;

/// One poster frame: RGB pixels as stored (before the display matrix is applied) and the facts about it.
struct photointake_movie_poster {
    /// 8-bit RGB, `width` × `height` × 3 bytes, rows without padding; freed by photointake_movie_poster_free.
    unsigned char *pixels;
    int width;
    int height;
    /// The EXIF orientation (1 to 8) equivalent to the track's display matrix: how to turn `pixels` upright.
    int orientation;
    /// The movie's duration in seconds; negative when unknown.
    double duration;
    /// When the chosen frame is shown, in seconds from the start.
    double time;
    /// For PHOTOINTAKE_POSTER_TOO_MANY_PIXELS: the pixels one frame declares.
    long long declared_pixels;
};

/// Opens the FFmpeg libraries whose major versions match the headers this was built with (libavformat.so.59
/// for FFmpeg 5.1, and so on; or, in test builds only, the files $PHOTOINTAKE_LIBAVFORMAT, $PHOTOINTAKE_LIBAVCODEC,
/// $PHOTOINTAKE_LIBAVUTIL, $PHOTOINTAKE_LIBSWSCALE name), once per process. Thread-safe.
photointake_load_status photointake_ffmpeg_load(const char **detail);

/// The Debian packages holding the FFmpeg libraries this build opens (for the error message).
const char *photointake_ffmpeg_packages(void);

/// Decodes a representative frame of the movie open at `fd` (a regular file; read with pread, the offset is not
/// used): about 10 % into the movie (at least 1 s, at most 10 s, at most half of it), skipping near-black
/// frames for later points (a quarter, half, three quarters in). The frame is scaled so that its displayed
/// longest side is at most `max_side` (never enlarged; non-square pixels made square).
///
/// `max_pixels` refuses a video whose frames are larger, before any decoder starts, and the decoder refuses
/// larger frames itself; `coded_pixels` is the frame size the caller read from the stream's codec configuration
/// (its sequence parameter set), 0 when unknown: the limit is checked against it rather than against the size
/// the track header and sample entry claim (a playable 64x64 movie may claim 65535x65535 there).
/// `max_packets` bounds the packets read in all, so a damaged index cannot keep the call busy.
///
/// On failure `error` holds a sentence (no path) and nothing is to be
/// freed. Never follows the file's name: only `fd` is read.
photointake_poster_status photointake_movie_poster(int fd, int max_side, long long max_pixels,
                                                   long long coded_pixels, int max_packets,
                                                   struct photointake_movie_poster *poster, char *error,
                                                   size_t error_length);

/// The first frame of the image sequence or burst open at `fd` (a HEIF file whose pictures are in a `pict`
/// track, which libheif 1.15 cannot read), decoded by FFmpeg's HEVC or AV1 decoder under the same limits as
/// photointake_movie_poster, scaled to at most `max_side`.
photointake_poster_status photointake_sequence_first_frame(int fd, int max_side, long long max_pixels,
                                                           long long coded_pixels, int max_packets,
                                                           struct photointake_movie_poster *poster, char *error,
                                                           size_t error_length);

/// Frees a poster's pixels.
void photointake_movie_poster_free(struct photointake_movie_poster *poster);
#endif
#endif
