// Random numbers of loom/IROperator.h: a counter-based hash of the call
// site, the seed, the Func definition and its coordinates. Plain 32-bit
// integer arithmetic (xor, shift, multiply), so it vectorizes and gives the
// same bits in every backend.

#include "frontend/Random.h"

#include <atomic>

#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "loom/IROperator.h"

namespace loom {

namespace {

std::atomic<int> call_site_counter{0};
std::atomic<int> definition_counter{0};

Expr random_call(Type t, Expr seed, const char *fn, bool unsigned_seed_ok) {
    std::vector<Expr> args;
    if (seed.defined()) {
        Type s = seed.type();
        bool ok = s == Int(32) || (unsigned_seed_ok && s == UInt(32));
        if (!ok)
            user_error("The seed of " << fn << " must be a scalar Int(32)"
                                      << (unsigned_seed_ok ? " or UInt(32)" : "") << ", not "
                                      << type_to_string(s));
        args.push_back(seed);
    }
    args.push_back(Expr(call_site_counter++));
    return Internal::Call::make(t, Internal::Intrinsic::random, args,
                                Internal::Call::PureIntrinsic);
}

} // namespace

Expr random_float(Expr seed) {
    return random_call(Float(32), std::move(seed), "random_float", false);
}

Expr random_uint(Expr seed) {
    return random_call(UInt(32), std::move(seed), "random_uint", true);
}

Expr random_int(Expr seed) {
    return reinterpret(Int(32), random_uint(std::move(seed)));
}

namespace Internal {

namespace {

Expr u32(uint32_t v) {
    return make_const(UInt(32), uint64_t(v));
}

Expr shr(const Expr &x, int n) {
    return Call::make(UInt(32), Intrinsic::shift_right, {x, u32(n)}, Call::PureIntrinsic);
}

/** A 32-bit mixing function with good avalanche (xorshift-multiply). */
Expr mix(Expr x) {
    x = x ^ shr(x, 16);
    x = x * u32(0x7feb352dU);
    x = x ^ shr(x, 15);
    x = x * u32(0x846ca68bU);
    return x ^ shr(x, 16);
}

Expr as_u32(const Expr &e) {
    Type t = e.type();
    if (t == UInt(32)) return e;
    if (t == Int(32)) return Reinterpret::make(UInt(32), e);
    return Cast::make(UInt(32), e);
}

class LowerRandom : public IRMutator {
    const std::vector<Expr> &free_vars;
    int tag;

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (!op->is_intrinsic(Intrinsic::random)) return IRMutator::visit(op);
        std::vector<Expr> args = op->args;
        Expr seed = args.size() == 2 ? mutate(args[0]) : Expr(0);
        int id = int(*as_const_int(args.back()));
        Expr h = mix(u32(uint32_t(id) * 0x9E3779B9U ^ uint32_t(tag) * 0x85EBCA6BU) ^ as_u32(seed));
        for (const Expr &v : free_vars) h = mix(h ^ as_u32(v));
        if (op->type.is_float()) {
            // 23 random bits as the mantissa of a float in [1, 2), minus one.
            Expr one_to_two = Reinterpret::make(Float(32), shr(h, 9) | u32(0x3F800000U));
            return one_to_two - make_const(Float(32), 1.0);
        }
        return h;
    }

public:
    LowerRandom(const std::vector<Expr> &vars, int t) : free_vars(vars), tag(t) {}
};

} // namespace

Expr lower_random(const Expr &e, const std::vector<Expr> &free_vars, int tag) {
    return LowerRandom(free_vars, tag).mutate(e);
}

int next_random_definition_tag() {
    return definition_counter++;
}

void reset_random_counters() {
    call_site_counter = 0;
    definition_counter = 0;
}

} // namespace Internal
} // namespace loom
