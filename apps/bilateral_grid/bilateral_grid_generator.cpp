// The bilateral_grid generator program (see BilateralGridGenerator.h).
#include "BilateralGridGenerator.h"

LOOM_REGISTER_GENERATOR(BilateralGridGenerator, bilateral_grid)
