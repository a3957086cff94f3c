#ifndef LOOM_TEST_GPU_TEST_UTIL_H
#define LOOM_TEST_GPU_TEST_UTIL_H

// Shared by the GPU tests: the target they compile for, and checks of a
// realized buffer against a plain C++ reference.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

#include "Loom.h"

namespace gpu_test {

/** The GPU API the correctness tests run on: LOOM_GPU_TEST_API=opencl (the
 * default; PoCL in CI) or cuda (a GPU machine: scripts/gpu_cuda_check.sh). */
inline loom::DeviceAPI gpu_device_api() {
    const char *api = std::getenv("LOOM_GPU_TEST_API");
    std::string name = api ? api : "";
    if (name.empty() || name == "opencl") return loom::DeviceAPI::OpenCL;
    if (name == "cuda") return loom::DeviceAPI::CUDA;
    throw std::runtime_error("LOOM_GPU_TEST_API is \"" + name + "\"; use opencl or cuda");
}

/** The host target with the GPU feature of gpu_device_api(). */
inline loom::Target gpu_target() {
    return loom::get_host_target().with_feature(
        gpu_device_api() == loom::DeviceAPI::CUDA ? loom::Target::CUDA : loom::Target::OpenCL);
}

/** The host target with OpenCL, for tests of OpenCL itself (its source,
 * its runtime) whatever LOOM_GPU_TEST_API says. */
inline loom::Target opencl_target() {
    return loom::get_host_target().with_feature(loom::Target::OpenCL);
}

/** Every element of a 2-D buffer equals ref(x, y); reports the first mismatch. */
template <typename T, typename Ref> void check_2d(const loom::Buffer<T> &b, Ref ref) {
    for (int y = b.dim(1).min(); y < b.dim(1).min() + b.dim(1).extent(); y++) {
        for (int x = b.dim(0).min(); x < b.dim(0).min() + b.dim(0).extent(); x++) {
            T expected = T(ref(x, y));
            if (b(x, y) != expected) {
                INFO("at (" << x << ", " << y << "): got " << +b(x, y) << ", expected "
                            << +expected);
                REQUIRE(b(x, y) == expected);
            }
        }
    }
}

/** Every element of a 1-D buffer equals ref(x). */
template <typename T, typename Ref> void check_1d(const loom::Buffer<T> &b, Ref ref) {
    for (int x = b.dim(0).min(); x < b.dim(0).min() + b.dim(0).extent(); x++) {
        T expected = T(ref(x));
        if (b(x) != expected) {
            INFO("at " << x << ": got " << +b(x) << ", expected " << +expected);
            REQUIRE(b(x) == expected);
        }
    }
}

/** The histogram hist(bin(r)) += 1 as per-block bins in shared memory:
 * rfactor over blocks of `chunk` samples, each of `threads` threads taking
 * `vec` neighbouring samples per step (a vectorized atomic update: one
 * vector load, then one atomic per sample), the blocks' bins then added
 * to hist's with one atomic per bin. */
inline void schedule_shared_bins_histogram(loom::Func hist, const loom::RDom &r, int chunk,
                                           int threads, int vec) {
    using namespace loom;
    Var x = hist.args()[0], u("u");
    RVar ro("ro"), ri("ri"), rio("rio"), rii("rii"), rv("rv");
    Func intm = hist.update().split(r.x, ro, ri, chunk).rfactor(ro, u);
    hist.update().atomic().reorder(x, ro).gpu_blocks(ro).gpu_threads(x);
    intm.compute_at(hist, ro).store_in(MemoryType::GPUShared).gpu_threads(x);
    intm.update()
        .atomic()
        .split(ri, ri, rv, vec)
        .split(ri, rio, rii, threads)
        .reorder(rv, rio, rii)
        .vectorize(rv)
        .gpu_threads(rii);
}

} // namespace gpu_test

#endif
