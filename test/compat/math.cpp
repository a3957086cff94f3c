// Float math as a Halide user writes it: erf, hypot, fma, fract, the
// inverse hyperbolic functions, the fast_* approximations and the float
// classifications, vectorized, through the LLVM and the C backends, against
// the C library.

#include "CompatCommon.h"

#include <cmath>
#include <functional>

using namespace Halide;

namespace {

struct MathCase {
    std::string name;
    std::function<Expr(Expr, Expr)> make;
    std::function<double(double, double)> reference;
    double abs_tolerance, rel_tolerance;
};

void check_cases(const std::vector<MathCase> &cases, const Buffer<float> &a,
                 const Buffer<float> &b) {
    int n = a.width();
    compat::for_each_backend([&](bool) {
        Var x("x");
        std::vector<Func> outputs;
        for (const MathCase &c : cases) {
            Func f(c.name);
            f(x) = c.make(a(x), b(x));
            f.vectorize(x, 8);
            outputs.push_back(f);
        }
        Realization r = Pipeline(outputs).realize({n});
        for (size_t k = 0; k < cases.size(); k++) {
            const MathCase &c = cases[k];
            Buffer<float> out(r[k]);
            int failures = 0;
            for (int i = 0; i < n && failures < 3; i++) {
                double want = c.reference(a(i), b(i));
                double got = out(i);
                double err = std::abs(got - want);
                bool ok = err <= c.abs_tolerance + c.rel_tolerance * std::abs(want) ||
                          (std::isnan(want) && std::isnan(got)) || got == want;
                if (!ok) {
                    failures++;
                    FAIL_CHECK(c.name << "(" << a(i) << ", " << b(i) << "): got " << got
                                      << ", want " << want);
                }
            }
        }
    });
}

Buffer<float> spread(int n, double lo, double hi, uint32_t seed) {
    Buffer<float> b(n);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    for (int i = 0; i < n; i++) b(i) = float(d(rng));
    return b;
}

} // namespace

TEST_CASE("erf, hypot, fma, fract and the inverse hyperbolic functions", "[compat][math]") {
    Buffer<float> a = spread(512, -5.0, 5.0, 1), b = spread(512, -3.0, 3.0, 2);
    a(0) = 0.0f, a(1) = 1e-6f, a(2) = -1e-3f, a(3) = 0.999f, a(4) = 1.0f, a(5) = 4.5f;
    std::vector<MathCase> cases = {
        {"erf", [](Expr x, Expr) { return erf(x); }, [](double x, double) { return std::erf(x); },
         2e-7, 8e-7},
        {"hypot", [](Expr x, Expr y) { return hypot(x, y); },
         [](double x, double y) { return std::hypot(x, y); }, 0, 3e-7},
        {"fma", [](Expr x, Expr y) { return fma(x, y, x * 0.5f); },
         [](double x, double y) { return double(std::fma(float(x), float(y), float(x) * 0.5f)); },
         0, 0},
        {"fract", [](Expr x, Expr) { return fract(x * 3.7f); },
         [](double x, double) {
             float v = float(x) * 3.7f;
             return double(v - std::trunc(v));
         },
         4e-6, 0},
        {"asinh", [](Expr x, Expr) { return asinh(x); },
         [](double x, double) { return std::asinh(x); }, 1e-7, 3e-7},
        {"acosh", [](Expr x, Expr) { return acosh(abs(x) + 1.0f); },
         [](double x, double) { return std::acosh(double(std::abs(float(x)) + 1.0f)); }, 1e-7,
         3e-7},
        {"atanh", [](Expr x, Expr) { return atanh(x / 5.5f); },
         [](double x, double) { return std::atanh(double(float(x) / 5.5f)); }, 1e-7, 3e-7},
    };
    check_cases(cases, a, b);
}

TEST_CASE("fast_sin, fast_cos, fast_exp, fast_log, fast_pow and fast_inverse(_sqrt)",
          "[compat][math]") {
    Buffer<float> a = spread(512, -20.0, 20.0, 3), p = spread(512, 0.001, 50.0, 4);
    a(0) = 0.0f, a(1) = 3.14159265f, a(2) = -1.5707964f, a(3) = 1000.0f, a(4) = -777.7f;
    std::vector<MathCase> trig = {
        {"fast_sin", [](Expr x, Expr) { return fast_sin(x); },
         [](double x, double) { return std::sin(double(float(x))); }, 1e-5, 0},
        {"fast_cos", [](Expr x, Expr) { return fast_cos(x); },
         [](double x, double) { return std::cos(double(float(x))); }, 1e-5, 0},
    };
    check_cases(trig, a, p);
    // Inside the range of normal floats (Halide: nonsense beyond), and below it.
    Buffer<float> e = spread(512, -87.0, 88.0, 5);
    e(0) = -100.0f, e(1) = 0.0f, e(2) = 87.9f, e(3) = -87.3f;
    std::vector<MathCase> exps = {
        {"fast_exp", [](Expr x, Expr) { return fast_exp(x); },
         [](double x, double) { return x < -87 ? 0.0 : std::exp(double(float(x))); }, 1e-37, 1e-5},
    };
    check_cases(exps, e, p);
    Buffer<float> y = spread(512, -20.0, 20.0, 6);
    std::vector<MathCase> positive = {
        {"fast_log", [](Expr x, Expr) { return fast_log(x); },
         [](double x, double) { return std::log(double(float(x))); }, 1e-6, 1e-5},
        {"fast_pow", [](Expr x, Expr y) { return fast_pow(x, y / 20.0f); },
         [](double x, double y) { return std::pow(double(float(x)), double(float(y) / 20.0f)); }, 0,
         1e-4},
        {"fast_inverse", [](Expr x, Expr) { return fast_inverse(x); },
         [](double x, double) { return 1.0 / x; }, 0, 1e-3},
        {"fast_inverse_sqrt", [](Expr x, Expr) { return fast_inverse_sqrt(x); },
         [](double x, double) { return 1.0 / std::sqrt(x); }, 0, 1e-3},
    };
    check_cases(positive, p, y);
}

TEST_CASE("is_nan, is_inf and is_finite", "[compat][math]") {
    Buffer<float> v(8);
    float values[8] = {0.0f, -1.5f, INFINITY, -INFINITY, NAN, 1e38f, -0.0f, 3.0f};
    for (int i = 0; i < 8; i++) v(i) = values[i];
    compat::for_each_backend([&](bool) {
        Var x("x");
        Func f("classify");
        f(x) =
            select(is_nan(v(x)), 1, 0) + select(is_inf(v(x)), 2, 0) + select(is_finite(v(x)), 4, 0);
        f.vectorize(x, 4);
        Buffer<int> out = f.realize({8});
        for (int i = 0; i < 8; i++) {
            INFO("value " << values[i]);
            int want = (std::isnan(values[i]) ? 1 : 0) + (std::isinf(values[i]) ? 2 : 0) +
                       (std::isfinite(values[i]) ? 4 : 0);
            CHECK(out(i) == want);
        }
    });
}
