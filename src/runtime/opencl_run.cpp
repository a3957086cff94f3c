// Kernel launches (loom_device_run for OpenCL): decode the arguments, check
// the launch against the kernel's and the device's limits with a message
// naming the kernel (drivers only answer CL_INVALID_WORK_GROUP_SIZE), set the
// arguments and enqueue, all under the mutex since a cl_kernel's arguments
// are shared by every thread that launches it.

#include "opencl_entry.h"
#include "opencl_internal.h"

namespace loom_rt {

namespace {

int check_launch(void *uc, const OpenCLState &s, const KernelEntry &k, const int32_t blocks[3],
                 const int32_t threads[3], int64_t dynamic_local) {
    const std::string who = "OpenCL kernel " + k.name + ": ";
    if (int r = check_launch_dims(uc, who, blocks, threads)) return r;
    int64_t per_block = int64_t(threads[0]) * threads[1] * threads[2];
    if (uint64_t(per_block) > k.work_group_size)
        return device_error(uc, who + "a block of " + launch_dims_text(threads) + " = " +
                                    std::to_string(per_block) +
                                    " threads exceeds the kernel's maximum work-group size of " +
                                    std::to_string(k.work_group_size) +
                                    " (CL_KERNEL_WORK_GROUP_SIZE on \"" + s.info.device_name +
                                    "\"); use fewer threads per block");
    for (int i = 0; i < 3; i++) {
        if (size_t(threads[i]) > s.info.max_work_item_sizes[i])
            return device_error(uc, who + "a block of " + launch_dims_text(threads) +
                                        " threads has " + std::to_string(threads[i]) +
                                        " in dimension " + std::to_string(i) +
                                        ", more than the device's maximum of " +
                                        std::to_string(s.info.max_work_item_sizes[i]) +
                                        " (CL_DEVICE_MAX_WORK_ITEM_SIZES)");
    }
    const size_t *reqd = k.compile_work_group_size;
    if (reqd[0] && (reqd[0] != size_t(threads[0]) || reqd[1] != size_t(threads[1]) ||
                    reqd[2] != size_t(threads[2])))
        return device_error(uc, who + "launched with blocks of " + launch_dims_text(threads) +
                                    " threads but the kernel declares reqd_work_group_size(" +
                                    std::to_string(reqd[0]) + ", " + std::to_string(reqd[1]) +
                                    ", " + std::to_string(reqd[2]) + ")");
    uint64_t local = k.static_local_bytes + uint64_t(dynamic_local);
    if (local > s.info.local_mem_size)
        return device_error(
            uc, who + "needs " + std::to_string(local) +
                    " bytes of local (shared) memory per block (" +
                    std::to_string(k.static_local_bytes) + " static + " +
                    std::to_string(dynamic_local) + " dynamic), more than the device's " +
                    std::to_string(s.info.local_mem_size) + " (CL_DEVICE_LOCAL_MEM_SIZE)");
    return 0;
}

// Sets every argument; `*dynamic_local` gets the bytes of an 's' argument.
int set_args(void *uc, const OpenCLState &s, const KernelEntry &k, int32_t shared_bytes,
             const char *arg_kinds, const uint64_t *args, int64_t *dynamic_local) {
    const std::string who = "OpenCL kernel " + k.name + ": ";
    size_t count = arg_kinds ? std::char_traits<char>::length(arg_kinds) : 0;
    if (count != k.num_args)
        return device_error(uc, who + "given " + std::to_string(count) + " arguments (\"" +
                                    (arg_kinds ? arg_kinds : "") + "\") but it takes " +
                                    std::to_string(k.num_args));
    if (int r = launch_dynamic_shared(uc, who, shared_bytes, arg_kinds, count, dynamic_local))
        return r;
    for (size_t i = 0; i < count; i++) {
        cl_uint index = cl_uint(i);
        cl_int err = CL_SUCCESS;
        uint8_t v1;
        uint16_t v2;
        uint32_t v4;
        uint64_t v8;
        switch (arg_kinds[i]) {
        case 'b': {
            cl_mem mem = nullptr;
            const auto *b = reinterpret_cast<const loom_buffer_t *>(uintptr_t(args[i]));
            if (int r = device_mem_of(uc, s, b, who + "buffer argument " + std::to_string(i), &mem))
                return r;
            err = s.api->clSetKernelArg(k.kernel, index, sizeof(cl_mem), &mem);
            break;
        }
        case '1':
            v1 = uint8_t(args[i]);
            err = s.api->clSetKernelArg(k.kernel, index, 1, &v1);
            break;
        case '2':
            v2 = uint16_t(args[i]);
            err = s.api->clSetKernelArg(k.kernel, index, 2, &v2);
            break;
        case '4':
            v4 = uint32_t(args[i]);
            err = s.api->clSetKernelArg(k.kernel, index, 4, &v4);
            break;
        case '8':
            v8 = args[i];
            err = s.api->clSetKernelArg(k.kernel, index, 8, &v8);
            break;
        case 's':
            if (i + 1 != count) return shared_arg_not_last_error(uc, who, arg_kinds);
            // A __local argument of 0 bytes is invalid in OpenCL; a launch
            // whose shared size computes to 0 still needs a valid pointer.
            err = s.api->clSetKernelArg(k.kernel, index,
                                        size_t(shared_bytes > 0 ? shared_bytes : 1), nullptr);
            break;
        default:
            return unknown_arg_kind_error(uc, who, i, arg_kinds[i]);
        }
        if (err != CL_SUCCESS)
            return cl_fail(uc, err, "clSetKernelArg",
                           "argument " + std::to_string(i) + " ('" + std::string(1, arg_kinds[i]) +
                               "') of kernel " + k.name);
    }
    return 0;
}

} // namespace

int opencl_run(void *uc, const char *source, const char *kernel_name, const int32_t blocks[3],
               const int32_t threads[3], int32_t shared_bytes, const char *arg_kinds,
               const uint64_t *args) {
    OpenCLState &s = cl_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (int r = ensure_initialized_locked(uc, s)) return r;
    KernelEntry *k = nullptr;
    if (int r = get_kernel_locked(uc, s, source, kernel_name, &k)) return r;
    int64_t dynamic_local = 0;
    if (int r = set_args(uc, s, *k, shared_bytes, arg_kinds, args, &dynamic_local)) return r;
    if (int r = check_launch(uc, s, *k, blocks, threads, dynamic_local)) return r;
    if (blocks[0] == 0 || blocks[1] == 0 || blocks[2] == 0) return 0; // nothing to run
    size_t global[3], local[3];
    for (int i = 0; i < 3; i++) {
        local[i] = size_t(threads[i]);
        global[i] = size_t(blocks[i]) * local[i];
    }
    cl_int err = s.api->clEnqueueNDRangeKernel(s.queue, k->kernel, 3, nullptr, global, local, 0,
                                               nullptr, nullptr);
    if (err != CL_SUCCESS)
        return cl_fail(uc, err, "clEnqueueNDRangeKernel",
                       "kernel " + k->name + ", " + launch_dims_text(blocks) + " blocks of " +
                           launch_dims_text(threads) + " threads");
    return 0;
}

} // namespace loom_rt
