// The blur generator program (see BlurGenerator.h).
#include "BlurGenerator.h"

LOOM_REGISTER_GENERATOR(BlurGenerator, blur)
