// Lesson 7: multi-stage pipelines.
//
// A 3x3 box blur in two passes: blur_x averages horizontally, blur_y
// vertically over blur_x. By default blur_x is inlined into blur_y (its
// expression is substituted at each use, so it is recomputed three times per
// output pixel). compute_root() computes all of blur_x first into its own
// buffer instead, over exactly the region blur_y needs. Both give the same
// pixels; only the work and the memory traffic differ.

#include <Loom.h>

#include <algorithm>
#include <cstdio>

namespace {

bool ok = true;

/** The blur in plain C++: output (x, y) averages input over [x, x+2] x [y, y+2]. */
uint16_t reference(const loom::Buffer<uint8_t> &in, int x, int y, int c, bool clamp) {
    auto at = [&](int i, int j) {
        if (clamp) {
            i = std::min(std::max(i, 0), in.width() - 1);
            j = std::min(std::max(j, 0), in.height() - 1);
        }
        return int(in(i, j, c));
    };
    int sum = 0;
    for (int j = y; j < y + 3; j++) {
        int row = (at(x, j) + at(x + 1, j) + at(x + 2, j)) / 3;
        sum += row;
    }
    return uint16_t(sum / 3);
}

void check(const char *what, const loom::Buffer<uint16_t> &out, const loom::Buffer<uint8_t> &in,
           bool clamp) {
    for (int c = 0; c < out.channels(); c++)
        for (int y = out.min(1); y < out.min(1) + out.height(); y++)
            for (int x = out.min(0); x < out.min(0) + out.width(); x++) {
                uint16_t want = reference(in, x, y, c, clamp);
                if (out(x, y, c) != want) {
                    std::printf("%s: (%d, %d, %d) = %d instead of %d\n", what, x, y, c,
                                out(x, y, c), want);
                    ok = false;
                    return;
                }
            }
    std::printf("%s: correct\n", what);
}

} // namespace

int main() {
    // A synthetic 3-channel image with edges and gradients, 8 bits per value.
    loom::Buffer<uint8_t> input(203, 157, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < input.height(); y++)
            for (int x = 0; x < input.width(); x++)
                input(x, y, c) =
                    uint8_t((x * 7 + y * 13 + c * 50 + ((x / 16 + y / 16) % 2) * 90) & 255);
    loom::Var x("x"), y("y"), c("c");

    // 1. The blur without boundary handling reads 2 pixels beyond each
    // output pixel, so the output is 2 smaller than the input.
    {
        loom::Func widened("widened"), blur_x("blur_x"), blur_y("blur_y");
        widened(x, y, c) = loom::cast<uint16_t>(input(x, y, c));
        blur_x(x, y, c) = (widened(x, y, c) + widened(x + 1, y, c) + widened(x + 2, y, c)) / 3;
        blur_y(x, y, c) = (blur_x(x, y, c) + blur_x(x, y + 1, c) + blur_x(x, y + 2, c)) / 3;

        // Everything inlined: one loop nest, blur_x recomputed per use.
        blur_y.print_loop_nest();
        loom::Buffer<uint16_t> out =
            blur_y.realize({input.width() - 2, input.height() - 2, input.channels()});
        check("inlined blur", out, input, false);

        // blur_x computed once, into a buffer, before blur_y runs.
        blur_x.compute_root();
        blur_y.print_loop_nest();
        loom::Buffer<uint16_t> out2 =
            blur_y.realize({input.width() - 2, input.height() - 2, input.channels()});
        check("blur_x at root", out2, input, false);
    }

    // 2. With a boundary condition the output can be as large as the input:
    // repeat_edge clamps the coordinates into the image. The clamp is a Func
    // too, and here every stage is computed at root; bounds inference works
    // out how much of each one the next stage needs (blur_x: 2 more rows than
    // the output; the clamped input: 2 more columns too).
    {
        loom::Func clamped = loom::BoundaryConditions::repeat_edge(input);
        loom::Func widened("widened2"), blur_x("blur_x2"), blur_y("blur_y2");
        widened(x, y, c) = loom::cast<uint16_t>(clamped(x, y, c));
        blur_x(x, y, c) = (widened(x, y, c) + widened(x + 1, y, c) + widened(x + 2, y, c)) / 3;
        blur_y(x, y, c) = (blur_x(x, y, c) + blur_x(x, y + 1, c) + blur_x(x, y + 2, c)) / 3;
        widened.compute_root();
        blur_x.compute_root();
        blur_y.print_loop_nest();
        loom::Buffer<uint16_t> out =
            blur_y.realize({input.width(), input.height(), input.channels()});
        check("clamped blur, all at root", out, input, true);

        // The same, with the stages vectorized and the rows in parallel.
        blur_x.vectorize(x, 8).parallel(y);
        blur_y.vectorize(x, 8).parallel(c);
        blur_y.print_loop_nest();
        loom::Buffer<uint16_t> out2 =
            blur_y.realize({input.width(), input.height(), input.channels()});
        check("clamped blur, vectorized and parallel", out2, input, true);
    }

    if (!ok) return 1;
    std::printf("Success!\n");
    return 0;
}
