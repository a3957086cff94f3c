// The process-wide OpenCL state: created lazily on the first buffer or kernel
// that needs it (the driver, the device, one context, one in-order queue),
// released in parts by the interface's release() and wholly by the test
// hook loom_device_reset().

#include <cstdio>

#include "opencl_entry.h"
#include "opencl_internal.h"

namespace loom_rt {

namespace {

std::string device_string(const CLApi &api, cl_device_id d, cl_device_info what) {
    size_t size = 0;
    if (api.clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
    std::string s(size, '\0');
    if (api.clGetDeviceInfo(d, what, size, &s[0], nullptr) != CL_SUCCESS) return "";
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

template <typename T> T device_value(const CLApi &api, cl_device_id d, cl_device_info what) {
    T value{};
    api.clGetDeviceInfo(d, what, sizeof(T), &value, nullptr);
    return value;
}

DeviceInfo query_info(const CLApi &api, const DeviceChoice &c) {
    DeviceInfo info;
    char platform[256] = {0};
    api.clGetPlatformInfo(c.platform, CL_PLATFORM_NAME, sizeof(platform) - 1, platform, nullptr);
    info.platform_name = platform;
    info.device_name = device_string(api, c.device, CL_DEVICE_NAME);
    info.device_version = device_string(api, c.device, CL_DEVICE_VERSION);
    info.driver_version = device_string(api, c.device, CL_DRIVER_VERSION);
    info.local_mem_size = device_value<cl_ulong>(api, c.device, CL_DEVICE_LOCAL_MEM_SIZE);
    info.max_mem_alloc_size = device_value<cl_ulong>(api, c.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    info.global_mem_size = device_value<cl_ulong>(api, c.device, CL_DEVICE_GLOBAL_MEM_SIZE);
    info.max_work_group_size = device_value<size_t>(api, c.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    cl_uint dims = device_value<cl_uint>(api, c.device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    std::vector<size_t> sizes(dims < 3 ? 3 : dims, 1);
    api.clGetDeviceInfo(c.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(size_t) * dims,
                        sizes.data(), nullptr);
    for (int i = 0; i < 3; i++) info.max_work_item_sizes[i] = sizes[size_t(i)];
    cl_uint align_bits = device_value<cl_uint>(api, c.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    info.base_addr_align_bytes = align_bits >= 8 ? align_bits / 8 : 1;
    return info;
}

} // namespace

OpenCLState &cl_state() {
    static OpenCLState *state = new OpenCLState;
    return *state;
}

int ensure_initialized_locked(void *uc, OpenCLState &s) {
    if (s.initialized) return 0;
    std::string library, why;
    s.api = load_opencl_locked(&library, &why);
    if (!s.api) return device_error(uc, "OpenCL: " + why);
    const CLApi &api = *s.api;
    DeviceChoice choice;
    if (int r = select_device(uc, api, library, &choice)) return r;

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     reinterpret_cast<cl_context_properties>(choice.platform), 0};
    cl_int err = CL_SUCCESS;
    cl_context context = api.clCreateContext(props, 1, &choice.device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return cl_fail(uc, err, "clCreateContext", "creating the context");
    // In order: a kernel sees the copies and kernels enqueued before it.
    cl_command_queue queue = api.clCreateCommandQueue(context, choice.device, 0, &err);
    if (err != CL_SUCCESS) {
        api.clReleaseContext(context);
        return cl_fail(uc, err, "clCreateCommandQueue", "creating the command queue");
    }
    s.choice = choice;
    s.context = context;
    s.queue = queue;
    s.info = query_info(api, choice);
    s.initialized = true;
    if (debug_level() >= 1)
        std::fprintf(stderr, "Loom: OpenCL device \"%s\" (%s, driver %s) on platform \"%s\"\n",
                     s.info.device_name.c_str(), s.info.device_version.c_str(),
                     s.info.driver_version.c_str(), s.info.platform_name.c_str());
    return 0;
}

int opencl_sync_all(void *uc) {
    OpenCLState &s = cl_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialized) return 0;
    cl_int err = s.api->clFinish(s.queue);
    return err == CL_SUCCESS ? 0 : cl_fail(uc, err, "clFinish", "waiting for the queue");
}

void opencl_release(void *) {
    OpenCLState &s = cl_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialized) return;
    s.api->clFinish(s.queue);
    release_programs_locked(s);
    release_pool_locked(s);
}

int opencl_reset(void *uc) {
    OpenCLState &s = cl_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialized) return 0;
    if (!s.allocations.empty())
        return device_error(uc, "OpenCL: cannot reset the runtime while " +
                                    std::to_string(s.allocations.size()) +
                                    " device allocations, crops or wrapped handles are live");
    s.api->clFinish(s.queue);
    release_programs_locked(s);
    release_pool_locked(s);
    s.api->clReleaseCommandQueue(s.queue);
    s.api->clReleaseContext(s.context);
    s.queue = nullptr;
    s.context = nullptr;
    s.choice = DeviceChoice{};
    s.info = DeviceInfo{};
    s.initialized = false;
    return 0;
}

int opencl_get_limits(void *uc, loom_device_limits_t *limits) {
    OpenCLState &s = cl_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (int r = ensure_initialized_locked(uc, s)) return r;
    limits->max_threads_per_block = int64_t(s.info.max_work_group_size);
    for (int i = 0; i < 3; i++) limits->max_threads[i] = int64_t(s.info.max_work_item_sizes[i]);
    limits->max_shared_bytes = int64_t(s.info.local_mem_size);
    std::snprintf(limits->device_name, sizeof(limits->device_name), "%s",
                  s.info.device_name.c_str());
    return 0;
}

void opencl_program_stats(int64_t *built_from_source, int64_t *loaded_from_cache) {
    OpenCLState &s = cl_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (built_from_source) *built_from_source = s.built_from_source;
    if (loaded_from_cache) *loaded_from_cache = s.loaded_from_binary;
}

} // namespace loom_rt
