// loom::Runtime::Buffer (LoomBuffer.h) with OpenCL device memory: copies
// share the allocation and the last one frees it, a crop releases only its
// sub-buffer and keeps the parent's memory alive, and copy() of a
// device-dirty buffer holds what the kernel wrote.

#include <catch2/catch.hpp>

#include "LoomBuffer.h"
#include "runtime_test_util.h"

using namespace gpu_rt_test;
using Image = loom::Runtime::Buffer<int, 1>;

namespace {

// Adds `amount` to every element of b on the device; b is device-dirty after.
void add_on_device(Image &b, int amount) {
    static const std::string source = unique_source(R"(
__kernel void add_rt(__global int *data, int amount) {
    int i = get_global_id(0);
    data[i] += amount;
}
)");
    ErrorCapture errors;
    REQUIRE(b.copy_to_device(opencl(), errors.uc()) == 0);
    const std::vector<uint64_t> args = {uint64_t(reinterpret_cast<uintptr_t>(b.raw_buffer())),
                                        uint64_t(uint32_t(amount))};
    int r = run_1d(errors.uc(), source, "add_rt", b.width(), 1, "b4", args);
    INFO(errors.text);
    REQUIRE(r == 0);
    b.set_device_dirty();
}

// Offsets of whole kilobytes keep sub-buffers at the device's alignment.
constexpr int n = 2048, half = 1024;

} // namespace

TEST_CASE("gpu: Runtime::Buffer copies share OpenCL memory; the last frees it",
          "[gpu][opencl][runtime_buffer]") {
    const int64_t live = loom_device_live_allocations();
    {
        Image a(n);
        a.fill(1);
        add_on_device(a, 10);
        REQUIRE(loom_device_live_allocations() == live + 1);
        Image b = a;
        REQUIRE(b.raw_buffer()->device == a.raw_buffer()->device);
        REQUIRE(b.device_dirty());
        a = Image();
        REQUIRE(loom_device_live_allocations() == live + 1); // b still uses it
        Image snapshot = b.copy();
        REQUIRE(!snapshot.has_device_allocation());
        REQUIRE(snapshot.all_equal(11));
        REQUIRE(!b.device_dirty());
        REQUIRE(loom_device_live_allocations() == live + 1);
    }
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: a Runtime::Buffer crop of OpenCL memory never frees the parent's",
          "[gpu][opencl][runtime_buffer]") {
    const int64_t live = loom_device_live_allocations();
    {
        Image parent(n);
        parent.fill(2);
        REQUIRE(parent.copy_to_device(opencl()) == 0);
        const uint64_t handle = parent.raw_buffer()->device;
        {
            Image crop = parent.cropped(0, half, half);
            REQUIRE(crop.raw_buffer()->device != handle);
            REQUIRE(loom_device_live_allocations() == live + 2);
            add_on_device(crop, 5);
            REQUIRE(crop.copy_to_host() == 0);
            REQUIRE(parent(half) == 7); // the host memory is shared too
            REQUIRE(parent(half - 1) == 2);
        }
        REQUIRE(loom_device_live_allocations() == live + 1);
        REQUIRE(parent.raw_buffer()->device == handle);
        // The parent's memory is intact: a kernel on it sees the crop's write.
        add_on_device(parent, 1);
        Image whole = parent.copy();
        REQUIRE(whole(0) == 3);
        REQUIRE(whole(n - 1) == 8);

        // A crop outliving its parent keeps the parent's memory alive.
        Image crop = parent.cropped(0, 0, half);
        parent = Image();
        REQUIRE(loom_device_live_allocations() == live + 2);
        add_on_device(crop, 1);
        REQUIRE(crop.copy().all_equal(4));
    }
    REQUIRE(loom_device_live_allocations() == live);
}
