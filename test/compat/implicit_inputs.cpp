// ImageParams and Buffers read with Halide's implicit-argument placeholder:
// `im(_)` and `im(x, _)` stand for as many implicit Vars as the image has
// dimensions left, so `f(_) = im(_) * 2` and `f(x, _) = im(x, _) + x`
// define Funcs of the image's dimensions, as in Halide.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

Buffer<int> ramp(int w, int h, int c) {
    Buffer<int> b(w, h, c);
    b.for_each_element([&](int x, int y, int z) { b(x, y, z) = x + 10 * y + 100 * z; });
    return b;
}

} // namespace

TEST_CASE("compat implicit inputs: im(_) and im(x, _) of an ImageParam", "[compat][implicit]") {
    ImageParam im(Int(32), 3, "im");
    Var x("x"), y("y");
    Func whole("whole"), after_x("after_x"), middle("middle");
    whole(_) = im(_) * 2;
    after_x(x, _) = im(x, _) + x;
    middle(x, _) = im(x, _, 1) - im(x, _, 0); // _ stands for y only here
    Buffer<int> in = ramp(5, 4, 3);
    im.set(in);
    CHECK(whole.dimensions() == 3);
    CHECK(after_x.dimensions() == 3);
    CHECK(middle.dimensions() == 2);
    Buffer<int> w = whole.realize({5, 4, 3}), a = after_x.realize({5, 4, 3});
    Buffer<int> m = middle.realize({5, 4});
    for (int c = 0; c < 3; c++) {
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 5; i++) {
                CHECK(w(i, j, c) == in(i, j, c) * 2);
                CHECK(a(i, j, c) == in(i, j, c) + i);
                if (c == 0) CHECK(m(i, j) == in(i, j, 1) - in(i, j, 0));
            }
        }
    }
}

TEST_CASE("compat implicit inputs: buffer(_) inside expressions", "[compat][implicit]") {
    Buffer<int> in = ramp(4, 3, 2);
    Buffer<float> scale(2);
    scale(0) = 0.5f;
    scale(1) = 4.0f;
    Var x("x"), y("y"), c("c");
    Func f("f"), g("g"), h("h");
    f(_) = cast<float>(in(_)) + 1.0f;
    g(x, y, c) = f(x, y, c) * scale(c);
    h(x, _) = g(x, _) + cast<float>(in(x, _)); // h(x, _0, _1)
    Buffer<float> out = h.realize({4, 3, 2});
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 4; i++) {
                float expected = (float(in(i, j, k)) + 1.0f) * scale(k) + float(in(i, j, k));
                CHECK(out(i, j, k) == expected);
            }
        }
    }
}

TEST_CASE("compat implicit inputs: bad placeholder uses name the image", "[compat][implicit]") {
    ImageParam im(Int(32), 2, "im");
    Buffer<int> b(3, 3);
    b.set_name("b");
    Var x("x");
    CHECK_THROWS_WITH(im(_, _),
                      Contains("Only one implicit placeholder ('_')") && Contains("ImageParam im"));
    CHECK_THROWS_WITH(b(_, x, _),
                      Contains("Only one implicit placeholder ('_')") && Contains("Buffer b"));
    CHECK_THROWS_WITH(im(x, x, x, _),
                      Contains("ImageParam im is accessed with 3 arguments but has 2 dimensions"));
    CHECK_THROWS_WITH(b(x), Contains("Buffer b is accessed with 1 argument but has 2 dimensions"));
    // The implicit Vars of the right-hand side need a '_' on the left.
    Func g("g");
    CHECK_THROWS_WITH(g(x) = b(x, _) + im(_, x), Contains("Func g uses the implicit Var _0") &&
                                                     Contains("no placeholder '_'"));
}
