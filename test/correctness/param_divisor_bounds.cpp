// A Func read at a coordinate divided by a float Param (a resampler's
// source position, (x + 0.5) / scale): bounds inference must size the
// producer from the quotient's ends, whatever the Param's sign. Before,
// the quotient was unbounded, the producer's region the whole int range,
// and its allocation's size wrapped (a crash).

#include <catch2/catch.hpp>

#include <cmath>

#include "Loom.h"

using namespace loom;

TEST_CASE("a producer read at a coordinate over a float Param is sized from the quotient",
          "[correctness][bounds][params]") {
    Param<float> scale("scale");
    Var x("x"), xo("xo"), xi("xi");
    Func source("source"), resampled("resampled");
    source(x) = cast<float>(x) * 3.0f + 1.0f;
    Expr from = cast<int>(floor((cast<float>(x) + 0.5f) / scale));
    resampled(x) = source(from) + source(from + 1);
    // Per chunk of output, so the region is the chunk's quotients (and,
    // for the root case, the whole output's).
    resampled.split(x, xo, xi, 8);
    source.compute_at(resampled, xo);

    for (float s : {0.37f, 2.5f, -3.0f}) {
        scale.set(s);
        Buffer<float> out = resampled.realize({100});
        for (int i = 0; i < 100; i++) {
            int j = int(std::floor((float(i) + 0.5f) / s));
            INFO("scale " << s << ", x " << i);
            CHECK(out(i) == float(j) * 3.0f + 1.0f + float(j + 1) * 3.0f + 1.0f);
        }
    }
}
