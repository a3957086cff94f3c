// The resize generator program (see ResizeGenerator.h).
#include "ResizeGenerator.h"

LOOM_REGISTER_GENERATOR(ResizeGenerator, resize)
