// target_arch_is and friends (loom/IROperator.h): intrinsics that
// lower/LowerTargetQueries.cpp replaces by constants of the compile target.

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

Expr target_arch_is(Target::Arch arch) {
    return Call::make(Bool(), Intrinsic::target_arch_is, {Expr(int(arch))}, Call::PureIntrinsic);
}

Expr target_os_is(Target::OS os) {
    return Call::make(Bool(), Intrinsic::target_os_is, {Expr(int(os))}, Call::PureIntrinsic);
}

Expr target_has_feature(Target::Feature feature) {
    if (int(feature) < 0 || feature >= Target::FeatureEnd)
        user_error("target_has_feature of an unknown feature (" << int(feature) << ")");
    return Call::make(Bool(), Intrinsic::target_has_feature, {Expr(int(feature))},
                      Call::PureIntrinsic);
}

Expr target_bits() {
    return Call::make(Int(32), Intrinsic::target_bits, {}, Call::PureIntrinsic);
}

Expr target_natural_vector_size(Type t) {
    if (t.is_handle() || t.is_void())
        user_error("target_natural_vector_size of " << type_to_string(t)
                                                    << ": it needs a number type");
    return Call::make(Int(32), Intrinsic::target_natural_vector_size, {make_zero(t.element_of())},
                      Call::PureIntrinsic);
}

} // namespace loom
