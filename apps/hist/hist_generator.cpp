// The hist generator program (see HistGenerator.h).
#include "HistGenerator.h"

LOOM_REGISTER_GENERATOR(HistGenerator, hist)
