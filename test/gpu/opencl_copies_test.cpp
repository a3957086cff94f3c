// Host <-> device copies through the generic calls of LoomRuntime.h: the
// dirty-flag rules, strided crops of host memory, device crops and slices,
// buffer_copy, and the live-allocation count.

#include <catch2/catch.hpp>

#include "runtime_test_util.h"

using namespace gpu_rt_test;

namespace {

// Device -> host of `b` regardless of its flags (sets device-dirty first).
int force_to_host(void *uc, loom_buffer_t *b) {
    b->flags |= loom_buffer_flag_device_dirty;
    return loom_copy_to_host(uc, b);
}

const char *fill_source() {
    static const std::string s = unique_source(R"(
__kernel void fill(__global int *out, int value) {
    out[get_group_id(0) * get_local_size(0) + get_local_id(0)] = value;
}
)");
    return s.c_str();
}

int fill_on_device(void *uc, loom_buffer_t *b, int elements, int value) {
    const uint64_t args[] = {uint64_t(reinterpret_cast<uintptr_t>(b)), uint64_t(value)};
    return loom_device_run(uc, loom_device_api_opencl, fill_source(), "fill", elements, 1, 1, 1, 1,
                           1, 0, "b4", args);
}

} // namespace

TEST_CASE("gpu: copies follow the dirty flags", "[gpu][opencl]") {
    ErrorCapture errors;
    HostBuffer<int> b({16});
    for (int i = 0; i < 16; i++) b[size_t(i)] = i;

    // New device memory gets the host's data even without host-dirty.
    REQUIRE(loom_copy_to_device(errors.uc(), b.raw(), opencl()) == 0);
    REQUIRE(b.buf.device != 0);
    REQUIRE(b.buf.device_interface == opencl());
    REQUIRE(!b.host_dirty());

    // A host change without set_host_dirty is not uploaded...
    b[3] = 300;
    REQUIRE(loom_copy_to_device(errors.uc(), b.raw(), opencl()) == 0);
    b[3] = -1;
    REQUIRE(force_to_host(errors.uc(), b.raw()) == 0);
    REQUIRE(b[3] == 3);
    // ...with it, it is, and the flag clears.
    b[3] = 300;
    REQUIRE(loom_buffer_set_host_dirty(errors.uc(), b.raw(), 1) == 0);
    REQUIRE(loom_copy_to_device(errors.uc(), b.raw(), opencl()) == 0);
    REQUIRE(!b.host_dirty());
    b[3] = -1;
    REQUIRE(force_to_host(errors.uc(), b.raw()) == 0);
    REQUIRE(b[3] == 300);
    REQUIRE(!b.device_dirty());

    // copy_to_host copies only a device-dirty buffer.
    REQUIRE(fill_on_device(errors.uc(), b.raw(), 16, 42) == 0);
    REQUIRE(loom_copy_to_host(errors.uc(), b.raw()) == 0);
    REQUIRE(b[0] == 0);
    REQUIRE(loom_buffer_set_device_dirty(errors.uc(), b.raw(), 1) == 0);
    REQUIRE(loom_copy_to_host(errors.uc(), b.raw()) == 0);
    REQUIRE(b[0] == 42);
    REQUIRE(b[15] == 42);
    INFO(errors.text);
    REQUIRE(errors.text.empty());

    // Dirty on both sides: data was lost somewhere, so both copies refuse.
    b.buf.flags |= loom_buffer_flag_host_dirty | loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), b.raw()) == loom_error_code_device);
    REQUIRE(loom_copy_to_device(errors.uc(), b.raw(), opencl()) == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("both host-dirty and device-dirty"));
    b.buf.flags = 0;
    REQUIRE(loom_device_free(errors.uc(), b.raw()) == 0);
    REQUIRE(b.buf.device == 0);
    REQUIRE(b.buf.device_interface == nullptr);
}

TEST_CASE("gpu: a device-only buffer cannot be copied to the host", "[gpu][opencl]") {
    ErrorCapture errors;
    HostBuffer<int> b({8}, /*with_host=*/false);
    REQUIRE(loom_device_malloc(errors.uc(), b.raw(), opencl()) == 0);
    REQUIRE(fill_on_device(errors.uc(), b.raw(), 8, 1) == 0);
    b.buf.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), b.raw()) == loom_error_code_device);
    REQUIRE_THAT(errors.text,
                 Catch::Contains("device-only buffer") && Catch::Contains("host pointer is NULL"));
    REQUIRE(loom_device_free(errors.uc(), b.raw()) == 0);
}

TEST_CASE("gpu: copies of a strided crop of host memory leave the gaps alone", "[gpu][opencl]") {
    // A 4x3 window at (2, 1) of a 10x5 host image: rows 10 apart.
    std::vector<int> image(50, -7);
    loom_dimension_t dims[2] = {{2, 4, 1, 0}, {1, 3, 10, 0}};
    loom_buffer_t crop{};
    crop.host = reinterpret_cast<uint8_t *>(&image[1 * 10 + 2]);
    crop.type = loom_type_t{loom_type_int, 32, 1};
    crop.dimensions = 2;
    crop.dim = dims;
    for (int y = 1; y < 4; y++)
        for (int x = 2; x < 6; x++) image[size_t(y * 10 + x)] = x + 100 * y;
    ErrorCapture errors;
    REQUIRE(loom_copy_to_device(errors.uc(), &crop, opencl()) == 0);
    // The device memory spans 2 * 10 + 4 = 24 ints; fill all of it, gaps too.
    REQUIRE(fill_on_device(errors.uc(), &crop, 24, 9) == 0);
    crop.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), &crop) == 0);
    INFO(errors.text);
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < 10; x++) {
            bool inside = y >= 1 && y < 4 && x >= 2 && x < 6;
            INFO("x " << x << " y " << y);
            REQUIRE(image[size_t(y * 10 + x)] == (inside ? 9 : -7));
        }
    }
    REQUIRE(loom_device_free(errors.uc(), &crop) == 0);
}

TEST_CASE("gpu: device crops and slices share the parent's device memory", "[gpu][opencl]") {
    ErrorCapture errors;
    const loom_device_interface_t *cl = opencl();
    // 256 ints per row: every row starts at a multiple of 1024 bytes, which
    // satisfies any device's sub-buffer alignment.
    HostBuffer<int> parent({256, 4});
    REQUIRE(loom_copy_to_device(errors.uc(), parent.raw(), cl) == 0);
    const int64_t live = loom_device_live_allocations();

    // Slice row 2, and crop rows 1..1 from a crop of rows 1..3.
    loom_dimension_t slice_dim = {0, 256, 1, 0};
    loom_buffer_t slice = parent.buf;
    slice.device = 0;
    slice.device_interface = nullptr;
    slice.dimensions = 1;
    slice.dim = &slice_dim;
    REQUIRE(cl->device_slice(errors.uc(), parent.raw(), 1, 2, &slice) == 0);
    loom_dimension_t crop_dims[2] = {{0, 256, 1, 0}, {1, 3, 256, 0}};
    loom_buffer_t crop = parent.buf;
    crop.device = 0;
    crop.device_interface = nullptr;
    crop.dim = crop_dims;
    REQUIRE(cl->device_crop(errors.uc(), parent.raw(), &crop) == 0);
    loom_dimension_t inner_dims[2] = {{0, 256, 1, 0}, {1, 1, 256, 0}};
    loom_buffer_t inner = crop;
    inner.device = 0;
    inner.device_interface = nullptr;
    inner.dim = inner_dims;
    REQUIRE(cl->device_crop(errors.uc(), &crop, &inner) == 0);
    REQUIRE(loom_device_live_allocations() == live + 3);

    REQUIRE(fill_on_device(errors.uc(), &slice, 256, 22) == 0);
    REQUIRE(fill_on_device(errors.uc(), &inner, 256, 11) == 0);
    REQUIRE(force_to_host(errors.uc(), parent.raw()) == 0);
    INFO(errors.text);
    for (int y = 0; y < 4; y++) {
        int expected = y == 1 ? 11 : y == 2 ? 22 : 0;
        for (int x = 0; x < 256; x += 51) REQUIRE(parent[size_t(y * 256 + x)] == expected);
    }
    REQUIRE(cl->device_release_crop(errors.uc(), &inner) == 0);
    REQUIRE(cl->device_release_crop(errors.uc(), &crop) == 0);
    // device_free of a slice releases it like device_release_crop.
    REQUIRE(loom_device_free(errors.uc(), &slice) == 0);
    REQUIRE(loom_device_live_allocations() == live);
    REQUIRE(loom_device_free(errors.uc(), parent.raw()) == 0);
}

TEST_CASE("gpu: a crop at an unaligned offset is refused clearly", "[gpu][opencl]") {
    ErrorCapture errors;
    HostBuffer<uint8_t> parent({4096});
    REQUIRE(loom_device_malloc(errors.uc(), parent.raw(), opencl()) == 0);
    loom_dimension_t dim = {3, 100, 1, 0}; // 3 bytes in
    loom_buffer_t crop = parent.buf;
    crop.device = 0;
    crop.device_interface = nullptr;
    crop.dim = &dim;
    REQUIRE(opencl()->device_crop(errors.uc(), parent.raw(), &crop) == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN") &&
                                  Catch::Contains("starts 3 bytes"));
    REQUIRE(crop.device == 0);
    // A crop outside the parent is refused as well.
    errors.text.clear();
    dim = {4000, 200, 1, 0};
    REQUIRE(opencl()->device_crop(errors.uc(), parent.raw(), &crop) == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("outside the source"));
    REQUIRE(loom_device_free(errors.uc(), parent.raw()) == 0);
}

TEST_CASE("gpu: buffer_copy copies a region between host and device", "[gpu][opencl]") {
    ErrorCapture errors;
    const loom_device_interface_t *cl = opencl();
    HostBuffer<int> src({8, 6}), dst_full({8, 6});
    for (int i = 0; i < 48; i++) src[size_t(i)] = i;
    // dst: the 3x2 region at (4, 3) of dst_full, seen with its own dims.
    loom_dimension_t region[2] = {{4, 3, 1, 0}, {3, 2, 8, 0}};
    loom_buffer_t dst = dst_full.buf;
    dst.host = reinterpret_cast<uint8_t *>(&dst_full[3 * 8 + 4]);
    dst.dim = region;

    // Host -> device of dst, then back through the flags.
    REQUIRE(cl->buffer_copy(errors.uc(), src.raw(), cl, &dst) == 0);
    REQUIRE((dst.flags & loom_buffer_flag_device_dirty) != 0);
    REQUIRE(loom_copy_to_host(errors.uc(), &dst) == 0);
    INFO(errors.text);
    for (int y = 0; y < 6; y++) {
        for (int x = 0; x < 8; x++) {
            bool inside = x >= 4 && x < 7 && y >= 3 && y < 5;
            REQUIRE(dst_full[size_t(y * 8 + x)] == (inside ? y * 8 + x : 0));
        }
    }
    // Device -> host: src lives on the device only (device-dirty), into a
    // host-only buffer.
    REQUIRE(loom_copy_to_device(errors.uc(), src.raw(), cl) == 0);
    REQUIRE(fill_on_device(errors.uc(), src.raw(), 48, 5) == 0);
    src.buf.flags |= loom_buffer_flag_device_dirty;
    HostBuffer<int> out({8, 6});
    REQUIRE(cl->buffer_copy(errors.uc(), src.raw(), nullptr, out.raw()) == 0);
    REQUIRE(out[0] == 5);
    REQUIRE(out[47] == 5);
    REQUIRE(out.host_dirty());
    // A destination larger than the source is refused.
    HostBuffer<int> big({9, 6});
    REQUIRE(cl->buffer_copy(errors.uc(), src.raw(), nullptr, big.raw()) == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("is not inside the source"));
    src.buf.flags = 0;
    REQUIRE(loom_device_free(errors.uc(), src.raw()) == 0);
    REQUIRE(loom_device_free(errors.uc(), &dst) == 0);
}

TEST_CASE("gpu: live allocations return to zero and freed memory is reused", "[gpu][opencl]") {
    ErrorCapture errors;
    opencl()->release(nullptr); // an empty pool: the reuse below is certain
    const int64_t before = loom_device_live_allocations();
    HostBuffer<float> a({1000}), b({1000}), c({3});
    REQUIRE(loom_device_malloc(errors.uc(), a.raw(), opencl()) == 0);
    REQUIRE(loom_device_malloc(errors.uc(), c.raw(), opencl()) == 0);
    REQUIRE(loom_device_live_allocations() == before + 2);
    const uint64_t handle = a.buf.device;
    REQUIRE(loom_device_free(errors.uc(), a.raw()) == 0);
    REQUIRE(loom_device_live_allocations() == before + 1);
    // The same size class comes back from the pool.
    REQUIRE(loom_device_malloc(errors.uc(), b.raw(), opencl()) == 0);
    REQUIRE(b.buf.device == handle);
    // Allocating again is a no-op; freeing twice through a stale copy is an error.
    REQUIRE(loom_device_malloc(errors.uc(), b.raw(), opencl()) == 0);
    loom_buffer_t stale = c.buf;
    REQUIRE(loom_device_free(errors.uc(), c.raw()) == 0);
    REQUIRE(loom_device_free(errors.uc(), &stale) == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("was freed already"));
    REQUIRE(loom_device_free(errors.uc(), b.raw()) == 0);
    REQUIRE(loom_device_live_allocations() == before);

    // Pipeline-internal device buffers.
    loom_buffer_t *tmp =
        loom_device_buffer_create(errors.uc(), nullptr, 12345, loom_device_api_opencl);
    REQUIRE(tmp != nullptr);
    REQUIRE(tmp->dim[0].extent == 12345);
    REQUIRE(tmp->device != 0);
    REQUIRE(loom_device_live_allocations() == before + 1);
    REQUIRE(loom_device_buffer_destroy(errors.uc(), tmp) == 0);
    REQUIRE(loom_device_live_allocations() == before);
    // release() empties the pool; allocations still work afterwards.
    opencl()->release(nullptr);
    REQUIRE(loom_device_malloc(errors.uc(), a.raw(), opencl()) == 0);
    REQUIRE(loom_device_free(errors.uc(), a.raw()) == 0);
    REQUIRE(loom_device_live_allocations() == before);
}

TEST_CASE("gpu: negative strides cannot get device memory", "[gpu][opencl]") {
    ErrorCapture errors;
    HostBuffer<int> b({4, 4});
    b.dims[1].stride = -4;
    REQUIRE(loom_device_malloc(errors.uc(), b.raw(), opencl()) == loom_error_code_device);
    REQUIRE_THAT(errors.text,
                 Catch::Contains("negative stride -4") && Catch::Contains("dimension 1"));
    REQUIRE(b.buf.device == 0);
}
