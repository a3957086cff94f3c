// The generator behind the AOT entry-point fuzzer: compiled to a static
// library at build time (fuzz_aot, called with garbage buffers), and
// registered in fuzz_aot_entry itself, whose driver calls get garbage
// arguments. out(x, y) = in(x - radius, y) + in(x + radius, y + 1) + offset
// reads past the output on both sides, so small inputs are errors.
#include "Loom.h"

namespace {

class FuzzAot : public loom::Generator<FuzzAot> {
public:
    GeneratorParam<int> radius{"radius", 1, 0, 3};
    GeneratorParam<bool> vectorized{"vectorized", true};
    GeneratorParam<bool> parallel_rows{"parallel_rows", true};

    Input<loom::Buffer<uint16_t, 2>> input{"input"};
    Input<int32_t> offset{"offset", 0, -1000, 1000};
    Output<loom::Buffer<int32_t, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"};

    void generate() {
        output(x, y) = loom::cast<int32_t>(input(x - radius, y)) +
                       loom::cast<int32_t>(input(x + radius, y + 1)) + offset;
    }

    void schedule() {
        if (vectorized) output.vectorize(x, 8);
        if (parallel_rows) output.parallel(y);
    }
};

} // namespace

LOOM_REGISTER_GENERATOR(FuzzAot, fuzz_aot)
