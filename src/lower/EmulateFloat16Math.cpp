#include "lower/EmulateFloat16Math.h"

#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

bool is_float16(Type t) {
    return t.is_float() && t.bits == 16;
}

// The type that holds a value of type t after this pass: brain floats become bits.
Type storage_type(Type t) {
    return t.is_bfloat() ? UInt(16, t.lanes) : t;
}

Expr u32_const(int lanes, uint64_t v) {
    return make_const(UInt(32, lanes), v);
}

Expr shift_right(const Expr &a, int bits) {
    return make_intrinsic(a.type(), Intrinsic::shift_right,
                          {a, make_const(a.type(), int64_t(bits))});
}

Expr bitwise_and(const Expr &a, uint64_t mask) {
    return make_intrinsic(a.type(), Intrinsic::bitwise_and, {a, make_const(a.type(), mask)});
}

// The float32 value of brain float bits (exact: they are its upper half).
Expr bfloat_bits_to_float(const Expr &bits) {
    int lanes = bits.type().lanes;
    Expr wide = Cast::make(UInt(32, lanes), bits);
    Expr high =
        make_intrinsic(UInt(32, lanes), Intrinsic::shift_left, {wide, u32_const(lanes, 16)});
    return Reinterpret::make(Float(32, lanes), high);
}

// The bits of the brain float nearest to a float32 (ties to even; NaNs stay
// NaNs, made quiet).
Expr float_to_bfloat_bits(const Expr &f) {
    int lanes = f.type().lanes;
    std::string name = unique_name("bf16_bits");
    Expr b = Variable::make(UInt(32, lanes), name);
    Expr is_nan = GT::make(bitwise_and(b, 0x7fffffff), u32_const(lanes, 0x7f800000));
    Expr lowest_kept_bit = bitwise_and(shift_right(b, 16), 1);
    Expr rounded =
        shift_right(Add::make(Add::make(b, u32_const(lanes, 0x7fff)), lowest_kept_bit), 16);
    Expr quiet_nan = make_intrinsic(UInt(32, lanes), Intrinsic::bitwise_or,
                                    {shift_right(b, 16), u32_const(lanes, 0x40)});
    Expr result = Cast::make(UInt(16, lanes), Select::make(is_nan, quiet_nan, rounded));
    return Let::make(name, Reinterpret::make(UInt(32, lanes), f), result);
}

// float64 to float32 rounding to odd: an inexact result takes whichever
// neighbour has an odd last bit. Rounding that to 16 bits then equals
// rounding the float64 directly (float32 keeps more than 2 extra bits).
Expr double_to_float_round_to_odd(const Expr &d) {
    int lanes = d.type().lanes;
    std::string d_name = unique_name("f64_value"), f_name = unique_name("f32_nearest");
    Expr dv = Variable::make(Float(64, lanes), d_name);
    Expr fv = Variable::make(Float(32, lanes), f_name);
    Expr bits = Reinterpret::make(UInt(32, lanes), fv);
    Expr error = Sub::make(dv, Cast::make(Float(64, lanes), fv));
    Expr zero = make_zero(Float(64, lanes));
    Expr inexact = Or::make(LT::make(error, zero), GT::make(error, zero)); // false for NaN
    Expr even = EQ::make(bitwise_and(bits, 1), u32_const(lanes, 0));
    Expr negative = NE::make(shift_right(bits, 31), u32_const(lanes, 0));
    // The neighbour away from zero when the exact value's magnitude is larger.
    Expr grows = NE::make(GT::make(error, zero), negative);
    Expr neighbour = Select::make(grows, Add::make(bits, u32_const(lanes, 1)),
                                  Sub::make(bits, u32_const(lanes, 1)));
    Expr odd_bits = Select::make(And::make(inexact, even), neighbour, bits);
    return Let::make(d_name, d,
                     Let::make(f_name, Cast::make(Float(32, lanes), dv),
                               Reinterpret::make(Float(32, lanes), odd_bits)));
}

class EmulateFloat16 : public IRMutator {
    using IRMutator::visit;

    // A mutated value of original type t, as float32.
    static Expr widen(const Expr &mutated, Type t) {
        if (t.is_bfloat()) return bfloat_bits_to_float(mutated);
        if (is_float16(t)) return Cast::make(Float(32, t.lanes), mutated);
        return mutated;
    }

    // A float32 value rounded to the 16-bit float type t (its bits for brain floats).
    static Expr narrow(const Expr &f, Type t) {
        if (t.is_bfloat()) return float_to_bfloat_bits(f);
        return Cast::make(t, f);
    }

    Expr as_float(const Expr &e) { return widen(mutate(e), e.type()); }

    template <typename Op> Expr arithmetic(const Op *op) {
        if (!is_float16(op->type)) return IRMutator::visit(op);
        return narrow(Op::make(as_float(op->a), as_float(op->b)), op->type);
    }

    template <typename Op> Expr comparison(const Op *op) {
        if (!is_float16(op->a.type())) return IRMutator::visit(op);
        return Op::make(as_float(op->a), as_float(op->b));
    }

    Expr visit(const Add *op) override { return arithmetic(op); }
    Expr visit(const Sub *op) override { return arithmetic(op); }
    Expr visit(const Mul *op) override { return arithmetic(op); }
    Expr visit(const Div *op) override { return arithmetic(op); }
    Expr visit(const Mod *op) override { return arithmetic(op); }
    Expr visit(const Min *op) override { return arithmetic(op); }
    Expr visit(const Max *op) override { return arithmetic(op); }
    Expr visit(const EQ *op) override { return comparison(op); }
    Expr visit(const NE *op) override { return comparison(op); }
    Expr visit(const LT *op) override { return comparison(op); }
    Expr visit(const LE *op) override { return comparison(op); }
    Expr visit(const GT *op) override { return comparison(op); }
    Expr visit(const GE *op) override { return comparison(op); }

    Expr visit(const FloatImm *op) override {
        if (op->type.is_bfloat()) return UIntImm::make(UInt(16), bfloat16_t(op->value).to_bits());
        return op;
    }

    Expr visit(const Variable *op) override {
        if (!op->type.is_bfloat()) return op;
        return Variable::make(storage_type(op->type), op->name, op->image, op->param);
    }

    Expr visit(const Load *op) override {
        if (!op->type.is_bfloat()) return IRMutator::visit(op);
        Expr predicate = op->predicate.defined() ? mutate(op->predicate) : Expr();
        return Load::make(storage_type(op->type), op->name, mutate(op->index), op->image, op->param,
                          predicate);
    }

    Expr visit(const Ramp *op) override {
        if (!is_float16(op->type)) return IRMutator::visit(op);
        return narrow(Ramp::make(as_float(op->base), as_float(op->stride), op->lanes), op->type);
    }

    Expr visit(const Cast *op) override {
        Type to = op->type, from = op->value.type();
        if (!is_float16(to) && !is_float16(from)) return IRMutator::visit(op);
        Expr v = mutate(op->value);
        if (is_float16(from)) {
            Expr f = widen(v, from); // exact
            if (is_float16(to)) return narrow(f, to);
            return to.element_of() == Float(32) ? f : Cast::make(to, f);
        }
        Expr f;
        if (from.is_float() && from.bits == 64) {
            f = double_to_float_round_to_odd(v);
        } else if (from.is_float() || from.bits <= 24 || !to.is_bfloat()) {
            // Exact in float32, or (for Float(16)) beyond its range either way.
            f = Cast::make(Float(32, to.lanes), v);
        } else {
            f = double_to_float_round_to_odd(Cast::make(Float(64, to.lanes), v));
        }
        return narrow(f, to);
    }

    Expr visit(const Reinterpret *op) override {
        Type to = op->type, from = op->value.type();
        if (!to.is_bfloat() && !from.is_bfloat()) return IRMutator::visit(op);
        Expr v = mutate(op->value);
        Type target = storage_type(to);
        return v.type() == target ? v : Reinterpret::make(target, v);
    }

    Expr visit(const Call *op) override {
        bool involves_float16 = is_float16(op->type);
        for (const Expr &a : op->args) involves_float16 |= is_float16(a.type());
        if (!involves_float16) return IRMutator::visit(op);

        const std::string suffix = "_f16";
        bool math = op->call_type == Call::PureExtern && op->name.size() > suffix.size() &&
                    op->name.compare(op->name.size() - suffix.size(), suffix.size(), suffix) == 0;
        bool float_op = math || op->is_intrinsic(Intrinsic::abs) ||
                        op->is_intrinsic(Intrinsic::absd) ||
                        op->is_intrinsic(Intrinsic::debug_print);
        std::vector<Expr> args;
        for (const Expr &a : op->args) args.push_back(float_op ? as_float(a) : mutate(a));
        if (!float_op) {
            Type t = storage_type(op->type);
            if (op->call_type == Call::Intrinsic || op->call_type == Call::PureIntrinsic)
                return Call::make(t, op->op, args, op->call_type);
            return Call::make(t, op->name, args, op->call_type);
        }
        // Math and |x| run in float32; the result rounds back to 16 bits.
        Type result = is_float16(op->type) ? Float(32, op->type.lanes) : op->type;
        Expr call =
            math ? Call::make(result, op->name.substr(0, op->name.size() - suffix.size()) + "_f32",
                              args, op->call_type)
                 : Call::make(result, op->op, args, op->call_type);
        return is_float16(op->type) ? narrow(call, op->type) : call;
    }

    Stmt visit(const Allocate *op) override {
        if (!op->type.is_bfloat()) return IRMutator::visit(op);
        Expr condition = op->condition.defined() ? mutate(op->condition) : Expr();
        return Allocate::make(op->name, storage_type(op->type), op->memory_type,
                              mutate_exprs(op->extents), condition, mutate(op->body));
    }
};

} // namespace

Stmt emulate_float16_math(const Stmt &s) {
    return EmulateFloat16().mutate(s);
}

} // namespace Internal
} // namespace loom
