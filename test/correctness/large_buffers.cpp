// The large_buffers target feature (as in Halide): flat indices of loads and
// stores are 64-bit, so buffers whose elements lie more than 2^31 apart
// work. Inputs are mapped with MAP_NORESERVE, so only the pages touched
// count: each test touches a few pages of a ~2 GiB mapping. Results are
// compared with plain C++ reading the same memory. (Run again through the C
// backend by the c_backend: ctest entries.)

#include <catch2/catch.hpp>

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

namespace {

// Rows this far apart: row 2 starts at byte 2^31 + 64 (strides are int32,
// so three rows are needed to pass 2^31).
constexpr int64_t row_stride = (int64_t(1) << 30) + 32;
constexpr int rows = 3;
constexpr int width = 64;

/** Anonymous memory of `bytes`, of which only touched pages are backed. */
class SparseMemory {
public:
    explicit SparseMemory(size_t bytes) : bytes_(bytes) {
        void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        data_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t *>(p);
    }
    ~SparseMemory() {
        if (data_) munmap(data_, bytes_);
    }
    SparseMemory(const SparseMemory &) = delete;
    SparseMemory &operator=(const SparseMemory &) = delete;
    uint8_t *data() const { return data_; }

private:
    size_t bytes_;
    uint8_t *data_;
};

/** Three rows of `width` uint8 values, row_stride bytes apart. */
struct TallInput {
    SparseMemory memory{size_t((rows - 1) * row_stride + width + 64)};
    Buffer<uint8_t> buffer;
    TallInput() {
        REQUIRE(memory.data());
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < width; x++)
                memory.data()[y * row_stride + x] = uint8_t(x * 3 + y * 50 + 1);
        loom_dimension_t shape[2] = {{0, width, 1, 0}, {0, rows, int32_t(row_stride), 0}};
        buffer = Buffer<uint8_t>(memory.data(), 2, shape, "tall");
    }
    uint8_t at(int x, int y) const { return memory.data()[y * row_stride + x]; }
};

Target large_target() {
    return get_jit_target_from_environment().with_feature(Target::LargeBuffers);
}

} // namespace

TEST_CASE("large_buffers: an input whose rows lie 2^30 bytes apart is read right",
          "[large_buffers]") {
    TallInput input;
    ImageParam in(UInt(8), 2, "tall");
    Var x("x"), y("y");
    for (int schedule = 0; schedule < 3; schedule++) {
        INFO("schedule " << schedule);
        Func f("read_tall");
        // Forwards, and backwards along x (a reversed dense load when vectorized).
        f(x, y) = cast<int>(in(x, y)) * 2 + cast<int>(in(width - 1 - x, rows - 1 - y));
        if (schedule == 1) f.vectorize(x, 16);
        if (schedule == 2) f.vectorize(x, 8).parallel(y);
        in.set(input.buffer);
        Buffer<int> out = f.realize({width, rows}, large_target());
        for (int yy = 0; yy < rows; yy++)
            for (int xx = 0; xx < width; xx++)
                REQUIRE(out(xx, yy) ==
                        input.at(xx, yy) * 2 + input.at(width - 1 - xx, rows - 1 - yy));
    }
}

TEST_CASE("large_buffers: stores into an output whose rows lie 2^30 bytes apart",
          "[large_buffers]") {
    SparseMemory memory(size_t((rows - 1) * row_stride + width + 64));
    REQUIRE(memory.data());
    loom_dimension_t shape[2] = {{0, width, 1, 0}, {0, rows, int32_t(row_stride), 0}};
    Buffer<uint8_t> out(memory.data(), 2, shape, "tall_out");
    Var x("x"), y("y");
    Func f("write_tall");
    f(x, y) = cast<uint8_t>(x * 5 + y * 70);
    f.vectorize(x, 32);
    f.realize(out, large_target());
    for (int yy = 0; yy < rows; yy++)
        for (int xx = 0; xx < width; xx++)
            REQUIRE(memory.data()[yy * row_stride + xx] == uint8_t(xx * 5 + yy * 70));
}

TEST_CASE("large_buffers: without the feature the tall input is refused, naming it",
          "[large_buffers]") {
    TallInput input;
    ImageParam in(UInt(8), 2, "tall");
    Var x("x"), y("y");
    Func f("read_tall_32");
    f(x, y) = in(x, y);
    in.set(input.buffer);
    CHECK_THROWS_WITH(f.realize({width, rows}),
                      Contains("Buffer tall spans 2147483776 elements") &&
                          Contains("add the large_buffers target feature"));
    CHECK_THROWS_AS(f.realize({width, rows}), RuntimeError);
}

TEST_CASE("large_buffers: an internal Func storing more than 2^31 elements", "[large_buffers]") {
    // f is stored at the root over rows 0 .. step (64 * (step + 1) > 2^31
    // elements) but computed one row at a time: only rows 0 and step are
    // touched. step is a Param, so neither sliding nor folding applies.
    Var x("x"), y("y");
    Param<int> step("step");
    Func f("big_store"), g("reads_big");
    f(x, y) = cast<uint8_t>(x + y * 7);
    g(x, y) = cast<int>(f(x, y * step)) + 1;
    f.store_root().compute_at(g, y).vectorize(x, 16);
    g.vectorize(x, 16);
    int big_step = (1 << 25) + 5;
    step.set(big_step);
    Buffer<int> out = g.realize({width, 2}, large_target());
    for (int yy = 0; yy < 2; yy++)
        for (int xx = 0; xx < width; xx++)
            REQUIRE(out(xx, yy) == int(uint8_t(xx + yy * big_step * 7)) + 1);

    // Without large_buffers: a clear error before anything is allocated.
    CHECK_THROWS_WITH(g.realize({width, 2}),
                      Contains("Func big_store needs storage for 2147484032 elements") &&
                          Contains("add the large_buffers target feature"));
    // A small step still works without it.
    step.set(3);
    Buffer<int> small = g.realize({width, 2});
    CHECK(small(5, 1) == int(uint8_t(5 + 3 * 7)) + 1);
}

TEST_CASE("large_buffers: fixed-size storage past 2^31 elements is refused", "[large_buffers]") {
    Var x("x"), y("y");
    Func f("huge_constant"), g("reads_huge");
    f(x, y) = x + y;
    g(x, y) = f(x, y * 40000);
    // f's region is [0, 65535] x [0, 40000]: 2621505536 elements.
    f.compute_root();
    g.bound(y, 0, 2).bound(x, 0, 65536);
    CHECK_THROWS_WITH(g.realize({65536, 2}),
                      Contains("Func huge_constant needs storage for 2621505536 elements") &&
                          Contains("large_buffers"));
    // Its extents are lets of bounds inference, not constants: checked at run time.
    CHECK_THROWS_AS(g.realize({65536, 2}), RuntimeError);
}

TEST_CASE("large_buffers: GPU kernels with large_buffers are a CompileError", "[large_buffers]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("gpu_large");
    f(x) = x * 2;
    f.gpu_tile(x, xo, xi, 16);
    Target t = get_host_target().with_feature(Target::OpenCL).with_feature(Target::LargeBuffers);
    CHECK_THROWS_WITH(
        f.compile_to_lowered_stmt("/tmp/loom_gpu_large.stmt", {}, StmtOutputFormat::Text, t),
        Contains("has the GPU loop") && Contains("large_buffers"));
    CHECK_THROWS_AS(
        f.compile_to_lowered_stmt("/tmp/loom_gpu_large.stmt", {}, StmtOutputFormat::Text, t),
        CompileError);
}
