// The max_filter generator program (see MaxFilterGenerator.h).
#include "MaxFilterGenerator.h"

LOOM_REGISTER_GENERATOR(MaxFilterGenerator, max_filter)
