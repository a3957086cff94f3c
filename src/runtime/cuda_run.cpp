// Kernel launches (loom_device_run for CUDA): decode the arguments, check
// the launch against the kernel's and the device's limits with a message
// naming the kernel (the driver only answers CUDA_ERROR_INVALID_VALUE),
// opt in to more than 48 KB of dynamic shared memory where a launch needs
// it, and launch on the call's stream. Asynchronous: a kernel's own errors
// surface at the next copy or sync.

#include "cuda_entry.h"
#include "cuda_internal.h"

namespace loom_rt {

namespace {

int check_launch(void *uc, const CudaDeviceInfo &info, const FunctionEntry &f,
                 const int32_t blocks[3], const int32_t threads[3], int64_t dynamic_shared) {
    const std::string who = "CUDA kernel " + f.name + ": ";
    if (int r = check_launch_dims(uc, who, blocks, threads)) return r;
    int64_t per_block = int64_t(threads[0]) * threads[1] * threads[2];
    if (per_block > f.max_threads_per_block)
        return device_error(
            uc, who + "a block of " + launch_dims_text(threads) + " = " +
                    std::to_string(per_block) + " threads exceeds the kernel's limit of " +
                    std::to_string(f.max_threads_per_block) +
                    " threads per block (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK on \"" +
                    info.name + "\"; the kernel uses " + std::to_string(f.num_regs) +
                    " registers per thread); use fewer threads per block");
    static const char *const axis = "xyz";
    for (int i = 0; i < 3; i++) {
        if (threads[i] > info.max_block[i])
            return device_error(uc, who + "a block of " + launch_dims_text(threads) +
                                        " threads has " + std::to_string(threads[i]) + " in " +
                                        axis[i] + ", more than the device's maximum of " +
                                        std::to_string(info.max_block[i]));
        if (blocks[i] > info.max_grid[i])
            return device_error(uc, who + "a grid of " + launch_dims_text(blocks) + " blocks has " +
                                        std::to_string(blocks[i]) + " in " + axis[i] +
                                        ", more than the device's maximum of " +
                                        std::to_string(info.max_grid[i]));
    }
    int64_t shared = f.static_shared_bytes + dynamic_shared;
    if (shared > info.shared_per_block_optin)
        return device_error(
            uc, who + "needs " + std::to_string(shared) + " bytes of shared memory per block (" +
                    std::to_string(f.static_shared_bytes) + " static + " +
                    std::to_string(dynamic_shared) + " dynamic), more than the " +
                    std::to_string(info.shared_per_block_optin) + " of \"" + info.name + "\"");
    return 0;
}

// More than the default 48 KB per block needs the kernel's opt-in, once per
// size (cuFuncSetAttribute keeps it for later launches).
int opt_in_shared(void *uc, CudaState &s, const CudaDeviceInfo &info, FunctionEntry &f,
                  int64_t dynamic_shared) {
    if (f.static_shared_bytes + dynamic_shared <= info.shared_per_block) return 0;
    if (dynamic_shared <= f.dynamic_shared_limit) return 0;
    CUresult err = s.api->cuFuncSetAttribute(
        f.function, cu::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(dynamic_shared));
    if (err != cu::CUDA_SUCCESS)
        return cu_fail(uc, err, "cuFuncSetAttribute",
                       "allowing kernel " + f.name + " " + std::to_string(dynamic_shared) +
                           " bytes of dynamic shared memory");
    f.dynamic_shared_limit = int(dynamic_shared);
    return 0;
}

// The kernel's parameters: CUdeviceptrs of 'b' buffers and the scalars, each
// in the low bytes of a uint64_t (little-endian, so a pointer to it is a
// pointer to the scalar of its size); 's' sets the dynamic shared bytes.
int decode_args(void *uc, CudaState &s, const CallScope &call, const FunctionEntry &f,
                int32_t shared_bytes, const char *arg_kinds, const uint64_t *args,
                std::vector<uint64_t> *values, int64_t *dynamic_shared) {
    const std::string who = "CUDA kernel " + f.name + ": ";
    size_t count = arg_kinds ? std::char_traits<char>::length(arg_kinds) : 0;
    if (int r = launch_dynamic_shared(uc, who, shared_bytes, arg_kinds, count, dynamic_shared))
        return r;
    std::vector<size_t> sizes;
    for (size_t i = 0; i < count; i++) {
        char kind = arg_kinds[i];
        if (kind == 's') {
            if (i + 1 != count) return shared_arg_not_last_error(uc, who, arg_kinds);
        } else if (kind == 'b') {
            CUdeviceptr pointer = 0;
            const auto *b = reinterpret_cast<const loom_buffer_t *>(uintptr_t(args[i]));
            if (int r = device_ptr_of(uc, s, call, b, who + "buffer argument " + std::to_string(i),
                                      &pointer))
                return r;
            values->push_back(uint64_t(pointer));
            sizes.push_back(sizeof(CUdeviceptr));
        } else if (kind == '1' || kind == '2' || kind == '4' || kind == '8') {
            values->push_back(args[i]);
            sizes.push_back(size_t(kind - '0'));
        } else {
            return unknown_arg_kind_error(uc, who, i, kind);
        }
    }
    if (!f.params_known) return 0;
    if (sizes.size() != f.param_bytes.size())
        return device_error(uc, who + "given " + std::to_string(sizes.size()) +
                                    " parameters (argument kinds \"" +
                                    (arg_kinds ? arg_kinds : "") + "\") but it takes " +
                                    std::to_string(f.param_bytes.size()));
    for (size_t i = 0; i < sizes.size(); i++) {
        if (sizes[i] != f.param_bytes[i])
            return device_error(
                uc, who + "parameter " + std::to_string(i) + " is " +
                        std::to_string(f.param_bytes[i]) + " bytes but its argument ('" +
                        std::string(1, arg_kinds[i]) + "') has " + std::to_string(sizes[i]));
    }
    return 0;
}

} // namespace

int cuda_run(void *uc, const char *source, const char *kernel_name, const int32_t blocks[3],
             const int32_t threads[3], int32_t shared_bytes, const char *arg_kinds,
             const uint64_t *args) {
    CudaState &s = cuda_state();
    CallScope call(uc);
    if (int r = call.begin(s)) return r;
    ContextState &ctx = *call.context();
    FunctionEntry *f = nullptr;
    if (int r = get_function_locked(uc, s, ctx, source, kernel_name, &f)) return r;
    std::vector<uint64_t> values;
    int64_t dynamic_shared = 0;
    if (int r =
            decode_args(uc, s, call, *f, shared_bytes, arg_kinds, args, &values, &dynamic_shared))
        return r;
    if (int r = check_launch(uc, ctx.info, *f, blocks, threads, dynamic_shared)) return r;
    if (blocks[0] == 0 || blocks[1] == 0 || blocks[2] == 0) return 0; // nothing to run
    if (int r = opt_in_shared(uc, s, ctx.info, *f, dynamic_shared)) return r;
    std::vector<void *> params(values.size());
    for (size_t i = 0; i < values.size(); i++) params[i] = &values[i];
    CUresult err = s.api->cuLaunchKernel(
        f->function, unsigned(blocks[0]), unsigned(blocks[1]), unsigned(blocks[2]),
        unsigned(threads[0]), unsigned(threads[1]), unsigned(threads[2]), unsigned(dynamic_shared),
        call.stream(), params.data(), nullptr);
    if (err != cu::CUDA_SUCCESS)
        return cu_fail(uc, err, "cuLaunchKernel",
                       "kernel " + f->name + ", " + launch_dims_text(blocks) + " blocks of " +
                           launch_dims_text(threads) + " threads, " + std::to_string(f->num_regs) +
                           " registers per thread, " +
                           std::to_string(f->static_shared_bytes + dynamic_shared) +
                           " bytes of shared memory per block");
    return 0;
}

} // namespace loom_rt
