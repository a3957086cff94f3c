// Modules and functions: one module per (pipeline source, context), each
// kernel's CUfunction looked up once, never per launch. A source is either
// an AOT CUDA bundle (cuda_compile.h), whose best image for the device is
// loaded as it is, or CUDA C from the JIT, compiled with NVRTC for the
// device's compute capability (asked of the driver) and kept in the disk
// kernel cache, so that a second process pays no NVRTC time.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda_compile.h"
#include "cuda_internal.h"
#include "kernel_disk_cache.h"

namespace loom_rt {

namespace {

std::string sm(int capability) {
    return "sm_" + std::to_string(capability);
}

std::string capability_list(const std::vector<int> &caps) {
    std::string s;
    for (int c : caps) s += (s.empty() ? "" : ", ") + sm(c);
    return s.empty() ? "none" : s;
}

// NVRTC options besides the architecture and --std (nvrtc_compile adds
// those): the ptxas figures for LOOM_DEBUG, and LOOM_NVRTC_OPTIONS.
std::vector<std::string> compile_options(bool cubin) {
    std::vector<std::string> options;
    if (cubin) options.push_back("--ptxas-options=--verbose");
    const char *extra = std::getenv("LOOM_NVRTC_OPTIONS");
    std::string word;
    for (const char *p = extra ? extra : "";; p++) {
        if (*p && !std::isspace(static_cast<unsigned char>(*p))) {
            word += *p;
            continue;
        }
        if (!word.empty()) options.push_back(word);
        word.clear();
        if (!*p) break;
    }
    return options;
}

// What to compile for a device of `capability` with an NVRTC that knows
// `caps`: a cubin for the device (or for the newest earlier capability of
// the same major, which the device runs), else PTX for the newest earlier
// capability, which the driver compiles on. False when NVRTC knows none.
bool choose_target(int capability, const std::vector<int> &caps, int *target, bool *cubin) {
    int same_major = 0, earlier = 0;
    for (int c : caps) {
        if (c > capability) continue;
        earlier = std::max(earlier, c);
        if (c / 10 == capability / 10) same_major = std::max(same_major, c);
    }
    *cubin = same_major != 0;
    *target = same_major ? same_major : earlier;
    return *target != 0;
}

// A compiled program as the disk cache keeps it: 'c' (cubin) or 'p' (PTX),
// the log's size (8 bytes), the log (the ptxas figures), the binary.
struct Compiled {
    std::string binary, log;
    bool is_cubin = false;
};

std::vector<unsigned char> encode(const Compiled &c) {
    uint64_t log_size = c.log.size();
    std::vector<unsigned char> blob(1 + sizeof(log_size));
    blob[0] = c.is_cubin ? 'c' : 'p';
    std::memcpy(&blob[1], &log_size, sizeof(log_size));
    blob.insert(blob.end(), c.log.begin(), c.log.end());
    blob.insert(blob.end(), c.binary.begin(), c.binary.end());
    return blob;
}

bool decode(const std::vector<unsigned char> &blob, Compiled *c) {
    uint64_t log_size = 0;
    if (blob.size() < 1 + sizeof(log_size) || (blob[0] != 'c' && blob[0] != 'p')) return false;
    std::memcpy(&log_size, &blob[1], sizeof(log_size));
    size_t start = 1 + sizeof(log_size);
    if (log_size >= blob.size() - start) return false; // the binary must not be empty
    c->is_cubin = blob[0] == 'c';
    c->log.assign(blob.begin() + long(start), blob.begin() + long(start + log_size));
    c->binary.assign(blob.begin() + long(start + log_size), blob.end());
    return true;
}

// LOOM_DEBUG >= 1: how each program was made and NVRTC's report (ptxas
// registers, spills, shared bytes per kernel), once per process; >= 2: its
// CUDA C too.
void debug_print(CudaState &s, const char *source, const std::string &how, const std::string &log,
                 const char *cuda_c) {
    if (debug_level() < 1) return;
    if (!s.printed_programs.insert(fnv1a64(source, std::strlen(source))).second) return;
    std::fprintf(stderr, "Loom: CUDA program (%s)%s%s\n", how.c_str(),
                 log.empty() ? "" : ", NVRTC/ptxas report:\n", log.c_str());
    if (debug_level() >= 2 && *cuda_c) std::fprintf(stderr, "Loom: its CUDA C:\n%s\n", cuda_c);
}

// CUDA C compiled for the device of `ctx`, from the disk cache when there.
int compile_locked(void *uc, CudaState &s, const ContextState &ctx, const char *source,
                   const char *kernel_name, Compiled *out, std::string *how) {
    const CudaDeviceInfo &info = ctx.info;
    std::vector<int> caps = nvrtc_supported_capabilities();
    if (caps.empty()) {
        std::string why;
        nvrtc_available(&why);
        return device_error(uc, "CUDA: kernel " + std::string(kernel_name) +
                                    " needs NVRTC to compile its CUDA C for \"" + info.name +
                                    "\" (" + sm(info.capability) +
                                    "), but NVRTC is not available: " + why);
    }
    int target = 0;
    bool cubin = false;
    if (!choose_target(info.capability, caps, &target, &cubin))
        return device_error(uc, "CUDA: the device \"" + info.name + "\" has compute capability " +
                                    std::to_string(info.capability / 10) + "." +
                                    std::to_string(info.capability % 10) +
                                    ", older than every architecture this NVRTC compiles for (" +
                                    capability_list(caps) + ")");
    std::vector<std::string> options = compile_options(cubin);
    std::string key = cuda_kernel_cache_key(source, options, target, cubin, nvrtc_version());
    std::string dir = kernel_cache_dir();
    std::string path = dir.empty() ? "" : kernel_cache_path(dir, "cuda-", key);
    std::vector<unsigned char> blob;
    std::string what = (cubin ? "cubin for " : "PTX for ") + sm(target);
    if (!path.empty() && kernel_cache_load(path, key, &blob) && decode(blob, out)) {
        s.loaded_from_cache++;
        *how = what + ", loaded from the kernel cache";
        return 0;
    }
    NvrtcOutput compiled = nvrtc_compile(source, target, cubin, options);
    if (!compiled.ok)
        return device_error(uc, "CUDA: compiling the program of kernel " +
                                    std::string(kernel_name) + " for " + sm(target) +
                                    " with NVRTC failed: " + compiled.error);
    out->binary = std::move(compiled.binary);
    out->log = std::move(compiled.log);
    out->is_cubin = compiled.is_cubin;
    if (!path.empty()) {
        blob = encode(*out);
        kernel_cache_store(path, key, blob.data(), blob.size());
    }
    s.built_from_source++;
    *how = what + ", compiled with NVRTC";
    return 0;
}

// Loads a cubin or PTX into the current context; a failure quotes the JIT log.
int load_image(void *uc, CudaState &s, const ContextState &ctx, const std::string &image,
               bool is_cubin, const std::string &what, CUmodule *out) {
    std::string ptx;
    const void *data = image.data();
    if (!is_cubin && (image.empty() || image.back() != '\0')) {
        ptx = image + '\0'; // PTX is loaded as a C string
        data = ptx.data();
    }
    char error_log[8192] = {0};
    cu::CUjit_option options[] = {cu::CU_JIT_ERROR_LOG_BUFFER,
                                  cu::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {error_log, reinterpret_cast<void *>(uintptr_t(sizeof(error_log) - 1))};
    CUresult err = s.api->cuModuleLoadDataEx(out, data, 2, options, values);
    if (err == cu::CUDA_SUCCESS) return 0;
    std::string context = what + " on \"" + ctx.info.name + "\" (" + sm(ctx.info.capability) + ")";
    if (error_log[0]) context += "; the driver's log:\n" + std::string(error_log);
    return cu_fail(uc, err, "cuModuleLoadDataEx", context);
}

int load_module_locked(void *uc, CudaState &s, ContextState &ctx, const char *source,
                       const char *kernel_name, CUmodule *out) {
    const int capability = ctx.info.capability;
    std::string plain_source;
    const char *cuda_c = source;
    if (is_cuda_bundle(source)) {
        CudaBundle bundle;
        std::string error;
        if (!cuda_bundle_decode(source, &bundle, &error))
            return device_error(uc, "CUDA: the CUDA device code of kernel " +
                                        std::string(kernel_name) + " is malformed: " + error);
        if (const CudaBundle::Image *image = cuda_bundle_select(bundle, capability)) {
            std::string what = std::string(image->is_cubin ? "the cubin" : "the PTX") + " for " +
                               sm(image->capability) + " embedded with kernel " + kernel_name;
            if (int r = load_image(uc, s, ctx, image->data, image->is_cubin, what, out)) return r;
            debug_print(s, source, what, "", bundle.source.c_str());
            return 0;
        }
        std::vector<int> built;
        for (const auto &image : bundle.images) built.push_back(image.capability);
        if (bundle.source.empty() || !nvrtc_available())
            return device_error(
                uc, "CUDA: kernel " + std::string(kernel_name) + " was built for " +
                        capability_list(built) + ", none of which runs on \"" + ctx.info.name +
                        "\" (" + sm(capability) +
                        "), and NVRTC is not available to compile its source; build the library "
                        "for cuda_capability_" +
                        std::to_string(capability) + " too");
        plain_source = std::move(bundle.source);
        cuda_c = plain_source.c_str();
    }
    Compiled compiled;
    std::string how;
    if (int r = compile_locked(uc, s, ctx, cuda_c, kernel_name, &compiled, &how)) return r;
    std::string what = how + ", of kernel " + kernel_name;
    if (int r = load_image(uc, s, ctx, compiled.binary, compiled.is_cubin, what, out)) return r;
    debug_print(s, source, how, compiled.log, cuda_c);
    return 0;
}

ModuleEntry *find_module(ContextState &ctx, const char *source) {
    auto by_pointer = ctx.modules_by_pointer.find(source);
    // The same address may hold another text by now (a JIT module was freed
    // and its memory reused), hence the comparison; strncmp stops at either
    // terminator, so it never reads past a shorter string.
    if (by_pointer != ctx.modules_by_pointer.end()) {
        const std::string &known = by_pointer->second->source;
        if (std::strncmp(known.c_str(), source, known.size() + 1) == 0) return by_pointer->second;
    }
    auto by_source = ctx.modules_by_source.find(std::string_view(source));
    if (by_source == ctx.modules_by_source.end()) return nullptr;
    ctx.modules_by_pointer[source] = by_source->second;
    return by_source->second;
}

int func_attribute(const CudaState &s, CUfunction f, cu::CUfunction_attribute what) {
    int value = 0;
    return s.api->cuFuncGetAttribute(&value, what, f) == cu::CUDA_SUCCESS ? value : 0;
}

int create_function_locked(void *uc, CudaState &s, ModuleEntry &m, const char *name,
                           FunctionEntry **out) {
    CUfunction f = nullptr;
    CUresult err = s.api->cuModuleGetFunction(&f, m.module, name);
    if (err == cu::CUDA_ERROR_NOT_FOUND)
        return device_error(uc, "CUDA: the program has no kernel named " + std::string(name) +
                                    " (kernels are declared extern \"C\" __global__)");
    if (err != cu::CUDA_SUCCESS)
        return cu_fail(uc, err, "cuModuleGetFunction", "kernel " + std::string(name));
    auto entry = std::make_unique<FunctionEntry>();
    entry->name = name;
    entry->function = f;
    entry->max_threads_per_block =
        func_attribute(s, f, cu::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    entry->static_shared_bytes = func_attribute(s, f, cu::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    entry->num_regs = func_attribute(s, f, cu::CU_FUNC_ATTRIBUTE_NUM_REGS);
    if (s.api->cuFuncGetParamInfo) {
        // Parameters until the index runs out (CUDA_ERROR_INVALID_VALUE).
        for (size_t i = 0; i < 4096; i++) {
            size_t offset = 0, bytes = 0;
            CUresult r = s.api->cuFuncGetParamInfo(f, i, &offset, &bytes);
            if (r == cu::CUDA_SUCCESS) {
                entry->param_bytes.push_back(bytes);
                continue;
            }
            entry->params_known = r == cu::CUDA_ERROR_INVALID_VALUE;
            break;
        }
    }
    *out = entry.get();
    m.functions.push_back(std::move(entry));
    return 0;
}

} // namespace

std::string cuda_kernel_cache_key(const std::string &source,
                                  const std::vector<std::string> &options, int capability,
                                  bool cubin, int nvrtc_version) {
    // The version word changes when the runtime's use of binaries does.
    std::string key = "loom-cuda-program-1\n";
    key += (cubin ? "cubin " : "ptx ") + sm(capability) + "\n";
    key += "nvrtc " + std::to_string(nvrtc_version) + "\n";
    for (const std::string &o : options) key += "option " + o + "\n";
    return key + "\n" + source;
}

int get_function_locked(void *uc, CudaState &s, ContextState &ctx, const char *source,
                        const char *name, FunctionEntry **out) {
    if (!source || !name)
        return device_error(uc, "CUDA: loom_device_run was given a NULL source or kernel name");
    ModuleEntry *m = find_module(ctx, source);
    if (!m) {
        CUmodule module = nullptr;
        if (int r = load_module_locked(uc, s, ctx, source, name, &module)) return r;
        auto entry = std::make_unique<ModuleEntry>();
        entry->source = source;
        entry->module = module;
        m = entry.get();
        ctx.modules.push_back(std::move(entry));
        ctx.modules_by_source[std::string_view(m->source)] = m;
        ctx.modules_by_pointer[source] = m;
    }
    for (auto &f : m->functions) {
        if (f->name == name) {
            *out = f.get();
            return 0;
        }
    }
    return create_function_locked(uc, s, *m, name, out);
}

void release_modules_locked(CudaState &s, ContextState &ctx) {
    if (ctx.modules.empty()) return;
    PushContext push(s.api, ctx.context);
    if (push.ok())
        for (auto &m : ctx.modules) s.api->cuModuleUnload(m->module);
    ctx.modules_by_pointer.clear();
    ctx.modules_by_source.clear();
    ctx.modules.clear();
}

} // namespace loom_rt
