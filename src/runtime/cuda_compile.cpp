// CUDA C -> cubin/PTX with NVRTC. libnvrtc is loaded with dlopen on first
// use and its few entry points are declared here, so libloom and AOT
// libraries build without the CUDA toolkit and run CPU code without it.

#include "cuda_compile.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

namespace loom_rt {

namespace {

// NVRTC's C API, as far as Loom uses it (nvrtc.h; stable since CUDA 11).
using nvrtcResult = int;
using nvrtcProgram = struct NvrtcProgramOpaque *;
constexpr nvrtcResult NVRTC_SUCCESS = 0;

struct NvrtcApi {
    const char *(*nvrtcGetErrorString)(nvrtcResult) = nullptr;
    nvrtcResult (*nvrtcVersion)(int *, int *) = nullptr;
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int *) = nullptr;
    nvrtcResult (*nvrtcGetSupportedArchs)(int *) = nullptr;
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                      const char *const *, const char *const *) = nullptr;
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *) = nullptr;
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *) = nullptr;
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t *) = nullptr;
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char *) = nullptr;
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *) = nullptr;
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *) = nullptr;
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *) = nullptr;
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *) = nullptr;
};

struct Loaded {
    NvrtcApi api;
    bool ok = false;
    std::string library, why;
    int version = 0;
    std::vector<int> capabilities;
};

// The name of the first entry point `handle` lacks, or "" when it has all.
std::string resolve(void *handle, NvrtcApi *api) {
#define LOOM_NVRTC_RESOLVE(name)                                                                   \
    api->name = reinterpret_cast<decltype(api->name)>(dlsym(handle, #name));                       \
    if (!api->name) return #name;
    LOOM_NVRTC_RESOLVE(nvrtcGetErrorString)
    LOOM_NVRTC_RESOLVE(nvrtcVersion)
    LOOM_NVRTC_RESOLVE(nvrtcGetNumSupportedArchs)
    LOOM_NVRTC_RESOLVE(nvrtcGetSupportedArchs)
    LOOM_NVRTC_RESOLVE(nvrtcCreateProgram)
    LOOM_NVRTC_RESOLVE(nvrtcDestroyProgram)
    LOOM_NVRTC_RESOLVE(nvrtcCompileProgram)
    LOOM_NVRTC_RESOLVE(nvrtcGetPTXSize)
    LOOM_NVRTC_RESOLVE(nvrtcGetPTX)
    LOOM_NVRTC_RESOLVE(nvrtcGetCUBINSize)
    LOOM_NVRTC_RESOLVE(nvrtcGetCUBIN)
    LOOM_NVRTC_RESOLVE(nvrtcGetProgramLogSize)
    LOOM_NVRTC_RESOLVE(nvrtcGetProgramLog)
#undef LOOM_NVRTC_RESOLVE
    return "";
}

// Where libnvrtc is looked for, in order. An explicit LOOM_NVRTC_LIBRARY is
// the only candidate: a user who names a library must not silently get
// another one.
std::vector<std::string> candidate_libraries() {
    const char *explicit_library = std::getenv("LOOM_NVRTC_LIBRARY");
    if (explicit_library && *explicit_library) return {explicit_library};
    const char *names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so.11",
                           "libnvrtc.so"};
    std::vector<std::string> candidates(std::begin(names), std::end(names));
    std::vector<std::string> folders;
    if (const char *cuda_path = std::getenv("CUDA_PATH"); cuda_path && *cuda_path)
        folders.push_back(std::string(cuda_path) + "/lib64/");
    folders.push_back("/usr/local/cuda/lib64/");
    for (const std::string &folder : folders)
        for (const char *name : names) candidates.push_back(folder + name);
    return candidates;
}

void load(Loaded *loaded) {
    std::string tried;
    for (const std::string &name : candidate_libraries()) {
        void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *e = dlerror();
            tried += (tried.empty() ? "" : "; ") + name + ": " + (e ? e : "not found");
            continue;
        }
        std::string missing = resolve(handle, &loaded->api);
        if (missing.empty()) {
            loaded->ok = true;
            loaded->library = name;
            break;
        }
        tried += (tried.empty() ? "" : "; ") + name + " loaded but has no symbol " + missing;
        dlclose(handle);
    }
    if (!loaded->ok) {
        loaded->why = "could not load NVRTC, the CUDA runtime compiler (" + tried +
                      "); install the CUDA toolkit's NVRTC (11.2 or newer), or set "
                      "LOOM_NVRTC_LIBRARY to the path of libnvrtc.so";
        return;
    }
    // The library stays mapped for the life of the process.
    const NvrtcApi &api = loaded->api;
    int major = 0, minor = 0;
    if (api.nvrtcVersion(&major, &minor) == NVRTC_SUCCESS)
        loaded->version = major * 1000 + minor * 10;
    int count = 0;
    if (api.nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
        std::vector<int> archs(count);
        if (api.nvrtcGetSupportedArchs(archs.data()) == NVRTC_SUCCESS) loaded->capabilities = archs;
    }
}

const Loaded &loaded_nvrtc() {
    static Loaded loaded;
    static std::once_flag once;
    std::call_once(once, [] { load(&loaded); });
    return loaded;
}

const char *result_name(const NvrtcApi &api, nvrtcResult r) {
    const char *name = api.nvrtcGetErrorString(r);
    return name ? name : "unknown NVRTC error";
}

// The name NVRTC gives the program: it appears in the log's error lines as
// "<name>(<line>): error: ...".
constexpr const char *program_name = "loom_kernels.cu";

// The source lines the log's errors point at, each quoted once, so that an
// error message shows the offending code next to NVRTC's words.
std::string offending_lines(const std::string &log, const std::string &source) {
    std::vector<std::string> lines;
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::string quoted;
    std::vector<int> seen;
    const std::string marker = std::string(program_name) + "(";
    for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
        size_t digits = at + marker.size();
        size_t end = digits;
        while (end < log.size() && log[end] >= '0' && log[end] <= '9') end++;
        if (end == digits || end >= log.size() || log[end] != ')') continue;
        int number = std::atoi(log.substr(digits, end - digits).c_str());
        if (number < 1 || number > (int)lines.size()) continue;
        bool already = false;
        for (int s : seen) already |= s == number;
        if (already) continue;
        seen.push_back(number);
        quoted += "\n  line " + std::to_string(number) + ": " + lines[number - 1];
    }
    return quoted;
}

} // namespace

bool nvrtc_available(std::string *why_not) {
    const Loaded &loaded = loaded_nvrtc();
    if (!loaded.ok && why_not) *why_not = loaded.why;
    return loaded.ok;
}

int nvrtc_version() {
    return loaded_nvrtc().version;
}

std::vector<int> nvrtc_supported_capabilities() {
    return loaded_nvrtc().capabilities;
}

NvrtcOutput nvrtc_compile(const std::string &source, int capability, bool want_cubin,
                          const std::vector<std::string> &extra_options) {
    NvrtcOutput out;
    const Loaded &loaded = loaded_nvrtc();
    if (!loaded.ok) {
        out.error = loaded.why;
        return out;
    }
    const NvrtcApi &api = loaded.api;
    std::string architecture =
        "--gpu-architecture=" + std::string(want_cubin ? "sm_" : "compute_") +
        std::to_string(capability);
    std::vector<std::string> options = {architecture, "--std=c++17"};
    options.insert(options.end(), extra_options.begin(), extra_options.end());
    std::vector<const char *> option_pointers;
    for (const std::string &o : options) option_pointers.push_back(o.c_str());

    nvrtcProgram program = nullptr;
    nvrtcResult r =
        api.nvrtcCreateProgram(&program, source.c_str(), program_name, 0, nullptr, nullptr);
    if (r != NVRTC_SUCCESS) {
        out.error = std::string("NVRTC could not create a program: ") + result_name(api, r);
        return out;
    }
    nvrtcResult compiled =
        api.nvrtcCompileProgram(program, (int)option_pointers.size(), option_pointers.data());
    size_t log_size = 0;
    if (api.nvrtcGetProgramLogSize(program, &log_size) == NVRTC_SUCCESS && log_size > 1) {
        std::string log(log_size, '\0');
        if (api.nvrtcGetProgramLog(program, &log[0]) == NVRTC_SUCCESS) {
            log.resize(log_size - 1); // drop the terminating NUL
            out.log = log;
        }
    }
    if (compiled != NVRTC_SUCCESS) {
        std::string flags;
        for (const std::string &o : options) flags += " " + o;
        out.error = std::string("NVRTC could not compile the CUDA C source for ") +
                    (want_cubin ? "sm_" : "compute_") + std::to_string(capability) + " (" +
                    result_name(api, compiled) + ", options:" + flags + "):\n" + out.log;
        std::string lines = offending_lines(out.log, source);
        if (!lines.empty()) out.error += "\nThe offending source:" + lines;
        api.nvrtcDestroyProgram(&program);
        return out;
    }
    size_t size = 0;
    r = want_cubin ? api.nvrtcGetCUBINSize(program, &size) : api.nvrtcGetPTXSize(program, &size);
    if (r == NVRTC_SUCCESS) {
        out.binary.assign(size, '\0');
        r = want_cubin ? api.nvrtcGetCUBIN(program, &out.binary[0])
                       : api.nvrtcGetPTX(program, &out.binary[0]);
    }
    api.nvrtcDestroyProgram(&program);
    if (r != NVRTC_SUCCESS || size == 0) {
        out.binary.clear();
        out.error = std::string("NVRTC compiled the source but gave no ") +
                    (want_cubin ? "cubin" : "PTX") + ": " +
                    (r != NVRTC_SUCCESS ? result_name(api, r) : "empty output");
        return out;
    }
    out.ok = true;
    out.is_cubin = want_cubin;
    return out;
}

} // namespace loom_rt
