// Bad GPU schedules and targets: each error names the Func, the loop and
// what is legal, and nothing is left allocated on the device.

#include <catch2/catch.hpp>

#include "Loom.h"
#include "LoomRuntime.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using Catch::Matchers::Contains;
using gpu_test::gpu_target;

TEST_CASE("gpu_threads without enclosing gpu_blocks", "[gpu][error]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("no_blocks");
    f(x) = x;
    f.split(x, xo, xi, 16).gpu_threads(xi);
    REQUIRE_THROWS_WITH(f.realize({64}, gpu_target()), Contains("loop xi of Func no_blocks") &&
                                                           Contains("outside any gpu_blocks loop"));
}

TEST_CASE("a GPU schedule on a target without a GPU feature", "[gpu][error]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("no_feature");
    f(x) = x;
    f.gpu_tile(x, xo, xi, 16);
    REQUIRE_THROWS_WITH(f.realize({64}, get_host_target()), Contains("no_feature") &&
                                                                Contains("has no GPU feature") &&
                                                                Contains("add 'cuda' or 'opencl'"));
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
    REQUIRE_THROWS_WITH(f.realize({8, 8}, gpu_target()),
                        Contains("loop x of Func par_in_kernel") &&
                            Contains("cannot run host-only loops"));
}

TEST_CASE("gpu_blocks inside gpu_threads", "[gpu][error]") {
    Var x("x"), y("y");
    Func f("blocks_in_threads");
    f(x, y) = x + y;
    f.gpu_threads(y).gpu_blocks(x);
    REQUIRE_THROWS_WITH(f.realize({8, 8}, gpu_target()),
                        Contains("blocks_in_threads") && Contains("inside a gpu_threads loop"));
}

TEST_CASE("a thread block larger than the device allows", "[gpu][error]") {
    int64_t live_before = loom_device_live_allocations();
    Var x("x"), xo("xo"), xi("xi");
    Func f("huge_block");
    f(x) = x;
    f.gpu_tile(x, xo, xi, 1 << 16);
    REQUIRE_THROWS_WITH(f.realize({1 << 17}, gpu_target()),
                        Contains("huge_block") && Contains("65536"));
    REQUIRE(loom_device_live_allocations() == live_before);
    // The block size is a constant: the JIT refuses it when it compiles,
    // before any buffer or launch, naming the device's limit.
    Pipeline p(f);
    REQUIRE_THROWS_AS(p.compile_jit(gpu_target()), CompileError);
    REQUIRE_THROWS_WITH(p.compile_jit(gpu_target()), Contains("Func huge_block") &&
                                                         Contains("65536x1x1 = 65536 threads") &&
                                                         Contains("threads per block"));
}

TEST_CASE("block-shared memory larger than the device has", "[gpu][error]") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func big("big_shared"), f("uses_big_shared");
    big(x, y) = x + y;
    f(x) = big(x, 0) + big(x, 4095);
    f.gpu_tile(x, xo, xi, 256);
    // 256 x 4096 int32 = 4 MiB per block: more local memory than any device has.
    big.compute_at(f, xo).store_in(MemoryType::GPUShared);
    Pipeline p(f);
    REQUIRE_THROWS_AS(p.compile_jit(gpu_target()), CompileError);
    REQUIRE_THROWS_WITH(p.compile_jit(gpu_target()),
                        Contains("Func uses_big_shared") &&
                            Contains("bytes of shared (local) memory") && Contains("4194304"));
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
    REQUIRE_THROWS_WITH(f.realize({16}, gpu_target()),
                        Contains("unbounded_p") && Contains("constant size"));
}

TEST_CASE("a launch that fails frees the pipeline's internal device buffers", "[gpu][error]") {
    int64_t live_before = loom_device_live_allocations();
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func stage("device_stage"), wide("too_wide");
    stage(x, y) = x + y;
    wide(x, y) = stage(x, y) * 2;
    // stage stays on the device (an internal device buffer); wide's block is
    // as wide as the output, which only the launch can refuse.
    stage.compute_root().gpu_tile(x, xo, xi, 16);
    wide.gpu_blocks(y).gpu_threads(x);
    Target t = gpu_target();
    REQUIRE_THROWS_WITH(wide.realize({1 << 16, 2}, t), Contains("too_wide"));
    CHECK(loom_device_live_allocations() == live_before);
    // The same pipeline with a block the device takes still runs and frees.
    {
        Buffer<int> out = wide.realize({64, 2}, t);
        CHECK(out(63, 1) == 2 * (63 + 1));
    }
    CHECK(loom_device_live_allocations() == live_before);
}
