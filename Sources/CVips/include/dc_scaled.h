#ifndef PHOTOINTAKE_CVIPS_DC_SCALED_H
#define PHOTOINTAKE_CVIPS_DC_SCALED_H
// The 1/8-scale picture of a baseline JPEG from its DC coefficients alone, for renditions.
//
// A JPEG decoded at 1/8 scale is one pixel per 8x8 block, the block's average (its DC coefficient); what costs
// is walking the entropy-coded data to find each DC, since every AC coefficient before it must be parsed to know
// where it ends. libjpeg-turbo does this one Huffman symbol at a time; this decoder skips the AC coefficients
// with a table that consumes every whole symbol (code and extra bits) in the next 13 bits at once, and stores
// nothing but the DC. On the benchmark corpus's 12 MP JPEGs it takes about 2/3 of TurboJPEG's 1/8-scale decode.
//
// Luma is what libjpeg-turbo's 1/8-scale decode gives, value for value (its 1x1 inverse DCT is the DC). Chroma
// is each chroma block's DC, repeated over the luma blocks it covers; libjpeg-turbo uses a 2x2 inverse DCT of
// the chroma of a subsampled file there. The chroma thus has a quarter of the resolution of libjpeg's (still
// more than a 4:2:0 rendition of the reduced picture keeps), and colour edges differ by a few levels.
//
// It serves 8-bit baseline and extended sequential Huffman JPEGs with one interleaved scan, one component
// (grey) or three (YCbCr, chroma not subsampled against luma beyond 2x2), with or without restart markers.
// Anything else — progressive, arithmetic coding, 12-bit, CMYK, RGB, several scans, damaged or truncated data —
// returns -1, and the caller decodes with TurboJPEG, which says what is wrong. Every read is bounds-checked.
#ifdef __linux__
#include <stddef.h>

/// Decodes the JPEG of `length` bytes at `jpeg` at 1/8 scale into `rgb` (3 bytes per pixel, rows without
/// padding; `gray` nonzero: luma only, 1 byte per pixel), which holds `capacity` bytes. Sets `width` and
/// `height` to ceil(width / 8) and ceil(height / 8) of the image. Returns 0, or -1 when this decoder does not
/// serve the file (or `rgb` is too small); nothing is allocated that outlives the call.
int photointake_dc_scaled(const unsigned char *jpeg, size_t length, unsigned char *rgb, size_t capacity, int gray,
                          int *width, int *height);

/// libjpeg-turbo's own 1/8-scale decode of the same file into `rgb` (for comparison in tests): the same
/// contract, -1 when TurboJPEG is missing or refuses the file.
int photointake_turbo_scaled(const unsigned char *jpeg, size_t length, unsigned char *rgb, size_t capacity,
                             int gray, int *width, int *height);

#endif
#endif
