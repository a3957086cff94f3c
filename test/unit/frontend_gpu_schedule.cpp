// The GPU schedule directives (gpu_blocks, gpu_threads, gpu_lanes, gpu,
// gpu_tile, gpu_single_thread): the records they leave in StageSchedule, the
// loop nest ScheduleFunctions builds from them, compute_at GPU loops, and
// the GPU features of Target.

#include <catch2/catch.hpp>

#include <algorithm>

#include "Loom.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "lower/BoundsInference.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/PrintLoopNest.h"
#include "lower/ScheduleFunctions.h"

using namespace loom;
using namespace loom::Internal;

namespace {

const StageSchedule &sched(const Func &f) {
    return f.function().definition().schedule;
}

using Names = std::vector<std::string>;

Names dims_of(const StageSchedule &s) {
    Names v;
    for (const Dim &d : s.dims) v.push_back(d.var);
    return v;
}

const Dim &dim(const StageSchedule &s, const std::string &var) {
    for (const Dim &d : s.dims) {
        if (d.var == var) return d;
    }
    FAIL("no loop " << var);
    return s.dims.front();
}

Func make_2d(const std::string &name) {
    Var x("x"), y("y");
    Func f(name);
    f(x, y) = x + y;
    return f;
}

Func make_3d(const std::string &name) {
    Var x("x"), y("y"), z("z");
    Func f(name);
    f(x, y, z) = x + y + z;
    return f;
}

std::string nest_of(const Func &f) {
    return print_loop_nest({f.function()});
}

/** The loops of the scheduled (not yet bounded) loop nest of `outputs`. */
Stmt scheduled(const std::vector<Function> &outputs) {
    Environment env = find_environment(outputs);
    return schedule_functions(outputs, realization_order(outputs, env), env);
}

std::vector<const For *> loops_of(const Stmt &s) {
    std::vector<const For *> loops;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::For) loops.push_back(static_cast<const For *>(n));
    });
    return loops;
}

const For *loop_named(const Stmt &s, const std::string &name) {
    for (const For *f : loops_of(s)) {
        if (f->name == name) return f;
    }
    FAIL("no loop " << name);
    return nullptr;
}

/** Does the body of loop `loop` contain the production of `func`? */
bool produces_inside(const Stmt &s, const std::string &loop, const std::string &func) {
    bool found = false;
    visit_all(loop_named(s, loop)->body, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::ProducerConsumer) return;
        const auto *pc = static_cast<const ProducerConsumer *>(n);
        if (pc->is_producer && pc->name == func) found = true;
    });
    return found;
}

/** Does the body of loop `loop` define the LetStmt `name`? */
bool defines_inside(const Stmt &s, const std::string &loop, const std::string &name) {
    bool found = false;
    visit_all(loop_named(s, loop)->body, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::LetStmt) return;
        if (static_cast<const LetStmt *>(n)->name == name) found = true;
    });
    return found;
}

} // namespace

TEST_CASE("gpu_blocks and gpu_threads mark loops with a type and a device API",
          "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), z("z");
    Func f = make_2d("f");
    uint64_t v0 = f.function().version();
    Func &r = f.gpu_blocks(y).gpu_threads(x);
    CHECK(&r == &f);
    CHECK(f.function().version() != v0);
    const StageSchedule &s = sched(f);
    CHECK(s.touched);
    CHECK(s.splits.empty());
    CHECK(dims_of(s) == Names{"x", "y"});
    CHECK(dim(s, "y").for_type == ForType::GPUBlock);
    CHECK(dim(s, "y").device_api == DeviceAPI::Default_GPU);
    CHECK(dim(s, "x").for_type == ForType::GPUThread);
    CHECK(dim(s, "x").device_api == DeviceAPI::Default_GPU);

    Func g = make_2d("g");
    g.gpu_blocks(x, y, DeviceAPI::OpenCL);
    CHECK(dim(sched(g), "x").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "y").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "x").device_api == DeviceAPI::OpenCL);
    CHECK(dim(sched(g), "y").device_api == DeviceAPI::OpenCL);

    Func h = make_3d("h");
    h.gpu_threads(x, y, z, DeviceAPI::CUDA);
    for (const char *v : {"x", "y", "z"}) {
        INFO(v);
        CHECK(dim(sched(h), v).for_type == ForType::GPUThread);
        CHECK(dim(sched(h), v).device_api == DeviceAPI::CUDA);
    }
    Func k = make_3d("k");
    k.gpu_blocks(x, y, z).gpu_threads(x, y); // a later directive replaces an earlier one
    CHECK(dim(sched(k), "x").for_type == ForType::GPUThread);
    CHECK(dim(sched(k), "y").for_type == ForType::GPUThread);
    CHECK(dim(sched(k), "z").for_type == ForType::GPUBlock);
}

TEST_CASE("gpu_lanes marks a GPULane loop", "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), xi("xi");
    Func f = make_2d("f");
    f.split(x, x, xi, 32).gpu_lanes(xi).gpu_blocks(y);
    CHECK(dim(sched(f), "x.xi").for_type == ForType::GPULane);
    CHECK(dim(sched(f), "x.xi").device_api == DeviceAPI::Default_GPU);
    CHECK(dim(sched(f), "x.x").for_type == ForType::Serial);
    CHECK(nest_of(f) == "produce f:\n"
                        "  gpu_block y:\n"
                        "    for x.x:\n"
                        "      gpu_lane x.xi in [0, 31]:\n"
                        "        f(...) = ...\n");
}

TEST_CASE("GPU directives replace vectorize and parallel, and are replaced by them",
          "[frontend][schedule][gpu]") {
    Var x("x"), y("y");
    Func f = make_2d("f");
    f.vectorize(x).parallel(y).gpu_threads(x).gpu_blocks(y);
    CHECK(dim(sched(f), "x").for_type == ForType::GPUThread);
    CHECK(dim(sched(f), "y").for_type == ForType::GPUBlock);
    f.serial(y).vectorize(x);
    CHECK(dim(sched(f), "x").for_type == ForType::Vectorized);
    CHECK(dim(sched(f), "y").for_type == ForType::Serial);
    // Only GPU loops name a device.
    CHECK(dim(sched(f), "x").device_api == DeviceAPI::None);
    CHECK(dim(sched(f), "y").device_api == DeviceAPI::None);
}

TEST_CASE("gpu(...) marks blocks and threads with one device API", "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), z("z");
    Func f = make_2d("f");
    f.gpu(y, x, DeviceAPI::OpenCL);
    CHECK(dim(sched(f), "y").for_type == ForType::GPUBlock);
    CHECK(dim(sched(f), "x").for_type == ForType::GPUThread);
    // Unlike Halide 14 (which drops it), the API reaches both kinds of loop.
    CHECK(dim(sched(f), "y").device_api == DeviceAPI::OpenCL);
    CHECK(dim(sched(f), "x").device_api == DeviceAPI::OpenCL);

    Var c("c");
    Func g("g4");
    g(x, y, z, c) = x + y + z + c;
    g.gpu(z, c, x, y);
    CHECK(dim(sched(g), "z").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "c").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "x").for_type == ForType::GPUThread);
    CHECK(dim(sched(g), "y").for_type == ForType::GPUThread);
    CHECK(dim(sched(g), "x").device_api == DeviceAPI::Default_GPU);

    Var a("a"), b("b");
    Func h("h6");
    h(x, y, z, a, b, c) = x + y + z + a + b + c;
    h.gpu(a, b, c, x, y, z, DeviceAPI::CUDA);
    for (const char *v : {"a", "b", "c"}) CHECK(dim(sched(h), v).for_type == ForType::GPUBlock);
    for (const char *v : {"x", "y", "z"}) {
        CHECK(dim(sched(h), v).for_type == ForType::GPUThread);
        CHECK(dim(sched(h), v).device_api == DeviceAPI::CUDA);
    }
}

TEST_CASE("1-D gpu_tile splits into a block loop and a thread loop inside it",
          "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), bx("bx"), tx("tx");
    Func f = make_2d("f");
    f.gpu_tile(x, bx, tx, 16, TailStrategy::GuardWithIf, DeviceAPI::OpenCL);
    const StageSchedule &s = sched(f);
    REQUIRE(s.splits.size() == 1);
    CHECK(s.splits[0].kind == Split::SplitVar);
    CHECK(s.splits[0].old_var == "x");
    CHECK(s.splits[0].outer == "x.bx");
    CHECK(s.splits[0].inner == "x.tx");
    CHECK(is_const(s.splits[0].factor, 16));
    CHECK(s.splits[0].tail == TailStrategy::GuardWithIf);
    CHECK(dims_of(s) == Names{"x.tx", "x.bx", "y"});
    CHECK(dim(s, "x.bx").for_type == ForType::GPUBlock);
    CHECK(dim(s, "x.tx").for_type == ForType::GPUThread);
    CHECK(dim(s, "x.bx").device_api == DeviceAPI::OpenCL);
    CHECK(dim(s, "x.tx").device_api == DeviceAPI::OpenCL);
    CHECK(dim(s, "y").for_type == ForType::Serial);
    CHECK(dim(s, "y").device_api == DeviceAPI::None);

    // Without the outer var, x itself is the block loop.
    Func g = make_2d("g");
    g.gpu_tile(x, tx, 8);
    CHECK(dims_of(sched(g)) == Names{"x.tx", "x.x", "y"});
    CHECK(sched(g).splits[0].tail == TailStrategy::Auto);
    CHECK(dim(sched(g), "x.x").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "x.tx").for_type == ForType::GPUThread);
    CHECK(dim(sched(g), "x.x").device_api == DeviceAPI::Default_GPU);
    CHECK(nest_of(g) == "produce g:\n"
                        "  for y:\n"
                        "    gpu_block x.x:\n"
                        "      gpu_thread x.tx in [0, 7]:\n"
                        "        g(...) = ...\n");
}

TEST_CASE("2-D gpu_tile tiles and orders by, bx, ty, tx", "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), bx("bx"), by("by"), tx("tx"), ty("ty");
    Func f = make_2d("f");
    f.gpu_tile(x, y, bx, by, tx, ty, 16, 8);
    const StageSchedule &s = sched(f);
    REQUIRE(s.splits.size() == 2);
    CHECK(s.splits[0].outer == "x.bx");
    CHECK(s.splits[0].inner == "x.tx");
    CHECK(s.splits[1].outer == "y.by");
    CHECK(s.splits[1].inner == "y.ty");
    CHECK(is_const(s.splits[0].factor, 16));
    CHECK(is_const(s.splits[1].factor, 8));
    CHECK(dims_of(s) == Names{"x.tx", "y.ty", "x.bx", "y.by"});
    CHECK(nest_of(f) == "produce f:\n"
                        "  gpu_block y.by:\n"
                        "    gpu_block x.bx:\n"
                        "      gpu_thread y.ty in [0, 7]:\n"
                        "        gpu_thread x.tx in [0, 15]:\n"
                        "          f(...) = ...\n");

    Func g = make_2d("g");
    g.gpu_tile(x, y, tx, ty, 4, 4, TailStrategy::RoundUp, DeviceAPI::CUDA);
    CHECK(dims_of(sched(g)) == Names{"x.tx", "y.ty", "x.x", "y.y"});
    CHECK(sched(g).splits[1].tail == TailStrategy::RoundUp);
    CHECK(dim(sched(g), "x.x").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "y.y").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "y.ty").for_type == ForType::GPUThread);
    CHECK(dim(sched(g), "y.ty").device_api == DeviceAPI::CUDA);
}

TEST_CASE("3-D gpu_tile orders bz, by, bx, tz, ty, tx", "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), z("z"), c("c"), bx("bx"), by("by"), bz("bz"), tx("tx"), ty("ty"), tz("tz");
    Func f("f4");
    f(x, y, z, c) = x + y + z + c;
    f.gpu_tile(x, y, z, bx, by, bz, tx, ty, tz, 8, 4, 2);
    const StageSchedule &s = sched(f);
    REQUIRE(s.splits.size() == 3);
    CHECK(dims_of(s) == Names{"x.tx", "y.ty", "z.tz", "x.bx", "y.by", "z.bz", "c"});
    for (const char *v : {"x.bx", "y.by", "z.bz"}) CHECK(dim(s, v).for_type == ForType::GPUBlock);
    for (const char *v : {"x.tx", "y.ty", "z.tz"}) CHECK(dim(s, v).for_type == ForType::GPUThread);
    CHECK(dim(s, "c").for_type == ForType::Serial);

    Func g = make_3d("g");
    g.gpu_tile(x, y, z, tx, ty, tz, 2, 2, 2, TailStrategy::Auto, DeviceAPI::OpenCL);
    CHECK(dims_of(sched(g)) == Names{"x.tx", "y.ty", "z.tz", "x.x", "y.y", "z.z"});
    CHECK(dim(sched(g), "z.z").for_type == ForType::GPUBlock);
    CHECK(dim(sched(g), "z.z").device_api == DeviceAPI::OpenCL);
    CHECK(nest_of(g) == "produce g:\n"
                        "  gpu_block z.z:\n"
                        "    gpu_block y.y:\n"
                        "      gpu_block x.x:\n"
                        "        gpu_thread z.tz in [0, 1]:\n"
                        "          gpu_thread y.ty in [0, 1]:\n"
                        "            gpu_thread x.tx in [0, 1]:\n"
                        "              g(...) = ...\n");
}

TEST_CASE("gpu_single_thread runs the whole nest in one block of one thread",
          "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), xi("xi");
    Func f = make_2d("f");
    f.split(x, x, xi, 4).gpu_single_thread();
    const StageSchedule &s = sched(f);
    CHECK(dims_of(s) ==
          Names{"x.xi", "x.x", "y", single_thread_thread_loop, single_thread_block_loop});
    CHECK(dim(s, single_thread_block_loop).for_type == ForType::GPUBlock);
    CHECK(dim(s, single_thread_thread_loop).for_type == ForType::GPUThread);
    CHECK(dim(s, single_thread_block_loop).device_api == DeviceAPI::Default_GPU);
    CHECK(s.splits.size() == 1); // the two loops come from no split
    std::string expected = "produce f:\n"
                           "  gpu_block __gpu_single_block in [0, 0]:\n"
                           "    gpu_thread __gpu_single_thread in [0, 0]:\n"
                           "      for y:\n"
                           "        for x.x:\n"
                           "          for x.xi:\n"
                           "            f(...) = ...\n";
    CHECK(nest_of(f) == expected);

    // Again: the same two loops, with the new API.
    f.gpu_single_thread(DeviceAPI::OpenCL);
    CHECK(dims_of(s).size() == 5);
    CHECK(dim(s, single_thread_block_loop).device_api == DeviceAPI::OpenCL);
    CHECK(dim(s, single_thread_thread_loop).device_api == DeviceAPI::OpenCL);
    CHECK(nest_of(f) == expected);

    // A zero-dimensional Func has no loops of its own.
    Func c("scalar");
    c() = 42;
    c.gpu_single_thread();
    CHECK(nest_of(c) == "produce scalar:\n"
                        "  gpu_block __gpu_single_block in [0, 0]:\n"
                        "    gpu_thread __gpu_single_thread in [0, 0]:\n"
                        "      scalar(...) = ...\n");
}

TEST_CASE("GPU directives schedule update stages", "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), tx("tx");
    Func f("f_upd");
    f(x, y) = x;
    f(x, y) += y;
    RDom r({{0, 10}}, "r");
    Func h("hist");
    h(x) = 0;
    h(r) += 1;
    f.update(0).gpu_tile(x, tx, 32).gpu_blocks(y);
    const StageSchedule &u = f.function().updates()[0].schedule;
    CHECK(dims_of(u) == Names{"x.tx", "x.x", "y"});
    CHECK(dim(u, "x.x").for_type == ForType::GPUBlock);
    CHECK(dim(u, "y").for_type == ForType::GPUBlock);
    CHECK(dim(u, "x.tx").for_type == ForType::GPUThread);
    CHECK(dims_of(sched(f)) == Names{"x", "y"}); // the pure stage is untouched
    CHECK_FALSE(sched(f).touched);
    h.update(0).gpu_single_thread();
    const StageSchedule &hu = h.function().updates()[0].schedule;
    CHECK(dim(hu, single_thread_block_loop).for_type == ForType::GPUBlock);
    CHECK(nest_of(h) == "produce hist:\n"
                        "  for x:\n"
                        "    hist(...) = ...\n"
                        "  gpu_block __gpu_single_block in [0, 0]:\n"
                        "    gpu_thread __gpu_single_thread in [0, 0]:\n"
                        "      for r$x:\n"
                        "        hist(...) = ...\n");
}

TEST_CASE("specializations take GPU directives of their own", "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), tx("tx");
    Param<int> w("w");
    Func f = make_2d("f");
    f.specialize(w > 64).gpu_tile(x, tx, 64);
    f.gpu_tile(x, tx, 16);
    const StageSchedule &s = sched(f);
    REQUIRE(s.specializations.size() == 1);
    const StageSchedule &wide = s.specializations[0].schedule;
    CHECK(dim(wide, "x.tx").for_type == ForType::GPUThread);
    CHECK(is_const(wide.splits[0].factor, 64));
    CHECK(is_const(s.splits[0].factor, 16));
}

TEST_CASE("the loop nest's For nodes carry the GPU loop types and device APIs",
          "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), bx("bx"), by("by"), tx("tx"), ty("ty");
    Func f = make_2d("f");
    f.gpu_tile(x, y, bx, by, tx, ty, 16, 16, TailStrategy::Auto, DeviceAPI::OpenCL);
    Func g = make_2d("g");
    g.gpu_tile(x, y, bx, by, tx, ty, 8, 8); // Default_GPU
    for (const Func *fn : {&f, &g}) {
        Stmt s = scheduled({fn->function()});
        DeviceAPI api = fn == &f ? DeviceAPI::OpenCL : DeviceAPI::Default_GPU;
        std::string p = fn->name() + ".s0.";
        INFO(fn->name());
        CHECK(loop_named(s, p + "x.bx")->for_type == ForType::GPUBlock);
        CHECK(loop_named(s, p + "y.by")->for_type == ForType::GPUBlock);
        CHECK(loop_named(s, p + "x.tx")->for_type == ForType::GPUThread);
        CHECK(loop_named(s, p + "y.ty")->for_type == ForType::GPUThread);
        for (const char *v : {"x.bx", "y.by", "x.tx", "y.ty"})
            CHECK(loop_named(s, p + v)->device_api == api);
        CHECK(is_const(loop_named(s, p + "x.tx")->extent, fn == &f ? 16 : 8));
    }
    // Serial loops inside a kernel name no device: they run where the kernel runs.
    Func h = make_2d("h");
    h.gpu_tile(x, tx, 8).split(tx, tx, Var("ti"), 2);
    Stmt s = scheduled({h.function()});
    CHECK(loop_named(s, "h.s0.x.tx.tx")->for_type == ForType::GPUThread);
    CHECK(loop_named(s, "h.s0.x.tx.tx")->device_api == DeviceAPI::Default_GPU);
    CHECK(loop_named(s, "h.s0.x.tx.ti")->for_type == ForType::Serial);
    CHECK(loop_named(s, "h.s0.x.tx.ti")->device_api == DeviceAPI::None);
}

TEST_CASE("compute_at a GPU thread loop computes per thread, at a block loop per block",
          "[frontend][schedule][gpu]") {
    Var x("x"), y("y"), bx("bx"), by("by"), tx("tx"), ty("ty");
    for (bool at_thread : {true, false}) {
        INFO("compute_at " << (at_thread ? "tx" : "bx"));
        Func g("g");
        g(x, y) = x * y;
        Func f("f");
        f(x, y) = g(x - 1, y) + g(x + 1, y);
        f.gpu_tile(x, y, bx, by, tx, ty, 16, 16);
        g.compute_at(f, at_thread ? tx : bx);
        if (!at_thread) g.gpu_threads(x, y);

        std::vector<Function> outputs = {f.function()};
        Environment env = find_environment(outputs);
        std::vector<std::string> order = realization_order(outputs, env);
        Stmt s = schedule_functions(outputs, order, env);
        s = inline_functions(s, outputs);
        const std::string at = at_thread ? "f.s0.x.tx" : "f.s0.x.bx";
        CHECK(produces_inside(s, at, "g"));
        CHECK(produces_inside(s, "f.s0.y.by", "g"));
        if (!at_thread) CHECK_FALSE(produces_inside(s, "f.s0.x.tx", "g"));

        // Bounds inference treats the GPU loops as loops: g's region is
        // defined inside the loop it is computed at, from that loop's variable.
        s = bounds_inference(s, outputs, order, env);
        CHECK(defines_inside(s, at, "g.s0.x.min"));
        CHECK(defines_inside(s, at, "g.s0.x.max"));
        if (!at_thread) CHECK_FALSE(defines_inside(s, "f.s0.x.tx", "g.s0.x.min"));
    }
    Func g("g"), f("f");
    g(x, y) = x * y;
    f(x, y) = g(x, y);
    f.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
    g.compute_at(f, tx);
    CHECK(nest_of(f) == "produce f:\n"
                        "  gpu_block y.by:\n"
                        "    gpu_block x.bx:\n"
                        "      gpu_thread y.ty in [0, 7]:\n"
                        "        gpu_thread x.tx in [0, 7]:\n"
                        "          produce g:\n"
                        "            for y:\n"
                        "              for x:\n"
                        "                g(...) = ...\n"
                        "          f(...) = ...\n");
    g.compute_at(f, bx).gpu_threads(x, y);
    CHECK(nest_of(f) == "produce f:\n"
                        "  gpu_block y.by:\n"
                        "    gpu_block x.bx:\n"
                        "      produce g:\n"
                        "        gpu_thread y:\n"
                        "          gpu_thread x:\n"
                        "            g(...) = ...\n"
                        "      gpu_thread y.ty in [0, 7]:\n"
                        "        gpu_thread x.tx in [0, 7]:\n"
                        "          f(...) = ...\n");
}

TEST_CASE("target: GPU features parse and print", "[target][gpu]") {
    Target t("x86-64-linux-avx2-opencl-cl_doubles");
    CHECK(t.has_feature(Target::OpenCL));
    CHECK(t.has_feature(Target::CLDoubles));
    CHECK_FALSE(t.has_feature(Target::CLHalf));
    CHECK(t.to_string() == "x86-64-linux-avx2-cl_doubles-opencl");
    CHECK(Target(t.to_string()) == t);

    Target all("x86-64-linux-opencl-cl_doubles-cl_atomics64-cl_half-cuda-cuda_capability_75-"
               "cuda_capability_80-cuda_capability_86-cuda_capability_89-cuda_capability_90");
    for (Target::Feature f :
         {Target::OpenCL, Target::CLDoubles, Target::CLAtomics64, Target::CLHalf, Target::CUDA,
          Target::CUDACapability75, Target::CUDACapability80, Target::CUDACapability86,
          Target::CUDACapability89, Target::CUDACapability90})
        CHECK(all.has_feature(f));
    CHECK(all.to_string() ==
          "x86-64-linux-cl_atomics64-cl_doubles-cl_half-cuda-cuda_capability_75-"
          "cuda_capability_80-cuda_capability_86-cuda_capability_89-cuda_capability_90-opencl");
    CHECK(Target(all.to_string()) == all);

    Target host_cl("host-opencl");
    CHECK(host_cl == get_host_target().with_feature(Target::OpenCL));
    CHECK(Target("host-cuda-cuda_capability_80").has_feature(Target::CUDACapability80));
    CHECK(Target::validate_target_string("host-opencl-cl_half"));
    CHECK_FALSE(Target::validate_target_string("host-opencl-cl_quad"));
    CHECK(Target::validate_target_string("host-cuda-cuda_capability_70")); // Halide's name
    CHECK_FALSE(Target::validate_target_string("host-cuda-cuda_capability_71"));
    // The error for an unknown word lists the new words among the valid ones.
    CHECK_THROWS_WITH(Target("host-opencl-cl_quad"),
                      Catch::Contains("\"cl_quad\"") && Catch::Contains("cl_doubles") &&
                          Catch::Contains("cl_atomics64") && Catch::Contains("cl_half") &&
                          Catch::Contains("cuda_capability_75") &&
                          Catch::Contains("cuda_capability_90"));
}

TEST_CASE("target: CUDA capabilities, old and new, and the lowest one named", "[target][gpu]") {
    for (int cap : {30, 32, 35, 50, 61, 70, 75, 80, 86, 89, 90, 100, 103, 110, 120, 121}) {
        std::string word = "cuda_capability_" + std::to_string(cap);
        Target t("x86-64-linux-cuda-" + word);
        INFO(word);
        CHECK(t.get_cuda_capability_lower_bound() == cap);
        CHECK(t.to_string() == "x86-64-linux-cuda-" + word);
    }
    CHECK(Target("x86-64-linux-cuda").get_cuda_capability_lower_bound() == 0);
    Target several("x86-64-linux-cuda-cuda_capability_120-cuda_capability_86-cuda_capability_100");
    CHECK(several.get_cuda_capability_lower_bound() == 86);
    CHECK(several.to_string() ==
          "x86-64-linux-cuda-cuda_capability_86-cuda_capability_100-cuda_capability_120");
}

TEST_CASE("target: has_gpu_feature is true for cuda and opencl", "[target][gpu]") {
    CHECK(Target("host-opencl").has_gpu_feature());
    CHECK(Target("x86-64-linux-opencl-cl_doubles").has_gpu_feature());
    CHECK(Target("host-cuda").has_gpu_feature());
    CHECK(Target("host-cuda-cuda_capability_86").has_gpu_feature());
    CHECK_FALSE(Target("host").has_gpu_feature());
    CHECK_FALSE(Target("host-cl_doubles").has_gpu_feature()); // a device property, not an API
    CHECK(Target("host-cuda-opencl").has_gpu_feature());
}

TEST_CASE("target: device APIs", "[target][gpu]") {
    Target cpu("x86-64-linux-avx2"), cl("x86-64-linux-opencl"), cuda("x86-64-linux-cuda"),
        both("x86-64-linux-cuda-opencl");
    CHECK(get_default_device_api_for_target(cpu) == DeviceAPI::Host);
    CHECK(get_default_device_api_for_target(cl) == DeviceAPI::OpenCL);
    CHECK(get_default_device_api_for_target(cuda) == DeviceAPI::CUDA);
    CHECK(get_default_device_api_for_target(both) == DeviceAPI::OpenCL);

    CHECK(cpu.get_required_device_api() == DeviceAPI::None);
    CHECK(cl.get_required_device_api() == DeviceAPI::OpenCL);
    CHECK(cuda.get_required_device_api() == DeviceAPI::CUDA);
    CHECK(both.get_required_device_api() == DeviceAPI::CUDA); // as in Halide

    for (const Target &t : {cpu, cl, cuda, both}) {
        INFO(t.to_string());
        CHECK(t.supports_device_api(DeviceAPI::None));
        CHECK(t.supports_device_api(DeviceAPI::Host));
        CHECK(t.supports_device_api(DeviceAPI::Default_GPU) == t.has_gpu_feature());
        CHECK(t.supports_device_api(DeviceAPI::OpenCL) == t.has_feature(Target::OpenCL));
        CHECK(t.supports_device_api(DeviceAPI::CUDA) == t.has_feature(Target::CUDA));
    }
    CHECK_FALSE(cpu.supports_device_api(DeviceAPI::Default_GPU));
    CHECK(cl.supports_device_api(DeviceAPI::Default_GPU));
    CHECK(cuda.supports_device_api(DeviceAPI::Default_GPU));
    CHECK(cuda.supports_device_api(DeviceAPI::CUDA));
    CHECK_FALSE(cuda.supports_device_api(DeviceAPI::OpenCL));
}
