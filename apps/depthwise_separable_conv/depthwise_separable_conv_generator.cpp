// The depthwise_separable_conv generator program (see
// DepthwiseSeparableConvGenerator.h).
#include "DepthwiseSeparableConvGenerator.h"

LOOM_REGISTER_GENERATOR(DepthwiseSeparableConvGenerator, depthwise_separable_conv)
