// The stencil_chain generator program (see StencilChainGenerator.h).
#include "StencilChainGenerator.h"

LOOM_REGISTER_GENERATOR(StencilChainGenerator, stencil_chain)
