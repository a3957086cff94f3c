// Data between host and device: inputs copied to the device only when the
// host copy is newer, stages passing buffers on the device, outputs read
// back when the host reads them, CPU and GPU stages in one pipeline, many
// kernels, calls from a parallel CPU loop, and every device allocation freed.

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "Loom.h"
#include "LoomRuntime.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using gpu_test::check_1d;
using gpu_test::check_2d;
using gpu_test::gpu_target;

TEST_CASE("input host to device, stage to stage on the device, device to host", "[gpu]") {
    int64_t live_before = loom_device_live_allocations();
    {
        Buffer<int> in(64);
        for (int i = 0; i < 64; i++) in(i) = i * i;
        Var x("x"), xo("xo"), xi("xi");
        Func a("flow_a"), b("flow_b");
        a(x) = in(x) + 1;
        b(x) = a(x) * 2;
        a.compute_root().gpu_tile(x, xo, xi, 16);
        b.gpu_tile(x, xo, xi, 16);
        Buffer<int> out = b.realize({64}, gpu_target());
        REQUIRE(out.device_dirty());
        check_1d(out, [](int i) { return (i * i + 1) * 2; });
        REQUIRE_FALSE(out.device_dirty());

        // The host changes the input: the next run sees the new values.
        for (int i = 0; i < 64; i++) in(i) = -i;
        REQUIRE(in.host_dirty());
        Buffer<int> out2 = b.realize({64}, gpu_target());
        check_1d(out2, [](int i) { return (-i + 1) * 2; });

        // The same output buffer, reused across runs.
        Buffer<int> reused(64);
        for (int run = 0; run < 3; run++) {
            for (int i = 0; i < 64; i++) in(i) = i + run;
            b.realize(reused, gpu_target());
            check_1d(reused, [&](int i) { return (i + run + 1) * 2; });
        }
    }
    REQUIRE(loom_device_live_allocations() == live_before);
}

TEST_CASE("an input already on the device is not copied again", "[gpu]") {
    Buffer<float> in(32);
    for (int i = 0; i < 32; i++) in(i) = float(i);
    REQUIRE(in.copy_to_device(gpu_test::gpu_device_api()) == 0);
    REQUIRE(in.has_device_allocation());
    REQUIRE_FALSE(in.host_dirty());
    Var x("x"), xo("xo"), xi("xi");
    Func f("on_device");
    f(x) = in(x)*0.5f;
    f.gpu_tile(x, xo, xi, 8);
    Buffer<float> out = f.realize({32}, gpu_target());
    check_1d(out, [](int i) { return float(i) * 0.5f; });
}

TEST_CASE("CPU stages feed GPU stages and back", "[gpu]") {
    Buffer<int> in(20, 10);
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 20; x++) in(x, y) = x - y;
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func cpu1("cpu1"), gpu("gpu_mid"), cpu2("cpu2");
    cpu1(x, y) = in(x, y) * 3;
    gpu(x, y) = cpu1(x, y) + cpu1(x + 1, y);
    cpu2(x, y) = gpu(x, y) - gpu(x, y + 1);
    cpu1.compute_root().parallel(y);
    gpu.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf);
    cpu2.parallel(y);
    Buffer<int> r = cpu2.realize({18, 8}, gpu_target());
    auto c1 = [&](int i, int j) { return in(i, j) * 3; };
    auto g = [&](int i, int j) { return c1(i, j) + c1(i + 1, j); };
    check_2d(r, [&](int i, int j) { return g(i, j) - g(i, j + 1); });
}

TEST_CASE("many kernels in one pipeline", "[gpu]") {
    Var x("x"), xo("xo"), xi("xi");
    std::vector<Func> fs;
    Func first("chain0");
    first(x) = x;
    fs.push_back(first);
    for (int i = 1; i < 8; i++) {
        Func f("chain" + std::to_string(i));
        f(x) = fs.back()(x) * 2 + fs.back()(x + 1);
        fs.push_back(f);
    }
    for (auto &f : fs) f.compute_root().gpu_tile(x, xo, xi, 16, TailStrategy::GuardWithIf);
    Buffer<int> r = fs.back().realize({40}, gpu_target());
    check_1d(r, [](int i) {
        // chain_k(x) = 2 chain_{k-1}(x) + chain_{k-1}(x + 1), chain_0(x) = x.
        std::vector<long> v(60);
        for (int k = 0; k < 60; k++) v[size_t(k)] = k;
        for (int s = 1; s < 8; s++)
            for (int k = 0; k + 1 < 60; k++) v[size_t(k)] = 2 * v[size_t(k)] + v[size_t(k + 1)];
        return int(v[size_t(i)]);
    });
}

TEST_CASE("a GPU pipeline called from a parallel CPU loop", "[gpu]") {
    Param<int> offset("offset");
    Var x("x"), xo("xo"), xi("xi");
    Func f("from_threads");
    f(x) = x * 10 + offset;
    f.gpu_tile(x, xo, xi, 32, TailStrategy::GuardWithIf);
    offset.set(0);
    f.compile_jit(gpu_target());
    std::vector<std::thread> threads;
    std::vector<int> failures(8, 0);
    for (int t = 0; t < 8; t++) {
        threads.emplace_back([&, t] {
            for (int rep = 0; rep < 5; rep++) {
                // Each thread runs the same compiled pipeline with its own output.
                Buffer<int> out(100);
                f.realize(out, gpu_target());
                for (int i = 0; i < 100; i++)
                    if (out(i) != i * 10) failures[size_t(t)]++;
            }
        });
    }
    for (auto &th : threads) th.join();
    for (int n : failures) REQUIRE(n == 0);
}

TEST_CASE("Tuples on the GPU", "[gpu]") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("tuple_f");
    f(x, y) = Tuple(x + y, cast<float>(x) * 0.5f);
    f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, TailStrategy::GuardWithIf);
    Realization r = f.realize({19, 11}, gpu_target());
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    check_2d(a, [](int i, int j) { return i + j; });
    check_2d(b, [](int i, int) { return float(i) * 0.5f; });
}

TEST_CASE("host-only pipelines see results still on the device", "[gpu]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("stale_f");
    f(x) = x * 2;
    f.gpu_tile(x, xo, xi, 16);
    Buffer<int> b(64);
    f.realize(b, gpu_target());
    REQUIRE(b.device_dirty());
    // A CPU pipeline reads b: it must see the device's values.
    Func g("stale_g");
    g(x) = b(x) + 1;
    Buffer<int> c = g.realize({64}, get_host_target());
    check_1d(c, [](int i) { return i * 2 + 1; });
    // A CPU pipeline overwrites b: a GPU pipeline reading it next must see that.
    Func h("stale_h");
    h(x) = x + 100;
    h.realize(b, get_host_target());
    Func k("stale_k");
    k(x) = b(x) * 3;
    k.gpu_tile(x, xo, xi, 16);
    Buffer<int> d = k.realize({64}, gpu_target());
    check_1d(d, [](int i) { return (i + 100) * 3; });
}

TEST_CASE("the same algorithm prints the same device source", "[gpu]") {
    auto source = [] {
        ImageParam in(Float(32), 2, "same_in");
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        Func a("same_a"), b("same_b");
        a(x, y) = in(x, y) * 2.0f + in(x + 1, y);
        b(x, y) = a(x, y) + a(x, y + 1);
        b.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, TailStrategy::GuardWithIf);
        a.compute_at(b, xo).gpu_threads(x, y);
        return b.device_source({in}, gpu_target());
    };
    std::string first = source();
    // Other compiles in between advance lowering's name counters.
    Func other("same_other");
    Var x("x");
    other(x) = x;
    other.realize({8});
    REQUIRE(source() == first);
}

TEST_CASE("kernels launched from the iterations of a parallel loop", "[gpu]") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("par_launch");
    f(x, y) = x + y;
    f(x, y) = f(x, y) * 2;
    f.update(0).gpu_tile(x, xo, xi, 4).parallel(y);
    Buffer<int> out = f.realize({16, 16}, gpu_target());
    check_2d(out, [](int i, int j) { return (i + j) * 2; });
}
