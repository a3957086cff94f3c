// Helpers of the CUDA runtime tests: whether this machine has a usable CUDA
// driver, and if not, the exact message the runtime reports for it. Tests
// check the no-driver path where there is no driver and run kernels where
// there is one, so each can fail on either kind of machine.
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "runtime_test_util.h"

namespace cuda_rt_test {

struct DriverCheck {
    bool usable = false;
    /** When !usable: how the runtime's error message starts (all of it for
     * a missing library). */
    std::string message;
    bool exact = false;
};

/** Looks for the driver as the runtime does (LOOM_CUDA_DRIVER_LIBRARY, else
 * libcuda.so.1, then cuInit). */
inline const DriverCheck &cuda_driver() {
    static const DriverCheck check = [] {
        DriverCheck c;
        const char *env = std::getenv("LOOM_CUDA_DRIVER_LIBRARY");
        std::string name = env && *env ? env : "libcuda.so.1";
        const char *needs = "host-cuda pipelines need an NVIDIA GPU and its driver";
        void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *e = dlerror();
            c.message =
                "CUDA: no CUDA driver found (dlopen " + name + ": " + (e ? e : "") + "); " + needs;
            c.exact = true;
            return c;
        }
        using InitFn = int (*)(unsigned);
        auto init = reinterpret_cast<InitFn>(dlsym(handle, "cuInit"));
        if (init && init(0) == 0) {
            c.usable = true;
            return c;
        }
        c.message = "CUDA: the CUDA driver (" + name + ") found no usable GPU";
        return c;
    }();
    return check;
}

/** The runtime's report of the missing driver, as checked: the whole text
 * (one message per line) starts with `check.message`, and is exactly it
 * where the library itself is missing. */
inline bool is_no_driver_report(const std::string &text) {
    const DriverCheck &c = cuda_driver();
    if (c.exact) return text == c.message + "\n";
    return text.compare(0, c.message.size(), c.message) == 0;
}

/** The stand-in driver's counters (test/gpu/fake_cuda), when the tests run
 * against it; nullptr otherwise. */
struct FakeDriver {
    long (*live_allocations)() = nullptr;
    int (*context_depth)() = nullptr;
};
inline const FakeDriver *fake_driver() {
    static const FakeDriver *fake = []() -> const FakeDriver * {
        const char *env = std::getenv("LOOM_CUDA_DRIVER_LIBRARY");
        void *handle = env && *env ? dlopen(env, RTLD_NOW | RTLD_LOCAL) : nullptr;
        if (!handle) return nullptr;
        static FakeDriver f;
        f.live_allocations =
            reinterpret_cast<long (*)()>(dlsym(handle, "loom_fake_cuda_live_allocations"));
        f.context_depth =
            reinterpret_cast<int (*)()>(dlsym(handle, "loom_fake_cuda_context_depth"));
        return f.live_allocations && f.context_depth ? &f : nullptr;
    }();
    return fake;
}

inline const loom_device_interface_t *cuda() {
    return loom_cuda_device_interface();
}

/** Launches a 1-D grid of CUDA kernel `kernel` through loom_device_run. */
inline int run_cuda_1d(void *uc, const std::string &source, const char *kernel, int blocks,
                       int threads, const char *kinds, const std::vector<uint64_t> &args,
                       int shared_bytes = 0) {
    return loom_device_run(uc, loom_device_api_cuda, source.c_str(), kernel, blocks, 1, 1, threads,
                           1, 1, shared_bytes, kinds, args.data());
}

} // namespace cuda_rt_test
