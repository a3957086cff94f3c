// Build-time generator for the AOT tests: compiles three unrelated pipelines to
// static libraries and headers in the directory given as argv[1]. The client
// (aot_client.cpp) links both without libloom.

#include <Loom.h>

#include <cstdio>
#include <string>

using namespace loom;

namespace {

// out(x, y) = clamp(in(x, y) * scale + offset, 0, 255), vectorized and parallel.
void build_brighten(const std::string &dir) {
    ImageParam input(UInt(8), 2, "input");
    Param<float> scale("scale");
    Param<int> offset("offset");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func brighten("brighten");
    Expr v = cast<float>(input(x, y)) * scale + cast<float>(offset);
    brighten(x, y) = cast<uint8_t>(clamp(v, 0.0f, 255.0f));
    brighten.vectorize(x, 8).parallel(y);
    brighten.compile_to_static_library(dir + "/aot_brighten", {input, scale, offset}, "brighten",
                                       get_host_target());
}

// A separable 3x3 box blur of uint16 with the horizontal pass stored at root
// (a heap allocation) and computed per strip of rows in parallel.
void build_blur(const std::string &dir) {
    ImageParam input(UInt(16), 2, "input");
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func blur_x("blur_x"), blur_y("blur_y");
    blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_y.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
    blur_x.compute_at(blur_y, yo).vectorize(x, 8);
    blur_y.compile_to_static_library(dir + "/aot_blur", {input}, "blur", get_host_target());
}

// out(x, y) = in(x, y) + in(x, 0), vectorized, for host-large_buffers: its
// input's elements may lie more than 2^31 apart.
void build_tall(const std::string &dir) {
    ImageParam input(UInt(8), 2, "input");
    Var x("x"), y("y");
    Func tall("tall");
    tall(x, y) = input(x, y) + input(x, 0);
    tall.vectorize(x, 16);
    tall.compile_to_static_library(dir + "/aot_tall", {input}, "tall",
                                   Target("host-large_buffers"));
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIRECTORY\n", argv[0]);
        return 2;
    }
    try {
        build_brighten(argv[1]);
        build_blur(argv[1]);
        build_tall(argv[1]);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "aot_builder: %s\n", e.what());
        return 1;
    }
    return 0;
}
