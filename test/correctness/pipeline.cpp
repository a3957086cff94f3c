// Pipelines of one and several outputs, compiled-code reuse, and the text
// outputs (lowered statement, LLVM assembly, loop nest).

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "Loom.h"
#include "frontend/JITStats.h"

using namespace loom;

namespace {
std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
} // namespace

TEST_CASE("a chain of Funcs computes the composition", "[correctness][pipeline]") {
    Buffer<float> in(16);
    for (int i = 0; i < 16; i++) in(i) = float(i) * 0.5f;
    Var x("x");
    Func blur("blur"), scaled("scaled");
    blur(x) = (in(clamp(x - 1, 0, 15)) + in(x) + in(clamp(x + 1, 0, 15))) / 3.0f;
    scaled(x) = blur(x) * 2.0f;
    Buffer<float> out = scaled.realize({16});
    for (int i = 0; i < 16; i++) {
        float expected = (in(std::max(i - 1, 0)) + in(i) + in(std::min(i + 1, 15))) / 3.0f * 2.0f;
        CHECK(out(i) == Approx(expected));
    }
}

TEST_CASE("Pipeline of several outputs", "[correctness][pipeline]") {
    Var x("x"), y("y");
    Func a("out_a"), b("out_b");
    a(x, y) = x + y;
    b(x, y) = cast<float>(a(x, y)) * 0.5f;
    Pipeline p({a, b});
    CHECK(p.outputs().size() == 2);
    Realization r = p.realize({4, 3});
    REQUIRE(r.size() == 2);
    Buffer<int> ra = r[0];
    Buffer<float> rb = r[1];
    for (int yy = 0; yy < 3; yy++)
        for (int xx = 0; xx < 4; xx++) {
            CHECK(ra(xx, yy) == xx + yy);
            CHECK(rb(xx, yy) == float(xx + yy) * 0.5f);
        }

    Buffer<int> oa(2, 2);
    Buffer<float> ob(2, 2);
    p.realize(Realization({oa, ob}));
    CHECK(oa(1, 1) == 2);
    CHECK(ob(1, 1) == 1.0f);
}

TEST_CASE("compiled code is reused until a definition changes", "[correctness][pipeline]") {
    Var x("x");
    Func f("reused");
    f(x) = x * 2;
    f.compile_jit();
    uint64_t compiles = Internal::pipeline_jit_compilations();
    Buffer<int> out = f.realize({4});
    out = f.realize({8});
    CHECK(out(7) == 14);
    CHECK(Internal::pipeline_jit_compilations() == compiles);

    // A schedule or definition change bumps the version and forces a recompile.
    f.function().invalidate_cache();
    out = f.realize({4});
    CHECK(Internal::pipeline_jit_compilations() == compiles + 1);
}

TEST_CASE("compile_to_lowered_stmt and compile_to_llvm_assembly write files",
          "[correctness][pipeline]") {
    Param<int> k("stmt_k");
    ImageParam in(Int(32), 1, "stmt_in");
    Var x("x");
    Func f("stmt_func");
    f(x) = in(x) + k;
    std::string stmt = "loom_test_stmt.txt", html = "loom_test_stmt.html", ll = "loom_test_stmt.ll";
    f.compile_to_lowered_stmt(stmt, {in, k});
    std::string text = read_file(stmt);
    CHECK(text.find("stmt_func") != std::string::npos);
    CHECK(text.find("stmt_in") != std::string::npos);
    f.compile_to_lowered_stmt(html, {in, k}, StmtOutputFormat::HTML);
    CHECK(read_file(html).find("<") != std::string::npos);
    f.compile_to_llvm_assembly(ll, {in, k}, "stmt_entry");
    std::string asm_text = read_file(ll);
    CHECK(asm_text.find("stmt_entry") != std::string::npos);
    CHECK(asm_text.find("define") != std::string::npos);
    std::remove(stmt.c_str());
    std::remove(html.c_str());
    std::remove(ll.c_str());
}

TEST_CASE("print_loop_nest names the Funcs and loops", "[correctness][pipeline]") {
    Var x("x"), y("y");
    Func g("nest_g"), f("nest_f");
    g(x, y) = x * y;
    f(x, y) = g(x, y) + 1;
    std::string nest = Pipeline(f).loop_nest();
    CHECK(nest.find("nest_f") != std::string::npos);
    CHECK(nest.find("y") != std::string::npos);
}

TEST_CASE("lambda and zero-dimensional Funcs", "[correctness][pipeline]") {
    Var x("x"), y("y");
    Func f = lambda(x, y, x * 10 + y);
    Buffer<int> out = f.realize({3, 3});
    CHECK(out(2, 1) == 21);
    Func c(Expr(42));
    Buffer<int> scalar = c.realize();
    CHECK(scalar(std::vector<int>{}) == 42);
}

TEST_CASE("Func accessors", "[frontend][pipeline]") {
    Var x("x"), y("y");
    Func f("accessed");
    CHECK(!f.defined());
    f(x, y) = cast<uint16_t>(x + y);
    CHECK(f.defined());
    CHECK(f.name() == "accessed");
    CHECK(f.dimensions() == 2);
    CHECK(f.type() == UInt(16));
    REQUIRE(f.args().size() == 2);
    CHECK(f.args()[0].name() == "x");
    CHECK(f.args()[1].name() == "y");
    CHECK(f.value().type() == UInt(16));
    Expr call = f(y, x);
    CHECK(call.type() == UInt(16));
    Func a, b;
    CHECK(a.name() != b.name());
}
