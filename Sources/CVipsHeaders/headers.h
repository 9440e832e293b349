#ifndef PHOTOINTAKE_CVIPSHEADERS_H
#define PHOTOINTAKE_CVIPSHEADERS_H
// Types, constants and prototypes only: CVips calls these functions through pointers it looks up at run time.
#include <vips/vips.h>
#include <libheif/heif.h>
#endif
