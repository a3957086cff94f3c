// A test generator with a GPU schedule, for the driver's GPU errors (the
// GPU libraries themselves are tested from test/install's consumer).
#include "Loom.h"

namespace {

class TiledGpu : public loom::Generator<TiledGpu> {
public:
    Input<loom::Buffer<float, 2>> input{"input"};
    Output<loom::Buffer<float, 2>> output{"output"};
    loom::Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};

    void generate() {
        output(x, y) = input(x, y) * 2.0f;
        output.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, loom::TailStrategy::GuardWithIf);
    }
};

} // namespace

LOOM_REGISTER_GENERATOR(TiledGpu, tiled_gpu)
