// print() formats values as Halide's runtime does: Float(32) (and 16-bit
// floats) as by %f, Float(64) in scientific notation as by %e, integers in
// full; checked against snprintf on both backends.

#include "CompatCommon.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace Halide;

namespace {

std::vector<std::string> lines;
void collect(JITUserContext *, const char *m) {
    lines.push_back(m);
}

std::string c_format(const char *spec, double v) {
    char text[128];
    std::snprintf(text, sizeof(text), spec, v);
    return text;
}

} // namespace

TEST_CASE("compat print: Float(64) as by %e, Float(32) as by %f", "[compat][print]") {
    const std::vector<double> values = {0.0,     1.0, -2.5,  1234567.875,       3.0e-7,
                                        -6.5e21, 0.1, 1e300, -1.0 / 1024 / 1024};
    compat::for_each_backend([&](bool) {
        Buffer<double> in(int(values.size()));
        for (size_t i = 0; i < values.size(); i++) in(int(i)) = values[i];
        Func f("f");
        Var x("x");
        f(x) = print(in(x), cast<float>(in(x)), cast<int64_t>(in(x)*10) % 1000);
        f.jit_handlers().custom_print = collect;
        lines.clear();
        Buffer<double> out = f.realize({int(values.size())});
        REQUIRE(lines.size() == values.size());
        for (size_t i = 0; i < values.size(); i++) {
            double v = values[i];
            // Loom's (and Halide's) % of ints is Euclidean: never negative.
            long long whole = ((long long)(v * 10) % 1000 + 1000) % 1000;
            if (std::fabs(v * 10) > 9e18) continue; // the integer cast overflows
            std::string expected = c_format("%e", v) + " " + c_format("%f", double(float(v))) +
                                   " " + std::to_string(whole) + "\n";
            CHECK(lines[i] == expected);
            CHECK(out(int(i)) == v);
        }
    });
}

TEST_CASE("compat print: special Float(64) values and vectors", "[compat][print]") {
    Func f("f");
    Var x("x");
    Expr v = select(x == 0, Expr(std::numeric_limits<double>::infinity()), x == 1,
                    Expr(-std::numeric_limits<double>::infinity()), cast<double>(x) / 4);
    f(x) = print(v, "at", x);
    f.jit_handlers().custom_print = collect;
    lines.clear();
    f.realize({3});
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "inf at 0\n");
    CHECK(lines[1] == "-inf at 1\n");
    CHECK(lines[2] == "5.000000e-01 at 2\n");

    Func g("g");
    g(x) = print(cast<double>(x) * 100);
    g.vectorize(x, 2);
    g.jit_handlers().custom_print = collect;
    lines.clear();
    g.realize({2});
    REQUIRE(!lines.empty());
    std::string all;
    for (const std::string &l : lines) all += l;
    CHECK(all.find("0.000000e+00") != std::string::npos);
    CHECK(all.find("1.000000e+02") != std::string::npos);
}
