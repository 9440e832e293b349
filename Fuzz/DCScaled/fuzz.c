// libFuzzer target for the DC-coefficient JPEG decoder (Sources/CVips/dc_scaled.c), for run.sh's sanitizer build.
#include <stddef.h>
#include <stdint.h>

#include "dc_scaled.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned char out[1 << 22];
    int width = 0, height = 0;
    // Grey and colour output both, chosen by the input's length, so both paths are reached.
    photointake_dc_scaled(data, size, out, sizeof out, (int)(size & 1), &width, &height);
    return 0;
}
