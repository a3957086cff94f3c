// The iir_blur generator program (see IirBlurGenerator.h).
#include "IirBlurGenerator.h"

LOOM_REGISTER_GENERATOR(IirBlurGenerator, iir_blur)
