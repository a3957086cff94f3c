// Errors of the GPU schedule directives: each is a CompileError naming the
// Func (and stage), the Var and what is legal, and a failed directive leaves
// the schedule as it was.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

namespace {

Func grid(const std::string &name) {
    Var x("x"), y("y"), z("z"), w("w");
    Func f(name);
    f(x, y, z, w) = x + y + z + w;
    return f;
}

const Internal::StageSchedule &sched(const Func &f) {
    return f.function().definition().schedule;
}

std::vector<ForType> types_of(const Func &f) {
    std::vector<ForType> t;
    for (const Internal::Dim &d : sched(f).dims) t.push_back(d.for_type);
    return t;
}

} // namespace

TEST_CASE("a GPU directive on a Var that is not a loop lists the loops", "[error][schedule][gpu]") {
    Var x("x"), y("y"), q("q"), tx("tx"), bx("bx");
    Func f("kernel");
    f(x, y) = x * y;
    const char *msg = "Func kernel has no loop variable q in its schedule";
    const char *legal = "its loop variables are x, y (innermost first)";
    CHECK_THROWS_WITH(f.gpu_blocks(q),
                      Contains(msg) && Contains("(in gpu_blocks)") && Contains(legal));
    CHECK_THROWS_WITH(f.gpu_blocks(x, q), Contains(msg) && Contains(legal));
    CHECK_THROWS_WITH(f.gpu_threads(q),
                      Contains(msg) && Contains("(in gpu_threads)") && Contains(legal));
    CHECK_THROWS_WITH(f.gpu_threads(x, y, q), Contains(msg));
    CHECK_THROWS_WITH(f.gpu_lanes(q), Contains(msg) && Contains("(in gpu_lanes)"));
    CHECK_THROWS_WITH(f.gpu(q, x), Contains(msg) && Contains("(in gpu)"));
    CHECK_THROWS_WITH(f.gpu(y, q), Contains(msg) && Contains("(in gpu)"));
    CHECK_THROWS_WITH(f.gpu_tile(q, bx, tx, 16),
                      Contains(msg) && Contains("(in gpu_tile)") && Contains(legal));
    CHECK_THROWS_WITH(f.gpu_tile(q, tx, 16), Contains(msg) && Contains("(in gpu_tile)"));
    CHECK_THROWS_WITH(f.gpu_tile(x, q, tx, Var("ty"), 8, 8),
                      Contains(msg) && Contains("(in gpu_tile)"));
    // Nothing changed: gpu(y, q) marked no block loop before failing.
    CHECK(types_of(f) == std::vector<ForType>{ForType::Serial, ForType::Serial});
    CHECK_FALSE(sched(f).touched);
    CHECK(sched(f).splits.empty());
}

TEST_CASE("a loop split away is not a GPU loop either", "[error][schedule][gpu]") {
    Var x("x"), y("y"), tx("tx");
    Func f("tiled");
    f(x, y) = x + y;
    f.gpu_tile(x, tx, 32);
    CHECK_THROWS_WITH(f.gpu_threads(Var("xi")), Contains("Func tiled has no loop variable xi") &&
                                                    Contains("x.tx, x.x, y (innermost first)"));
    CHECK_THROWS_WITH(f.update(0), Contains("Func tiled has 0 update definitions"));
}

TEST_CASE("at most three GPU block and three GPU thread loops per stage",
          "[error][schedule][gpu]") {
    Var x("x"), y("y"), z("z"), w("w");
    Func f = grid("big_grid");
    f.gpu_blocks(x, y, z);
    CHECK_THROWS_WITH(f.gpu_blocks(w), Contains("gpu_blocks(w) in Func big_grid") &&
                                           Contains("would give it 4 GPU block loops") &&
                                           Contains("(x, y, z, w, innermost first)") &&
                                           Contains("at most 3 (dimensions x, y and z)"));
    CHECK(types_of(f) == std::vector<ForType>{ForType::GPUBlock, ForType::GPUBlock,
                                              ForType::GPUBlock, ForType::Serial});
    // Re-marking the same loops is fine; so is making one of them a thread.
    f.gpu_blocks(x, y, z).gpu_threads(x).gpu_blocks(w);
    CHECK(types_of(f) == std::vector<ForType>{ForType::GPUThread, ForType::GPUBlock,
                                              ForType::GPUBlock, ForType::GPUBlock});

    Func g = grid("big_block");
    g.gpu_threads(x, y);
    CHECK_THROWS_WITH(g.gpu_threads(z, w), Contains("gpu_threads(z, w) in Func big_block") &&
                                               Contains("would give it 4 GPU thread loops") &&
                                               Contains("at most 3"));
    // All or nothing: z was not marked either.
    CHECK(types_of(g) == std::vector<ForType>{ForType::GPUThread, ForType::GPUThread,
                                              ForType::Serial, ForType::Serial});

    // gpu_tile and gpu_single_thread count too, and fail as a whole.
    Func h = grid("big_tile");
    h.gpu_blocks(z, w);
    CHECK_THROWS_WITH(h.gpu_tile(x, y, Var("tx"), Var("ty"), 8, 8),
                      Contains("gpu_tile(x, y) in Func big_tile") &&
                          Contains("would give it 4 GPU block loops"));
    CHECK(sched(h).splits.empty());
    CHECK(sched(h).dims.size() == 4);
    Func k = grid("big_single");
    k.gpu_blocks(x, y, z);
    CHECK_THROWS_WITH(k.gpu_single_thread(), Contains("gpu_single_thread") &&
                                                 Contains("Func big_single") &&
                                                 Contains("would give it 4 GPU block loops"));
    CHECK(sched(k).dims.size() == 4);
}

TEST_CASE("a GPU directive names each loop once", "[error][schedule][gpu]") {
    Var x("x"), y("y");
    Func f("twice");
    f(x, y) = x - y;
    CHECK_THROWS_WITH(f.gpu_blocks(x, x), Contains("gpu_blocks(x, x) in Func twice") &&
                                              Contains("names loop variable x more than once") &&
                                              Contains("x, y (innermost first)"));
    CHECK_THROWS_WITH(f.gpu_threads(y, x, y), Contains("names loop variable y more than once"));
    CHECK_FALSE(sched(f).touched);
}

TEST_CASE("GPU loops need a GPU device API", "[error][schedule][gpu]") {
    Var x("x"), y("y"), tx("tx");
    Func f("hosted");
    f(x, y) = x;
    CHECK_THROWS_WITH(f.gpu_blocks(y, DeviceAPI::Host),
                      Contains("gpu_blocks(y) in Func hosted is given DeviceAPI::Host") &&
                          Contains("DeviceAPI::Default_GPU") && Contains("DeviceAPI::OpenCL") &&
                          Contains("DeviceAPI::CUDA"));
    CHECK_THROWS_WITH(f.gpu_threads(x, y, DeviceAPI::None),
                      Contains("gpu_threads(x, y) in Func hosted is given DeviceAPI::None"));
    CHECK_THROWS_WITH(f.gpu_lanes(x, DeviceAPI::Host), Contains("gpu_lanes(x)"));
    CHECK_THROWS_WITH(f.gpu_single_thread(DeviceAPI::Host),
                      Contains("gpu_single_thread() in Func hosted is given DeviceAPI::Host"));
    CHECK_THROWS_WITH(f.gpu(y, x, DeviceAPI::None),
                      Contains("gpu(y, x) in Func hosted is given DeviceAPI::None"));
    CHECK_THROWS_WITH(f.gpu_tile(x, tx, 8, TailStrategy::Auto, DeviceAPI::Host),
                      Contains("gpu_tile(x) in Func hosted is given DeviceAPI::Host"));
    CHECK(sched(f).splits.empty());
    CHECK(sched(f).dims.size() == 2);
    CHECK_FALSE(sched(f).touched);
}

TEST_CASE("gpu_tile's split errors leave the schedule as it was", "[error][schedule][gpu]") {
    Var x("x"), y("y"), bx("bx"), tx("tx"), ty("ty");
    Func f("tile_errors");
    f(x, y) = x + y;
    CHECK_THROWS_WITH(f.gpu_tile(x, bx, tx, 0),
                      Contains("Func tile_errors") && Contains("factor must be positive"));
    CHECK_THROWS_WITH(f.gpu_tile(x, y, tx, ty, 8, -2),
                      Contains("Func tile_errors") && Contains("factor must be positive"));
    CHECK_THROWS_WITH(f.gpu_tile(x, tx, tx, 8), Contains("need different names"));
    CHECK_THROWS_WITH(f.gpu_tile(x, bx, y, 8),
                      Contains("Func tile_errors") && Contains("already has a loop variable y"));
    CHECK(sched(f).splits.empty());
    CHECK(sched(f).dims.size() == 2);
    CHECK_FALSE(sched(f).touched);
}

TEST_CASE("GPU directives on update stages name the stage", "[error][schedule][gpu]") {
    Var x("x"), q("q");
    RDom r({{0, 16}}, "r");
    Func f("upd");
    f(x) = x;
    f(x) += r;
    CHECK_THROWS_WITH(f.update(0).gpu_threads(q),
                      Contains("Func upd (update 0) has no loop variable q") &&
                          Contains("(in gpu_threads)") && Contains("r$x, x (innermost first)"));
    CHECK_THROWS_WITH(f.update(0).gpu_blocks(x, DeviceAPI::Host),
                      Contains("gpu_blocks(x) in Func upd (update 0)"));
}

TEST_CASE("GPU loops over racing RVars are errors", "[error][schedule][gpu]") {
    Var x("x");
    RDom r(0, 100);
    Func in("in_values"), hist("gpu_hist");
    in(x) = x * 7;
    hist(x) = 0;
    hist(in(r) % 16) += 1;
    hist.update(0).gpu_tile(r, RVar("rt"), 32);
    CHECK_THROWS_WITH(hist.print_loop_nest(),
                      Contains("gpu_hist") && Contains("gpu_threads loop") &&
                          Contains("race condition") && Contains("atomic()"));
    Func h2("lane_hist");
    h2(x) = 0;
    h2(in(r) % 16) += 1;
    h2.update(0).gpu_lanes(r);
    CHECK_THROWS_WITH(h2.print_loop_nest(), Contains("lane_hist") && Contains("gpu_lanes loop") &&
                                                Contains("race condition"));
}

TEST_CASE("GPU directives on a Func with no definition", "[error][schedule][gpu]") {
    Var x("x");
    Func f("nothing_here");
    CHECK_THROWS_WITH(f.gpu_blocks(x),
                      Contains("Func nothing_here has no definition") && Contains("gpu_blocks"));
    CHECK_THROWS_WITH(f.gpu_tile(x, Var("tx"), 8),
                      Contains("Func nothing_here has no definition") && Contains("gpu_tile"));
    CHECK_THROWS_WITH(f.gpu_single_thread(),
                      Contains("nothing_here") && Contains("gpu_single_thread"));
}
