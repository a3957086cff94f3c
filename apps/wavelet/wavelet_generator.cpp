// The wavelet generator program: the forward (wavelet) and inverse
// (inverse_wavelet) transforms of WaveletGenerator.h.
#include "WaveletGenerator.h"

LOOM_REGISTER_GENERATOR(WaveletGenerator, wavelet)
LOOM_REGISTER_GENERATOR(InverseWaveletGenerator, inverse_wavelet)
