#include "lower/ValidateGPULoops.h"

#include "ir/Error.h"
#include "ir/IRPrinter.h"
#include "ir/IRVisitor.h"
#include "lower/CUDACapability.h"
#include "lower/GPULoops.h"

namespace loom {
namespace Internal {

namespace {

const char *directive(ForType t) {
    switch (t) {
    case ForType::GPUBlock:
        return "gpu_blocks";
    case ForType::GPULane:
        return "gpu_lanes";
    default:
        return "gpu_threads";
    }
}

class ValidateGPULoops : public IRVisitor {
public:
    explicit ValidateGPULoops(const Target &t) : target(t) {}

private:
    const Target &target;
    int block_depth = 0, thread_depth = 0;
    std::string outer_block; // the outermost block loop of the current kernel
    DeviceAPI kernel_api = DeviceAPI::None;

    using IRVisitor::visit;

    void check_target(const For *op) {
        DeviceAPI api = op->device_api;
        if (api == DeviceAPI::Host || api == DeviceAPI::None)
            user_error("Func " << loop_func_name(op->name) << " runs " << describe_loop(op->name)
                               << " with " << directive(op->for_type)
                               << " on a host device API; GPU loops need DeviceAPI::CUDA, "
                                  "DeviceAPI::OpenCL or DeviceAPI::Default_GPU");
        if (!target.has_gpu_feature())
            user_error("Func " << loop_func_name(op->name) << " schedules "
                               << describe_loop(op->name) << " with " << directive(op->for_type)
                               << ", but target " << target.to_string()
                               << " has no GPU feature: add 'cuda' or 'opencl' to the target "
                                  "(for example host-cuda or host-opencl, or "
                                  "Target::with_feature(Target::CUDA))");
        if (api != DeviceAPI::Default_GPU && !target.supports_device_api(api)) {
            const char *feature = api == DeviceAPI::CUDA ? "cuda" : "opencl";
            user_error("Func " << loop_func_name(op->name) << " runs " << describe_loop(op->name)
                               << " with " << directive(op->for_type)
                               << " on DeviceAPI::" << (api == DeviceAPI::CUDA ? "CUDA" : "OpenCL")
                               << ", but target " << target.to_string() << " has no '" << feature
                               << "' feature: add it to the target, or schedule the loop on "
                                  "DeviceAPI::Default_GPU (the target's GPU API)");
        }
        if (api == DeviceAPI::CUDA ||
            (api == DeviceAPI::Default_GPU &&
             get_default_device_api_for_target(target) == DeviceAPI::CUDA))
            check_cuda_capabilities_supported(target, "Func " + loop_func_name(op->name));
    }

    void visit(const For *op) override {
        if (op->for_type == ForType::Parallel && block_depth > 0)
            user_error("Func " << loop_func_name(op->name) << " runs " << describe_loop(op->name)
                               << " in parallel inside the GPU kernel of "
                               << describe_loop(outer_block)
                               << "; a kernel cannot run host-only loops: make it serial, "
                                  "vectorized, unrolled or gpu_threads, or compute the Func "
                                  "outside the kernel");
        if (!is_gpu_loop(op->for_type)) {
            IRVisitor::visit(op);
            return;
        }
        check_target(op);
        if (block_depth > 0 && op->device_api != kernel_api &&
            op->device_api != DeviceAPI::Default_GPU && kernel_api != DeviceAPI::Default_GPU)
            user_error("Func " << loop_func_name(op->name) << " runs " << describe_loop(op->name)
                               << " on another device API than the kernel of "
                               << describe_loop(outer_block)
                               << " it is inside; one kernel runs on one device API");
        if (is_gpu_block(op->for_type)) {
            if (thread_depth > 0)
                user_error("Func " << loop_func_name(op->name) << " has gpu_blocks "
                                   << describe_loop(op->name)
                                   << " inside a gpu_threads loop; block loops must enclose all "
                                      "thread loops of their kernel");
            if (block_depth == 3)
                user_error("Func " << loop_func_name(op->name) << " nests a fourth gpu_blocks "
                                   << describe_loop(op->name)
                                   << " in one kernel; a kernel has at most 3 block "
                                      "dimensions (x, y, z): fuse() loops first");
            if (block_depth == 0) {
                outer_block = op->name;
                kernel_api = op->device_api;
            }
            block_depth++;
            IRVisitor::visit(op);
            block_depth--;
            return;
        }
        if (block_depth == 0 && contains_block_loop(op->body))
            user_error("Func " << loop_func_name(op->name) << " has a gpu_blocks loop inside "
                               << describe_loop(op->name)
                               << ", which is a GPU thread loop (inside a gpu_threads loop); "
                                  "block loops must enclose all thread loops of their kernel: "
                                  "reorder() them");
        if (block_depth == 0)
            user_error("Func " << loop_func_name(op->name) << " runs " << describe_loop(op->name)
                               << " with " << directive(op->for_type)
                               << " outside any gpu_blocks loop; GPU thread loops must be inside "
                                  "block loops of the same kernel: use gpu_tile(), or "
                                  "gpu_blocks() on an outer loop (or compute_at a block loop)");
        if (thread_depth == 3)
            user_error("Func " << loop_func_name(op->name) << " nests a fourth GPU thread loop, "
                               << describe_loop(op->name)
                               << ", in one kernel; a kernel has at most 3 thread dimensions "
                                  "(x, y, z): fuse() loops first");
        thread_depth++;
        IRVisitor::visit(op);
        thread_depth--;
    }
};

} // namespace

Stmt validate_gpu_loops(const Stmt &s, const Target &target) {
    ValidateGPULoops v(target);
    s.accept(&v);
    return s;
}

} // namespace Internal
} // namespace loom
