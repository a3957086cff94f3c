// Loop nests the schedule leaves scalar but unrolls (a histogram counting
// pixels, which cannot be vectorized because bins collide) get their
// lane-parallel arithmetic packed into vectors by LLVM's SLP vectorizer,
// even when another stage of the same pipeline is vectorized: the four
// unrolled pixels' lumas are one <4 x i32> computation fed by <4 x i8> loads.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "../common/LLVMAssembly.h"
#include "../common/NoiseImage.h"
#include "../common/ScratchFile.h"
#include "Loom.h"

using namespace loom;

namespace {

/** A luma histogram of a planar RGB image: the update unrolled by 4 along
 * x, the pure definition vectorized. */
Func luma_histogram(ImageParam &input) {
    Var i("i");
    RDom r(0, input.width(), 0, input.height(), "r");
    auto channel = [&](int k) { return cast<int>(input(r.x, r.y, k)); };
    Expr luma = (77 * channel(0) + 150 * channel(1) + 29 * channel(2) + 128) >> 8;
    Func histogram("packed_histogram");
    histogram(i) = 0;
    histogram(clamp(luma, 0, 255)) += 1;
    histogram.vectorize(i, 8);
    histogram.update().unroll(r.x, 4);
    return histogram;
}

} // namespace

TEST_CASE("scalar packing: an unrolled histogram counts like plain C++",
          "[correctness][scalar_packing]") {
    // 67 columns: the unrolled loop has a tail of 3.
    Buffer<uint8_t> in = loom_test::noise_image(67, 19, 3, 29);
    ImageParam input(UInt(8), 3, "packing_in");
    Func histogram = luma_histogram(input);
    input.set(in);
    Buffer<int> result = histogram.realize({256});
    std::vector<int> expected(256, 0);
    for (int y = 0; y < 19; y++)
        for (int x = 0; x < 67; x++)
            expected[(77 * in(x, y, 0) + 150 * in(x, y, 1) + 29 * in(x, y, 2) + 128) >> 8]++;
    for (int b = 0; b < 256; b++) REQUIRE(result(b) == expected[b]);
}

TEST_CASE("scalar packing: the unrolled pixels' lumas are computed as one vector",
          "[correctness][scalar_packing]") {
    ImageParam input(UInt(8), 3, "packing_in");
    Func histogram = luma_histogram(input);
    loom_test::ScratchFile ll("scalar_packing", "histogram.ll");
    histogram.compile_to_llvm_assembly(ll.path, {input});
    std::string text = loom_test::read_text(ll.path);
    // Each channel of four neighbouring pixels is one 4-byte load.
    size_t packed_loads = loom_test::count_occurrences(text, "load <4 x i8>");
    INFO(packed_loads << " packed loads");
    CHECK(packed_loads >= 3);
}
