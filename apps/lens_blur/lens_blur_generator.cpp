// The lens_blur generator program (see LensBlurGenerator.h).
#include "LensBlurGenerator.h"

LOOM_REGISTER_GENERATOR(LensBlurGenerator, lens_blur)
