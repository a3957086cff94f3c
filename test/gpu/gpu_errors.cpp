// Bad GPU schedules and targets: each error names the Func, the loop and
// what is legal, and nothing is left allocated on the device.

#include <catch2/catch.hpp>

#include "Loom.h"
#include "LoomRuntime.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using Catch::Matchers::Contains;
using gpu_test::opencl_target;

TEST_CASE("gpu_threads without enclosing gpu_blocks", "[gpu][error]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("no_blocks");
    f(x) = x;
    f.split(x, xo, xi, 16).gpu_threads(xi);
    REQUIRE_THROWS_WITH(f.realize({64}, opencl_target()),
                        Contains("loop xi of Func no_blocks") &&
                            Contains("outside any gpu_blocks loop"));
}

TEST_CASE("a GPU schedule on a target without a GPU feature", "[gpu][error]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("no_feature");
    f(x) = x;
    f.gpu_tile(x, xo, xi, 16);
    REQUIRE_THROWS_WITH(f.realize({64}, get_host_target()), Contains("no_feature") &&
                                                                Contains("has no GPU feature") &&
                                                                Contains("add 'opencl'"));
}

TEST_CASE("more than three nested thread dimensions", "[gpu][error]") {
    Var x("x"), y("y"), z("z"), w("w");
    Var xo("xo"), xi("xi"), yi("yi"), zi("zi"), wi("wi");
    Func f("four_threads");
    f(x, y, z, w) = x + y + z + w;
    f.gpu_blocks(w);
    f.split(x, xo, xi, 2).gpu_threads(xi, y, z);
    REQUIRE_THROWS_WITH(f.gpu_threads(xo), Contains("four_threads") && Contains("at most 3"));
}

TEST_CASE("a parallel loop inside a kernel", "[gpu][error]") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("par_in_kernel");
    f(x, y) = x + y;
    f.gpu_blocks(y).parallel(x);
    REQUIRE_THROWS_WITH(f.realize({8, 8}, opencl_target()),
                        Contains("loop x of Func par_in_kernel") &&
                            Contains("cannot run host-only loops"));
}

TEST_CASE("gpu_blocks inside gpu_threads", "[gpu][error]") {
    Var x("x"), y("y");
    Func f("blocks_in_threads");
    f(x, y) = x + y;
    f.gpu_threads(y).gpu_blocks(x);
    REQUIRE_THROWS_WITH(f.realize({8, 8}, opencl_target()),
                        Contains("blocks_in_threads") && Contains("inside a gpu_threads loop"));
}

TEST_CASE("a thread block larger than the device allows", "[gpu][error]") {
    int64_t live_before = loom_device_live_allocations();
    Var x("x"), xo("xo"), xi("xi");
    Func f("huge_block");
    f(x) = x;
    f.gpu_tile(x, xo, xi, 1 << 16);
    REQUIRE_THROWS_WITH(f.realize({1 << 17}, opencl_target()),
                        Contains("huge_block") && Contains("65536"));
    REQUIRE(loom_device_live_allocations() == live_before);
}

TEST_CASE("a per-thread producer without a constant size", "[gpu][error]") {
    Param<int> n("n");
    Var x("x"), c("c"), xo("xo"), xi("xi");
    Func p("unbounded_p"), f("unbounded_f");
    p(x, c) = x * c;
    f(x) = p(x, 0) + p(x, n);
    f.gpu_tile(x, xo, xi, 8);
    p.compute_at(f, xi);
    n.set(4);
    REQUIRE_THROWS_WITH(f.realize({16}, opencl_target()),
                        Contains("unbounded_p") && Contains("constant size"));
}
