// GPU generators built outside the Loom tree against an installed Loom; the
// same schedule serves host-opencl and host-cuda (gpu_tile takes the API
// from the target).
#include <Loom.h>

namespace {

// A 3x3 box blur: one kernel per 16x8 tile, blur_x computed per block in
// shared memory.
class GpuBlur : public loom::Generator<GpuBlur> {
public:
    Input<loom::Buffer<float, 2>> input{"input"};
    Output<loom::Buffer<float, 2>> output{"output"};
    loom::Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    loom::Func blur_x{"blur_x"};
    void generate() {
        blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3.0f;
        output(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3.0f;
        output.gpu_tile(x, y, xo, yo, xi, yi, 16, 8, loom::TailStrategy::GuardWithIf);
        blur_x.compute_at(output, xo).gpu_threads(x, y);
    }
};

// out = input * scale + x: a second, different program.
class GpuScale : public loom::Generator<GpuScale> {
public:
    Input<loom::Buffer<float, 2>> input{"input"};
    Input<float> scale{"scale", 1.0f};
    Output<loom::Buffer<float, 2>> output{"output"};
    loom::Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    void generate() {
        output(x, y) = input(x, y) * scale + loom::cast<float>(x);
        output.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, loom::TailStrategy::GuardWithIf);
    }
};

} // namespace

LOOM_REGISTER_GENERATOR(GpuBlur, gpu_blur)
LOOM_REGISTER_GENERATOR(GpuScale, gpu_scale)
