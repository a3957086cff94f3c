// Idioms that Halide's own correctness tests use and that a port by
// changing the include and the namespace must accept: the standard headers
// Halide.h brings in, Target::HVX and hexagon() guards, evaluate_may_gpu,
// the variadic boundary-condition bounds, Tuple of one value,
// tuple_select, Param::is_explicit_name, print of a std::vector<Expr>,
// b(0) of a 0-dimensional Buffer, bools in arithmetic, Target()'s string,
// lambda of an Expr with implicit Vars and Stage::unscheduled().

#include "Loom.h"
namespace Halide = loom;

// Loom.h alone must provide what Halide.h provides: assert, std::cout,
// memcpy, sqrt, std::numeric_limits, std::min (this compiles before any
// other include of this file).
inline float std_headers_from_loom_h(float v) {
    assert(v >= 0);
    float copy = 0;
    std::memcpy(&copy, &v, sizeof(v));
    if (copy > std::numeric_limits<float>::max()) std::cout << "never\n";
    return std::min(std::sqrt(copy), 100.0f);
}

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace Halide;
using Catch::Matchers::Contains;

TEST_CASE("ported idioms: Loom.h brings Halide.h's standard headers", "[compat][ported]") {
    CHECK(std_headers_from_loom_h(16.0f) == 4.0f);
}

TEST_CASE("ported idioms: Target::HVX and hexagon() guards", "[compat][ported]") {
    CHECK(Target::HVX == Target::HVX_128);
    CHECK(Target("x86-64-linux-hvx").has_feature(Target::HVX));
    Target host = get_host_target();
    CHECK_FALSE(host.has_feature(Target::HVX));

    // The usual guard compiles and takes the CPU branch.
    Func f("f");
    Var x("x");
    f(x) = x * 2;
    if (host.has_feature(Target::HVX)) {
        f.hexagon().vectorize(x, 128);
    } else {
        f.vectorize(x, 8);
    }
    Buffer<int> out = f.realize({20});
    for (int i = 0; i < 20; i++) CHECK(out(i) == 2 * i);

    // Calling it is an error that names the stage and says why.
    Func g("g");
    g(x) = x;
    g(x) += 1;
    CHECK_THROWS_WITH(g.hexagon(), Contains("Func g") && Contains("no Hexagon backend"));
    CHECK_THROWS_WITH(g.update().hexagon(x),
                      Contains("hexagon(x) of Func g (update 0)") && Contains("no Hexagon"));
}

TEST_CASE("ported idioms: evaluate_may_gpu of an Expr and of a Tuple", "[compat][ported]") {
    Func f("f");
    Var x("x");
    f(x) = x * (100 - x);
    RDom r(0, 100);
    Func best("best");
    best() = 0;
    best() = select(f(r) > f(clamp(best(), 0, 100)), r, best());
    CHECK(evaluate_may_gpu<int>(best()) == 50);
    CHECK(evaluate_may_gpu<int>(sum(r)) == 99 * 100 / 2);

    int at = -1, value = -1;
    evaluate_may_gpu(argmax(f(r)), &at, &value);
    int ref_at = 0;
    for (int i = 0; i < 100; i++)
        if (i * (100 - i) > ref_at * (100 - ref_at)) ref_at = i;
    CHECK(at == ref_at);
    CHECK(value == ref_at * (100 - ref_at));
    CHECK_THROWS_WITH(evaluate_may_gpu<float>(sum(r)),
                      Contains("Cannot evaluate an expression of type"));
}

namespace {

Buffer<uint8_t> ramp_image(int w, int h) {
    Buffer<uint8_t> in(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = uint8_t(x + y * w);
    return in;
}

// Realizes bc over [x0, x0 + w) x [y0, y0 + h) and compares with ref(x, y).
template <typename Ref> void check_bc(Func bc, int x0, int w, int y0, int h, Ref ref) {
    Buffer<uint8_t> out(w, h);
    out.set_min(x0, y0);
    Var x, y;
    lambda(x, y, bc(x, y)).realize(out);
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++) {
            INFO("at " << x << ", " << y);
            CHECK(int(out(x, y)) == int(ref(x, y)));
        }
}

} // namespace

TEST_CASE("ported idioms: boundary conditions with the bounds as arguments", "[compat][ported]") {
    const int W = 7, H = 5;
    Buffer<uint8_t> in = ramp_image(W, H);
    Func in_f("in_f");
    Var x, y;
    in_f(x, y) = in(x, y);
    auto clamp_x = [&](int v) { return std::min(W - 1, std::max(0, v)); };
    auto clamp_y = [&](int v) { return std::min(H - 1, std::max(0, v)); };

    using namespace BoundaryConditions;
    check_bc(repeat_edge(in, 0, W, 0, H), -5, W + 10, -5, H + 10,
             [&](int x, int y) { return in(clamp_x(x), clamp_y(y)); });
    check_bc(repeat_edge(in_f, 0, W, 0, H), -5, W + 10, -5, H + 10,
             [&](int x, int y) { return in(clamp_x(x), clamp_y(y)); });
    // An undefined pair leaves that dimension alone (here: read inside it only).
    check_bc(repeat_edge(in_f, 0, W, Expr(), Expr()), -5, W + 10, 0, H,
             [&](int x, int y) { return in(clamp_x(x), y); });
    check_bc(constant_exterior(in, 42, 0, W, 0, H), -5, W + 10, -5, H + 10, [&](int x, int y) {
        return (x < 0 || y < 0 || x >= W || y >= H) ? uint8_t(42) : in(x, y);
    });
    check_bc(constant_exterior(in_f, uint8_t(9), 1, W - 2, 1, H - 2), -5, W + 10, -5, H + 10,
             [&](int x, int y) {
                 return (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) ? uint8_t(9) : in(x, y);
             });
    auto wrap = [](int v, int n) { return ((v % n) + n) % n; };
    check_bc(repeat_image(in, 0, W, 0, H), -5, W + 10, -5, H + 10,
             [&](int x, int y) { return in(wrap(x, W), wrap(y, H)); });
    auto mirror = [&](int v, int n) {
        int m = wrap(v < 0 ? -(v + 1) : v, 2 * n);
        return m >= n ? 2 * n - 1 - m : m;
    };
    check_bc(mirror_image(in_f, 0, W, 0, H), -5, W + 10, -5, H + 10,
             [&](int x, int y) { return in(mirror(x, W), mirror(y, H)); });
    auto interior = [&](int v, int n) {
        int m = wrap(v, 2 * n - 2);
        return m >= n ? 2 * n - 2 - m : m;
    };
    check_bc(mirror_interior(in, 0, W, 0, H), -5, W + 10, -5, H + 10,
             [&](int x, int y) { return in(interior(x, W), interior(y, H)); });
}

TEST_CASE("ported idioms: a Tuple of one value, and tuple_select", "[compat][ported]") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) += Tuple(x + y); // an undefined Func starts at zero
    f(x, y) *= Tuple(x);
    Tuple one(x);
    CHECK(one.size() == 1);
    Buffer<int> out = f.realize({6, 4});
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 6; i++) CHECK(out(i, j) == (i + j) * i);

    // Tuple(f(x)) of a two-valued Func keeps both values.
    Func g("g");
    g(x) = Tuple(x, x * 2);
    CHECK(Tuple(g(x)).size() == 2);

    // Halide 14's argmax idiom with tuple_select and braced Tuples.
    Func h("h"), best("best");
    h(x) = (x * 37) % 101;
    h.compute_root();
    RDom r(0, 50);
    best() = Tuple(0, h(0));
    best() = tuple_select(h(r) > best()[1], {r, h(r)}, {best()[0], best()[1]});
    int at = -1, value = -1;
    evaluate(best(), &at, &value);
    int ref_at = 0;
    for (int i = 0; i < 50; i++)
        if ((i * 37) % 101 > (ref_at * 37) % 101) ref_at = i;
    CHECK(at == ref_at);
    CHECK(value == (ref_at * 37) % 101);
}

TEST_CASE("ported idioms: Param::is_explicit_name and pointer Params", "[compat][ported]") {
    Param<float> unnamed;
    Param<float> named("named");
    Param<int> with_value(3);
    CHECK_FALSE(unnamed.is_explicit_name());
    CHECK(named.is_explicit_name());
    CHECK_FALSE(with_value.is_explicit_name());
    CHECK(named.name() == "named");

    // Param<const char *> takes its name, not a value, as Halide's.
    Param<const char *> message("message");
    CHECK(message.is_explicit_name());
    const char *text = "hello";
    message.set(text);
    CHECK(message.get() == text);
}

namespace {
std::vector<std::string> printed;
void collect(JITUserContext *, const char *m) {
    printed.push_back(m);
}
} // namespace

TEST_CASE("ported idioms: print of a std::vector<Expr>", "[compat][ported]") {
    Var x("x");
    std::vector<Expr> args;
    args.push_back(x * 3);
    args.push_back(x + 100);
    Func f("f");
    f(x) = print(args);
    Func g("g");
    std::vector<Expr> when_args = {x * 5, x};
    g(x) = print_when(x == 2, when_args);
    printed.clear();
    f.jit_handlers().custom_print = collect;
    g.jit_handlers().custom_print = collect;
    Buffer<int> out = f.realize({3});
    for (int i = 0; i < 3; i++) CHECK(out(i) == 3 * i);
    REQUIRE(printed.size() == 3);
    for (int i = 0; i < 3; i++)
        CHECK(printed[size_t(i)] == std::to_string(3 * i) + " " + std::to_string(i + 100) + "\n");
    printed.clear();
    Buffer<int> out_g = g.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out_g(i) == 5 * i);
    REQUIRE(printed.size() == 1);
    CHECK(printed[0] == "10 2\n");
}

TEST_CASE("ported idioms: b(0) reads a 0-dimensional Buffer", "[compat][ported]") {
    Func f("f");
    f() = 7.5f;
    Buffer<float> b = f.realize();
    CHECK(b.dimensions() == 0);
    CHECK(b() == 7.5f);
    CHECK(b(0) == 7.5f);
    Func t("t");
    t() = Tuple(1, 2.5);
    Realization r = t.realize();
    CHECK(Buffer<int>(r[0])(0) == 1);
    CHECK(Buffer<double>(r[1])(0) == 2.5);
    // Coordinates past the last dimension are ignored, as in Halide.
    Buffer<int> one_d(4);
    for (int i = 0; i < 4; i++) one_d(i) = 10 * i;
    CHECK(one_d(3, 0) == 30);
}

TEST_CASE("ported idioms: a bool meeting a number takes the number's type", "[compat][ported]") {
    Var x("x");
    Param<bool> flag("flag");
    Expr is_odd = (x % 2) == 1;
    Func f("f");
    f(x) = Tuple(x * is_odd + flag, cast<uint8_t>(x) + is_odd, 0.5f * is_odd);
    CHECK((x * is_odd).type() == Int(32));
    CHECK((cast<uint8_t>(x) + is_odd).type() == UInt(8));
    CHECK((0.5f * is_odd).type() == Float(32));
    for (bool v : {false, true}) {
        flag.set(v);
        Realization r = f.realize({6});
        Buffer<int> a = r[0];
        Buffer<uint8_t> b = r[1];
        Buffer<float> c = r[2];
        for (int i = 0; i < 6; i++) {
            bool odd = i % 2 == 1;
            CHECK(a(i) == i * int(odd) + int(v));
            CHECK(b(i) == uint8_t(i + int(odd)));
            CHECK(c(i) == 0.5f * float(odd));
        }
    }
    CHECK_THROWS_WITH(is_odd + is_odd, Contains("Operator + cannot combine bool and bool") &&
                                           Contains("cast to an integer type first"));
}

TEST_CASE("ported idioms: lerp of bools picks the nearer end", "[compat][ported]") {
    Var z("z"), o("o"), w("w");
    Func f("f"), g("g");
    // Halide's rule: one_val where the weight is past the middle, else zero_val.
    f(z, o, w) = lerp(z == 1, o == 1, cast<uint8_t>(w));
    g(z, o, w) = lerp(z == 1, o == 1, cast<float>(w) / 255.0f);
    Buffer<bool> a = f.realize({2, 2, 256}), b = g.realize({2, 2, 256});
    for (int k = 0; k < 256; k++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) {
                INFO(i << " " << j << " weight " << k);
                CHECK(a(i, j, k) == (k > 127 ? j == 1 : i == 1));
                CHECK(b(i, j, k) == (float(k) / 255.0f > 0.5f ? j == 1 : i == 1));
            }
    CHECK_THROWS_WITH(lerp(z == 1, o == 1, cast<int8_t>(w)),
                      Contains("lerp weight must be a float or an unsigned integer"));
}

TEST_CASE("ported idioms: lerp of floats by an unsigned weight", "[compat][ported]") {
    Var i("i"), k("k");
    Func f("f"), g("g");
    // The weight is a fraction of the weight type's max, as in Halide.
    f(i, k) = lerp(cast<float>(i) - 5.0f, cast<float>(i) * 2.0f, cast<uint8_t>(k));
    g(i, k) = lerp(cast<double>(i), cast<double>(i) + 1000.0, cast<uint16_t>(k * 257));
    Buffer<float> a = f.realize({10, 256});
    Buffer<double> b = g.realize({10, 256});
    for (int kk = 0; kk < 256; kk++)
        for (int ii = 0; ii < 10; ii++) {
            float w = float(kk) / 255.0f;
            float z = float(ii) - 5.0f, o = float(ii) * 2.0f;
            CHECK(a(ii, kk) == Approx(z * (1.0f - w) + o * w).margin(1e-5));
            double wd = double(uint16_t(kk * 257)) / 65535.0;
            CHECK(b(ii, kk) == Approx(ii * (1.0 - wd) + (ii + 1000.0) * wd).margin(1e-9));
        }
    // An integer constant end takes the other end's type.
    Expr u = lerp(0, cast<uint32_t>(1023), 0.5f);
    CHECK(u.type() == UInt(32));
    CHECK(evaluate<uint32_t>(u) == 512u);
    CHECK(lerp(cast<uint8_t>(i), 255, cast<uint8_t>(k)).type() == UInt(8));
    CHECK_THROWS_WITH(lerp(cast<float>(i), 1.0f, i),
                      Contains("lerp weight must be a float or an unsigned integer"));
}

TEST_CASE("ported idioms: Target() prints as arch_unknown-0-os_unknown", "[compat][ported]") {
    CHECK(Target().to_string() == "arch_unknown-0-os_unknown");
    CHECK(Target::validate_target_string("arch_unknown-0-os_unknown"));
    CHECK(Target("arch_unknown-0-os_unknown") == Target());
    CHECK(Target("") == get_host_target());
    // Bits 0 only with nothing else known.
    CHECK_FALSE(Target::validate_target_string("x86-0"));
    CHECK_FALSE(Target::validate_target_string("0-arch_unknown-os_unknown-sse41"));
    CHECK_FALSE(Target::validate_target_string("x86-23"));
    CHECK_FALSE(Target::validate_target_string("opencl-host"));
    CHECK_THROWS_WITH(Target("x86-0-linux"), Contains("a bit width of 0"));
    // A target with no OS reads back, with Halide's word or older Loom's.
    Target t("x86-64-avx2");
    CHECK(t.to_string() == "x86-64-os_unknown-avx2");
    CHECK(Target(t.to_string()) == t);
    CHECK(Target("x86-64-unknown-avx2") == t);
    // Features print sorted by name, numbers by value, as Halide prints them.
    Target many(
        Target::Android, Target::ARM, 32,
        {Target::SSE41, Target::AVX2, Target::AVX, Target::CUDA, Target::OpenCL, Target::Debug});
    CHECK(many.to_string() == "arm-32-android-avx-avx2-cuda-debug-opencl-sse41");
    CHECK(Target(many.to_string()) == many);
    Target caps("x86-64-linux-cuda_capability_86-cuda-cuda_capability_120-cuda_capability_100");
    CHECK(caps.to_string() ==
          "x86-64-linux-cuda-cuda_capability_86-cuda_capability_100-cuda_capability_120");
    // The three trace features print as trace_all.
    Target traced("x86-64-linux-trace_all");
    CHECK(traced.features_all_of(
        {Target::TraceLoads, Target::TraceStores, Target::TraceRealizations}));
    CHECK(traced.to_string() == "x86-64-linux-trace_all");
    CHECK(traced.without_feature(Target::TraceLoads).to_string() ==
          "x86-64-linux-trace_realizations-trace_stores");
    // natural_vector_size: AVX widens floats only; AVX2 widens integers too.
    Target avx(Target::Linux, Target::X86, 64, {Target::SSE41, Target::AVX});
    CHECK(avx.natural_vector_size<uint8_t>() == 16);
    CHECK(avx.natural_vector_size<int16_t>() == 8);
    CHECK(avx.natural_vector_size<float>() == 8);
    Target avx2 = avx.with_feature(Target::AVX2);
    CHECK(avx2.natural_vector_size<uint8_t>() == 32);
    CHECK(avx2.natural_vector_size<uint32_t>() == 8);
    Target knl("x86-64-linux-avx512_knl");
    CHECK(knl.natural_vector_size<float>() == 16);
    CHECK(knl.natural_vector_size<int32_t>() == 4);
    CHECK(Target("x86-64-linux-avx512_skylake").natural_vector_size<int32_t>() == 16);
}

TEST_CASE("ported idioms: lambda of an Expr with implicit Vars", "[compat][ported]") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x * y;
    g(x, y) = x + 2 * y;
    Buffer<int> out = lambda(f(_) - g(_) + lambda(x, y, x - y)(_)).realize({5, 4});
    REQUIRE(out.dimensions() == 2);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++) CHECK(out(i, j) == i * j - (i + 2 * j) + (i - j));
    // With no implicit Vars it is a 0-dimensional Func, as before.
    Buffer<int> scalar = lambda(Expr(41) + 1).realize();
    CHECK(scalar.dimensions() == 0);
    CHECK(scalar() == 42);
}

TEST_CASE("ported idioms: Stage::unscheduled", "[compat][ported]") {
    Func f("f"), ref("ref");
    Var x("x");
    RDom r(0, 8);
    f(x) = x;
    f(0) = 100;
    f(r * 2) = 7;
    f.compute_root();
    f.update(1).unroll(r, 2);
    f.update(0).unscheduled();
    ref(x) = x;
    ref(0) = 100;
    ref(r * 2) = 7;
    Buffer<int> a = f.realize({20}), b = ref.realize({20});
    for (int i = 0; i < 20; i++) CHECK(a(i) == b(i));
    CHECK_THROWS_WITH(f.update(0).unscheduled(),
                      Contains("unscheduled() of Func f (update 0)") && Contains("twice"));
    CHECK_THROWS_WITH(f.update(1).unscheduled(),
                      Contains("Func f (update 1)") && Contains("schedule directives already"));
}

// An output Func that other outputs of the same Pipeline read is produced
// before them even when it is listed last (Halide's
// correctness/multiple_outputs.cpp, ported; Loom once produced outputs in
// the order listed, so they read its buffer before it was written).
TEST_CASE("ported idioms: an output read by the outputs listed before it", "[compat][ported]") {
    Func f("f"), g("g"), h("h");
    Var x("x"), y("y");
    f(x) = x;
    h(x) = Tuple(f(x) + 17, f(x) - 17);
    g(x, y) = f(x + y) * 2 + h(x)[0];
    Buffer<int> f_im(40), g_im(10, 10), h0(10), h1(10);
    Pipeline({h, g, f}).realize({h0, h1, g_im, f_im});
    for (int i = 0; i < 40; i++) CHECK(f_im(i) == i);
    for (int i = 0; i < 10; i++) {
        CHECK(h0(i) == i + 17);
        CHECK(h1(i) == i - 17);
        for (int j = 0; j < 10; j++) CHECK(g_im(i, j) == 2 * (i + j) + i + 17);
    }
}
