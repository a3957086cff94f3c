// The harris generator program (see HarrisGenerator.h).
#include "HarrisGenerator.h"

LOOM_REGISTER_GENERATOR(HarrisGenerator, harris)
