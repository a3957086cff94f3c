// Lesson 6: realizing over shifted domains.
//
// realize({w, h}) evaluates over [0, w) x [0, h). To evaluate anywhere else,
// make a Buffer, move its mins with set_min, and realize into it: the
// pipeline computes exactly the region the output Buffer covers.

#include <Loom.h>

#include <cstdio>

int main() {
    loom::Func gradient("gradient");
    loom::Var x("x"), y("y");
    gradient(x, y) = x + y;

    // Evaluate over x in [100, 105) and y in [50, 57).
    loom::Buffer<int> shifted(5, 7);
    shifted.set_min(100, 50);
    gradient.realize(shifted);

    for (int j = shifted.min(1); j < shifted.min(1) + shifted.height(); j++)
        for (int i = shifted.min(0); i < shifted.min(0) + shifted.width(); i++)
            if (shifted(i, j) != i + j) {
                std::printf("Something went wrong: shifted(%d, %d) = %d\n", i, j, shifted(i, j));
                return 1;
            }

    // The same works with negative mins.
    loom::Buffer<int> negative(4, 4);
    negative.set_min(-2, -3);
    gradient.realize(negative);
    if (negative(-2, -3) != -5 || negative(1, 0) != 1) {
        std::printf("Something went wrong with negative mins\n");
        return 1;
    }
    std::printf("Success!\n");
    return 0;
}
