#include "lower/InjectDeviceBuffers.h"

#include <map>

#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "lower/GPULoops.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

namespace {

class InjectDeviceBuffers : public IRMutator {
public:
    explicit InjectDeviceBuffers(const std::vector<DeviceKernel> &kernels) {
        for (const auto &k : kernels)
            for (const auto &a : k.args)
                if (a.is_buffer) api_of.emplace(a.name, k.device_api == DeviceAPI::CUDA ? 2 : 1);
    }

private:
    std::map<std::string, int> api_of; // device buffers and their loom_device_api_t
    using IRMutator::visit;

    Stmt visit(const Allocate *op) override {
        auto it = api_of.find(op->name);
        if (it == api_of.end()) return IRMutator::visit(op);
        Stmt body = mutate(op->body);
        bool host_uses = buffer_accesses(body).touches(op->name);

        Expr bytes = make_const(Int(64), int64_t(op->type.bytes()) * op->type.lanes);
        for (const Expr &e : op->extents)
            bytes = Mul::make(bytes, e.type() == Int(64) ? e : Cast::make(Int(64), e));
        Expr host = host_uses ? Variable::make(Handle(), op->name)
                              : Reinterpret::make(Handle(), make_zero(UInt(64)));
        std::string handle_name = op->name + ".buffer";
        Expr handle = Variable::make(Handle(), handle_name);
        Expr create = Call::make(Handle(), "loom_device_buffer_create",
                                 {user_context_var(), host, bytes, make_const(Int(32), it->second)},
                                 Call::Extern);
        Expr created = NE::make(Reinterpret::make(UInt(64), handle), make_zero(UInt(64)));
        Expr failed =
            Call::make(Int(32), "loom_error_message",
                       {user_context_var(),
                        StringImm::make("cannot allocate device memory for Func " + op->name)},
                       Call::Extern);
        Expr destroy = Call::make(Int(32), "loom_device_buffer_destroy",
                                  {user_context_var(), handle}, Call::Extern);
        Stmt s = LetStmt::make(
            handle_name, create,
            Block::make({AssertStmt::make(created, failed), body, Evaluate::make(destroy)}));
        if (!host_uses) return s;
        return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition, s);
    }
};

} // namespace

Stmt inject_device_buffers(const Stmt &s, const std::vector<DeviceKernel> &kernels) {
    if (kernels.empty()) return s;
    return InjectDeviceBuffers(kernels).mutate(s);
}

} // namespace Internal
} // namespace loom
