// target_arch_is, target_os_is, target_has_feature, target_bits and
// target_natural_vector_size as a Halide user writes them: constants of the
// target the pipeline is compiled for.

#include "CompatCommon.h"

using namespace Halide;

TEST_CASE("target queries are constants of the compile target", "[compat][target]") {
    Var x("x");
    auto facts = [&](const Target &t) {
        Func f("facts");
        f(x) =
            select(x == 0, select(target_arch_is(Target::X86), 1, 0), x == 1,
                   select(target_arch_is(Target::ARM), 1, 0), x == 2,
                   select(target_os_is(Target::Linux), 1, 0), x == 3,
                   select(target_has_feature(Target::AVX2), 1, 0), x == 4, target_bits(), x == 5,
                   target_natural_vector_size<float>(), x == 6, target_natural_vector_size(UInt(8)),
                   select(target_has_feature(Target::StrictFloat), 1, 0));
        Buffer<int> out = f.realize({8}, t);
        std::vector<int> v;
        for (int i = 0; i < 8; i++) v.push_back(out(i));
        return v;
    };
    // A plain x86-64 (SSE2) target runs anywhere this test does.
    CHECK(facts(Target("x86-64-linux")) == std::vector<int>{1, 0, 1, 0, 64, 4, 16, 0});
    CHECK(facts(Target("x86-64-linux-strict_float")) == std::vector<int>{1, 0, 1, 0, 64, 4, 16, 1});
    Target host = get_host_target();
    if (host.has_feature(Target::AVX2)) {
        CHECK(facts(Target("x86-64-linux-avx-avx2")) == std::vector<int>{1, 0, 1, 1, 64, 8, 32, 0});
    }
    // The queries also steer a schedule through the natural vector size.
    Func g("g");
    g(x) = x * target_natural_vector_size<int>();
    Buffer<int> out = g.realize({4}, Target("x86-64-linux"));
    CHECK(out(3) == 12);
}
