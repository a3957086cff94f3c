// The schedule records each primitive leaves in StageSchedule / FuncSchedule,
// in the form ScheduleFunctions consumes (splits in order, dims innermost first).

#include <catch2/catch.hpp>

#include "Loom.h"
#include "ir/IR.h"
#include "ir/IROperator.h"

using namespace loom;
using namespace loom::Internal;

namespace {

const StageSchedule &sched(const Func &f) {
    return f.function().definition().schedule;
}

std::vector<std::string> dims_of(const StageSchedule &s) {
    std::vector<std::string> v;
    for (const Dim &d : s.dims) v.push_back(d.var);
    return v;
}

ForType type_of(const StageSchedule &s, const std::string &var) {
    for (const Dim &d : s.dims) {
        if (d.var == var) return d.for_type;
    }
    FAIL("no loop " << var);
    return ForType::Serial;
}

using Names = std::vector<std::string>;

Func make_2d(const std::string &name) {
    Var x("x"), y("y");
    Func f(name);
    f(x, y) = x + y;
    return f;
}

} // namespace

TEST_CASE("the default schedule is the pure args, first innermost", "[frontend][schedule]") {
    Func f = make_2d("f");
    CHECK(dims_of(sched(f)) == Names{"x", "y"});
    CHECK(sched(f).splits.empty());
    CHECK_FALSE(sched(f).touched);
    CHECK(f.function().schedule().compute_level.is_inlined());
}

TEST_CASE("split records a SplitVar and replaces the loop by inner, outer",
          "[frontend][schedule]") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f = make_2d("f");
    uint64_t v0 = f.function().version();
    Func &r = f.split(x, xo, xi, 8, TailStrategy::RoundUp);
    CHECK(&r == &f);
    CHECK(f.function().version() != v0);
    const StageSchedule &s = sched(f);
    CHECK(s.touched);
    REQUIRE(s.splits.size() == 1);
    CHECK(s.splits[0].kind == Split::SplitVar);
    CHECK(s.splits[0].old_var == "x");
    CHECK(s.splits[0].outer == "x.xo");
    CHECK(s.splits[0].inner == "x.xi");
    CHECK(is_const(s.splits[0].factor, 8));
    CHECK(s.splits[0].tail == TailStrategy::RoundUp);
    CHECK(dims_of(s) == Names{"x.xi", "x.xo", "y"});

    // The outer loop may keep the old name; later references use short names.
    f.split(xi, xi, Var("xii"), 2);
    CHECK(dims_of(s) == Names{"x.xi.xii", "x.xi.xi", "x.xo", "y"});
    CHECK(s.splits[1].old_var == "x.xi");
    CHECK(s.splits[1].tail == TailStrategy::Auto);
}

TEST_CASE("fuse records FuseVars and the fused loop takes the inner place",
          "[frontend][schedule]") {
    Var x("x"), y("y"), fused("fused");
    Func f = make_2d("f");
    f.fuse(x, y, fused);
    const StageSchedule &s = sched(f);
    REQUIRE(s.splits.size() == 1);
    CHECK(s.splits[0].kind == Split::FuseVars);
    CHECK(s.splits[0].inner == "x");
    CHECK(s.splits[0].outer == "y");
    CHECK(s.splits[0].old_var == "x.fused");
    CHECK(dims_of(s) == Names{"x.fused"});
}

TEST_CASE("rename records RenameVar", "[frontend][schedule]") {
    Var x("x"), y("y"), z("z");
    Func f = make_2d("f");
    f.rename(y, z);
    const StageSchedule &s = sched(f);
    REQUIRE(s.splits.size() == 1);
    CHECK(s.splits[0].kind == Split::RenameVar);
    CHECK(s.splits[0].old_var == "y");
    CHECK(s.splits[0].outer == "y.z");
    CHECK(dims_of(s) == Names{"x", "y.z"});
}

TEST_CASE("reorder permutes the named loops among their places", "[frontend][schedule]") {
    Var x("x"), y("y"), c("c");
    Func f("f3");
    f(x, y, c) = x + y + c;
    f.reorder(c, x, y);
    CHECK(dims_of(sched(f)) == Names{"c", "x", "y"});
    f.reorder(y, c); // x stays in the middle
    CHECK(dims_of(sched(f)) == Names{"y", "x", "c"});
    f.reorder(std::vector<VarOrRVar>{x, y, c});
    CHECK(dims_of(sched(f)) == Names{"x", "y", "c"});
}

TEST_CASE("tile splits both and orders yo, xo, yi, xi", "[frontend][schedule]") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f = make_2d("f");
    f.tile(x, y, xo, yo, xi, yi, 4, 8, TailStrategy::GuardWithIf);
    const StageSchedule &s = sched(f);
    CHECK(dims_of(s) == Names{"x.xi", "y.yi", "x.xo", "y.yo"});
    REQUIRE(s.splits.size() == 2);
    CHECK(is_const(s.splits[0].factor, 4));
    CHECK(is_const(s.splits[1].factor, 8));
    CHECK(s.splits[1].tail == TailStrategy::GuardWithIf);

    Func g = make_2d("g");
    g.tile(x, y, xi, yi, 16, 2);
    CHECK(dims_of(sched(g)) == Names{"x.xi", "y.yi", "x.x", "y.y"});
}

TEST_CASE("loop types: vectorize, unroll, parallel, serial", "[frontend][schedule]") {
    Var x("x"), y("y");
    Func f = make_2d("f");
    f.vectorize(x).parallel(y);
    CHECK(type_of(sched(f), "x") == ForType::Vectorized);
    CHECK(type_of(sched(f), "y") == ForType::Parallel);
    f.serial(y).unroll(x);
    CHECK(type_of(sched(f), "y") == ForType::Serial);
    CHECK(type_of(sched(f), "x") == ForType::Unrolled);
}

TEST_CASE("factor forms split off a fresh inner loop", "[frontend][schedule]") {
    Var x("x"), y("y");
    Func f = make_2d("f");
    f.vectorize(x, 8, TailStrategy::RoundUp);
    const StageSchedule &s = sched(f);
    CHECK(dims_of(s) == Names{"x.x_vi", "x.x", "y"});
    CHECK(type_of(s, "x.x_vi") == ForType::Vectorized);
    CHECK(type_of(s, "x.x") == ForType::Serial);
    CHECK(s.splits[0].tail == TailStrategy::RoundUp);

    f.unroll(x, 2); // splits the outer x again
    CHECK(dims_of(s) == Names{"x.x_vi", "x.x.x_ui", "x.x.x", "y"});
    CHECK(type_of(s, "x.x.x_ui") == ForType::Unrolled);

    f.parallel(y, 4);
    CHECK(dims_of(s) == Names{"x.x_vi", "x.x.x_ui", "x.x.x", "y.y_pi", "y.y"});
    CHECK(type_of(s, "y.y") == ForType::Parallel);
    CHECK(type_of(s, "y.y_pi") == ForType::Serial);

    // A second vectorize of the same name gets a distinct inner name.
    Func g = make_2d("g");
    g.vectorize(x, 4).vectorize(x, 2);
    CHECK(dims_of(sched(g)) == Names{"x.x_vi", "x.x.x_vi2", "x.x.x", "y"});
}

TEST_CASE("the outer loop keeps the loop type, the inner starts serial", "[frontend][schedule]") {
    Var x("x"), y("y"), yi("yi");
    Func f = make_2d("f");
    f.parallel(y).split(y, y, yi, 4);
    CHECK(type_of(sched(f), "y.y") == ForType::Parallel);
    CHECK(type_of(sched(f), "y.yi") == ForType::Serial);
}

TEST_CASE("update(i) schedules an update definition's Stage", "[frontend][schedule]") {
    Var x("x"), y("y");
    Func f = make_2d("f_upd");
    // Update definitions come with reductions; build one by hand here.
    Definition upd = f.function().definition();
    upd.schedule = StageSchedule();
    upd.schedule.dims = {Dim{"x", ForType::Serial, DeviceAPI::None, false},
                         Dim{"y", ForType::Serial, DeviceAPI::None, false}};
    Function fn = f.function();
    fn.updates().push_back(upd);
    f.update(0).vectorize(x, 4).parallel(y);
    const StageSchedule &s = fn.updates()[0].schedule;
    CHECK(dims_of(s) == Names{"x.x_vi", "x.x", "y"});
    CHECK(type_of(s, "y") == ForType::Parallel);
    CHECK(dims_of(sched(f)) == Names{"x", "y"}); // the pure stage is untouched
    CHECK(f.update(0).name() == "f_upd.update(0)");
}

TEST_CASE("specialize copies the schedule and schedules the copy", "[frontend][schedule]") {
    Var x("x"), y("y"), xi("xi");
    Param<int> w("w");
    Func f = make_2d("f");
    f.split(x, x, xi, 4);
    Stage wide = f.specialize(w > 100);
    wide.vectorize(xi);
    const StageSchedule &s = sched(f);
    REQUIRE(s.specializations.size() == 1);
    const Specialization &sp = s.specializations[0];
    CHECK_FALSE(sp.failure);
    CHECK(sp.condition.type() == Bool());
    CHECK(dims_of(sp.schedule) == Names{"x.xi", "x.x", "y"});
    CHECK(type_of(sp.schedule, "x.xi") == ForType::Vectorized);
    CHECK(type_of(s, "x.xi") == ForType::Serial); // the default is unchanged
    // The same condition gives back the same specialization.
    f.specialize(w > 100).parallel(y);
    CHECK(s.specializations.size() == 1);
    CHECK(type_of(s.specializations[0].schedule, "y") == ForType::Parallel);
    // Nested specializations live inside the copy.
    wide.specialize(w > 1000).unroll(y);
    REQUIRE(s.specializations[0].schedule.specializations.size() == 1);

    f.specialize_fail("w must be positive");
    REQUIRE(s.specializations.size() == 2);
    CHECK(s.specializations[1].failure);
    CHECK(s.specializations[1].failure_message == "w must be positive");
    CHECK(is_const_true(s.specializations[1].condition));
}

TEST_CASE("compute and store levels", "[frontend][schedule]") {
    Var x("x"), y("y");
    Func g = make_2d("g");
    Func f("f");
    f(x, y) = g(x, y) + 1;
    const FuncSchedule &gs = g.function().schedule();

    g.compute_root();
    CHECK(gs.compute_level.is_root());
    CHECK(gs.store_level.is_root());

    // Without store_root/store_at, storage follows compute.
    g.compute_at(f, y);
    CHECK(gs.compute_level == LoopLevel("f", "y"));
    CHECK(gs.store_level == LoopLevel("f", "y"));

    g.store_root().compute_at(f, x);
    CHECK(gs.store_level.is_root());
    CHECK(gs.compute_level == LoopLevel("f", "x"));
    g.compute_at(LoopLevel(f, y));
    CHECK(gs.store_level.is_root()); // an explicit store level stays

    g.store_at(f, y);
    CHECK(gs.store_level == LoopLevel(f, y));

    g.compute_inline();
    CHECK(gs.compute_level.is_inlined());
    CHECK(gs.store_level.is_inlined());
    g.compute_at(f, x);
    CHECK(gs.store_level == LoopLevel(f, x));

    uint64_t v = g.function().version();
    g.store_in(MemoryType::Stack);
    CHECK(gs.memory_type == MemoryType::Stack);
    CHECK(g.function().version() != v);
}

TEST_CASE("bound, bound_extent and align_bounds record one Bound per Var", "[frontend][schedule]") {
    Var x("x"), y("y");
    Func f = make_2d("f");
    f.bound(x, 0, 64).align_bounds(x, 8, 1).bound_extent(y, 10);
    const auto &b = f.function().schedule().bounds;
    REQUIRE(b.size() == 2);
    CHECK(b[0].var == "x");
    CHECK(is_const(b[0].min, 0));
    CHECK(is_const(b[0].extent, 64));
    CHECK(is_const(b[0].modulus, 8));
    CHECK(is_const(b[0].remainder, 1));
    CHECK(b[1].var == "y");
    CHECK_FALSE(b[1].min.defined());
    CHECK(is_const(b[1].extent, 10));
    CHECK_FALSE(b[1].modulus.defined());
}

TEST_CASE("reorder_storage and fold_storage", "[frontend][schedule]") {
    Var x("x"), y("y"), c("c");
    Func f("f3");
    f(x, y, c) = x + y + c;
    f.reorder_storage(c, x, y);
    CHECK(f.function().schedule().storage_dims == Names{"c", "x", "y"});
    f.reorder_storage(y, c);
    CHECK(f.function().schedule().storage_dims == Names{"y", "x", "c"});

    f.fold_storage(y, 3);
    f.fold_storage(y, 4, false);
    const auto &folds = f.function().schedule().storage_folds;
    REQUIRE(folds.size() == 1);
    CHECK(folds[0].var == "y");
    CHECK(is_const(folds[0].extent, 4));
    CHECK_FALSE(folds[0].fold_forward);
}

TEST_CASE("var_name_match matches qualified loop names by their last parts",
          "[frontend][schedule]") {
    CHECK(var_name_match("x", "x"));
    CHECK(var_name_match("x.xi", "xi"));
    CHECK(var_name_match("x.x", "x"));
    CHECK(var_name_match("x.xo.xi", "xo.xi"));
    CHECK_FALSE(var_name_match("x.xi", "i"));
    CHECK_FALSE(var_name_match("xx", "x"));
    CHECK_FALSE(var_name_match("x.xi", "x"));
}
