// A test generator: output = input * gain * scale + offset, with numeric
// GeneratorParams, a scalar Input with a range and a vectorized schedule.
#include "Loom.h"

namespace {

class ScaleOffset : public loom::Generator<ScaleOffset> {
public:
    GeneratorParam<float> scale{"scale", 2.0f, -100.0f, 100.0f};
    GeneratorParam<int> offset{"offset", 0};
    GeneratorParam<bool> parallel_rows{"parallel_rows", true};

    Input<loom::Buffer<uint8_t, 2>> input{"input"};
    Input<float> gain{"gain", 1.0f, 0.0f, 10.0f};
    Output<loom::Buffer<float, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"};

    void generate() { output(x, y) = loom::cast<float>(input(x, y)) * gain * scale + offset; }

    void schedule() {
        output.vectorize(x, natural_vector_size<float>());
        if (parallel_rows) output.parallel(y);
    }
};

} // namespace

LOOM_REGISTER_GENERATOR(ScaleOffset, scale_offset)
