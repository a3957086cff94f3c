// Loads the OpenCL ICD loader with dlopen on first use, so that libloom and
// AOT programs neither link libOpenCL nor need it to run CPU pipelines.

#include <dlfcn.h>

#include "opencl_internal.h"

namespace loom_rt {

namespace {

struct Loaded {
    bool tried = false;
    CLApi api;
    bool ok = false;
    std::string library, why;
};

// Fills `api` from `handle`; names the first missing symbol in `why`.
bool resolve(void *handle, CLApi *api, std::string *why) {
#define LOOM_CL_RESOLVE(name)                                                                      \
    api->name = reinterpret_cast<decltype(api->name)>(dlsym(handle, #name));                       \
    if (!api->name) {                                                                              \
        *why = "it has no symbol " #name;                                                          \
        return false;                                                                              \
    }
    LOOM_CL_FUNCTIONS(LOOM_CL_RESOLVE)
#undef LOOM_CL_RESOLVE
    return true;
}

} // namespace

const CLApi *load_opencl_locked(std::string *library, std::string *why) {
    // Loaded once per process: the library stays mapped (never dlclose'd),
    // since cl objects of a previous context may still be released at exit.
    static Loaded loaded;
    if (!loaded.tried) {
        loaded.tried = true;
        const char *names[] = {"libOpenCL.so.1", "libOpenCL.so"};
        std::string tried;
        for (const char *name : names) {
            void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                const char *e = dlerror();
                tried +=
                    std::string(tried.empty() ? "" : "; ") + name + ": " + (e ? e : "not found");
                continue;
            }
            std::string missing;
            if (resolve(handle, &loaded.api, &missing)) {
                loaded.ok = true;
                loaded.library = name;
                break;
            }
            tried += std::string(tried.empty() ? "" : "; ") + name + " loaded but " + missing;
            dlclose(handle);
        }
        if (!loaded.ok)
            loaded.why = "could not load the OpenCL library (" + tried +
                         "); install an OpenCL ICD loader and a driver, e.g. Debian's "
                         "ocl-icd-libopencl1 and pocl-opencl-icd";
    }
    *library = loaded.library;
    *why = loaded.why;
    return loaded.ok ? &loaded.api : nullptr;
}

} // namespace loom_rt
