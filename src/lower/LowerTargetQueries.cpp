#include "lower/LowerTargetQueries.h"

#include <algorithm>

#include "ir/IRMutator.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

int natural_vector_size(const Target &target, Type t) {
    int bytes = 16; // SSE, NEON
    if (target.arch == Target::X86) {
        bool integer = !t.is_float();
        if (target.has_feature(Target::AVX512_Skylake) ||
            (target.has_feature(Target::AVX512) && !integer))
            bytes = 64;
        else if (target.has_feature(Target::AVX2) || (target.has_feature(Target::AVX) && !integer))
            bytes = 32;
    }
    int element = std::max(1, int(t.bytes()));
    return bytes / element;
}

namespace {

class LowerTargetQueries : public IRMutator {
    const Target &target;

    int arg(const Call *op) const { return int(*as_const_int(op->args.at(0))); }

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        switch (op->op) {
        case Intrinsic::target_arch_is:
            return make_bool(int(target.arch) == arg(op));
        case Intrinsic::target_os_is:
            return make_bool(int(target.os) == arg(op));
        case Intrinsic::target_has_feature:
            return make_bool(target.has_feature(Target::Feature(arg(op))));
        case Intrinsic::target_bits:
            return make_const(Int(32), int64_t(target.bits));
        case Intrinsic::target_natural_vector_size:
            return make_const(Int(32), int64_t(natural_vector_size(target, op->args.at(0).type())));
        default:
            return IRMutator::visit(op);
        }
    }

public:
    explicit LowerTargetQueries(const Target &t) : target(t) {}
};

} // namespace

Stmt lower_target_queries(const Stmt &s, const Target &target) {
    return LowerTargetQueries(target).mutate(s);
}

} // namespace Internal
} // namespace loom
