// The 1/8-scale picture of a baseline JPEG from its DC coefficients; include/dc_scaled.h says why and what.
// References: ITU-T T.81 (JPEG) Annex B (syntax), F.2.2 (Huffman decoding), F.1.2.1.1 (DC differences);
// JFIF 1.02 and Adobe Technical Note 5116 (the colour transform flag); libjpeg's jdcolor.c (YCbCr to RGB).
#ifdef __linux__
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dc_scaled.h"

enum {
    lookup_bits = 10,  // one-symbol lookup (DC and the slow AC path)
    skip_bits = 13,    // multi-symbol AC skip (13 measured fastest here: 12 to 16 tried)
};

/// A Huffman table (T.81 C and F.2.2.3): a one-symbol lookup for codes up to `lookup_bits` long, the canonical
/// maxcode/valoffset arrays for longer ones and, for AC tables, the multi-symbol skip table.
struct huffman {
    uint16_t lookup[1 << lookup_bits];  // (length << 8) | symbol; 0: longer code or none
    int32_t maxcode[18];                // largest code of each length, -1 when none; [17] a sentinel
    int32_t valoffset[17];
    int32_t mincode[17];
    uint8_t values[256];
    int count;
    int defined;
    // skip[next skip_bits bits]: the whole AC symbols (code and extra bits) at the start of those bits, up to
    // and including an EOB: bits 0-4 their bits, 5-11 the coefficients they advance (EOB 0, ZRL 16, else
    // run + 1), 12 the last is EOB; bits 16-20, 21-27 and 28 the same for the first symbol alone. 0: no whole
    // symbol fits (a long code, or a code the table does not have).
    uint32_t *skip;
};

struct component {
    int id, h, v, tq, td, ta;
    int blocks_w, blocks_h;  // blocks stored: whole MCUs across and down
    int16_t *dc;             // each block's DC (quantized)
};

struct frame {
    int width, height, ncomp, hmax, vmax, restart, adobe_transform;
    uint16_t quant[4][64];
    int quant_defined[4];
    struct huffman dc[4], ac[4];
    struct component comp[3];
    const uint8_t *scan, *end;
};

static int read16(const uint8_t *p) { return p[0] << 8 | p[1]; }

/// Decodes the code at the top of the `length`-bit window `bits` (the next bits of the data, MSB first) with
/// the canonical arrays; returns the symbol and sets *used, or -1.
static int decode_window(const struct huffman *t, uint32_t bits, int length, int *used) {
    for (int l = 1; l <= 16 && l <= length; l++) {
        const int32_t code = (int32_t)(bits >> (length - l));
        if (t->maxcode[l] >= 0 && code <= t->maxcode[l]) {
            if (code < t->mincode[l]) return -1;
            const int index = code + t->valoffset[l];
            if (index < 0 || index >= t->count) return -1;
            *used = l;
            return t->values[index];
        }
    }
    return -1;
}

/// Builds a table from a DHT segment's 16 counts and `count` values; -1 for a table that is not a prefix code.
static int build(struct huffman *t, const uint8_t *counts, const uint8_t *values, int count, int ac) {
    uint32_t *skip = t->skip;
    memset(t, 0, sizeof *t);
    t->skip = skip;
    if (count > 256) return -1;
    memcpy(t->values, values, (size_t)count);
    t->count = count;
    uint16_t codes[256];
    uint8_t sizes[256];
    int code = 0, k = 0;
    for (int l = 1; l <= 16; l++) {
        t->maxcode[l] = -1;
        if (counts[l - 1]) {
            t->valoffset[l] = k - code;
            t->mincode[l] = code;
        }
        for (int i = 0; i < counts[l - 1]; i++) {
            sizes[k] = (uint8_t)l;
            codes[k++] = (uint16_t)code++;
        }
        if (code > (1 << l)) return -1;
        if (counts[l - 1]) t->maxcode[l] = code - 1;
        code <<= 1;
    }
    t->maxcode[17] = INT32_MAX;
    for (int i = 0; i < count; i++) {
        if (sizes[i] > lookup_bits) continue;
        const int shift = lookup_bits - sizes[i];
        for (int j = 0; j < (1 << shift); j++)
            t->lookup[(codes[i] << shift) | j] = (uint16_t)(sizes[i] << 8 | t->values[i]);
    }
    if (ac) {
        if (t->skip == NULL && (t->skip = malloc(sizeof(uint32_t) << skip_bits)) == NULL) return -1;
        for (uint32_t window = 0; window < (1u << skip_bits); window++) {
            int used = 0, advanced = 0, eob = 0, symbols = 0;
            uint32_t first = 0;
            while (!eob && used < skip_bits) {
                const int left = skip_bits - used;
                int length = 0;
                const int symbol = decode_window(t, window & ((1u << left) - 1), left, &length);
                if (symbol < 0) break;
                const int run = symbol >> 4, size = symbol & 15;
                if (length + size > left) break;
                const int advance = size ? run + 1 : run == 15 ? 16 : 0;
                if (advanced + advance > 63) break;
                used += length + size;
                advanced += advance;
                eob = size == 0 && run != 15;
                if (symbols++ == 0) first = (uint32_t)(length + size) << 16 | (uint32_t)advance << 21 | (uint32_t)eob << 28;
            }
            t->skip[window] = symbols ? (uint32_t)used | (uint32_t)advanced << 5 | (uint32_t)eob << 12 | first : 0;
        }
    }
    t->defined = 1;
    return 0;
}

/// Reads the markers up to the first scan; 0 when this decoder serves the file.
static int parse(struct frame *f, const uint8_t *data, size_t length) {
    f->adobe_transform = -1;
    if (length < 4 || data[0] != 0xFF || data[1] != 0xD8) return -1;
    size_t i = 2;
    int have_frame = 0;
    while (i + 4 <= length) {
        if (data[i] != 0xFF) return -1;
        const int marker = data[i + 1];
        if (marker == 0xFF) {  // fill byte
            i++;
            continue;
        }
        const size_t segment = (size_t)read16(data + i + 2);
        if (segment < 2 || segment > length - i - 2) return -1;
        const uint8_t *p = data + i + 4;
        const size_t n = segment - 2;
        switch (marker) {
        case 0xC0:
        case 0xC1: {  // baseline, extended sequential Huffman
            if (have_frame || n < 6 || p[0] != 8) return -1;
            f->height = read16(p + 1);
            f->width = read16(p + 3);
            f->ncomp = p[5];
            if (f->width <= 0 || f->height <= 0 || (f->ncomp != 1 && f->ncomp != 3) ||
                n < 6 + 3 * (size_t)f->ncomp)
                return -1;
            f->hmax = f->vmax = 1;
            for (int c = 0; c < f->ncomp; c++) {
                struct component *k = &f->comp[c];
                k->id = p[6 + 3 * c];
                k->h = p[7 + 3 * c] >> 4;
                k->v = p[7 + 3 * c] & 15;
                k->tq = p[8 + 3 * c];
                if (k->h < 1 || k->h > 2 || k->v < 1 || k->v > 2 || k->tq > 3) return -1;
                if (k->h > f->hmax) f->hmax = k->h;
                if (k->v > f->vmax) f->vmax = k->v;
            }
            if (f->ncomp == 1) {
                // One component is never interleaved: an MCU is one block, whatever its factors say.
                f->comp[0].h = f->comp[0].v = f->hmax = f->vmax = 1;
            } else {
                // Chroma at 1x1 against luma at up to 2x2; ids 'R', 'G', 'B' mean RGB (libjpeg's rule).
                if (f->comp[1].h != 1 || f->comp[1].v != 1 || f->comp[2].h != 1 || f->comp[2].v != 1) return -1;
                if (f->comp[0].id == 'R' && f->comp[1].id == 'G' && f->comp[2].id == 'B') return -1;
            }
            have_frame = 1;
            break;
        }
        case 0xC4: {  // DHT
            size_t q = 0;
            while (q < n) {
                if (n - q < 17) return -1;
                const int class = p[q] >> 4, slot = p[q] & 15;
                if (class > 1 || slot > 3) return -1;
                int total = 0;
                for (int l = 0; l < 16; l++) total += p[q + 1 + l];
                if ((size_t)total > n - q - 17) return -1;
                if (build(class ? &f->ac[slot] : &f->dc[slot], p + q + 1, p + q + 17, total, class) != 0) return -1;
                q += 17 + (size_t)total;
            }
            break;
        }
        case 0xDB: {  // DQT
            size_t q = 0;
            while (q < n) {
                const int precision = p[q] >> 4, slot = p[q] & 15;
                if (slot > 3 || precision > 1 || n - q < 1 + 64 * (size_t)(precision + 1)) return -1;
                for (int k = 0; k < 64; k++)
                    f->quant[slot][k] = precision ? (uint16_t)read16(p + q + 1 + 2 * k) : p[q + 1 + k];
                f->quant_defined[slot] = 1;
                q += 1 + 64 * (size_t)(precision + 1);
            }
            break;
        }
        case 0xDD:  // DRI
            if (n < 2) return -1;
            f->restart = read16(p);
            break;
        case 0xEE:  // APP14: Adobe's colour transform flag
            if (n >= 12 && memcmp(p, "Adobe", 5) == 0) f->adobe_transform = p[11];
            break;
        case 0xDA: {  // SOS
            if (!have_frame || n < 1) return -1;
            const int ns = p[0];
            if (ns != f->ncomp || n < 4 + 2 * (size_t)ns) return -1;  // one interleaved scan of every component
            for (int s = 0; s < ns; s++) {
                struct component *k = &f->comp[s];
                if (p[1 + 2 * s] != k->id) return -1;
                k->td = p[2 + 2 * s] >> 4;
                k->ta = p[2 + 2 * s] & 15;
                if (k->td > 3 || k->ta > 3 || !f->dc[k->td].defined || !f->ac[k->ta].defined ||
                    !f->quant_defined[k->tq])
                    return -1;
            }
            const uint8_t *spectral = p + 1 + 2 * ns;
            if (spectral[0] != 0 || spectral[1] != 63 || spectral[2] != 0) return -1;
            if (f->ncomp == 3 && f->adobe_transform == 0) return -1;  // Adobe: RGB, not YCbCr
            f->scan = data + i + 2 + segment;
            f->end = data + length;
            return 0;
        }
        case 0xC2: case 0xC3: case 0xC5: case 0xC6: case 0xC7: case 0xC9: case 0xCA: case 0xCB:
        case 0xCD: case 0xCE: case 0xCF:
            return -1;  // progressive, lossless, hierarchical or arithmetic coding
        case 0xD9:
            return -1;  // the end before any scan
        default:
            break;
        }
        i += 2 + segment;
    }
    return -1;
}

/// The entropy-coded data as bits, MSB first. `count` bits are in `buffer` (from its top); after a marker
/// or the end of the data, zeros are fed, and `phantom` counts them: consuming one means the data ran out.
struct bits {
    const uint8_t *p, *end;
    uint64_t buffer;
    int count, phantom, stopped;
};

/// Fills the buffer to at least 57 bits.
static inline void refill(struct bits *b) {
    if (b->count > 56) return;
    if (!b->stopped && b->count < 56 && b->end - b->p >= 8) {
        uint64_t word;
        memcpy(&word, b->p, 8);
        const uint64_t inverted = ~word;
        // No 0xFF among the next 8 bytes (no stuffing, no marker): take whole bytes at once (at least one).
        if (((inverted - 0x0101010101010101ULL) & ~inverted & 0x8080808080808080ULL) == 0) {
            const int take = (63 - b->count) >> 3;
            word = __builtin_bswap64(word) >> (64 - 8 * take);
            b->buffer |= word << (64 - 8 * take - b->count);
            b->count += 8 * take;
            b->p += take;
            return;
        }
    }
    while (b->count <= 56) {
        unsigned byte = 0;
        if (!b->stopped && b->p < b->end && (*b->p != 0xFF || (b->end - b->p >= 2 && b->p[1] == 0x00))) {
            byte = *b->p;
            b->p += byte == 0xFF ? 2 : 1;
        } else {
            b->stopped = 1;
            b->phantom += 8;
        }
        b->buffer |= (uint64_t)byte << (56 - b->count);
        b->count += 8;
    }
}

static inline uint32_t peek(const struct bits *b, int n) { return (uint32_t)(b->buffer >> (64 - n)); }

static inline void drop(struct bits *b, int n) {
    b->buffer <<= n;
    b->count -= n;
}

/// One symbol (the buffer holds at least 16 bits); -1 for a code the table does not have.
static inline int decode(struct bits *b, const struct huffman *t) {
    const unsigned entry = t->lookup[peek(b, lookup_bits)];
    if (entry) {
        drop(b, (int)(entry >> 8));
        return (int)(entry & 0xFF);
    }
    int used = 0;
    const int symbol = decode_window(t, peek(b, 16), 16, &used);
    if (symbol >= 0) drop(b, used);
    return symbol;
}

/// Steps over one block's AC coefficients; 0, or -1 for data that is not a valid block.
static inline int skip_ac(struct bits *b, const struct huffman *ac) {
    int k = 1;
    for (;;) {
        if (b->count < 32) refill(b);
        const uint32_t entry = ac->skip[peek(b, skip_bits)];
        if (entry == 0) break;
        const int advance = (int)(entry >> 5 & 127), eob = (int)(entry >> 12 & 1);
        // All its symbols belong to this block unless it reaches coefficient 64 before its last one.
        if (k + advance < 64 || (k + advance == 64 && !eob)) {
            drop(b, (int)(entry & 31));
            k += advance;
            if (eob || k == 64) return 0;
        } else {
            drop(b, (int)(entry >> 16 & 31));
            k += (int)(entry >> 21 & 127);
            if (entry >> 28 & 1) return 0;
            if (k >= 64) return k == 64 ? 0 : -1;
        }
    }
    while (k < 64) {  // a code longer than the skip table's window
        if (b->count < 32) refill(b);
        const int symbol = decode(b, ac);
        if (symbol < 0) return -1;
        const int run = symbol >> 4, size = symbol & 15;
        if (size) {
            drop(b, size);
            k += run + 1;
        } else {
            if (run != 15) return 0;
            k += 16;
        }
    }
    return k == 64 ? 0 : -1;
}

/// At the end of a restart interval: only padding may be left of its data, then RSTn (n = `expected`).
static int restart(struct bits *b, int expected) {
    refill(b);
    if (b->count - b->phantom >= 8 || b->count < b->phantom) return -1;
    const uint8_t *p = b->p;
    while (p < b->end && *p == 0xFF) p++;
    if (p >= b->end || p == b->p || *p != 0xD0 + expected) return -1;
    *b = (struct bits){p + 1, b->end, 0, 0, 0, 0};
    return 0;
}

/// Decodes the scan's DC coefficients into each component's plane; 0, or -1 for damaged or truncated data.
static int decode_scan(struct frame *f) {
    const int mcux = (f->width + 8 * f->hmax - 1) / (8 * f->hmax);
    const int mcuy = (f->height + 8 * f->vmax - 1) / (8 * f->vmax);
    struct bits b = {f->scan, f->end, 0, 0, 0, 0};
    int prediction[3] = {0, 0, 0};
    long left = f->restart;
    int expected = 0;
    for (int my = 0; my < mcuy; my++) {
        for (int mx = 0; mx < mcux; mx++) {
            if (f->restart) {
                if (left == 0) {
                    if (restart(&b, expected) != 0) return -1;
                    expected = (expected + 1) & 7;
                    prediction[0] = prediction[1] = prediction[2] = 0;
                    left = f->restart;
                }
                left--;
            }
            for (int c = 0; c < f->ncomp; c++) {
                struct component *k = &f->comp[c];
                const struct huffman *dc = &f->dc[k->td], *ac = &f->ac[k->ta];
                for (int by = 0; by < k->v; by++) {
                    for (int bx = 0; bx < k->h; bx++) {
                        if (b.count < 32) refill(&b);
                        const int size = decode(&b, dc);
                        if (size < 0 || size > 11) return -1;
                        if (size) {
                            const int32_t v = (int32_t)peek(&b, size);
                            drop(&b, size);
                            prediction[c] += v < (1 << (size - 1)) ? v - (1 << size) + 1 : v;
                        }
                        if (prediction[c] < -32768 || prediction[c] > 32767) return -1;
                        k->dc[(size_t)(my * k->v + by) * (size_t)k->blocks_w + (size_t)(mx * k->h + bx)] =
                            (int16_t)prediction[c];
                        if (skip_ac(&b, ac) != 0) return -1;
                    }
                }
            }
        }
    }
    return b.count >= b.phantom ? 0 : -1;  // nothing read past the data
}

static inline int clamp(long v) { return v < 0 ? 0 : v > 255 ? 255 : (int)v; }

/// A block's sample value at 1/8 scale: the DC dequantized, descaled by 8 and level-shifted (libjpeg's 1x1
/// inverse DCT, jidctred.c).
static inline int sample(const struct frame *f, const struct component *k, int bx, int by) {
    const long dc = (long)k->dc[(size_t)by * (size_t)k->blocks_w + (size_t)bx] * f->quant[k->tq][0];
    return clamp(((dc + 4) >> 3) + 128);
}

int photointake_dc_scaled(const unsigned char *jpeg, size_t length, unsigned char *rgb, size_t capacity, int gray,
                          int *width, int *height) {
    struct frame *f = calloc(1, sizeof *f);
    if (f == NULL) return -1;
    int status = -1;
    if (parse(f, jpeg, length) != 0) goto done;
    const int w = (f->width + 7) / 8, h = (f->height + 7) / 8;
    if ((size_t)w * (size_t)h * (gray ? 1 : 3) > capacity) goto done;
    const int mcux = (f->width + 8 * f->hmax - 1) / (8 * f->hmax);
    const int mcuy = (f->height + 8 * f->vmax - 1) / (8 * f->vmax);
    for (int c = 0; c < f->ncomp; c++) {
        struct component *k = &f->comp[c];
        k->blocks_w = mcux * k->h;
        k->blocks_h = mcuy * k->v;
        if ((k->dc = malloc(sizeof(int16_t) * (size_t)k->blocks_w * (size_t)k->blocks_h)) == NULL) goto done;
    }
    if (decode_scan(f) != 0) goto done;
    const struct component *luma = &f->comp[0];
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const int l = sample(f, luma, x, y);
            if (gray) {
                rgb[(size_t)y * w + x] = (unsigned char)l;
                continue;
            }
            unsigned char *o = rgb + ((size_t)y * w + x) * 3;
            if (f->ncomp == 1) {
                o[0] = o[1] = o[2] = (unsigned char)l;
                continue;
            }
            // The chroma block covering this luma block.
            const int cx = x / (f->hmax), cy = y / (f->vmax);
            const long cb = sample(f, &f->comp[1], cx, cy) - 128, cr = sample(f, &f->comp[2], cx, cy) - 128;
            // jdcolor.c's fixed point: 16 fraction bits, rounded.
            o[0] = (unsigned char)clamp(l + ((91881 * cr + 32768) >> 16));
            o[1] = (unsigned char)clamp(l + ((-22554 * cb - 46802 * cr + 32768) >> 16));
            o[2] = (unsigned char)clamp(l + ((116130 * cb + 32768) >> 16));
        }
    }
    *width = w;
    *height = h;
    status = 0;
done:
    for (int c = 0; c < 3; c++) free(f->comp[c].dc);
    for (int t = 0; t < 4; t++) free(f->ac[t].skip);
    free(f);
    return status;
}
#endif
