// Loads the CUDA driver (libcuda.so.1) with dlopen on first use and
// initializes it, so that libloom and AOT programs neither link libcuda nor
// need it to run CPU pipelines. Without a driver every CUDA operation
// reports why, naming what dlopen said; it never crashes.

#include <dlfcn.h>

#include <cstdlib>

#include "cuda_internal.h"

namespace loom_rt {

namespace {

struct Loaded {
    bool tried = false;
    cu::DriverApi api;
    bool ok = false;
    std::string why;
};

// Fills `api` from `handle`; names the first missing symbol in `why`.
bool resolve(void *handle, cu::DriverApi *api, std::string *why) {
#define LOOM_CU_RESOLVE(name, symbol, params)                                                      \
    api->name = reinterpret_cast<decltype(api->name)>(dlsym(handle, symbol));                      \
    if (!api->name) {                                                                              \
        *why = "it has no symbol " symbol;                                                         \
        return false;                                                                              \
    }
    LOOM_CU_FUNCTIONS(LOOM_CU_RESOLVE)
#undef LOOM_CU_RESOLVE
#define LOOM_CU_RESOLVE_OPTIONAL(name, symbol, params)                                             \
    api->name = reinterpret_cast<decltype(api->name)>(dlsym(handle, symbol));
    LOOM_CU_OPTIONAL_FUNCTIONS(LOOM_CU_RESOLVE_OPTIONAL)
#undef LOOM_CU_RESOLVE_OPTIONAL
    return true;
}

const char *const needs = "host-cuda pipelines need an NVIDIA GPU and its driver";

void load(Loaded &loaded) {
    // LOOM_CUDA_DRIVER_LIBRARY names another library (a driver outside the
    // loader's path, or a stand-in for tests).
    const char *override_name = std::getenv("LOOM_CUDA_DRIVER_LIBRARY");
    std::string name = override_name && *override_name ? override_name : "libcuda.so.1";
    // Loaded once per process and never dlclose'd: modules and memory of the
    // driver may still be released at exit.
    void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        loaded.why = "CUDA: no CUDA driver found (dlopen " + name + ": " + (e ? e : "not found") +
                     "); " + needs;
        return;
    }
    std::string missing;
    if (!resolve(handle, &loaded.api, &missing)) {
        loaded.why = "CUDA: the CUDA driver " + name +
                     " is too old or not a CUDA driver: " + missing + "; " + needs +
                     " (CUDA 11 or newer)";
        dlclose(handle);
        return;
    }
    CUresult err = loaded.api.cuInit(0);
    if (err != cu::CUDA_SUCCESS) {
        loaded.why = "CUDA: the CUDA driver (" + name +
                     ") found no usable GPU: cuInit failed with " +
                     cu_error_text(&loaded.api, err) + "; " + needs;
        return;
    }
    loaded.ok = true;
}

} // namespace

const cu::DriverApi *load_cuda_driver_locked(std::string *why) {
    static Loaded loaded;
    if (!loaded.tried) {
        loaded.tried = true;
        load(loaded);
    }
    *why = loaded.why;
    return loaded.ok ? &loaded.api : nullptr;
}

} // namespace loom_rt
