// loom::Buffer's device API on the OpenCL device: copies, dirty flags, and
// host reads that never see stale data.

#include <catch2/catch.hpp>

#include "gpu/gpu_test_util.h"
#include "loom/Buffer.h"
#include "loom/Error.h"
#include "loom/Target.h"
#include "runtime_test_util.h"

using namespace gpu_rt_test;

namespace {

// Doubles every element of a 1-D int buffer on the device.
void double_on_device(const loom::Buffer<int> &b) {
    static const std::string source = unique_source(R"(
__kernel void twice(__global int *data) {
    int i = get_global_id(0);
    data[i] = 2 * data[i];
}
)");
    ErrorCapture errors;
    const uint64_t args[] = {uint64_t(reinterpret_cast<uintptr_t>(b.raw_buffer()))};
    int r = loom_device_run(errors.uc(), loom_device_api_opencl, source.c_str(), "twice", b.width(),
                            1, 1, 1, 1, 1, 0, "b", args);
    INFO(errors.text);
    REQUIRE(r == 0);
}

} // namespace

TEST_CASE("gpu: Buffer reads after a kernel see the device's data", "[gpu][opencl]") {
    const int64_t live = loom_device_live_allocations();
    {
        loom::Buffer<int> b(10);
        const loom::Buffer<int> &reader = b;
        for (int i = 0; i < 10; i++) b(i) = i + 1;
        REQUIRE(b.host_dirty()); // written through a non-const Buffer
        REQUIRE(!b.has_device_allocation());
        b.copy_to_device();
        REQUIRE(b.has_device_allocation());
        REQUIRE(!b.host_dirty());
        REQUIRE(loom_device_live_allocations() == live + 1);
        double_on_device(b);
        b.set_device_dirty();
        REQUIRE(b.device_dirty());
        // A const read copies back first and leaves the flags clean.
        REQUIRE(reader(4) == 10);
        REQUIRE(!b.device_dirty());
        REQUIRE(!b.host_dirty());
        for (int i = 0; i < 10; i++) REQUIRE(reader(i) == 2 * (i + 1));

        // A non-const access copies back too, then marks the host as written.
        double_on_device(b);
        b.set_device_dirty();
        b(0) = b(0) + 80; // 4 + 80
        REQUIRE(!b.device_dirty());
        REQUIRE(b.host_dirty());
        REQUIRE(reader(1) == 8);
        b.copy_to_device(loom::DeviceAPI::OpenCL);
        REQUIRE(!b.host_dirty());
        double_on_device(b);
        b.set_device_dirty();
        // copy(), data() and for_each_value see fresh data too.
        loom::Buffer<int> c = b.copy();
        REQUIRE(!c.has_device_allocation());
        REQUIRE(reader(0) == 168);
        REQUIRE(c(0) == 168);
        REQUIRE(c(9) == 80);
        double_on_device(b);
        b.set_device_dirty();
        REQUIRE(b.data()[1] == 32);
        REQUIRE(!b.host_dirty());
        double_on_device(b);
        b.set_device_dirty();
        int sum = 0;
        reader.for_each_value([&](int &v) { sum += v; });
        REQUIRE(sum == 8 * (84 + 4 * 54));
        // for_each_value may have written: host-dirty now.
        REQUIRE(b.host_dirty());
    }
    // The last reference freed the device memory.
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: Buffer copies share device memory and flags", "[gpu][opencl]") {
    const int64_t live = loom_device_live_allocations();
    loom::Buffer<int> a(8);
    a.fill(3);
    a.copy_to_device(loom::Target("host-opencl"));
    loom::Buffer<int> view = a;
    double_on_device(view);
    view.set_device_dirty();
    REQUIRE(a.device_dirty());
    REQUIRE(a(7) == 6);
    a = loom::Buffer<int>();
    REQUIRE(loom_device_live_allocations() == live + 1);
    view = loom::Buffer<int>();
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: Buffer::device_free keeps device-dirty data", "[gpu][opencl]") {
    loom::Buffer<int> b(4);
    b.fill(5);
    b.copy_to_device();
    double_on_device(b);
    b.set_device_dirty();
    b.device_free();
    REQUIRE(!b.has_device_allocation());
    REQUIRE(!b.device_dirty());
    REQUIRE(b(2) == 10);
}

TEST_CASE("gpu: Buffer::device_deallocate drops the reference and keeps the data",
          "[gpu][opencl]") {
    const int64_t live = loom_device_live_allocations();
    loom::Buffer<int> b(4);
    b.fill(7);
    b.copy_to_device();
    loom::Buffer<int> crop = b.cropped(0, 0, 4);
    const int64_t with_crop = loom_device_live_allocations(); // the crop counts too
    REQUIRE(with_crop > live);
    double_on_device(b);
    b.set_device_dirty();
    REQUIRE(b.device_deallocate() == 0);
    REQUIRE(!b.has_device_allocation());
    REQUIRE(!b.device_dirty());
    REQUIRE(b(3) == 14);
    // The crop keeps the memory alive; it goes with the crop.
    REQUIRE(crop.has_device_allocation());
    REQUIRE(loom_device_live_allocations() == with_crop);
    crop.device_deallocate();
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: Buffer device errors throw RuntimeError with the reason", "[gpu][opencl]") {
    loom::Buffer<int> b(4);
    b.set_name("img");
    REQUIRE_THROWS_WITH(b.copy_to_device(loom::DeviceAPI::Host),
                        Catch::Contains("Buffer img") && Catch::Contains("needs a GPU DeviceAPI"));
    REQUIRE_THROWS_WITH(b.copy_to_device(loom::Target("host")),
                        Catch::Contains("has no GPU feature"));
    REQUIRE_THROWS_WITH(b.set_device_dirty(), Catch::Contains("without device memory"));
    b.copy_to_device();
    b.set_host_dirty();
    REQUIRE_THROWS_WITH(b.set_device_dirty(), Catch::Contains("host's changes would be lost"));
    b.copy_to_device();
    // A handle this runtime allocated for another buffer cannot be wrapped.
    loom::Buffer<int> other(4);
    REQUIRE_THROWS_AS(other.device_wrap_native(loom::DeviceAPI::OpenCL, b.raw_buffer()->device),
                      loom::RuntimeError);
    REQUIRE_THROWS_WITH(other.device_wrap_native(loom::DeviceAPI::OpenCL, b.raw_buffer()->device),
                        Catch::Contains("Buffer ") && Catch::Contains("allocated"));
    // Freed memory is reused; device_sync waits without error.
    b.device_sync();
    b.device_free();
    b.device_malloc();
    REQUIRE(b.has_device_allocation());
}

TEST_CASE("gpu: Default_GPU on a Buffer is the JIT target's GPU API, else CUDA where a CUDA GPU "
          "answers, else OpenCL",
          "[gpu]") {
    // The suite runs with LOOM_GPU_TEST_API=cuda only on a machine with a
    // GPU, and with OpenCL (PoCL) where there is none; LOOM_JIT_TARGET is
    // not set.
    loom::Buffer<int> b(16);
    b.fill(7);
    b.copy_to_device();
    const loom_device_interface_t *iface = b.raw_buffer()->device_interface;
    REQUIRE(iface != nullptr);
    bool cuda = gpu_test::gpu_device_api() == loom::DeviceAPI::CUDA;
    CHECK(std::string(iface->name) == (cuda ? "CUDA" : "OpenCL"));
    // The data made the round trip.
    b.set_device_dirty();
    b.copy_to_host();
    for (int i = 0; i < 16; i++) CHECK(b(i) == 7);
}
