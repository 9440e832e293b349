#ifndef PHOTOINTAKE_CVIPS_SHIM_H
#define PHOTOINTAKE_CVIPS_SHIM_H
// libvips's operation API is variadic (name/value pairs ending in NULL), which Swift cannot call. Each wrapper
// below fixes one call's option list. The Renditions work fills this in.
#include <vips/vips.h>
#endif
