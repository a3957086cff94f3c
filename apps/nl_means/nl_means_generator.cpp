// The nl_means generator program (see NlMeansGenerator.h).
#include "NlMeansGenerator.h"

LOOM_REGISTER_GENERATOR(NlMeansGenerator, nl_means)
