#include "lower/SelectGPUAPI.h"

#include "ir/IRMutator.h"
#include "lower/GPULoops.h"

namespace loom {
namespace Internal {

DeviceAPI default_gpu_api(const Target &target) {
    return target.has_feature(Target::OpenCL) ? DeviceAPI::OpenCL : DeviceAPI::Host;
}

namespace {

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
        if (d == op->device_api && body.same_as(op->body)) return op;
        return For::make(op->name, op->min, op->extent, op->for_type, d, body);
    }
};

} // namespace

Stmt select_gpu_api(const Stmt &s, const Target &target) {
    return SelectGPUAPI(default_gpu_api(target)).mutate(s);
}

} // namespace Internal
} // namespace loom
