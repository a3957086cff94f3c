// Programs and kernels: each distinct source is built once per context (in
// memory), and its binary is kept on disk so that the next process skips the
// compiler; each kernel object is created once per program, never per launch.

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernel_disk_cache.h"
#include "opencl_internal.h"

namespace loom_rt {

namespace {

// Nothing that relaxes IEEE semantics (no -cl-fast-relaxed-math): generated
// code must match the CPU reference. LOOM_OCL_BUILD_OPTIONS adds options.
std::string build_options() {
    const char *extra = std::getenv("LOOM_OCL_BUILD_OPTIONS");
    return extra ? extra : "";
}

// Everything that decides the binary. The version word changes when the
// runtime's use of binaries does.
std::string cache_key(const DeviceInfo &info, const std::string &options, const char *source) {
    std::string key = "loom-opencl-program-1\n";
    for (const std::string *s : {&options, &info.platform_name, &info.device_name,
                                 &info.device_version, &info.driver_version})
        key += *s + "\n";
    return key + source;
}

std::string build_log(const CLApi &api, cl_program program, cl_device_id device) {
    size_t size = 0;
    if (api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
            CL_SUCCESS ||
        size == 0)
        return "";
    std::string log(size, '\0');
    api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, &log[0], nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
}

int build_failure(void *uc, const OpenCLState &s, cl_program program, cl_int err,
                  const char *kernel_name, const std::string &options, const char *source) {
    std::string log = build_log(*s.api, program, s.choice.device);
    std::string message = "OpenCL: building the program of kernel " + std::string(kernel_name) +
                          " failed: clBuildProgram returned " + cl_error_name(err) +
                          " on device \"" + s.info.device_name + "\" (build options \"" + options +
                          "\")";
    std::string lines = quote_source_lines_from_log(source, log);
    if (!lines.empty()) message += "\nThe source lines the build log points at:\n" + lines;
    message += "\nBuild log:\n" + (log.empty() ? std::string("(empty)") : log);
    return device_error(uc, message);
}

// The program's binary (one device), or an empty vector.
std::vector<unsigned char> program_binary(const CLApi &api, cl_program program) {
    size_t size = 0;
    std::vector<unsigned char> binary;
    if (api.clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) !=
            CL_SUCCESS ||
        size == 0)
        return binary;
    binary.resize(size);
    unsigned char *pointers[1] = {binary.data()};
    if (api.clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(pointers), pointers, nullptr) !=
        CL_SUCCESS)
        binary.clear();
    return binary;
}

// A program from a cached binary; nullptr when the driver rejects it (the
// caller then builds from source).
cl_program program_from_binary(const OpenCLState &s, const std::vector<unsigned char> &binary,
                               const std::string &options) {
    const CLApi &api = *s.api;
    const unsigned char *bytes = binary.data();
    size_t size = binary.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program =
        api.clCreateProgramWithBinary(s.context, 1, &s.choice.device, &size, &bytes, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
        if (program) api.clReleaseProgram(program);
        return nullptr;
    }
    if (api.clBuildProgram(program, 1, &s.choice.device, options.c_str(), nullptr, nullptr) !=
        CL_SUCCESS) {
        api.clReleaseProgram(program);
        return nullptr;
    }
    return program;
}

void debug_print_source(OpenCLState &s, const char *source, bool from_binary) {
    if (debug_level() < 1) return;
    if (!s.printed_sources.insert(fnv1a64(source, std::strlen(source))).second) return;
    std::fprintf(stderr, "Loom: OpenCL program (%s):\n%s\n",
                 from_binary ? "loaded from the kernel cache" : "built from source", source);
}

int build_program_locked(void *uc, OpenCLState &s, const char *source, const char *kernel_name,
                         ProgramEntry **out) {
    const CLApi &api = *s.api;
    std::string options = build_options();
    std::string key = cache_key(s.info, options, source);
    std::string dir = kernel_cache_dir();
    std::string path = dir.empty() ? "" : kernel_cache_path(dir, "opencl-", key);

    cl_program program = nullptr;
    std::vector<unsigned char> binary;
    if (!path.empty() && kernel_cache_load(path, key, &binary))
        program = program_from_binary(s, binary, options);
    bool from_binary = program != nullptr;
    if (!program) {
        cl_int err = CL_SUCCESS;
        program = api.clCreateProgramWithSource(s.context, 1, &source, nullptr, &err);
        if (err != CL_SUCCESS)
            return cl_fail(uc, err, "clCreateProgramWithSource",
                           "program of kernel " + std::string(kernel_name));
        err = api.clBuildProgram(program, 1, &s.choice.device, options.c_str(), nullptr, nullptr);
        if (err != CL_SUCCESS) {
            int r = build_failure(uc, s, program, err, kernel_name, options, source);
            api.clReleaseProgram(program);
            return r;
        }
        if (!path.empty()) {
            binary = program_binary(api, program);
            if (!binary.empty()) kernel_cache_store(path, key, binary.data(), binary.size());
        }
    }
    (from_binary ? s.loaded_from_binary : s.built_from_source)++;
    debug_print_source(s, source, from_binary);

    auto entry = std::make_unique<ProgramEntry>();
    entry->source = source;
    entry->program = program;
    ProgramEntry *p = entry.get();
    s.programs.push_back(std::move(entry));
    s.programs_by_source[std::string_view(p->source)] = p;
    s.programs_by_pointer[source] = p;
    *out = p;
    return 0;
}

ProgramEntry *find_program_locked(OpenCLState &s, const char *source) {
    auto by_pointer = s.programs_by_pointer.find(source);
    // The same address may hold another text by now (a JIT module was freed
    // and its memory reused), hence the comparison; strncmp stops at either
    // terminator, so it never reads past a shorter string.
    if (by_pointer != s.programs_by_pointer.end()) {
        const std::string &known = by_pointer->second->source;
        if (std::strncmp(known.c_str(), source, known.size() + 1) == 0) return by_pointer->second;
    }
    auto by_source = s.programs_by_source.find(std::string_view(source));
    if (by_source == s.programs_by_source.end()) return nullptr;
    s.programs_by_pointer[source] = by_source->second;
    return by_source->second;
}

std::string kernel_names(const CLApi &api, cl_program program) {
    size_t size = 0;
    if (api.clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size) != CL_SUCCESS ||
        size == 0)
        return "";
    std::string names(size, '\0');
    api.clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, &names[0], nullptr);
    while (!names.empty() && names.back() == '\0') names.pop_back();
    return names;
}

int create_kernel_locked(void *uc, OpenCLState &s, ProgramEntry &p, const char *name,
                         KernelEntry **out) {
    const CLApi &api = *s.api;
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = api.clCreateKernel(p.program, name, &err);
    if (err == CL_INVALID_KERNEL_NAME)
        return device_error(uc, "OpenCL: the program has no kernel named " + std::string(name) +
                                    "; its kernels are: " + kernel_names(api, p.program));
    if (err != CL_SUCCESS) return cl_fail(uc, err, "clCreateKernel", "kernel " + std::string(name));
    auto entry = std::make_unique<KernelEntry>();
    entry->name = name;
    entry->kernel = kernel;
    api.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof(cl_uint), &entry->num_args, nullptr);
    cl_device_id d = s.choice.device;
    api.clGetKernelWorkGroupInfo(kernel, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof(size_t),
                                 &entry->work_group_size, nullptr);
    api.clGetKernelWorkGroupInfo(kernel, d, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, 3 * sizeof(size_t),
                                 entry->compile_work_group_size, nullptr);
    // Queried before any argument is set: the static __local use only.
    api.clGetKernelWorkGroupInfo(kernel, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(cl_ulong),
                                 &entry->static_local_bytes, nullptr);
    *out = entry.get();
    p.kernels.push_back(std::move(entry));
    return 0;
}

} // namespace

int get_kernel_locked(void *uc, OpenCLState &s, const char *source, const char *name,
                      KernelEntry **out) {
    if (!source || !name)
        return device_error(uc, "OpenCL: loom_device_run was given a NULL source or kernel name");
    ProgramEntry *p = find_program_locked(s, source);
    if (!p)
        if (int r = build_program_locked(uc, s, source, name, &p)) return r;
    for (auto &k : p->kernels) {
        if (k->name == name) {
            *out = k.get();
            return 0;
        }
    }
    return create_kernel_locked(uc, s, *p, name, out);
}

void release_programs_locked(OpenCLState &s) {
    for (auto &p : s.programs) {
        for (auto &k : p->kernels) s.api->clReleaseKernel(k->kernel);
        s.api->clReleaseProgram(p->program);
    }
    s.programs_by_pointer.clear();
    s.programs_by_source.clear();
    s.programs.clear();
}

} // namespace loom_rt
