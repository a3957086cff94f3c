// Schedule errors raised while scheduling: each is a CompileError naming the
// Func and the Var and listing the legal choices.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

namespace {

Func blur_like(const std::string &name) {
    Var x("x"), y("y");
    Func f(name);
    f(x, y) = x + y;
    return f;
}

} // namespace

TEST_CASE("an unknown Var in a loop primitive lists the loop variables", "[error][schedule]") {
    Var x("x"), y("y"), z("z"), zo("zo"), zi("zi");
    Func blur = blur_like("blur");
    const char *msg = "Func blur has no loop variable z in its schedule";
    const char *legal = "its loop variables are x, y (innermost first)";
    CHECK_THROWS_WITH(blur.split(z, zo, zi, 4), Contains(msg) && Contains(legal));
    CHECK_THROWS_WITH(blur.vectorize(z), Contains(msg) && Contains(legal));
    CHECK_THROWS_WITH(blur.vectorize(z, 8), Contains(msg) && Contains(legal));
    CHECK_THROWS_WITH(blur.unroll(z), Contains(msg) && Contains("(in unroll)"));
    CHECK_THROWS_WITH(blur.unroll(z, 2), Contains(msg));
    CHECK_THROWS_WITH(blur.parallel(z), Contains(msg) && Contains("(in parallel)"));
    CHECK_THROWS_WITH(blur.parallel(z, 4), Contains(msg));
    CHECK_THROWS_WITH(blur.serial(z), Contains(msg));
    CHECK_THROWS_WITH(blur.fuse(x, z, Var("f")), Contains(msg) && Contains("(in fuse)"));
    CHECK_THROWS_WITH(blur.rename(z, Var("w")), Contains(msg));
    CHECK_THROWS_WITH(blur.tile(x, z, Var("xi"), Var("zi"), 4, 4), Contains(msg));
    // A failed primitive leaves the schedule as it was.
    CHECK(blur.function().definition().schedule.dims.size() == 2);
    CHECK_FALSE(blur.function().definition().schedule.touched);
}

TEST_CASE("split loop names are listed after splitting", "[error][schedule]") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func blur = blur_like("blur");
    blur.split(x, xo, xi, 8);
    CHECK_THROWS_WITH(blur.vectorize(Var("q")),
                      Contains("its loop variables are x.xi, x.xo, y (innermost first)"));
}

TEST_CASE("reorder with a duplicate or unknown Var", "[error][schedule]") {
    Var x("x"), y("y"), c("c");
    Func f("reordered");
    f(x, y) = x * y;
    CHECK_THROWS_WITH(f.reorder(x, x), Contains("Func reordered") &&
                                           Contains("names loop variable x more than once") &&
                                           Contains("x, y (innermost first)"));
    CHECK_THROWS_WITH(f.reorder(y, c), Contains("Func reordered has no loop variable c") &&
                                           Contains("(in reorder)") &&
                                           Contains("x, y (innermost first)"));
}

TEST_CASE("splitting a Var that was already split away", "[error][schedule]") {
    Var x("x"), y("y"), xo("xo"), xi("xi"), a("a"), b("b");
    Func f("twice_split");
    f(x, y) = x - y;
    f.split(x, xo, xi, 4);
    CHECK_THROWS_WITH(f.split(x, a, b, 2), Contains("Func twice_split has no loop variable x") &&
                                               Contains("x was already split into xo and xi") &&
                                               Contains("x.xi, x.xo, y (innermost first)"));
    f.fuse(xi, xo, Var("xf"));
    CHECK_THROWS_WITH(f.vectorize(xo), Contains("xo was already fused into xf"));
}

TEST_CASE("bad split names and factors", "[error][schedule]") {
    Var x("x"), y("y"), xi("xi");
    Func f("factors");
    f(x, y) = x;
    CHECK_THROWS_WITH(f.split(x, xi, xi, 4),
                      Contains("factors") && Contains("need different names"));
    CHECK_THROWS_WITH(f.split(x, x, y, 4),
                      Contains("Func factors") && Contains("already has a loop variable y"));
    CHECK_THROWS_WITH(f.split(x, x, xi, 0), Contains("Func factors") && Contains("positive"));
    CHECK_THROWS_WITH(f.vectorize(x, -4), Contains("x") && Contains("positive"));
    CHECK_THROWS_WITH(f.split(x, x, xi, 1.5f), Contains("must be an integer"));
    CHECK_THROWS_WITH(f.fuse(x, x, Var("q")), Contains("as both inner and outer"));
}

TEST_CASE("scheduling a Func with no definition", "[error][schedule]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("undefined_func");
    CHECK_THROWS_WITH(f.split(x, xo, xi, 4),
                      Contains("Func undefined_func has no definition") && Contains("split"));
    CHECK_THROWS_WITH(f.vectorize(x), Contains("undefined_func"));
    CHECK_THROWS_WITH(f.compute_root(), Contains("undefined_func"));
    CHECK_THROWS_WITH(f.bound(x, 0, 4), Contains("undefined_func"));
    CHECK_THROWS_WITH(f.update(0), Contains("undefined_func"));
    Func g = blur_like("g");
    CHECK_THROWS_WITH(g.compute_at(f, x), Contains("Func undefined_func has no definition"));
}

TEST_CASE("update(i) out of range", "[error][schedule]") {
    Func f = blur_like("no_updates");
    CHECK_THROWS_WITH(f.update(0), Contains("Func no_updates has 0 update definitions"));
    CHECK_THROWS_WITH(f.update(-1), Contains("no_updates"));
}

TEST_CASE("Func-level primitives name a pure Var", "[error][schedule]") {
    Var x("x"), y("y"), z("z");
    Func f = blur_like("bounded");
    const char *legal = "its pure variables are x, y";
    CHECK_THROWS_WITH(f.bound(z, 0, 4), Contains("Func bounded has no pure variable z") &&
                                            Contains("(in bound)") && Contains(legal));
    CHECK_THROWS_WITH(f.bound_extent(z, 4), Contains(legal));
    CHECK_THROWS_WITH(f.align_bounds(z, 4), Contains(legal));
    CHECK_THROWS_WITH(f.fold_storage(z, 2), Contains("(in fold_storage)") && Contains(legal));
    CHECK_THROWS_WITH(f.reorder_storage(z, x), Contains(legal));
    CHECK_THROWS_WITH(f.reorder_storage(x, x), Contains("names x more than once"));
    CHECK_THROWS_WITH(f.bound(x, 0, 0), Contains("bounded") && Contains("positive"));
    CHECK_THROWS_WITH(f.align_bounds(x, 0), Contains("positive"));
    CHECK_THROWS_WITH(f.fold_storage(y, -1), Contains("positive"));
    // A split loop is not a pure variable.
    Var xo("xo"), xi("xi");
    f.split(x, xo, xi, 2);
    CHECK_THROWS_WITH(f.bound(xi, 0, 2), Contains("no pure variable xi"));
}

TEST_CASE("compute_at and store_at at the Func's own loops", "[error][schedule]") {
    Var x("x"), y("y");
    Func f = blur_like("self");
    CHECK_THROWS_WITH(f.compute_at(f, x), Contains("Func self itself"));
    CHECK_THROWS_WITH(f.store_at(f, y), Contains("Func self itself"));
    CHECK_THROWS_WITH(f.compute_at(LoopLevel()), Contains("undefined LoopLevel"));
}

TEST_CASE("specialize conditions and specialize_fail", "[error][schedule]") {
    Var x("x"), y("y");
    Param<int> p("p");
    Func f = blur_like("special");
    CHECK_THROWS_WITH(f.specialize(p + 1), Contains("Func special") && Contains("scalar bool"));
    CHECK_THROWS_WITH(f.specialize(x > 2), Contains("uses x") && Contains("not a Param"));
    f.specialize(p > 0);
    f.specialize_fail("p must be positive");
    CHECK_THROWS_WITH(f.specialize_fail("again"), Contains("at most one"));
    CHECK_THROWS_WITH(f.specialize(p > 5), Contains("after specialize_fail"));
    // A specialization names its own loops in messages.
    Func g = blur_like("special2");
    CHECK_THROWS_WITH(g.specialize(p > 1).vectorize(Var("w")),
                      Contains("Func special2 (specialization 0) has no loop variable w"));
}

// ---- Checks that need the whole pipeline happen when it is compiled.

TEST_CASE("compute_at a Func that does not use the producer", "[error][schedule]") {
    Var x("x"), y("y");
    Func producer("lonely_producer"), user("the_user"), other("other_func");
    producer(x, y) = x * y;
    user(x, y) = producer(x, y) + 1;
    other(x, y) = x - y;
    Func out("two_branches");
    out(x, y) = user(x, y) + other(x, y);
    user.compute_root();
    other.compute_root();
    producer.compute_at(other, x);
    CHECK_THROWS_WITH(out.compile_jit(), Contains("lonely_producer") &&
                                             Contains("other_func does not use lonely_producer") &&
                                             Contains("legal levels"));
}

TEST_CASE("compute_at a loop the consumer does not have", "[error][schedule]") {
    Var x("x"), y("y"), z("z");
    Func producer("prod"), consumer("cons");
    producer(x, y) = x + y;
    consumer(x, y) = producer(x, y) * 2;
    producer.compute_at(consumer, z); // legal until lowering: consumer might split into z
    CHECK_THROWS_WITH(consumer.compile_jit(), Contains("Func prod") && Contains("cons") &&
                                                  Contains("no loop over z") &&
                                                  Contains("legal levels"));
}

TEST_CASE("vectorize without a factor of a loop with a non-constant extent", "[error][schedule]") {
    Var x("x"), y("y");
    Func f("wide_vector");
    f(x, y) = x + y;
    f.vectorize(x); // the extent of x is the output width, unknown until run time
    CHECK_THROWS_AS(f.compile_jit(), CompileError);
    CHECK_THROWS_WITH(f.compile_jit(),
                      Contains("wide_vector") && Contains("x") && Contains("constant"));
}

TEST_CASE("unroll without a factor of a loop with a non-constant extent", "[error][schedule]") {
    Var x("x"), y("y");
    Func f("wide_unroll");
    f(x, y) = x + y;
    f.unroll(x); // the extent of x is the output width, unknown until run time
    CHECK_THROWS_AS(f.compile_jit(), CompileError);
    CHECK_THROWS_WITH(f.compile_jit(), Contains("Func wide_unroll: cannot unroll loop x") &&
                                           Contains("not a compile-time constant") &&
                                           Contains("unroll(x, factor)"));
}

TEST_CASE("unroll or vectorize without a factor of a compute_at region that is not constant",
          "[error][schedule]") {
    Var x("x"), y("y");
    Func p("row_producer"), out("row_consumer");
    p(x, y) = x * y;
    out(x, y) = p(x, y) + p(x + 1, y);
    // One row of p per row of out: its x extent is the output width plus one.
    p.compute_at(out, y).unroll(x);
    CHECK_THROWS_WITH(out.compile_jit(), Contains("Func row_producer: cannot unroll loop x") &&
                                             Contains("not a compile-time constant"));
    p.vectorize(x);
    CHECK_THROWS_WITH(out.compile_jit(), Contains("Func row_producer: cannot vectorize loop x") &&
                                             Contains("not a compile-time constant"));
}

TEST_CASE("an output buffer that does not match its bound()", "[error][schedule]") {
    Var x("x"), y("y");
    Func f("bounded_out");
    f(x, y) = x + y;
    f.bound(x, 0, 16);
    CHECK_THROWS_AS(f.realize({10, 4}), RuntimeError);
    CHECK_THROWS_WITH(f.realize({10, 4}),
                      Contains("Func bounded_out: bound(x, 0, 16) requires the output buffer to "
                               "cover exactly [0, 15] in dimension 0, but it covers [0, 9]"));
    Buffer<int> ok = f.realize({16, 4});
    CHECK(ok(15, 3) == 18);
}

TEST_CASE("a producer needed beyond its bound()", "[error][schedule]") {
    Var x("x");
    Func p("bounded_producer"), out("reads_past_bound");
    p(x) = x * 2;
    out(x) = p(x) + p(x + 1);
    p.compute_root().bound(x, 0, 8);
    CHECK_THROWS_AS(out.realize({10}), RuntimeError);
    CHECK_THROWS_WITH(out.realize({10}),
                      Contains("Func bounded_producer: bound(x, 0, 8) limits it to [0, 7] in "
                               "dimension 0, but the pipeline needs [0, 10] of it"));
}
