// The unsharp generator program (see UnsharpGenerator.h).
#include "UnsharpGenerator.h"

LOOM_REGISTER_GENERATOR(UnsharpGenerator, unsharp)
