// The matmul generator program (see MatmulGenerator.h).
#include "MatmulGenerator.h"

LOOM_REGISTER_GENERATOR(MatmulGenerator, matmul)
