// Lesson 1: Funcs, Vars and Exprs.
//
// A Func is a pipeline stage: a pure function from integer coordinates to a
// value. A Var names a coordinate. An Expr is any expression built from Vars,
// constants and calls to other Funcs. Defining a Func computes nothing;
// realize() compiles the pipeline (JIT) and evaluates it over a region.

#include <Loom.h>

#include <cstdio>

int main() {
    loom::Func gradient("gradient");
    loom::Var x("x"), y("y");

    // gradient(x, y) is the sum of its coordinates. x + y is an Expr of type int32.
    loom::Expr e = x + y;
    gradient(x, y) = e;

    // Evaluate over an 800 x 600 region with mins at 0. The result is a Buffer.
    loom::Buffer<int32_t> output = gradient.realize({800, 600});

    // Check against plain C++.
    for (int j = 0; j < output.height(); j++) {
        for (int i = 0; i < output.width(); i++) {
            if (output(i, j) != i + j) {
                std::printf("Something went wrong!\nPixel %d, %d was supposed to be %d, but "
                            "instead it's %d\n",
                            i, j, i + j, output(i, j));
                return 1;
            }
        }
    }
    std::printf("Success!\n");
    return 0;
}
