#include "lower/SelectGPUAPI.h"

#include "ir/IRMutator.h"
#include "lower/GPULoops.h"

namespace loom {
namespace Internal {

DeviceAPI default_gpu_api(const Target &target) {
    return get_default_device_api_for_target(target);
}

namespace {

thread_local bool opencl_as_cuda = false;

class SelectGPUAPI : public IRMutator {
public:
    explicit SelectGPUAPI(DeviceAPI api) : api(api) {}

private:
    DeviceAPI api;
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        DeviceAPI d = op->device_api;
        if (is_gpu_loop(op->for_type) && d == DeviceAPI::Default_GPU) d = api;
        if (is_gpu_loop(op->for_type) && d == DeviceAPI::OpenCL && opencl_as_cuda)
            d = DeviceAPI::CUDA;
        if (d == op->device_api && body.same_as(op->body)) return op;
        return For::make(op->name, op->min, op->extent, op->for_type, d, body);
    }
};

} // namespace

ScopedOpenCLAsCUDA::ScopedOpenCLAsCUDA() : previous(opencl_as_cuda) {
    opencl_as_cuda = true;
}

ScopedOpenCLAsCUDA::~ScopedOpenCLAsCUDA() {
    opencl_as_cuda = previous;
}

bool opencl_lowered_as_cuda() {
    return opencl_as_cuda;
}

Stmt select_gpu_api(const Stmt &s, const Target &target) {
    return SelectGPUAPI(default_gpu_api(target)).mutate(s);
}

} // namespace Internal
} // namespace loom
