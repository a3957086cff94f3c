// A test generator: a 3x1 stencil (sum or max, an enum GeneratorParam) over
// an input whose element type comes from the GeneratorParam "input.type",
// optionally read through a wrapper staged per row.
#include "Loom.h"

namespace {

enum class Reduce { Sum, Max };

class Stencil : public loom::Generator<Stencil> {
public:
    GeneratorParam<Reduce> reduce{
        "reduce", Reduce::Sum, {{"sum", Reduce::Sum}, {"max", Reduce::Max}}};
    GeneratorParam<int> radius{"radius", 1, 0, 4};
    /** Read the input through a wrapper computed per row of the output
     * (ImageParam::in on a generator's Input). */
    GeneratorParam<bool> staged{"staged", false};

    Input<loom::Buffer<void, 2>> input{"input", loom::Int(32)};
    Output<loom::Buffer<int32_t, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"};

    void generate() {
        loom::Func clamped = loom::BoundaryConditions::repeat_edge(input);
        loom::Expr e = loom::cast<int32_t>(clamped(x - radius, y));
        for (int dx = -radius + 1; dx <= radius; dx++) {
            loom::Expr v = loom::cast<int32_t>(clamped(x + dx, y));
            e = reduce == Reduce::Sum ? e + v : loom::max(e, v);
        }
        output(x, y) = e;
        output.vectorize(x, 8).parallel(y);
        if (staged) input.in().compute_at(output, y).vectorize(loom::_0, 8);
    }
};

} // namespace

LOOM_REGISTER_GENERATOR(Stencil, stencil)
