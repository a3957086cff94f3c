// The interpolate generator program (see InterpolateGenerator.h).
#include "InterpolateGenerator.h"

LOOM_REGISTER_GENERATOR(InterpolateGenerator, interpolate)
