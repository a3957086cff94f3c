// Software prefetch of loads that step by a long stride
// (lower/PrefetchStridedLoads): a matrix product, a column sum and a
// transpose checked against plain C++ with the prefetches and without them
// (no_auto_prefetch); which loads the lowered code prefetches; PREFETCHT0 in
// the assembly; __builtin_prefetch in C source.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "Loom.h"
#include "common/ScratchFile.h"

using namespace loom;
using Catch::Contains;

namespace {

using loom_test::read_text;
using loom_test::ScratchFile;

Buffer<int32_t> int_image(int w, int h, const std::string &name, int seed) {
    Buffer<int32_t> b({w, h}, name);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = (x * 7 + y * 13 + seed) % 23 - 11;
    return b;
}

// out(x, y) = sum_k a(k, y) * b(x, k): the update walks b down its rows.
Func matmul(Buffer<int32_t> a, Buffer<int32_t> b) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    RDom k(0, a.width());
    Func prod("prod"), out("out");
    prod(x, y) += a(k, y) * b(x, k);
    out(x, y) = prod(x, y);
    out.tile(x, y, xi, yi, 8, 4).vectorize(xi, 4);
    prod.compute_at(out, x).vectorize(x, 4);
    prod.update(0).reorder(x, y, k).vectorize(x, 4).unroll(x).unroll(y);
    return out;
}

// colsum(x) = sum_r in(x, r), the rows innermost.
Func column_sum(Buffer<int32_t> in) {
    Var x("x");
    RDom r(0, in.height());
    Func colsum("colsum");
    colsum(x) += in(x, r);
    colsum.update(0).vectorize(x, 8);
    return colsum;
}

Func transpose(Buffer<int32_t> in) {
    Var x("x"), y("y");
    Func t("transpose");
    t(x, y) = in(y, x);
    return t;
}

std::string lowered_text(Func f, const Target &t, const std::string &name) {
    ScratchFile file("prefetch", name + ".stmt");
    f.compile_to_lowered_stmt(file.path, {}, StmtOutputFormat::Text, t);
    return read_text(file.path);
}

const Target x86("x86-64-linux-avx2-fma");

} // namespace

TEST_CASE("prefetch: strided loads give C++'s results with and without prefetch",
          "[correctness][prefetch]") {
    const int w = 37, k = 45, h = 23;
    Buffer<int32_t> a = int_image(k, h, "mat_a", 1), b = int_image(w, k, "mat_b", 2);
    Target host = get_jit_target_from_environment();
    for (const Target &t : {host, host.with_feature(Target::NoAutoPrefetch)}) {
        INFO("target " << t.to_string());
        Buffer<int32_t> out = matmul(a, b).realize({w, h}, t);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int32_t sum = 0;
                for (int i = 0; i < k; i++) sum += a(i, y) * b(x, i);
                REQUIRE(out(x, y) == sum);
            }

        Buffer<int32_t> in = int_image(61, 53, "col_in", 3);
        Buffer<int32_t> sums = column_sum(in).realize({61}, t);
        for (int x = 0; x < 61; x++) {
            int32_t sum = 0;
            for (int r = 0; r < 53; r++) sum += in(x, r);
            REQUIRE(sums(x) == sum);
        }

        Buffer<int32_t> tr = transpose(in).realize({53, 61}, t);
        for (int y = 0; y < 61; y++)
            for (int x = 0; x < 53; x++) REQUIRE(tr(x, y) == in(y, x));
    }
}

TEST_CASE("prefetch: lowered code prefetches loads with long strides only",
          "[correctness][prefetch]") {
    Buffer<int32_t> a = int_image(45, 23, "mat_a", 1), b = int_image(37, 45, "mat_b", 2);
    std::string text = lowered_text(matmul(a, b), x86, "matmul");
    // b(x, k) moves a row per k; a(k, y) moves one element.
    CHECK_THAT(text, Contains("prefetch(\"mat_b\""));
    CHECK_THAT(text, !Contains("prefetch(\"mat_a\""));
    CHECK_THAT(lowered_text(matmul(a, b), x86.with_feature(Target::NoAutoPrefetch), "off"),
               !Contains("prefetch("));

    Buffer<int32_t> in = int_image(61, 53, "col_in", 3);
    CHECK_THAT(lowered_text(column_sum(in), x86, "colsum"), Contains("prefetch(\"col_in\""));

    // A row sum reads adjacent elements.
    Var y("y");
    RDom r(0, in.width());
    Func rowsum("rowsum");
    rowsum(y) += in(r, y);
    CHECK_THAT(lowered_text(rowsum, x86, "rowsum"), !Contains("prefetch("));

    // A 16x16 intermediate (1 KB, on the stack) read down its columns: in L1.
    Var x("x");
    Func g("g"), out("small_out");
    g(x, y) = in(x, y) * 2;
    out(x, y) = g(y, x);
    out.bound(x, 0, 16).bound(y, 0, 16);
    g.compute_root();
    CHECK_THAT(lowered_text(out, x86, "small"), !Contains("prefetch("));
}

TEST_CASE("prefetch: PREFETCHT0 in x86 assembly, __builtin_prefetch in C",
          "[correctness][prefetch]") {
    Buffer<int32_t> in = int_image(61, 53, "tr_in", 3);
    ScratchFile asm_file("prefetch", "transpose.s");
    transpose(in).compile_to_assembly(asm_file.path, {}, "prefetch_transpose", x86);
    CHECK_THAT(read_text(asm_file.path), Contains("prefetcht0"));

    ScratchFile c_file("prefetch", "transpose.c");
    transpose(in).compile_to_c(c_file.path, {}, "prefetch_transpose", x86);
    CHECK_THAT(read_text(c_file.path), Contains("__builtin_prefetch("));
}

TEST_CASE("prefetch: target strings round-trip no_auto_prefetch", "[prefetch]") {
    Target t("x86-64-linux-avx2-no_auto_prefetch");
    CHECK(t.has_feature(Target::NoAutoPrefetch));
    CHECK(Target(t.to_string()) == t);
    CHECK(Target::validate_target_string("host-no_auto_prefetch"));
}
