// Vector loads at computed indices (a table lookup, resize's taps) are a
// load per lane, also where the target has a gather instruction (AVX-512:
// slower than the loads on AMD Zen 5, and Halide never emits it on x86),
// unless the module has so many that the loads would cost too much compile
// time (local_laplacian's 1,200): then the instruction stays. Either way the
// result matches plain C++.

#include <catch2/catch.hpp>

#include <string>

#include "../common/LLVMAssembly.h"
#include "Loom.h"

using namespace loom;

namespace {

/** out(x) = sum over k < lookups of table(in(x) * 7 + k * 13 mod 256): each
 * term a gather at its own indices. */
struct Lookups {
    ImageParam input{Int(32), 1, "lg_in"};
    ImageParam table{Int(32), 1, "lg_table"};
    Func out{"lg_out"};

    explicit Lookups(int lookups) {
        Var x("x");
        Expr sum = 0;
        for (int k = 0; k < lookups; k++) sum += table((input(x) * 7 + k * 13) & 255);
        out(x) = sum;
        out.vectorize(x, 16);
    }
};

int reference(int value, int lookups, const Buffer<int> &table) {
    int sum = 0;
    for (int k = 0; k < lookups; k++) sum += table((value * 7 + k * 13) & 255);
    return sum;
}

} // namespace

TEST_CASE("lane gathers: table lookups match plain C++", "[correctness][lane_gathers]") {
    Buffer<int> in(53), table(256);
    for (int i = 0; i < 53; i++) in(i) = i * 31 + 5;
    for (int i = 0; i < 256; i++) table(i) = i * i - 1000;
    for (int lookups : {2, 40}) {
        Lookups p(lookups);
        p.input.set(in);
        p.table.set(table);
        Buffer<int> out = p.out.realize({53});
        for (int i = 0; i < 53; i++) {
            INFO("lookups " << lookups << ", x " << i);
            REQUIRE(out(i) == reference(in(i), lookups, table));
        }
    }
}

TEST_CASE("lane gathers: a few gathers are loads per lane on AVX-512",
          "[correctness][lane_gathers]") {
    Lookups p(2);
    std::string ir = loom_test::llvm_assembly_for(p.out, {p.input, p.table}, "lg_few",
                                                  "x86-64-linux-avx512_skylake");
    CHECK(loom_test::count_occurrences(ir, "gathered_lane") >= 32);
    CHECK(loom_test::count_occurrences(ir, "masked.gather") == 0);
}

TEST_CASE("lane gathers: many gathers keep the gather instruction", "[correctness][lane_gathers]") {
    // 40 gathers of 16 lanes: 640 loads, over the budget.
    Lookups p(40);
    std::string ir = loom_test::llvm_assembly_for(p.out, {p.input, p.table}, "lg_many",
                                                  "x86-64-linux-avx512_skylake");
    CHECK(loom_test::count_occurrences(ir, "call <16 x i32> @llvm.masked.gather") >= 40);
    CHECK(loom_test::count_occurrences(ir, "gathered_lane") == 0);
}
