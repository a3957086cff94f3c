// A vectorized select on x's parity, `select(x % 2 == 0, ...)`: the
// simplifier takes the loop's multiple of the vector width out of the
// modulus, so the lane mask depends only on where the loop starts. Output
// windows starting at even, odd and negative x give the C++ result.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;

TEST_CASE("lane parity: an even/odd select, vectorized, matches C++ for any output start",
          "[correctness][lane_parity]") {
    Var x("x"), y("y");
    Func f("parity_select");
    f(x, y) = select(x % 2 == 0, x * 3 + y, x - 100 * y) + select(x % 4 == 1, 7, 0);
    f.vectorize(x, 16);
    for (int start : {0, 1, -7, -16, 5}) {
        Buffer<int> out(45, 3);
        out.set_min({start, 2});
        f.realize(out);
        for (int j = 2; j < 5; j++)
            for (int i = start; i < start + 45; i++) {
                int mod2 = ((i % 2) + 2) % 2, mod4 = ((i % 4) + 4) % 4;
                int expected = (mod2 == 0 ? i * 3 + j : i - 100 * j) + (mod4 == 1 ? 7 : 0);
                INFO("start " << start << " x " << i << " y " << j);
                REQUIRE(out(i, j) == expected);
            }
    }
}
