// Lesson 16: RGB images and memory layouts (a generator)
//
// An RGB image can be stored planar (all reds, then all greens, then all
// blues: the stride of x is 1, of c is width * height) or interleaved
// (r, g, b, r, g, b, ...: the stride of x is 3, of c is 1). Code that is fast
// for one layout is slow for the other, and Loom by default assumes the
// planar case: dimension 0 of every buffer has stride 1.
//
// This generator brightens an RGB image. Its GeneratorParam "layout" picks
// what the generated function accepts:
//   planar       only planar buffers (stride 1 in x), vectorized along x;
//   interleaved  only interleaved buffers (stride 3 in x, 1 in c, 3
//                channels), with c innermost and unrolled;
//   specialized  either layout: the code checks the strides at run time
//                and runs the version scheduled for the layout it finds.
// tutorials/CMakeLists.txt generates all three; runners/lesson_16_runner.cpp
// runs them on planar and interleaved loom::Runtime::Buffers.

#include "Loom.h"

using namespace loom;

enum class Layout { Planar, Interleaved, Specialized };

class Brighten : public Generator<Brighten> {
public:
    GeneratorParam<Layout> layout{"layout",
                                  Layout::Planar,
                                  {{"planar", Layout::Planar},
                                   {"interleaved", Layout::Interleaved},
                                   {"specialized", Layout::Specialized}}};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Input<uint8_t> offset{"offset"};
    Output<Buffer<uint8_t, 3>> brighter{"brighter"};

    Var x{"x"}, y{"y"}, c{"c"};

    void generate() { brighter(x, y, c) = saturating_add(input(x, y, c)); }

    Expr saturating_add(Expr v) {
        return cast<uint8_t>(min(cast<int>(v) + cast<int>(offset), 255));
    }

    void schedule() {
        // Constraints tell Loom what it may assume about the buffers; the
        // generated code checks them on entry and returns an error if a
        // caller breaks them.
        if (layout == Layout::Planar) {
            // The default: dim(0) has stride 1.
            brighter.vectorize(x, natural_vector_size<uint8_t>());
        } else if (layout == Layout::Interleaved) {
            // x steps over 3 channels, c over neighbouring bytes, and there
            // are exactly 3 channels, so the c loop can be unrolled.
            input.dim(0).set_stride(3);
            input.dim(2).set_stride(1).set_bounds(0, 3);
            brighter.dim(0).set_stride(3);
            brighter.dim(2).set_stride(1).set_bounds(0, 3);
            // bound() makes the c loop exactly 3 long; unroll(c, 3) unrolls it.
            brighter.bound(c, 0, 3);
            brighter.reorder(c, x, y).unroll(c, 3).vectorize(x, natural_vector_size<uint8_t>());
        } else {
            // Any stride in x (set_stride(Expr()) lifts the default), and
            // three channels; then one schedule per layout.
            input.dim(0).set_stride(Expr());
            input.dim(2).set_bounds(0, 3);
            brighter.dim(0).set_stride(Expr());
            brighter.dim(2).set_bounds(0, 3);
            brighter.bound(c, 0, 3);

            Expr planar = input.dim(0).stride() == 1 && brighter.dim(0).stride() == 1;
            Expr interleaved = input.dim(0).stride() == 3 && input.dim(2).stride() == 1 &&
                               brighter.dim(0).stride() == 3 && brighter.dim(2).stride() == 1;
            brighter.specialize(planar).vectorize(x, natural_vector_size<uint8_t>());
            brighter.specialize(interleaved)
                .reorder(c, x, y)
                .unroll(c, 3)
                .vectorize(x, natural_vector_size<uint8_t>());
            // Any other layout runs the general (unspecialized) loop nest.
        }
    }
};

LOOM_REGISTER_GENERATOR(Brighten, brighten)
