// Table lookups indexed by shifted and masked values: bounds inference knows
// `(sum of weighted uint8) >> k` and `v & m` ranges, so a table of exactly that
// size is enough (a looser region would fail the table's bounds check), and
// a table read by several unrolled channels is read once per pixel.

#include <catch2/catch.hpp>

#include <iterator>
#include <regex>
#include <string>

#include "../common/LLVMAssembly.h"
#include "../common/NoiseImage.h"
#include "../common/ScratchFile.h"
#include "Loom.h"

using namespace loom;

namespace {

/** Loads named gathered_lane, gathered_lane1, ... (definitions, not uses). */
size_t lane_loads(const std::string &text) {
    std::regex definition("%gathered_lane[0-9]* = load");
    return size_t(std::distance(std::sregex_iterator(text.begin(), text.end(), definition),
                                std::sregex_iterator()));
}

} // namespace

TEST_CASE("table lookups: shifted and masked indices need only the table's values",
          "[correctness][table_lookups]") {
    Buffer<uint8_t> in = loom_test::noise_image(67, 23, 3, 17);
    // (255 * 77 + 255 * 150 + 255 * 29 + 128) >> 8 == 255: 256 entries.
    Buffer<int> luma_table(256), low_table(16);
    for (int i = 0; i < 256; i++) luma_table(i) = i * 7 - 300;
    for (int i = 0; i < 16; i++) low_table(i) = 1000 + i * i;
    ImageParam input(UInt(8), 3, "lookup_in");
    Var x("x"), y("y"), c("c");
    auto channel = [&](int k) { return cast<int>(input(x, y, k)); };
    Expr luma = (77 * channel(0) + 150 * channel(1) + 29 * channel(2) + 128) >> 8;
    Func out("lookup_out");
    out(x, y, c) = luma_table(luma) + low_table(cast<int>(input(x, y, c)) & 15) + c;
    out.bound(c, 0, 3).vectorize(x, 8).unroll(c);
    input.set(in);
    Buffer<int> result = out.realize({67, 23, 3});
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 23; j++)
            for (int i = 0; i < 67; i++) {
                int l = (77 * in(i, j, 0) + 150 * in(i, j, 1) + 29 * in(i, j, 2) + 128) >> 8;
                REQUIRE(result(i, j, k) == luma_table(l) + low_table(in(i, j, k) & 15) + k);
            }
}

TEST_CASE("table lookups: unrolled channels read the table once per pixel",
          "[correctness][table_lookups]") {
    // The three channels write different planes of the output between their
    // reads of the table; the TBAA tags let LLVM reuse the first read.
    ImageParam input(UInt(8), 2, "once_in");
    Buffer<int> table(256);
    Var x("x"), y("y"), c("c");
    Func out("once_out");
    out(x, y, c) = table(cast<int>(input(x, y))) * (c + 1);
    out.bound(c, 0, 3).reorder(c, x, y).unroll(c).vectorize(x, 8, TailStrategy::RoundUp);
    loom_test::ScratchFile ll("table_lookups", "once.ll");
    out.compile_to_llvm_assembly(ll.path, {input});
    std::string text = loom_test::read_text(ll.path);
    // A gather is one masked.gather call where the target has fast gathers,
    // else eight loads named gathered_lane (AMD Zen, AVX2 without fast
    // gathers): count the lanes read either way.
    size_t gathered_lanes =
        8 * loom_test::count_occurrences(text, "call <8 x i32> @llvm.masked.gather") +
        lane_loads(text);
    size_t stores = loom_test::count_occurrences(text, "store <8 x i32>");
    INFO(gathered_lanes << " lanes gathered, " << stores << " stores");
    CHECK(gathered_lanes >= 8);
    CHECK(stores * 8 >= 3 * gathered_lanes);
}
