// Two generators built outside the Loom tree against an installed Loom.
#include <Loom.h>

namespace {

class Brighten : public loom::Generator<Brighten> {
public:
    GeneratorParam<int> offset{"offset", 10, 0, 255};
    Input<loom::Buffer<uint8_t, 2>> input{"input"};
    Output<loom::Buffer<uint8_t, 2>> output{"output"};
    loom::Var x{"x"}, y{"y"};
    void generate() {
        output(x, y) = loom::cast<uint8_t>(loom::min(loom::cast<int>(input(x, y)) + offset, 255));
        output.vectorize(x, natural_vector_size<uint8_t>()).parallel(y);
    }
};

class Weighted : public loom::Generator<Weighted> {
public:
    Input<loom::Buffer<float, 1>> input{"input"};
    Input<float> weight{"weight", 1.0f};
    Output<loom::Buffer<float, 1>> output{"output"};
    loom::Var x{"x"};
    void generate() { output(x) = input(x) * weight + loom::cast<float>(x); }
};

} // namespace

LOOM_REGISTER_GENERATOR(Brighten, brighten)
LOOM_REGISTER_GENERATOR(Weighted, weighted)
