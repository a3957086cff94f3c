// Chooses the OpenCL device: LOOM_OCL_DEVICE_TYPE (cpu, gpu, accelerator or
// all; by default a GPU first, then any device) on the platforms whose name
// contains LOOM_OCL_PLATFORM_NAME (case-insensitive; all when unset). The
// first matching device wins. When none matches, the error lists everything
// seen, so that a user can tell a missing driver from a wrong setting.

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "opencl_internal.h"

namespace loom_rt {

namespace {

struct TypeChoice {
    const char *name;
    cl_device_type type;
};
const TypeChoice device_types[] = {{"cpu", CL_DEVICE_TYPE_CPU},
                                   {"gpu", CL_DEVICE_TYPE_GPU},
                                   {"accelerator", CL_DEVICE_TYPE_ACCELERATOR},
                                   {"all", CL_DEVICE_TYPE_ALL}};

std::string lower(std::string s) {
    for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string platform_name(const CLApi &api, cl_platform_id p) {
    char name[256] = {0};
    if (api.clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name) - 1, name, nullptr) != CL_SUCCESS)
        return "<unnamed>";
    return name;
}

// "1 cpu, 2 gpu" for the devices of a platform.
std::string device_summary(const CLApi &api, cl_platform_id p) {
    cl_uint n = 0;
    if (api.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        return "no devices";
    std::vector<cl_device_id> devices(n);
    api.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr);
    std::string out;
    for (cl_device_id d : devices) {
        cl_device_type t = 0;
        char name[256] = {0};
        api.clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(t), &t, nullptr);
        api.clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
        const char *kind = (t & CL_DEVICE_TYPE_GPU)           ? "gpu"
                           : (t & CL_DEVICE_TYPE_CPU)         ? "cpu"
                           : (t & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                              : "other";
        out += std::string(out.empty() ? "" : ", ") + kind + " \"" + name + "\"";
    }
    return out;
}

} // namespace

int select_device(void *uc, const CLApi &api, const std::string &library, DeviceChoice *out) {
    const char *type_env = std::getenv("LOOM_OCL_DEVICE_TYPE");
    const char *platform_env = std::getenv("LOOM_OCL_PLATFORM_NAME");
    std::string wanted_type = type_env ? lower(type_env) : "";
    std::string wanted_platform = platform_env ? lower(platform_env) : "";

    std::vector<TypeChoice> passes;
    if (wanted_type.empty()) {
        passes = {device_types[1], device_types[3]}; // a GPU first, then anything
    } else {
        for (const TypeChoice &t : device_types)
            if (wanted_type == t.name) passes = {t};
        if (passes.empty())
            return device_error(uc, "OpenCL: LOOM_OCL_DEVICE_TYPE is \"" + std::string(type_env) +
                                        "\"; use cpu, gpu, accelerator or all");
    }

    cl_uint n = 0;
    cl_int err = api.clGetPlatformIDs(0, nullptr, &n);
    std::vector<cl_platform_id> platforms(n);
    if (err == CL_SUCCESS && n > 0) err = api.clGetPlatformIDs(n, platforms.data(), nullptr);
    if (err != CL_SUCCESS && err != -1001 /* CL_PLATFORM_NOT_FOUND_KHR */)
        return cl_fail(uc, err, "clGetPlatformIDs", "listing OpenCL platforms");
    if (err != CL_SUCCESS) platforms.clear();

    for (const TypeChoice &pass : passes) {
        for (cl_platform_id p : platforms) {
            if (!wanted_platform.empty() &&
                lower(platform_name(api, p)).find(wanted_platform) == std::string::npos)
                continue;
            cl_device_id device = nullptr;
            cl_uint count = 0;
            if (api.clGetDeviceIDs(p, pass.type, 1, &device, &count) == CL_SUCCESS && count > 0) {
                out->platform = p;
                out->device = device;
                return 0;
            }
        }
    }

    std::string seen;
    for (cl_platform_id p : platforms)
        seen += "\n  \"" + platform_name(api, p) + "\": " + device_summary(api, p);
    std::string asked = wanted_type.empty() ? "a gpu, then any device (LOOM_OCL_DEVICE_TYPE unset)"
                                            : "device type " + wanted_type +
                                                  " (LOOM_OCL_DEVICE_TYPE=" + type_env + ")";
    std::string platform_filter =
        wanted_platform.empty() ? "any platform (LOOM_OCL_PLATFORM_NAME unset)"
                                : "platforms whose name contains \"" + std::string(platform_env) +
                                      "\" (LOOM_OCL_PLATFORM_NAME)";
    return device_error(uc, "OpenCL: no device found. Library " + library + " loaded; asked for " +
                                asked + " on " + platform_filter +
                                "; platforms seen:" + (seen.empty() ? " none" : seen));
}

} // namespace loom_rt
