// The CUDA driver runtime through the C ABI and loom::Buffer. Where no CUDA
// driver exists (CI), every entry point reports that clearly and leaves no
// allocation behind; where one exists (a GPU, or the stand-in driver of
// test/gpu/fake_cuda that ctest runs these tests against as "gpu_fake_cuda:"),
// hand-written CUDA C kernels run through loom_device_run with every
// argument kind, region copies move only a buffer's region, modules are
// compiled once and kept on disk, and the context hooks are used.

#include <catch2/catch.hpp>

#include <cstring>
#include <dirent.h>

#include "Loom.h"
#include "common/ScopedEnv.h"
#include "cuda_test_util.h"

using namespace gpu_rt_test;
using namespace cuda_rt_test;

namespace {

std::string set_source() {
    static const std::string s = unique_source(R"(
extern "C" __global__ void set_value(int *out, int value) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}
)");
    return s;
}

int set_on_device(void *uc, loom_buffer_t *b, int elements, int value) {
    return run_cuda_1d(uc, set_source(), "set_value", elements, 1, "b4",
                       {uint64_t(reinterpret_cast<uintptr_t>(b)), uint64_t(uint32_t(value))});
}

// Device -> host of `b` regardless of its flags.
int force_to_host(void *uc, loom_buffer_t *b) {
    b->flags |= loom_buffer_flag_device_dirty;
    return loom_copy_to_host(uc, b);
}

using Stats = gpu_rt_test::ProgramStats;
Stats stats() {
    return gpu_rt_test::program_stats(loom_device_api_cuda);
}

} // namespace

TEST_CASE("gpu: loom_device_run on CUDA returns an error code without a driver",
          "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    HostBuffer<int> out({8});
    const int64_t live = loom_device_live_allocations();
    if (!cuda_driver().usable) {
        int r = set_on_device(errors.uc(), out.raw(), 8, 7);
        REQUIRE(r == loom_error_code_device);
        INFO(errors.text);
        REQUIRE(is_no_driver_report(errors.text));
        REQUIRE(out.buf.device == 0);
        REQUIRE(loom_device_live_allocations() == live);
        Stats s = stats();
        REQUIRE(s.from_source == 0);
        REQUIRE(s.from_cache == 0);
        return;
    }
    REQUIRE(loom_copy_to_device(errors.uc(), out.raw(), cuda()) == 0);
    REQUIRE(loom_device_live_allocations() == live + 1);
    int r = set_on_device(errors.uc(), out.raw(), 8, 7);
    INFO(errors.text);
    REQUIRE(r == 0);
    REQUIRE(force_to_host(errors.uc(), out.raw()) == 0);
    for (int i = 0; i < 8; i++) REQUIRE(out[size_t(i)] == 7);
    // A kernel the program lacks is named in the error.
    r = run_cuda_1d(errors.uc(), set_source(), "no_such_kernel", 1, 1, "b4",
                    {out.arg(), uint64_t(1)});
    REQUIRE(r == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("no kernel named no_such_kernel"));
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: CUDA buffer operations of the C ABI fail cleanly without a driver",
          "[gpu][cuda][cuda_runtime]") {
    if (cuda_driver().usable) return; // the tests below exercise these with a driver
    const int64_t live = loom_device_live_allocations();
    HostBuffer<int> b({4, 4});
    {
        ErrorCapture errors;
        REQUIRE(loom_device_malloc(errors.uc(), b.raw(), cuda()) == loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
    }
    {
        ErrorCapture errors;
        REQUIRE(loom_copy_to_device(errors.uc(), b.raw(), cuda()) == loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
    }
    {
        ErrorCapture errors;
        REQUIRE(loom_device_wrap_native(errors.uc(), b.raw(), cuda(), 0x10000) ==
                loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
    }
    {
        ErrorCapture errors;
        REQUIRE(loom_buffer_prepare_device_input(errors.uc(), b.raw(), loom_device_api_cuda) ==
                loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
    }
    REQUIRE(b.buf.device == 0);
    REQUIRE(b.buf.device_interface == nullptr);
    // Nothing of CUDA ever started: syncing, releasing and resetting are no-ops.
    ErrorCapture errors;
    REQUIRE(loom_device_sync(errors.uc(), nullptr) == 0);
    cuda()->release(errors.uc());
    REQUIRE(loom_device_reset(errors.uc(), loom_device_api_cuda) == 0);
    REQUIRE(errors.text.empty());
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: CUDA device limits come from the driver", "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    loom_device_limits_t limits;
    int r = loom_device_get_limits(errors.uc(), loom_device_api_cuda, &limits);
    if (!cuda_driver().usable) {
        REQUIRE(r == loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    INFO(errors.text);
    REQUIRE(r == 0);
    REQUIRE(limits.max_threads_per_block >= 64);
    REQUIRE(limits.max_threads[0] >= 64);
    REQUIRE(limits.max_threads[2] >= 1);
    REQUIRE(limits.max_shared_bytes >= 48 * 1024);
    REQUIRE(std::strlen(limits.device_name) > 0);
    if (fake_driver()) {
        REQUIRE(limits.max_threads_per_block == 1024);
        REQUIRE(limits.max_threads[2] == 64);
        REQUIRE(limits.max_shared_bytes == 99 * 1024);
        REQUIRE(std::string(limits.device_name) == "Loom stand-in GPU");
    }
}

TEST_CASE("gpu: Buffer::copy_to_device(DeviceAPI::CUDA) says when there is no driver",
          "[gpu][cuda][cuda_runtime]") {
    const int64_t live = loom_device_live_allocations();
    loom::Buffer<float> b(std::vector<int>{16}, "cuda_input");
    for (int i = 0; i < 16; i++) b(i) = float(i) / 2;
    if (!cuda_driver().usable) {
        if (cuda_driver().exact)
            REQUIRE_THROWS_WITH(b.copy_to_device(loom::DeviceAPI::CUDA),
                                "Buffer cuda_input: " + cuda_driver().message);
        else
            REQUIRE_THROWS_WITH(b.copy_to_device(loom::DeviceAPI::CUDA),
                                Catch::StartsWith("Buffer cuda_input: " + cuda_driver().message));
        REQUIRE(!b.has_device_allocation());
        REQUIRE(loom_device_live_allocations() == live);
        return;
    }
    REQUIRE(b.copy_to_device(loom::DeviceAPI::CUDA) == 0);
    REQUIRE(b.has_device_allocation());
    REQUIRE(b.raw_buffer()->device_interface == cuda());
    REQUIRE(loom_device_live_allocations() == live + 1);
    b.set_device_dirty();
    const loom::Buffer<float> &reader = b;
    for (int i = 0; i < 16; i++) REQUIRE(reader(i) == float(i) / 2);
    b.device_free();
    REQUIRE(loom_device_live_allocations() == live);
}

TEST_CASE("gpu: realizing a host-cuda pipeline without a driver throws RuntimeError",
          "[gpu][cuda]") {
    loom::Func f("cuda_twice");
    loom::Var x("x"), xo("xo"), xi("xi");
    f(x) = x * 2;
    f.gpu_tile(x, xo, xi, 16);
    loom::Target target = loom::get_host_target().with_feature(loom::Target::CUDA);
    const int64_t live = loom_device_live_allocations();
    if (!cuda_driver().usable) {
        if (cuda_driver().exact)
            REQUIRE_THROWS_WITH(f.realize({64}, target), cuda_driver().message);
        else
            REQUIRE_THROWS_WITH(f.realize({64}, target), Catch::StartsWith(cuda_driver().message));
        REQUIRE(loom_device_live_allocations() == live);
        return;
    }
    if (std::getenv("LOOM_CUDA_DRIVER_LIBRARY")) return; // a stand-in runs no generated kernels
    loom::Buffer<int> out = f.realize({64}, target);
    for (int i = 0; i < 64; i++) REQUIRE(out(i) == 2 * i);
}

// ---- With a driver (a GPU, or the stand-in): the runtime for real. ----

TEST_CASE("gpu: CUDA kernels get every argument kind and dynamic shared memory",
          "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    HostBuffer<int64_t> out({6});
    const std::string source = unique_source(R"(
extern "C" __global__ void every_kind(long long *out, signed char a, short b, int c,
                                      long long d, float e) {
    extern __shared__ int scratch[];
    scratch[threadIdx.x] = c + (int)threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = a;
        out[1] = b;
        out[2] = scratch[blockDim.x - 1];
        out[3] = d;
        out[4] = (long long)(e * 4.0f);
        out[5] = blockDim.x;
    }
}
)");
    float e = 2.5f;
    uint32_t e_bits = 0;
    std::memcpy(&e_bits, &e, 4);
    const std::vector<uint64_t> args = {out.arg(),
                                        uint64_t(uint8_t(-3)),
                                        uint64_t(uint16_t(-300)),
                                        uint64_t(70000),
                                        uint64_t(1) << 40,
                                        uint64_t(e_bits),
                                        0};
    if (!cuda_driver().usable) {
        REQUIRE(run_cuda_1d(errors.uc(), source, "every_kind", 1, 32, "b12484s", args, 32 * 4) ==
                loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), cuda()) == 0);
    int r = run_cuda_1d(errors.uc(), source, "every_kind", 1, 32, "b12484s", args, 32 * 4);
    INFO(errors.text);
    REQUIRE(r == 0);
    REQUIRE(force_to_host(errors.uc(), out.raw()) == 0);
    CHECK(out[0] == -3);
    CHECK(out[1] == -300);
    CHECK(out[2] == 70000 + 31);
    CHECK(out[3] == int64_t(1) << 40);
    CHECK(out[4] == 10);
    CHECK(out[5] == 32);

    // Bad launches are named: 's' not last, dynamic shared bytes without 's'.
    errors.text.clear();
    r = run_cuda_1d(errors.uc(), source, "every_kind", 1, 32, "bs4", {out.arg(), 0, 1});
    REQUIRE(r == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("CUDA kernel every_kind: the 's' (dynamic shared "
                                              "memory) argument must be the last one"));
    errors.text.clear();
    r = run_cuda_1d(errors.uc(), source, "every_kind", 1, 32, "b1248", args, 64);
    REQUIRE(r == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("64 bytes of dynamic shared memory but no 's' "
                                              "argument"));
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
}

TEST_CASE("gpu: CUDA launches beyond a kernel's block limit name the kernel and the limit",
          "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    HostBuffer<int> out({256});
    const std::string source = unique_source(R"(
extern "C" __global__ void __launch_bounds__(64) small_block(int *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
)");
    if (!cuda_driver().usable) {
        REQUIRE(run_cuda_1d(errors.uc(), source, "small_block", 2, 128, "b", {out.arg()}) ==
                loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), cuda()) == 0);
    REQUIRE(run_cuda_1d(errors.uc(), source, "small_block", 4, 64, "b", {out.arg()}) == 0);
    int r = run_cuda_1d(errors.uc(), source, "small_block", 2, 128, "b", {out.arg()});
    REQUIRE(r == loom_error_code_device);
    REQUIRE_THAT(errors.text,
                 Catch::Contains("CUDA kernel small_block: a block of 128x1x1 = 128 threads "
                                 "exceeds the kernel's limit of 64 threads per block"));
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
}

TEST_CASE("gpu: CUDA kernels get more than 48 KB of dynamic shared memory",
          "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    HostBuffer<int> out({1});
    const std::string source = unique_source(R"(
extern "C" __global__ void big_shared(int *out, int n) {
    extern __shared__ int scratch[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) scratch[i] = i;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int i = 0; i < n; i++) sum += scratch[i];
        out[0] = sum;
    }
}
)");
    const int n = 16384; // 64 KB
    if (!cuda_driver().usable) {
        REQUIRE(run_cuda_1d(errors.uc(), source, "big_shared", 1, 128, "b4s",
                            {out.arg(), uint64_t(n), 0}, n * 4) == loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), cuda()) == 0);
    int r = run_cuda_1d(errors.uc(), source, "big_shared", 1, 128, "b4s",
                        {out.arg(), uint64_t(n), 0}, n * 4);
    INFO(errors.text);
    REQUIRE(r == 0);
    REQUIRE(force_to_host(errors.uc(), out.raw()) == 0);
    REQUIRE(out[0] == n * (n - 1) / 2);
    // More than any block may have is refused before the driver sees it.
    r = run_cuda_1d(errors.uc(), source, "big_shared", 1, 128, "b4s", {out.arg(), uint64_t(n), 0},
                    1 << 30);
    REQUIRE(r == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("bytes of shared memory per block"));
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
}

TEST_CASE("gpu: CUDA programs are compiled once and then loaded from the disk cache",
          "[gpu][cuda][cuda_runtime]") {
    std::string dir = "/tmp/loom_cuda_cache_XXXXXX";
    REQUIRE(mkdtemp(&dir[0]) != nullptr);
    loom_test::ScopedEnv cache("LOOM_KERNEL_CACHE_DIR", dir.c_str());
    ErrorCapture errors;
    HostBuffer<int> out({4});
    const std::string source = unique_source(R"(
extern "C" __global__ void cached(int *out) { out[threadIdx.x] = 40 + threadIdx.x; }
)");
    if (!cuda_driver().usable) {
        REQUIRE(run_cuda_1d(errors.uc(), source, "cached", 1, 4, "b", {out.arg()}) ==
                loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), cuda()) == 0);
    Stats before = stats();
    REQUIRE(run_cuda_1d(errors.uc(), source, "cached", 1, 4, "b", {out.arg()}) == 0);
    REQUIRE(run_cuda_1d(errors.uc(), source, "cached", 1, 4, "b", {out.arg()}) == 0);
    Stats once = stats();
    INFO(errors.text);
    REQUIRE(once.from_source == before.from_source + 1);
    REQUIRE(once.from_cache == before.from_cache);
    // After release() the module is loaded again, from the disk cache.
    cuda()->release(errors.uc());
    REQUIRE(run_cuda_1d(errors.uc(), source, "cached", 1, 4, "b", {out.arg()}) == 0);
    Stats again = stats();
    REQUIRE(again.from_source == once.from_source);
    REQUIRE(again.from_cache == once.from_cache + 1);
    REQUIRE(force_to_host(errors.uc(), out.raw()) == 0);
    for (int i = 0; i < 4; i++) REQUIRE(out[size_t(i)] == 40 + i);
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') std::remove((dir + "/" + e->d_name).c_str());
        closedir(d);
    }
    rmdir(dir.c_str());
}

TEST_CASE("gpu: CUDA copies of strided crops of host memory move only the crop",
          "[gpu][cuda][cuda_runtime]") {
    // A 3-D host array and a crop of it in place (the array's strides): the
    // crop's device memory mirrors those strides, and copies touch only the
    // crop's elements (one cuMemcpy3D, or 2D for the 2-D crop).
    const int W = 9, H = 7, D = 5;
    for (int dims : {2, 3}) {
        std::vector<int> host(size_t(W * H * D), -1);
        loom_dimension_t dim[3] = {{2, 4, 1, 0}, {1, 3, W, 0}, {1, 3, W * H, 0}};
        loom_buffer_t crop{};
        crop.host = reinterpret_cast<uint8_t *>(&host[size_t(2 + 1 * W + 1 * W * H)]);
        crop.type = loom_type_t{loom_type_int, 32, 1};
        crop.dimensions = dims;
        crop.dim = dim;
        auto inside = [&](int x, int y, int z) {
            return x >= 2 && x < 6 && y >= 1 && y < 4 && (dims == 2 ? z == 1 : z >= 1 && z < 4);
        };
        for (int z = 0; z < D; z++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    if (inside(x, y, z)) host[size_t(x + y * W + z * W * H)] = x + 10 * y + 100 * z;
        ErrorCapture errors;
        if (!cuda_driver().usable) {
            REQUIRE(loom_copy_to_device(errors.uc(), &crop, cuda()) == loom_error_code_device);
            REQUIRE(is_no_driver_report(errors.text));
            return;
        }
        REQUIRE(loom_copy_to_device(errors.uc(), &crop, cuda()) == 0);
        // Scribble over everything on the host, then bring the crop back.
        for (int &v : host) v = -7;
        int r = force_to_host(errors.uc(), &crop);
        INFO(errors.text);
        REQUIRE(r == 0);
        for (int z = 0; z < D; z++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    INFO(dims << "-D crop, at " << x << ", " << y << ", " << z);
                    REQUIRE(host[size_t(x + y * W + z * W * H)] ==
                            (inside(x, y, z) ? x + 10 * y + 100 * z : -7));
                }
        REQUIRE(loom_device_free(errors.uc(), &crop) == 0);
    }
}

TEST_CASE("gpu: CUDA device crops and slices point into their source",
          "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    const int64_t live = loom_device_live_allocations();
    HostBuffer<int> parent({8, 4});
    for (int i = 0; i < 32; i++) parent[size_t(i)] = i;
    if (!cuda_driver().usable) {
        REQUIRE(loom_copy_to_device(errors.uc(), parent.raw(), cuda()) == loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    REQUIRE(loom_copy_to_device(errors.uc(), parent.raw(), cuda()) == 0);
    // Row 2 as a slice, and a crop of columns 4..7 of rows 0..3.
    loom_dimension_t row_dim[1] = {{0, 8, 1, 0}};
    loom_buffer_t row{};
    row.type = parent.buf.type;
    row.dimensions = 1;
    row.dim = row_dim;
    REQUIRE(cuda()->device_slice(errors.uc(), parent.raw(), 1, 2, &row) == 0);
    REQUIRE(row.device == parent.buf.device + 2 * 8 * sizeof(int));
    loom_dimension_t crop_dim[2] = {{4, 4, 1, 0}, {0, 4, 8, 0}};
    loom_buffer_t crop{};
    crop.type = parent.buf.type;
    crop.dimensions = 2;
    crop.dim = crop_dim;
    REQUIRE(cuda()->device_crop(errors.uc(), parent.raw(), &crop) == 0);
    REQUIRE(loom_device_live_allocations() == live + 3);
    // Filling the slice on the device shows in the parent.
    REQUIRE(set_on_device(errors.uc(), &row, 8, 99) == 0);
    REQUIRE(force_to_host(errors.uc(), parent.raw()) == 0);
    for (int i = 0; i < 32; i++) REQUIRE(parent[size_t(i)] == (i / 8 == 2 ? 99 : i));
    // A crop is not released as a wrapped pointer, nor the parent as a crop.
    REQUIRE(loom_device_detach_native(errors.uc(), &crop) == loom_error_code_device);
    REQUIRE(cuda()->device_release_crop(errors.uc(), parent.raw()) == loom_error_code_device);
    // Freeing the parent first keeps its memory until the crops go.
    REQUIRE(loom_device_free(errors.uc(), parent.raw()) == 0);
    REQUIRE(loom_device_live_allocations() == live + 2);
    REQUIRE(cuda()->device_release_crop(errors.uc(), &row) == 0);
    REQUIRE(loom_device_free(errors.uc(), &crop) == 0); // a crop is freed as released
    REQUIRE(row.device == 0);
    REQUIRE(crop.device == 0);
    REQUIRE(loom_device_live_allocations() == live);
    // A pointer the runtime does not know is an error, not a crash.
    loom_buffer_t stale = parent.buf;
    stale.device = 0x1234;
    stale.device_interface = cuda();
    REQUIRE(loom_device_free(errors.uc(), &stale) == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("was not made by this CUDA runtime"));
    if (const FakeDriver *fake = fake_driver()) {
        REQUIRE(fake->context_depth() == 0); // every context pushed was popped
        long held = fake->live_allocations();
        cuda()->release(nullptr);
        REQUIRE(fake->live_allocations() < held); // the parent's block left the pool
    }
}

namespace {

struct HookCounts {
    int acquired = 0, released = 0;
};
HookCounts hook_counts;

int count_acquire(void *, void **context, void **stream) {
    hook_counts.acquired++;
    *context = nullptr; // the default context
    *stream = nullptr;
    return 0;
}
void count_release(void *, void *) {
    hook_counts.released++;
}
int failing_acquire(void *, void **, void **) {
    return -5;
}

} // namespace

TEST_CASE("gpu: the CUDA context hooks are called around each operation",
          "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    HostBuffer<int> out({8});
    if (!cuda_driver().usable) {
        // Without a driver the hooks are never reached.
        loom_cuda_context_hooks_t hooks{count_acquire, count_release};
        loom_cuda_set_context_hooks(&hooks);
        REQUIRE(set_on_device(errors.uc(), out.raw(), 8, 1) == loom_error_code_device);
        loom_cuda_set_context_hooks(nullptr);
        REQUIRE(is_no_driver_report(errors.text));
        REQUIRE(hook_counts.acquired == 0);
        return;
    }
    hook_counts = HookCounts{};
    loom_cuda_context_hooks_t hooks{count_acquire, count_release};
    loom_cuda_set_context_hooks(&hooks);
    REQUIRE(loom_copy_to_device(errors.uc(), out.raw(), cuda()) == 0);
    REQUIRE(set_on_device(errors.uc(), out.raw(), 8, 5) == 0);
    REQUIRE(force_to_host(errors.uc(), out.raw()) == 0);
    REQUIRE(hook_counts.acquired >= 3);
    REQUIRE(hook_counts.released == hook_counts.acquired);
    for (int i = 0; i < 8; i++) REQUIRE(out[size_t(i)] == 5);
    // A failing hook fails the operation, with its code in the message.
    loom_cuda_context_hooks_t failing{failing_acquire, nullptr};
    loom_cuda_set_context_hooks(&failing);
    REQUIRE(set_on_device(errors.uc(), out.raw(), 8, 6) == loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("the context hook's acquire returned -5"));
    loom_cuda_set_context_hooks(nullptr);
    // Frees call no hook.
    int acquired = hook_counts.acquired;
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
    REQUIRE(hook_counts.acquired == acquired);
}

TEST_CASE("gpu: CUDA buffer_copy copies a region between host and device memory",
          "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    HostBuffer<int> src({8, 6});
    for (int i = 0; i < 48; i++) src[size_t(i)] = i;
    // The destination: the region x 2..5, y 1..3 of an 8x6 host array.
    std::vector<int> host(48, 0);
    loom_dimension_t dim[2] = {{2, 4, 1, 0}, {1, 3, 8, 0}};
    loom_buffer_t dst{};
    dst.host = reinterpret_cast<uint8_t *>(&host[2 + 8]);
    dst.type = src.buf.type;
    dst.dimensions = 2;
    dst.dim = dim;
    if (!cuda_driver().usable) {
        REQUIRE(cuda()->buffer_copy(errors.uc(), src.raw(), cuda(), &dst) ==
                loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    REQUIRE(loom_copy_to_device(errors.uc(), src.raw(), cuda()) == 0);
    // Only the device holds the data now: the copy must read it from there.
    for (int i = 0; i < 48; i++) src[size_t(i)] = -1;
    src.buf.flags |= loom_buffer_flag_device_dirty;
    int r = cuda()->buffer_copy(errors.uc(), src.raw(), cuda(), &dst);
    INFO(errors.text);
    REQUIRE(r == 0);
    REQUIRE((dst.flags & loom_buffer_flag_device_dirty) != 0);
    REQUIRE(loom_copy_to_host(errors.uc(), &dst) == 0);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 8; x++) {
            bool inside = x >= 2 && x < 6 && y >= 1 && y < 4;
            INFO("at " << x << ", " << y);
            REQUIRE(host[size_t(x + 8 * y)] == (inside ? x + 8 * y : 0));
        }
    // Device -> host memory of a plain buffer, and a region outside the source.
    HostBuffer<int> back({8, 6});
    REQUIRE(cuda()->buffer_copy(errors.uc(), src.raw(), nullptr, back.raw()) == 0);
    for (int i = 0; i < 48; i++) REQUIRE(back[size_t(i)] == i);
    loom_dimension_t outside_dim[2] = {{6, 4, 1, 0}, {0, 2, 8, 0}};
    loom_buffer_t outside = dst;
    outside.device = 0;
    outside.device_interface = nullptr;
    outside.dim = outside_dim;
    REQUIRE(cuda()->buffer_copy(errors.uc(), src.raw(), nullptr, &outside) ==
            loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("CUDA: buffer_copy: dimension 0 of the destination "
                                              "(6 to 9) is not inside the source (0 to 7)"));
    REQUIRE(loom_device_free(errors.uc(), &dst) == 0);
    REQUIRE(loom_device_free(errors.uc(), src.raw()) == 0);
}

namespace {

// The driver's own calls, for memory a user allocates outside Loom.
struct UserDriver {
    using Retain = int (*)(void **, int);
    using Push = int (*)(void *);
    using Pop = int (*)(void **);
    using Alloc = int (*)(uint64_t *, size_t);
    using Free = int (*)(uint64_t);
    Retain retain = nullptr;
    Push push = nullptr;
    Pop pop = nullptr;
    Alloc alloc = nullptr;
    Free free = nullptr;
    UserDriver() {
        const char *env = std::getenv("LOOM_CUDA_DRIVER_LIBRARY");
        void *h = dlopen(env && *env ? env : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        REQUIRE(h != nullptr);
        retain = reinterpret_cast<Retain>(dlsym(h, "cuDevicePrimaryCtxRetain"));
        push = reinterpret_cast<Push>(dlsym(h, "cuCtxPushCurrent_v2"));
        pop = reinterpret_cast<Pop>(dlsym(h, "cuCtxPopCurrent_v2"));
        alloc = reinterpret_cast<Alloc>(dlsym(h, "cuMemAlloc_v2"));
        free = reinterpret_cast<Free>(dlsym(h, "cuMemFree_v2"));
        REQUIRE((retain && push && pop && alloc && free));
    }
};

} // namespace

TEST_CASE("gpu: CUDA wraps a CUdeviceptr of the user's context", "[gpu][cuda][cuda_runtime]") {
    ErrorCapture errors;
    HostBuffer<int> b({16});
    if (!cuda_driver().usable) {
        REQUIRE(loom_device_wrap_native(errors.uc(), b.raw(), cuda(), 0x10000) ==
                loom_error_code_device);
        REQUIRE(is_no_driver_report(errors.text));
        return;
    }
    UserDriver driver;
    void *context = nullptr, *popped = nullptr;
    REQUIRE(driver.retain(&context, 0) == 0);
    REQUIRE(driver.push(context) == 0);
    uint64_t pointer = 0;
    REQUIRE(driver.alloc(&pointer, 16 * sizeof(int)) == 0);
    REQUIRE(driver.pop(&popped) == 0);
    // All work in the user's context (the primary one, given explicitly).
    loom_cuda_set_context(context, nullptr);
    const int64_t live = loom_device_live_allocations();
    REQUIRE(loom_device_wrap_native(errors.uc(), b.raw(), cuda(), pointer) == 0);
    REQUIRE(b.buf.device == pointer);
    REQUIRE(loom_device_live_allocations() == live); // the user's memory is not counted
    REQUIRE(set_on_device(errors.uc(), b.raw(), 16, 3) == 0);
    REQUIRE(force_to_host(errors.uc(), b.raw()) == 0);
    for (int i = 0; i < 16; i++) REQUIRE(b[size_t(i)] == 3);
    // Freeing a wrapped pointer only forgets it; the user frees it.
    REQUIRE(loom_device_detach_native(errors.uc(), b.raw()) == 0);
    REQUIRE(b.buf.device == 0);
    // A buffer larger than the memory behind the pointer is refused.
    HostBuffer<int> big({1000});
    REQUIRE(loom_device_wrap_native(errors.uc(), big.raw(), cuda(), pointer) ==
            loom_error_code_device);
    REQUIRE_THAT(errors.text, Catch::Contains("bytes from it to the end of its allocation"));
    loom_cuda_set_context(nullptr, nullptr);
    REQUIRE(driver.push(context) == 0);
    REQUIRE(driver.free(pointer) == 0);
    REQUIRE(driver.pop(&popped) == 0);
    REQUIRE(errors.text.find("CUDA:") == errors.text.rfind("CUDA:")); // one error only
}
