// Contexts of the CUDA runtime: which CUcontext and CUstream each operation
// runs on (the user's hooks, the context given to loom_cuda_set_context, or
// the primary context of the device LOOM_CUDA_DEVICE names, retained once),
// the per-context device limits, and the whole-runtime operations: sync,
// release, reset and the program counts.

#include <cstdio>
#include <cstdlib>

#include "cuda_entry.h"
#include "cuda_internal.h"

namespace loom_rt {

namespace {

int attribute(const cu::DriverApi &api, cu::CUdevice_attribute what, CUdevice device) {
    int value = 0;
    if (api.cuDeviceGetAttribute(&value, what, device) != cu::CUDA_SUCCESS) return 0;
    return value;
}

CudaDeviceInfo query_info(const cu::DriverApi &api, CUdevice device) {
    CudaDeviceInfo info;
    info.device = device;
    char name[256] = {0};
    if (api.cuDeviceGetName(name, int(sizeof(name)) - 1, device) == cu::CUDA_SUCCESS)
        info.name = name;
    info.capability =
        10 * attribute(api, cu::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) +
        attribute(api, cu::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    info.max_threads_per_block =
        attribute(api, cu::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, device);
    const cu::CUdevice_attribute block[3] = {cu::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                             cu::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                             cu::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
    const cu::CUdevice_attribute grid[3] = {cu::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                            cu::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                            cu::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
    for (int i = 0; i < 3; i++) {
        info.max_block[i] = attribute(api, block[i], device);
        info.max_grid[i] = attribute(api, grid[i], device);
    }
    info.shared_per_block =
        attribute(api, cu::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, device);
    info.shared_per_block_optin =
        attribute(api, cu::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device);
    if (info.shared_per_block_optin < info.shared_per_block)
        info.shared_per_block_optin = info.shared_per_block;
    if (api.cuDeviceTotalMem(&info.total_memory, device) != cu::CUDA_SUCCESS) info.total_memory = 0;
    return info;
}

// The device index LOOM_CUDA_DEVICE names (default 0); -1 when it is not a number.
int device_index_from_env(std::string *text) {
    const char *s = std::getenv("LOOM_CUDA_DEVICE");
    if (!s || !*s) return 0;
    *text = s;
    char *end = nullptr;
    long v = std::strtol(s, &end, 10);
    return *end == '\0' && v >= 0 && v < 1024 ? int(v) : -1;
}

std::string device_list(const cu::DriverApi &api, int count) {
    std::string list;
    for (int i = 0; i < count; i++) {
        CUdevice d = 0;
        char name[256] = {0};
        if (api.cuDeviceGet(&d, i) == cu::CUDA_SUCCESS)
            api.cuDeviceGetName(name, int(sizeof(name)) - 1, d);
        list += (i ? ", " : "") + std::to_string(i) + ": \"" + name + "\"";
    }
    return list;
}

// Retains the primary context of LOOM_CUDA_DEVICE unless done already.
int ensure_primary_locked(void *uc, CudaState &s) {
    if (s.primary) return 0;
    const cu::DriverApi &api = *s.api;
    std::string text;
    int index = device_index_from_env(&text);
    int count = 0;
    if (CUresult err = api.cuDeviceGetCount(&count))
        return cu_fail(uc, err, "cuDeviceGetCount", "counting the GPUs");
    if (count == 0)
        return device_error(uc, "CUDA: the driver sees no GPU; host-cuda pipelines need an "
                                "NVIDIA GPU and its driver");
    if (index < 0 || index >= count)
        return device_error(uc, "CUDA: LOOM_CUDA_DEVICE is \"" + text +
                                    "\" but the driver's devices are " + device_list(api, count) +
                                    "; set it to an index from 0 to " + std::to_string(count - 1));
    CUdevice device = 0;
    if (CUresult err = api.cuDeviceGet(&device, index))
        return cu_fail(uc, err, "cuDeviceGet", "device " + std::to_string(index));
    CUcontext context = nullptr;
    if (CUresult err = api.cuDevicePrimaryCtxRetain(&context, device))
        return cu_fail(uc, err, "cuDevicePrimaryCtxRetain",
                       "the primary context of device " + std::to_string(index));
    s.primary = context;
    s.primary_device = device;
    return 0;
}

// The state of `context` (current on this thread), made on first use.
int context_state_locked(void *uc, CudaState &s, CUcontext context, ContextState **out) {
    for (auto &c : s.contexts) {
        if (c->context == context) {
            *out = c.get();
            return 0;
        }
    }
    CUdevice device = 0;
    if (CUresult err = s.api->cuCtxGetDevice(&device))
        return cu_fail(uc, err, "cuCtxGetDevice", "the device of the call's CUDA context");
    auto state = std::make_unique<ContextState>();
    state->context = context;
    state->info = query_info(*s.api, device);
    if (debug_level() >= 1) {
        int version = 0;
        s.api->cuDriverGetVersion(&version);
        std::fprintf(stderr,
                     "Loom: CUDA device %d \"%s\" (compute capability %d.%d, driver %d.%d)%s\n",
                     int(device), state->info.name.c_str(), state->info.capability / 10,
                     state->info.capability % 10, version / 1000, version % 1000 / 10,
                     context == s.primary ? "" : " in a context the user gave");
    }
    *out = state.get();
    s.contexts.push_back(std::move(state));
    return 0;
}

// Runs f(context state) for every context, that context current.
template <typename F> void for_each_context_locked(CudaState &s, F &&f) {
    for (auto &c : s.contexts) {
        PushContext push(s.api, c->context);
        if (push.ok()) f(*c);
    }
}

} // namespace

CudaState &cuda_state() {
    static CudaState *state = new CudaState;
    return *state;
}

PushContext::PushContext(const cu::DriverApi *api, CUcontext context) : api(api) {
    err = api->cuCtxPushCurrent(context);
    pushed = err == cu::CUDA_SUCCESS;
}

PushContext::~PushContext() {
    CUcontext popped = nullptr;
    if (pushed) api->cuCtxPopCurrent(&popped);
}

int CallScope::begin(CudaState &s) {
    state = &s;
    lock = std::unique_lock<std::mutex>(s.mutex);
    std::string why;
    if (!s.api) s.api = load_cuda_driver_locked(&why);
    if (!s.api) return device_error(uc, why);
    // The user's hook runs without the mutex: it may take locks of its own.
    ContextChoice choice = s.choice;
    if (choice.acquire) {
        lock.unlock();
        void *context = nullptr, *stream = nullptr;
        int r = choice.acquire(uc, &context, &stream);
        lock.lock();
        if (r != 0)
            return device_error(uc,
                                "CUDA: the context hook's acquire returned " + std::to_string(r));
        from_hook = true;
        hook_context = context;
        acquired = static_cast<CUcontext>(context);
        call_stream = static_cast<CUstream>(stream);
    }
    if (!acquired && choice.fixed_context) {
        acquired = choice.fixed_context;
        call_stream = choice.fixed_stream;
    }
    if (!acquired) {
        if (int r = ensure_primary_locked(uc, s)) return r;
        acquired = s.primary;
        call_stream = nullptr;
    }
    if (CUresult err = s.api->cuCtxPushCurrent(acquired))
        return cu_fail(uc, err, "cuCtxPushCurrent", "making the call's CUDA context current");
    pushed = true;
    return context_state_locked(uc, s, acquired, &ctx);
}

CallScope::~CallScope() {
    if (!state) return;
    if (pushed) {
        CUcontext popped = nullptr;
        state->api->cuCtxPopCurrent(&popped);
    }
    void (*release)(void *, void *) = state->choice.release;
    if (lock.owns_lock()) lock.unlock();
    if (from_hook && release) release(uc, hook_context);
}

int sync_locked(void *uc, CudaState &s, const CallScope &call, const std::string &what) {
    CUresult err =
        call.stream() ? s.api->cuStreamSynchronize(call.stream()) : s.api->cuCtxSynchronize();
    if (err == cu::CUDA_SUCCESS) return 0;
    return cu_fail(uc, err, call.stream() ? "cuStreamSynchronize" : "cuCtxSynchronize",
                   what + "; an earlier kernel may have failed");
}

int cuda_sync_all(void *uc) {
    CudaState &s = cuda_state();
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        if (!s.api) return 0; // CUDA never used
    }
    CallScope call(uc);
    if (int r = call.begin(s)) return r;
    return sync_locked(uc, s, call, "waiting for the CUDA work of the call");
}

void cuda_release(void *) {
    CudaState &s = cuda_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.api) return;
    for_each_context_locked(s, [&](ContextState &c) {
        s.api->cuCtxSynchronize();
        release_modules_locked(s, c);
        release_pool_locked(s, c);
    });
    // Forget the users' contexts that no memory refers to: a context the
    // user destroys after release() may have its handle reused by another.
    auto in_use = [&](const ContextState *c) {
        if (c->context == s.primary) return true;
        for (auto &a : s.allocations)
            if (a.second.owner == c) return true;
        for (auto &crop : s.crops)
            if (crop.second.owner == c) return true;
        return false;
    };
    for (size_t i = s.contexts.size(); i-- > 0;)
        if (!in_use(s.contexts[i].get())) s.contexts.erase(s.contexts.begin() + long(i));
}

int cuda_reset(void *uc) {
    CudaState &s = cuda_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.api) return 0;
    if (!s.allocations.empty() || !s.crops.empty())
        return device_error(uc, "CUDA: cannot reset the runtime while " +
                                    std::to_string(s.allocations.size() + s.crops.size()) +
                                    " device allocations, crops or wrapped pointers are live");
    for_each_context_locked(s, [&](ContextState &c) {
        s.api->cuCtxSynchronize();
        release_modules_locked(s, c);
        release_pool_locked(s, c);
    });
    s.contexts.clear();
    if (s.primary) s.api->cuDevicePrimaryCtxRelease(s.primary_device);
    s.primary = nullptr;
    s.primary_device = 0;
    return 0;
}

int cuda_get_limits(void *uc, loom_device_limits_t *limits) {
    CudaState &s = cuda_state();
    CallScope call(uc);
    if (int r = call.begin(s)) return r;
    const CudaDeviceInfo &info = call.context()->info;
    limits->max_threads_per_block = info.max_threads_per_block;
    for (int i = 0; i < 3; i++) limits->max_threads[i] = info.max_block[i];
    limits->max_shared_bytes = info.shared_per_block_optin;
    std::snprintf(limits->device_name, sizeof(limits->device_name), "%s", info.name.c_str());
    return 0;
}

void cuda_program_stats(int64_t *built_from_source, int64_t *loaded_from_cache) {
    CudaState &s = cuda_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (built_from_source) *built_from_source = s.built_from_source;
    if (loaded_from_cache) *loaded_from_cache = s.loaded_from_cache;
}

} // namespace loom_rt

extern "C" {

void loom_cuda_set_context_hooks(const loom_cuda_context_hooks_t *hooks) {
    loom_rt::CudaState &s = loom_rt::cuda_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.choice.acquire = hooks ? hooks->acquire : nullptr;
    s.choice.release = hooks ? hooks->release : nullptr;
}

void loom_cuda_set_context(void *cu_context, void *cu_stream) {
    loom_rt::CudaState &s = loom_rt::cuda_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.choice.fixed_context = static_cast<loom_rt::CUcontext>(cu_context);
    s.choice.fixed_stream = cu_context ? static_cast<loom_rt::CUstream>(cu_stream) : nullptr;
}

} // extern "C"
