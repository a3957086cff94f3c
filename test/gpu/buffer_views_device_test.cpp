// Views (crop, slice, translate, ...) of a loom::Buffer with OpenCL device
// memory: as in Halide, each view gets a handle to the same device memory
// through the device interface (sub-buffers here), keeps the source's
// memory alive, and has its own dirty flags.

#include <catch2/catch.hpp>

#include "loom/Buffer.h"
#include "loom/Error.h"
#include "runtime_test_util.h"

using namespace gpu_rt_test;

namespace {

// Doubles every element of a 1-D int buffer (or view) on the device.
void double_on_device(const loom::Buffer<int> &b) {
    static const std::string source = unique_source(R"(
__kernel void twice_view(__global int *data) {
    int i = get_global_id(0);
    data[i] = 2 * data[i];
}
)");
    ErrorCapture errors;
    const uint64_t args[] = {uint64_t(reinterpret_cast<uintptr_t>(b.raw_buffer()))};
    int r = loom_device_run(errors.uc(), loom_device_api_opencl, source.c_str(), "twice_view",
                            int(b.number_of_elements()), 1, 1, 1, 1, 1, 0, "b", args);
    INFO(errors.text);
    REQUIRE(r == 0);
}

// Offsets of whole kilobytes keep sub-buffers at the device's alignment.
constexpr int n = 2048, half = 1024;

} // namespace

TEST_CASE("gpu: crops of device memory share it and keep it alive", "[gpu][opencl]") {
    const int64_t live = loom_device_live_allocations();
    {
        loom::Buffer<int> b(n);
        for (int i = 0; i < n; i++) b(i) = i;
        b.copy_to_device();
        loom::Buffer<int> c = b.cropped(0, half, half);
        REQUIRE(c.has_device_allocation());
        REQUIRE(c.raw_buffer()->device != b.raw_buffer()->device);
        REQUIRE(loom_device_live_allocations() == live + 2);

        double_on_device(c);
        c.set_device_dirty();
        const loom::Buffer<int> &rb = b, &rc = c; // reads that do not mark host-dirty
        REQUIRE(rc(half) == 2 * half);            // copies the crop's region back
        REQUIRE(rb(half + 7) == 2 * (half + 7));
        REQUIRE(rb(7) == 7);

        // The crop's kernel wrote the source's device memory.
        double_on_device(b);
        b.set_device_dirty();
        REQUIRE(rb(5) == 10);
        REQUIRE(rb(half) == 4 * half);

        // A view made while the source is device-dirty is device-dirty too.
        double_on_device(b);
        b.set_device_dirty();
        loom::Buffer<int> t = b.translated(0, -10);
        REQUIRE(t.device_dirty());
        b = loom::Buffer<int>(); // the views keep the memory alive
        double_on_device(t);
        REQUIRE(t(-10 + 3) == 3 * 8);
        REQUIRE(rc(half + 1) == (half + 1) * 16); // the host memory t's read updated
    }
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: slices and in-place crops of device memory", "[gpu][opencl]") {
    const int64_t live = loom_device_live_allocations();
    {
        loom::Buffer<int> b(half, 4);
        b.fill([](int x, int y) { return x + 10000 * y; });
        b.copy_to_device();
        loom::Buffer<int> row = b.sliced(1, 2);
        REQUIRE(row.dimensions() == 1);
        REQUIRE(row.has_device_allocation());
        double_on_device(row);
        row.set_device_dirty();
        REQUIRE(row(9) == 2 * (9 + 20000));
        REQUIRE(b(9, 2) == 2 * (9 + 20000));
        REQUIRE(b(9, 1) == 9 + 10000);

        loom::Buffer<int> flat(n);
        flat.fill(1);
        flat.copy_to_device();
        loom::Buffer<int> shared = flat;
        flat.crop(0, half, half);
        REQUIRE(shared.dim(0).min() == half); // copies share the crop
        REQUIRE(flat.has_device_allocation());
        double_on_device(flat);
        flat.set_device_dirty();
        REQUIRE(flat(n - 1) == 2);
    }
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: a crop the device cannot make is refused, leaving the buffer as it was",
          "[gpu][opencl]") {
    loom::Buffer<int> b(std::vector<int>{n}, "image");
    b.copy_to_device();
    REQUIRE_THROWS_AS(b.cropped(0, 1, 4), loom::RuntimeError);
    REQUIRE_THROWS_WITH(b.cropped(0, 1, 4),
                        Catch::Contains("Buffer image") && Catch::Contains("alignment"));
    REQUIRE_THROWS_WITH(b.crop(0, 1, 4), Catch::Contains("alignment"));
    REQUIRE(b.dim(0).min() == 0);
    REQUIRE(b.dim(0).extent() == n);
    REQUIRE(b.has_device_allocation());
    // Without device memory, any crop is a host view.
    b.device_free();
    loom::Buffer<int> c = b.cropped(0, 1, 4);
    REQUIRE(!c.has_device_allocation());
    REQUIRE(c.dim(0).min() == 1);
}
