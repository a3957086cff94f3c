// compute_at / store_at placement, bounds inference at every loop level, and
// the schedule errors of lowering. Schedules are set through the schedule
// records, so these tests do not depend on the scheduling front end.

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <vector>

#include "Loom.h"
#include "analysis/Simplify.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/BoundsInference.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/ScheduleFunctions.h"
#include "lower_test_util.h"

using namespace loom;
using namespace loom::Internal;
using lower_test::find_nodes;

namespace {

/** Writes the schedule records of one stage the way the front end will. */
class Sched {
    Function f;
    StageSchedule &st;

    size_t dim_index(const std::string &v) const {
        for (size_t i = 0; i < st.dims.size(); i++) {
            const std::string &d = st.dims[i].var;
            if (d == v ||
                (d.size() > v.size() && d.compare(d.size() - v.size(), v.size(), v) == 0 &&
                 d[d.size() - v.size() - 1] == '.'))
                return i;
        }
        FAIL("no dim " << v);
        return 0;
    }

public:
    explicit Sched(const Func &func, int stage = 0)
        : f(func.function()),
          st(stage == 0 ? f.definition().schedule : f.updates()[size_t(stage - 1)].schedule) {
        if (st.dims.empty()) {
            for (const std::string &a : f.args()) {
                Internal::Dim d;
                d.var = a;
                st.dims.push_back(d);
            }
        }
        f.invalidate_cache();
    }
    Sched &split(const std::string &old, const std::string &outer, const std::string &inner,
                 int factor, TailStrategy tail = TailStrategy::Auto) {
        size_t i = dim_index(old);
        std::string full = st.dims[i].var;
        Split s;
        s.old_var = full;
        s.outer = full + "." + outer;
        s.inner = full + "." + inner;
        s.factor = Expr(factor);
        s.tail = tail;
        st.splits.push_back(s);
        st.dims[i].var = s.inner;
        Internal::Dim o;
        o.var = s.outer;
        st.dims.insert(st.dims.begin() + long(i) + 1, o);
        return *this;
    }
    /** Moves `v` to be just inside (before, in the innermost-first list) `outer`. */
    Sched &move_inside(const std::string &v, const std::string &outer) {
        Internal::Dim d = st.dims[dim_index(v)];
        st.dims.erase(st.dims.begin() + long(dim_index(v)));
        st.dims.insert(st.dims.begin() + long(dim_index(outer)), d);
        return *this;
    }
    Sched &type(const std::string &v, ForType t) {
        st.dims[dim_index(v)].for_type = t;
        return *this;
    }
    Sched &compute_at(const Func &g, const std::string &v) {
        f.schedule().compute_level = LoopLevel(g.name(), v);
        return *this;
    }
    Sched &compute_root() {
        f.schedule().compute_level = LoopLevel::root();
        return *this;
    }
    Sched &store_root() {
        f.schedule().store_level = LoopLevel::root();
        f.schedule().store_level_set = true;
        return *this;
    }
    Sched &store_at(const Func &g, const std::string &v) {
        f.schedule().store_level = LoopLevel(g.name(), v);
        f.schedule().store_level_set = true;
        return *this;
    }
    Sched &bound(const std::string &v, Expr min, Expr extent) {
        f.schedule().bounds.push_back({v, min, extent, Expr(), Expr()});
        return *this;
    }
    Sched &align(const std::string &v, int modulus, int remainder) {
        f.schedule().bounds.push_back({v, Expr(), Expr(), Expr(modulus), Expr(remainder)});
        return *this;
    }
};

Buffer<int32_t> make_input(int w, int h) {
    Buffer<int32_t> in(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = (x * 37 + y * 101 + (x * y) % 13) % 1000 - 300;
    return in;
}

/** The 3x3 box blur of a clamped input, in plain C++. */
std::vector<int32_t> reference_blur(const Buffer<int32_t> &in, int w, int h) {
    auto at = [&](int x, int y) {
        x = std::min(std::max(x, 0), in.width() - 1);
        y = std::min(std::max(y, 0), in.height() - 1);
        return in(x, y);
    };
    std::vector<int32_t> out(size_t(w * h));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int32_t s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) s += at(x + dx, y + dy);
            out[size_t(y * w + x)] = s;
        }
    return out;
}

struct Blur {
    Var x{"x"}, y{"y"};
    Func clamped{"clamped"}, blur_x{"blur_x"}, blur_y{"blur_y"};
    explicit Blur(const Buffer<int32_t> &in) {
        clamped(x, y) = in(clamp(x, 0, in.width() - 1), clamp(y, 0, in.height() - 1));
        blur_x(x, y) = clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y);
        blur_y(x, y) = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1);
    }
};

void check_blur(const std::function<void(Blur &)> &schedule, int w = 37, int h = 23) {
    Buffer<int32_t> in = make_input(w, h);
    Blur b(in);
    schedule(b);
    Buffer<int32_t> out = b.blur_y.realize({w, h});
    std::vector<int32_t> ref = reference_blur(in, w, h);
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (out(x, y) != ref[size_t(y * w + x)] && bad++ < 5) {
                INFO("x = " << x << ", y = " << y);
                CHECK(out(x, y) == ref[size_t(y * w + x)]);
            }
        }
    CHECK(bad == 0);
}

/** The statement after scheduling and bounds inference. */
Stmt schedule_and_bound(const Func &out) {
    std::vector<Function> outputs{out.function()};
    Internal::Environment env = Internal::find_environment(outputs);
    std::vector<std::string> order = Internal::realization_order(outputs, env);
    Stmt s = Internal::schedule_functions(outputs, order, env);
    s = Internal::inline_functions(s, outputs);
    return Internal::bounds_inference(s, outputs, order, env);
}

/** The value of the LetStmt `name` in s with every other let and the given
 * buffer fields substituted, simplified. */
Expr let_value(const Stmt &s, const std::string &name, const std::map<std::string, Expr> &fields) {
    std::map<std::string, Expr> lets = fields;
    Expr value;
    for (const LetStmt *l : find_nodes<LetStmt>(s)) {
        lets[l->name] = l->value;
        if (l->name == name) value = l->value;
    }
    if (!value.defined()) return value;
    for (int i = 0; i < 20; i++) value = substitute(lets, value);
    return Internal::simplify(value);
}

/** The names of the loops enclosing the produce node of `func`, outermost first. */
std::vector<std::string> loops_around_produce(const Stmt &s, const std::string &func) {
    struct Finder : Internal::IRVisitor {
        std::string func;
        std::vector<std::string> stack, found;
        using IRVisitor::visit;
        void visit(const For *op) override {
            stack.push_back(op->name);
            IRVisitor::visit(op);
            stack.pop_back();
        }
        void visit(const ProducerConsumer *op) override {
            if (op->is_producer && op->name == func) found = stack;
            IRVisitor::visit(op);
        }
    } finder;
    finder.func = func;
    s.accept(&finder);
    return finder.found;
}

} // namespace

TEST_CASE("compute_at puts the production inside the consumer's loop", "[lower_sched]") {
    Buffer<int32_t> in = make_input(16, 16);
    Blur b(in);
    Sched(b.blur_x).compute_at(b.blur_y, "y");
    Stmt s = schedule_and_bound(b.blur_y);
    CHECK(loops_around_produce(s, "blur_x") == std::vector<std::string>{"blur_y.s0.y"});
    // Storage is at the compute level: inside the loop, three rows.
    auto realizes = find_nodes<Realize>(s);
    REQUIRE(realizes.size() == 1);
    Expr rows = let_value(s, "blur_x.y.extent_realized", {});
    CHECK(Internal::is_const(rows, 3));
    // The bounds of the production are lets just outside it.
    CHECK(let_value(s, "blur_x.s0.y.min", {}).defined());
}

TEST_CASE("store_root with compute_at allocates the whole image height", "[lower_sched]") {
    Buffer<int32_t> in = make_input(16, 16);
    Blur b(in);
    Sched(b.blur_x).compute_at(b.blur_y, "y").store_root();
    Stmt s = schedule_and_bound(b.blur_y);
    CHECK(loops_around_produce(s, "blur_x") == std::vector<std::string>{"blur_y.s0.y"});
    std::map<std::string, Expr> fields{{"blur_y.min.0", Expr(0)},
                                       {"blur_y.extent.0", Expr(16)},
                                       {"blur_y.min.1", Expr(0)},
                                       {"blur_y.extent.1", Expr(40)}};
    CHECK(Internal::is_const(let_value(s, "blur_x.y.extent_realized", fields), 42));
    CHECK(Internal::is_const(let_value(s, "blur_x.x.extent_realized", fields), 16));
    // Realize outside every loop.
    auto loops_outside_realize = [&]() {
        int n = 0;
        for (const For *f : find_nodes<For>(s)) {
            if (!find_nodes<Realize>(f->body).empty()) n++;
        }
        return n;
    };
    CHECK(loops_outside_realize() == 0);
}

TEST_CASE("store_at an outer loop, compute_at an inner one", "[lower_sched]") {
    Buffer<int32_t> in = make_input(16, 16);
    Blur b(in);
    Sched(b.blur_y).split("y", "yo", "yi", 8);
    Sched(b.blur_x).compute_at(b.blur_y, "yi").store_at(b.blur_y, "yo");
    Stmt s = schedule_and_bound(b.blur_y);
    CHECK(loops_around_produce(s, "blur_x") ==
          std::vector<std::string>{"blur_y.s0.y.yo", "blur_y.s0.y.yi"});
    std::map<std::string, Expr> fields{{"blur_y.min.0", Expr(0)},
                                       {"blur_y.extent.0", Expr(16)},
                                       {"blur_y.min.1", Expr(0)},
                                       {"blur_y.extent.1", Expr(40)}};
    // A strip of 8 rows plus the stencil's two.
    CHECK(Internal::is_const(let_value(s, "blur_x.y.extent_realized", fields), 10));
}

TEST_CASE("compute_at pipelines give the reference values", "[lower_sched]") {
    SECTION("at blur_y.y") {
        check_blur([](Blur &b) { Sched(b.blur_x).compute_at(b.blur_y, "y"); });
    }
    SECTION("at blur_y.x") {
        check_blur([](Blur &b) { Sched(b.blur_x).compute_at(b.blur_y, "x"); });
    }
    SECTION("store_root, compute_at y") {
        check_blur([](Blur &b) { Sched(b.blur_x).compute_at(b.blur_y, "y").store_root(); });
    }
    SECTION("tiles, at the tile") {
        check_blur([](Blur &b) {
            Sched(b.blur_y)
                .split("x", "xo", "xi", 8)
                .split("y", "yo", "yi", 4)
                .move_inside("y.yi", "x.xo");
            Sched(b.blur_x).compute_at(b.blur_y, "xo");
        });
    }
    SECTION("tiles with GuardWithIf and RoundUp tails") {
        check_blur([](Blur &b) {
            Sched(b.blur_y)
                .split("x", "xo", "xi", 8, TailStrategy::GuardWithIf)
                .split("y", "yo", "yi", 5, TailStrategy::GuardWithIf)
                .move_inside("y.yi", "x.xo");
            Sched(b.blur_x)
                .compute_at(b.blur_y, "xo")
                .split("x", "xo", "xi", 3, TailStrategy::RoundUp);
        });
    }
    SECTION("store_at yo, compute_at yi") {
        check_blur([](Blur &b) {
            Sched(b.blur_y).split("y", "yo", "yi", 8);
            Sched(b.blur_x).compute_at(b.blur_y, "yi").store_at(b.blur_y, "yo");
        });
    }
    SECTION("vectorized, unrolled and parallel consumer loops") {
        check_blur([](Blur &b) {
            Sched(b.blur_y)
                .split("x", "xo", "xi", 8)
                .type("x.xi", ForType::Vectorized)
                .split("y", "yo", "yi", 2)
                .type("y.yi", ForType::Unrolled)
                .type("y.yo", ForType::Parallel);
            Sched(b.blur_x)
                .compute_at(b.blur_y, "yo")
                .split("x", "xo", "xi", 4)
                .type("x.xi", ForType::Vectorized);
        });
    }
    SECTION("compute_root producer of a consumer with fused loops") {
        check_blur([](Blur &b) {
            Function fn = b.blur_y.function();
            Split fuse;
            fuse.kind = Split::FuseVars;
            fuse.old_var = "xy";
            fuse.inner = "x";
            fuse.outer = "y";
            fn.definition().schedule.splits.push_back(fuse);
            Dim d;
            d.var = "xy";
            d.for_type = ForType::Parallel;
            fn.definition().schedule.dims = {d};
            Sched(b.blur_x).compute_root();
        });
    }
    SECTION("producer split with ShiftInwards inside the consumer's tile") {
        check_blur([](Blur &b) {
            Sched(b.blur_y).split("y", "yo", "yi", 4);
            Sched(b.blur_x)
                .compute_at(b.blur_y, "yo")
                .split("x", "xo", "xi", 8, TailStrategy::ShiftInwards);
        });
    }
}

TEST_CASE("a chain of three stages, each at the next one's loop", "[lower_sched]") {
    const int w = 29, h = 19;
    Buffer<int32_t> in = make_input(w, h);
    Var x("x"), y("y");
    Func a("a"), b("b"), c("c"), out("out");
    a(x, y) = in(clamp(x, 0, w - 1), clamp(y, 0, h - 1)) * 2;
    b(x, y) = a(x, y - 1) + a(x, y + 1);
    c(x, y) = b(x - 1, y) + b(x + 2, y);
    out(x, y) = c(x, y) - c(x, y + 1);
    Sched(out).split("y", "yo", "yi", 4);
    Sched(c).compute_at(out, "yo");
    Sched(b).compute_at(c, "y");
    Sched(a).compute_at(b, "x");
    Buffer<int32_t> r = out.realize({w, h});
    auto A = [&](int xx, int yy) {
        return in(std::min(std::max(xx, 0), w - 1), std::min(std::max(yy, 0), h - 1)) * 2;
    };
    auto B = [&](int xx, int yy) { return A(xx, yy - 1) + A(xx, yy + 1); };
    auto C = [&](int xx, int yy) { return B(xx - 1, yy) + B(xx + 2, yy); };
    int bad = 0;
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) bad += r(xx, yy) != C(xx, yy) - C(xx, yy + 1);
    CHECK(bad == 0);
    Stmt s = schedule_and_bound(out);
    CHECK(loops_around_produce(s, "a") ==
          std::vector<std::string>{"out.s0.y.yo", "c.s0.y", "b.s0.y", "b.s0.x"});
}

TEST_CASE("a producer used by two consumers at their common loop", "[lower_sched]") {
    const int w = 31, h = 17;
    Var x("x"), y("y");
    Func f("f"), g("g"), hh("h"), out("out");
    f(x, y) = x * 3 + y;
    g(x, y) = f(x - 1, y) * 2;
    hh(x, y) = f(x + 2, y + 1) - 1;
    out(x, y) = g(x, y) + hh(x, y);
    Sched(g).compute_at(out, "y");
    Sched(hh).compute_at(out, "y");
    Sched(f).compute_at(out, "y");
    Buffer<int32_t> r = out.realize({w, h});
    int bad = 0;
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++)
            bad += r(xx, yy) != ((xx - 1) * 3 + yy) * 2 + ((xx + 2) * 3 + yy + 1) - 1;
    CHECK(bad == 0);

    // compute_at one consumer's loop does not enclose the other's use.
    Sched(f).compute_at(g, "x");
    try {
        out.realize({w, h});
        FAIL("expected a CompileError");
    } catch (const CompileError &e) {
        std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("Func f") != std::string::npos);
        CHECK(msg.find("g.x") != std::string::npos);
        CHECK(msg.find("does not enclose") != std::string::npos);
        CHECK(msg.find("out.y") != std::string::npos); // a legal level
        CHECK(msg.find("root") != std::string::npos);
    }
}

TEST_CASE("schedule errors name the Func, the loop and the legal levels", "[lower_sched]") {
    Buffer<int32_t> in = make_input(8, 8);
    SECTION("a consumer that does not use the Func") {
        Var x("x"), y("y");
        Func f("f"), g("g"), out("out");
        f(x, y) = x + y;
        g(x, y) = x * y;
        out(x, y) = f(x, y) + g(x, y);
        Sched(g).compute_root();
        Sched(f).compute_at(g, "y");
        try {
            out.realize({8, 8});
            FAIL("expected a CompileError");
        } catch (const CompileError &e) {
            std::string msg = e.what();
            INFO(msg);
            CHECK(msg.find("Func f is computed at g.y, but g does not use f") != std::string::npos);
            CHECK(msg.find("used by: out") != std::string::npos);
        }
    }
    SECTION("an unknown loop") {
        Blur b(in);
        Sched(b.blur_x).compute_at(b.blur_y, "z");
        try {
            b.blur_y.realize({8, 8});
            FAIL("expected a CompileError");
        } catch (const CompileError &e) {
            std::string msg = e.what();
            INFO(msg);
            CHECK(msg.find("blur_y has no loop over z") != std::string::npos);
            CHECK(msg.find("blur_y.y") != std::string::npos);
        }
    }
    SECTION("storage inside the computation") {
        Blur b(in);
        Sched(b.blur_x).compute_at(b.blur_y, "y").store_at(b.blur_y, "x");
        try {
            b.blur_y.realize({8, 8});
            FAIL("expected a CompileError");
        } catch (const CompileError &e) {
            std::string msg = e.what();
            INFO(msg);
            CHECK(
                msg.find("Func blur_x is stored at blur_y.x, which is inside its compute level") !=
                std::string::npos);
            CHECK(msg.find("blur_y.y") != std::string::npos);
        }
    }
    SECTION("vectorize without a factor on a loop of unknown extent") {
        Blur b(in);
        Sched(b.blur_y).type("x", ForType::Vectorized);
        try {
            b.blur_y.realize({8, 8});
            FAIL("expected a CompileError");
        } catch (const CompileError &e) {
            std::string msg = e.what();
            INFO(msg);
            CHECK(msg.find("Func blur_y: cannot vectorize loop x") != std::string::npos);
            CHECK(msg.find("vectorize(x, factor)") != std::string::npos);
        }
    }
}

TEST_CASE("bound and align_bounds fix the computed region", "[lower_sched]") {
    SECTION("bound on an output checks the buffer and allows vectorize") {
        Var x("x"), y("y");
        Func f("f");
        f(x, y) = x * 10 + y;
        Sched(f).bound("x", 0, 8).type("x", ForType::Vectorized);
        Buffer<int32_t> r = f.realize({8, 3});
        for (int yy = 0; yy < 3; yy++)
            for (int xx = 0; xx < 8; xx++) CHECK(r(xx, yy) == xx * 10 + yy);
        CHECK_THROWS_AS(f.realize({9, 3}), RuntimeError);
    }
    SECTION("align_bounds widens a compute_root producer's region") {
        Var x("x");
        Func g("g"), out("out");
        g(x) = x * x;
        out(x) = g(x + 1) + g(x - 1);
        Sched(g).compute_root().align("x", 4, 0);
        Buffer<int32_t> r = out.realize({10});
        for (int xx = 0; xx < 10; xx++) CHECK(r(xx) == (xx + 1) * (xx + 1) + (xx - 1) * (xx - 1));
        Stmt s = schedule_and_bound(out);
        std::map<std::string, Expr> fields{{"out.min.0", Expr(0)}, {"out.extent.0", Expr(10)}};
        CHECK(Internal::is_const(let_value(s, "g.s0.x.min", fields), -4));
        CHECK(Internal::is_const(let_value(s, "g.s0.x.max", fields), 11));
    }
    SECTION("bound on a producer computed at a loop") {
        Var x("x"), y("y");
        Func g("g"), out("out");
        g(x, y) = x + y * 100;
        out(x, y) = g(clamp(x, 0, 15), y) * 2;
        Sched(g).compute_at(out, "y").bound("x", 0, 16);
        Buffer<int32_t> r = out.realize({20, 4});
        for (int yy = 0; yy < 4; yy++)
            for (int xx = 0; xx < 20; xx++) CHECK(r(xx, yy) == (std::min(xx, 15) + yy * 100) * 2);
    }
}

namespace {

Specialization split_specialization(const Expr &condition, const std::vector<std::string> &args,
                                    int factor) {
    Specialization sp;
    sp.condition = condition;
    Split s;
    s.old_var = args[0];
    s.outer = args[0] + ".xo";
    s.inner = args[0] + ".xi";
    s.factor = Expr(factor);
    sp.schedule.splits.push_back(s);
    Dim inner, outer;
    inner.var = s.inner;
    inner.for_type = ForType::Vectorized;
    outer.var = s.outer;
    sp.schedule.dims = {inner, outer};
    for (size_t i = 1; i < args.size(); i++) {
        Dim d;
        d.var = args[i];
        sp.schedule.dims.push_back(d);
    }
    return sp;
}

} // namespace

TEST_CASE("specialize picks a loop nest at run time", "[lower_sched]") {
    Param<int> p("p");
    Var x("x");
    Func f("f");
    f(x) = x * 3 + p;
    Function fn = f.function();
    fn.definition().schedule.specializations.push_back(split_specialization(p > 5, {"x"}, 4));
    fn.invalidate_cache();
    for (int value : {0, 10}) {
        p.set(value);
        Buffer<int32_t> r = f.realize({13});
        for (int i = 0; i < 13; i++) CHECK(r(i) == i * 3 + value);
    }
    std::vector<Function> outputs{fn};
    Stmt s = build_stage_nest(fn, 0);
    auto ifs = find_nodes<IfThenElse>(s);
    REQUIRE(!ifs.empty());
    CHECK(find_nodes<For>(ifs[0]->then_case).size() == 2);
    CHECK(find_nodes<For>(ifs[0]->else_case).size() == 1);
}

TEST_CASE("specialize_fail reports its message when no specialization applies", "[lower_sched]") {
    Param<int> p("p");
    Var x("x");
    Func f("f");
    f(x) = x + p;
    Function fn = f.function();
    fn.definition().schedule.specializations.push_back(split_specialization(p > 0, {"x"}, 4));
    Specialization fail;
    fail.condition = const_true();
    fail.failure = true;
    fail.failure_message = "p must be positive";
    fn.definition().schedule.specializations.push_back(fail);
    fn.invalidate_cache();
    p.set(2);
    Buffer<int32_t> r = f.realize({9});
    CHECK(r(8) == 10);
    p.set(-1);
    try {
        f.realize({9});
        FAIL("expected a RuntimeError");
    } catch (const RuntimeError &e) {
        std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("p must be positive") != std::string::npos);
    }
}

TEST_CASE("compute_at a loop of a specialized consumer", "[lower_sched]") {
    Param<int> p("p");
    for (int value : {0, 1}) {
        p.set(value);
        check_blur([&](Blur &b) {
            Function fn = b.blur_y.function();
            fn.definition().schedule.specializations.push_back(
                split_specialization(p == 1, {"x", "y"}, 8));
            Sched(b.blur_x).compute_at(b.blur_y, "y");
        });
    }
}
