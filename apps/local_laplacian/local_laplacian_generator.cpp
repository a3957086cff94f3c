// The local_laplacian generator program (see LocalLaplacianGenerator.h).
#include "LocalLaplacianGenerator.h"

LOOM_REGISTER_GENERATOR(LocalLaplacianGenerator, local_laplacian)
