// Funcs that the lanes of a warp compute together (computed inside a GPU
// thread loop by gpu_lanes loops) live in the lanes' registers and are read
// through warp shuffles (lower/LowerWarpShuffles.h): the CUDA source uses
// __shfl_sync and no shared memory, NVRTC compiles it, and on a CUDA device
// (LOOM_GPU_TEST_API=cuda) the results equal plain C++. OpenCL kernels have
// no shuffles: the same schedules are a CompileError there that says so.

#include <catch2/catch.hpp>

#include <cstdint>

#include "Loom.h"
#include "gpu/codegen_cuda_util.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using Catch::Contains;
using cuda_test::compile_cubin;
using cuda_test::cuda_target;
using gpu_test::check_2d;
using gpu_test::gpu_target;

namespace {

int count_of(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
    return n;
}

/** out(x, y) = sum of taps[i] * p(x * stride + offsets[i], y), with p
 * computed per row of a warp of `lanes` lanes (Halide's register-shuffle
 * schedule): out's tile is lanes x 2 threads, p is computed at out's y
 * thread by gpu_lanes over its x, its rounded-up extent unrolled. */
template <typename T> struct LaneStencil {
    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"}, xo{"xo"};
    Func p{"p"}, out{"out"};
    int stride;
    std::vector<int> offsets;

    LaneStencil(int lanes, int stride, std::vector<int> offs) : stride(stride), offsets(offs) {
        p(x, y) = cast<T>(x * 3 + y * 7);
        Expr sum = cast<T>(0);
        for (size_t i = 0; i < offsets.size(); i++)
            sum = sum + cast<T>(int(i) + 1) * p(x * stride + offsets[i], y);
        out(x, y) = sum;
        out.gpu_tile(x, y, xi, yi, lanes, 2, TailStrategy::RoundUp).gpu_lanes(xi);
        p.compute_at(out, yi).split(x, xo, x, lanes, TailStrategy::RoundUp).gpu_lanes(x).unroll(xo);
    }

    T expected(int i, int j) const {
        T sum = 0;
        for (size_t k = 0; k < offsets.size(); k++)
            sum = T(sum + T(int(k) + 1) * T((i * stride + offsets[k]) * 3 + j * 7));
        return sum;
    }

    /** On CUDA: the result equals plain C++. On OpenCL: the CompileError. */
    void run(int w, int h) {
        if (gpu_test::gpu_device_api() != DeviceAPI::CUDA) {
            CHECK_THROWS_WITH(out.realize({w, h}, gpu_target()),
                              Contains("Func p is computed inside GPU thread") &&
                                  Contains("lanes read elements other lanes computed") &&
                                  Contains("only CUDA kernels have them"));
            return;
        }
        Buffer<T> r = out.realize({w, h}, gpu_target());
        check_2d(r, [&](int i, int j) { return expected(i, j); });
    }
};

} // namespace

TEST_CASE("gpu_lanes producers per warp: neighbours' values come by shuffles", "[gpu]") {
    LaneStencil<int> s(32, 1, {-1, 1, 0});
    std::string source = s.out.device_source({}, cuda_target());
    INFO(source);
    // p starts at x - 1, so p(x - 1) is the lane's own element (no shuffle);
    // p(x) and p(x + 1) take two each: the lanes near the end of the warp
    // read the next register of the first lanes.
    CHECK(count_of(source, "__shfl_sync(0xffffffffu, ") == 4);
    CHECK_THAT(source, Contains(", 32)"));
    CHECK(source.find("__shared__") == std::string::npos);
    compile_cubin(source, 75);
    compile_cubin(source, 90);
    s.run(128, 10);
}

TEST_CASE("gpu_lanes producers per warp: 16 lanes share a warp by halves", "[gpu]") {
    LaneStencil<int> s(16, 1, {-2, 3});
    std::string source = s.out.device_source({}, cuda_target());
    INFO(source);
    CHECK_THAT(source, Contains(", 16)"));
    CHECK(source.find("__shared__") == std::string::npos);
    compile_cubin(source, 75);
    s.run(80, 6);
}

TEST_CASE("gpu_lanes producers per warp: strided reads and narrow types", "[gpu]") {
    // Lane l reads elements 2l and 2l + 1: three shuffles each, picked by lane.
    LaneStencil<uint8_t> s(32, 2, {0, 1});
    std::string source = s.out.device_source({}, cuda_target());
    INFO(source);
    CHECK(count_of(source, "__shfl_sync(0xffffffffu, (int)(") == 6);
    CHECK(source.find("__shared__") == std::string::npos);
    compile_cubin(source, 90);
    s.run(96, 6);

    LaneStencil<double> d(32, 1, {-1, 2});
    std::string doubles = d.out.device_source({}, cuda_target());
    CHECK(count_of(doubles, "__shfl_sync(0xffffffffu, ") == 2);
    compile_cubin(doubles, 90);
    d.run(64, 4);
}

TEST_CASE("gpu_lanes producers per warp: what cannot be shuffled is a CompileError",
          "[gpu][cuda]") {
    Var x("x"), y("y"), xi("xi"), yi("yi"), xo("xo");
    // The CUDA source's CompileError ("" when there is none).
    auto error_of = [](Func out) -> std::string {
        try {
            out.device_source({}, cuda_target());
        } catch (const CompileError &e) {
            return e.what();
        }
        return "";
    };
    auto check_error = [&](Func out, const std::string &why) {
        std::string message = error_of(out);
        CHECK_THAT(message, Contains("Func p is computed by gpu_lanes loops inside GPU thread") &&
                                Contains("its values live in the registers of a warp's lanes") &&
                                Contains(why));
    };
    SECTION("lanes of another extent than the readers'") {
        Func p("p"), out("out");
        p(x, y) = x + y;
        out(x, y) = p(x, y) + p(x + 1, y);
        out.gpu_tile(x, y, xi, yi, 32, 2, TailStrategy::RoundUp).gpu_lanes(xi);
        p.compute_at(out, yi).gpu_lanes(x); // 33 lanes
        check_error(out, "its gpu_lanes loops have different extents (33 and 32)");
    }
    SECTION("24 lanes") {
        Func p("p"), out("out");
        p(x, y) = x + y;
        out(x, y) = p(x, y) + p(x + 1, y);
        out.gpu_tile(x, y, xi, yi, 24, 2, TailStrategy::RoundUp).gpu_lanes(xi);
        p.compute_at(out, yi).split(x, xo, x, 24, TailStrategy::RoundUp).gpu_lanes(x).unroll(xo);
        check_error(out, "its gpu_lanes loops have extent 24, not a power of two up to the "
                         "warp size");
    }
    SECTION("a read under a lane-dependent condition") {
        Func p("p"), out("out");
        p(x, y) = x + y;
        out(x, y) = p(x, y) + p(x + 1, y);
        out.gpu_tile(x, y, xi, yi, 32, 2, TailStrategy::GuardWithIf).gpu_lanes(xi);
        p.compute_at(out, yi).split(x, xo, x, 32, TailStrategy::RoundUp).gpu_lanes(x);
        check_error(out, "under a condition that differs between lanes");
        CHECK_THAT(error_of(out), Contains("use TailStrategy::RoundUp on the gpu_lanes loops"));
    }
    SECTION("a read of lane * 8") {
        Func p("p"), out("out");
        p(x, y) = x + y;
        out(x, y) = p(x * 8, y);
        out.gpu_tile(x, y, xi, yi, 32, 2, TailStrategy::RoundUp).gpu_lanes(xi);
        p.compute_at(out, yi).split(x, xo, x, 32, TailStrategy::RoundUp).gpu_lanes(x).unroll(xo);
        check_error(out, "a lane may read c * lane + d with c from 0 to 4");
    }
    SECTION("a 16-bit float") {
        Func p("p"), out("out");
        p(x, y) = cast(Float(16), x + y);
        out(x, y) = p(x, y) + p(x + 1, y);
        out.gpu_tile(x, y, xi, yi, 32, 2, TailStrategy::RoundUp).gpu_lanes(xi);
        p.compute_at(out, yi).split(x, xo, x, 32, TailStrategy::RoundUp).gpu_lanes(x).unroll(xo);
        check_error(out, "cannot be shuffled between lanes");
    }
}
