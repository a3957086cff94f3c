// The conv_layer generator program (see ConvLayerGenerator.h).
#include "ConvLayerGenerator.h"

LOOM_REGISTER_GENERATOR(ConvLayerGenerator, conv_layer)
