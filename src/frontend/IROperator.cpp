// The user-facing operators of loom/IROperator.h: type matching, arithmetic,
// comparisons, logic, bit operations, casts, select, min/max/clamp/abs.

#include "loom/IROperator.h"

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

std::string describe(Type t) {
    return type_to_string(t);
}

void check_defined(const Expr &e, const char *op) {
    if (!e.defined()) user_error("Operand of operator " << op << " is an undefined Expr");
}

void check_not_handle(const Expr &a, const Expr &b, const char *op) {
    if (a.type().is_handle() || b.type().is_handle())
        user_error("Operator " << op << " cannot combine " << describe(a.type()) << " and "
                               << describe(b.type())
                               << ": handles (pointers) take no arithmetic or comparison");
}

// A bool meeting a number converts to the number's type (Halide treats
// bools as 1-bit unsigned integers in arithmetic); two bools take none.
void check_not_bool(const Expr &a, const Expr &b, const char *op) {
    if (a.type().is_bool() && b.type().is_bool())
        user_error("Operator " << op << " cannot combine " << describe(a.type()) << " and "
                               << describe(b.type())
                               << ": bools take no arithmetic; cast to an integer type first");
}

void convert_bool_operand(Expr &a, const Expr &b) {
    if (a.type().is_bool() && !b.type().is_bool())
        a = Cast::make(b.type().with_lanes(a.type().lanes), a);
}

void broadcast_to_match(Expr &a, Expr &b, const char *op) {
    int la = a.type().lanes, lb = b.type().lanes;
    if (la == lb) return;
    if (la == 1)
        a = Broadcast::make(a, lb);
    else if (lb == 1)
        b = Broadcast::make(b, la);
    else
        user_error("Operator " << op << " cannot combine vectors of " << la << " and " << lb
                               << " lanes (" << describe(a.type()) << " and " << describe(b.type())
                               << ")");
}

Expr check_fits(Type t, bool fits, const std::string &value, const char *op, Expr result) {
    if (!fits)
        user_error("Operator " << op << ": the constant " << value << " does not fit in the type "
                               << describe(t) << " of the other operand");
    return result;
}

} // namespace

Expr scalar_operand(Type t, int64_t v, const char *op) {
    if (t.is_void()) user_error("Operand of operator " << op << " is an undefined Expr");
    if (t.is_float()) return make_const(t, double(v));
    if (t.is_int() || t.is_uint()) {
        Type s = t.element_of();
        return check_fits(t, s.can_represent(v), std::to_string(v), op, make_const(t, v));
    }
    return Expr(v); // a handle: the operator reports the mismatch
}

Expr scalar_operand_unsigned(Type t, uint64_t v, const char *op) {
    if (t.is_void()) user_error("Operand of operator " << op << " is an undefined Expr");
    if (t.is_float()) return make_const(t, double(v));
    if (t.is_int() || t.is_uint()) {
        Type s = t.element_of();
        return check_fits(t, s.can_represent(v), std::to_string(v), op, make_const(t, v));
    }
    return Expr(v);
}

Expr scalar_operand_float(Type t, double v, const char *op) {
    if (t.is_void()) user_error("Operand of operator " << op << " is an undefined Expr");
    if (t.is_float()) return make_const(t, v);
    if (t.is_int() || t.is_uint()) return make_const(Float(32, t.lanes), v);
    return Expr(v);
}

void match_types(Expr &a, Expr &b, const char *op) {
    check_defined(a, op);
    check_defined(b, op);
    if (a.type() == b.type()) return;
    check_not_handle(a, b, op);
    broadcast_to_match(a, b, op);
    Type ta = a.type(), tb = b.type();
    if (ta == tb) return;
    if (ta.is_float() || tb.is_float()) {
        if (!ta.is_float())
            a = Cast::make(tb, a);
        else if (!tb.is_float())
            b = Cast::make(ta, b);
        else if (ta.bits > tb.bits)
            b = Cast::make(ta, b);
        else
            a = Cast::make(tb, a);
    } else if (ta.code == tb.code) {
        if (ta.bits > tb.bits)
            b = Cast::make(ta, b);
        else
            a = Cast::make(tb, a);
    } else {
        // One signed, one unsigned: signed of the larger width.
        Type t = Int(std::max(ta.bits, tb.bits), ta.lanes);
        if (ta != t) a = Cast::make(t, a);
        if (tb != t) b = Cast::make(t, b);
    }
}

} // namespace Internal

using namespace Internal;

namespace {

void arithmetic_operands(Expr &a, Expr &b, const char *op) {
    check_defined(a, op);
    check_defined(b, op);
    check_not_handle(a, b, op);
    check_not_bool(a, b, op);
    convert_bool_operand(a, b);
    convert_bool_operand(b, a);
    match_types(a, b, op);
}

void logical_operands(Expr &a, Expr &b, const char *op) {
    check_defined(a, op);
    check_defined(b, op);
    if (!a.type().is_bool() || !b.type().is_bool())
        user_error("Operator " << op << " needs bool operands, not " << describe(a.type())
                               << " and " << describe(b.type()) << "; compare with zero first");
    broadcast_to_match(a, b, op);
}

void bitwise_operands(Expr &a, Expr &b, const char *op) {
    check_defined(a, op);
    check_defined(b, op);
    check_not_handle(a, b, op);
    if (a.type().is_float() || b.type().is_float())
        user_error("Operator " << op << " cannot combine " << describe(a.type()) << " and "
                               << describe(b.type())
                               << ": bitwise operators need integer or bool operands");
    match_types(a, b, op);
}

} // namespace

Expr operator+(Expr a, Expr b) {
    arithmetic_operands(a, b, "+");
    return Add::make(a, b);
}
Expr operator-(Expr a, Expr b) {
    arithmetic_operands(a, b, "-");
    return Sub::make(a, b);
}
Expr operator*(Expr a, Expr b) {
    arithmetic_operands(a, b, "*");
    return Mul::make(a, b);
}
Expr operator/(Expr a, Expr b) {
    arithmetic_operands(a, b, "/");
    return Div::make(a, b);
}
Expr operator%(Expr a, Expr b) {
    arithmetic_operands(a, b, "%");
    return Mod::make(a, b);
}
Expr min(Expr a, Expr b) {
    check_defined(a, "min");
    check_defined(b, "min");
    check_not_handle(a, b, "min");
    match_types(a, b, "min");
    return Min::make(a, b);
}
Expr max(Expr a, Expr b) {
    check_defined(a, "max");
    check_defined(b, "max");
    check_not_handle(a, b, "max");
    match_types(a, b, "max");
    return Max::make(a, b);
}

namespace {
template <typename Node> Expr comparison(Expr a, Expr b, const char *op) {
    check_defined(a, op);
    check_defined(b, op);
    check_not_handle(a, b, op);
    match_types(a, b, op);
    return Node::make(a, b);
}
} // namespace

Expr operator<(Expr a, Expr b) {
    return comparison<LT>(std::move(a), std::move(b), "<");
}
Expr operator<=(Expr a, Expr b) {
    return comparison<LE>(std::move(a), std::move(b), "<=");
}
Expr operator>(Expr a, Expr b) {
    return comparison<GT>(std::move(a), std::move(b), ">");
}
Expr operator>=(Expr a, Expr b) {
    return comparison<GE>(std::move(a), std::move(b), ">=");
}
Expr operator==(Expr a, Expr b) {
    return comparison<EQ>(std::move(a), std::move(b), "==");
}
Expr operator!=(Expr a, Expr b) {
    return comparison<NE>(std::move(a), std::move(b), "!=");
}

Expr operator&&(Expr a, Expr b) {
    logical_operands(a, b, "&&");
    return And::make(a, b);
}
Expr operator||(Expr a, Expr b) {
    logical_operands(a, b, "||");
    return Or::make(a, b);
}
Expr operator!(Expr a) {
    check_defined(a, "!");
    if (!a.type().is_bool())
        user_error("Operator ! needs a bool operand, not " << describe(a.type()));
    return Not::make(a);
}

Expr operator&(Expr a, Expr b) {
    bitwise_operands(a, b, "&");
    return Call::make(a.type(), Intrinsic::bitwise_and, {a, b}, Call::PureIntrinsic);
}
Expr operator|(Expr a, Expr b) {
    bitwise_operands(a, b, "|");
    return Call::make(a.type(), Intrinsic::bitwise_or, {a, b}, Call::PureIntrinsic);
}
Expr operator^(Expr a, Expr b) {
    bitwise_operands(a, b, "^");
    return Call::make(a.type(), Intrinsic::bitwise_xor, {a, b}, Call::PureIntrinsic);
}
Expr operator~(Expr a) {
    check_defined(a, "~");
    if (a.type().is_float() || a.type().is_handle())
        user_error("Operator ~ needs an integer or bool operand, not " << describe(a.type()));
    return Call::make(a.type(), Intrinsic::bitwise_not, {a}, Call::PureIntrinsic);
}

namespace {
Expr shift(Expr a, Expr b, Intrinsic op, const char *name) {
    check_defined(a, name);
    check_defined(b, name);
    Type ta = a.type(), tb = b.type();
    if (!(ta.is_int() || ta.is_uint()) || ta.is_bool() || !(tb.is_int() || tb.is_uint()) ||
        tb.is_bool())
        user_error("Operator " << name << " cannot combine " << describe(ta) << " and "
                               << describe(tb) << ": shifts need integer operands");
    broadcast_to_match(a, b, name);
    if (b.type() != a.type()) b = Cast::make(a.type(), b);
    return Call::make(a.type(), op, {a, b}, Call::PureIntrinsic);
}
} // namespace

Expr operator<<(Expr a, Expr b) {
    return shift(std::move(a), std::move(b), Intrinsic::shift_left, "<<");
}
Expr operator>>(Expr a, Expr b) {
    return shift(std::move(a), std::move(b), Intrinsic::shift_right, ">>");
}

Expr operator-(Expr a) {
    check_defined(a, "unary -");
    Type t = a.type();
    if (t.is_handle() || t.is_bool())
        user_error("Unary operator - cannot apply to " << describe(t));
    return Sub::make(make_zero(t), a);
}

Expr cast(Type t, Expr e) {
    check_value_type(t, "cast to a value");
    if (!e.defined()) user_error("cast to " << describe(t) << " of an undefined Expr");
    if (e.type() == t) return e;
    if (t.is_handle() != e.type().is_handle())
        user_error("Cannot cast " << describe(e.type()) << " to " << describe(t)
                                  << ": handles only convert to handles");
    if (t.lanes != e.type().lanes) {
        if (e.type().lanes != 1)
            user_error("Cannot cast " << describe(e.type()) << " to " << describe(t)
                                      << ": lane counts differ");
        e = Broadcast::make(e, t.lanes);
        if (e.type() == t) return e;
    }
    if (t.is_bool()) return NE::make(e, make_zero(e.type()));
    return Cast::make(t, e);
}

Expr reinterpret(Type t, Expr e) {
    check_value_type(t, "reinterpret as a value");
    if (!e.defined()) user_error("reinterpret to " << describe(t) << " of an undefined Expr");
    if (e.type() == t) return e;
    if (int(t.bits) * t.lanes != int(e.type().bits) * e.type().lanes)
        user_error("Cannot reinterpret " << describe(e.type()) << " as " << describe(t)
                                         << ": the total bit widths differ");
    return Reinterpret::make(t, e);
}

namespace {
bool is_immediate(const Expr &e) {
    return e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>();
}

/** A literal arm (select, clamp) adopts the type of the other operand, as
 * a C++ number would. */
void adopt_literal(const Expr &reference, Expr &literal, const char *op) {
    if (!reference.defined() || !literal.defined() || reference.type() == literal.type()) return;
    if (!is_immediate(literal) || is_immediate(reference) || reference.type().is_bool()) return;
    if (const auto *i = literal.as<IntImm>())
        literal = scalar_operand(reference.type(), i->value, op);
    else if (const auto *u = literal.as<UIntImm>()) {
        if (!literal.type().is_bool())
            literal = scalar_operand_unsigned(reference.type(), u->value, op);
    } else if (const auto *f = literal.as<FloatImm>())
        literal = scalar_operand_float(reference.type(), f->value, op);
}
} // namespace

Expr select(Expr condition, Expr true_value, Expr false_value) {
    check_defined(condition, "select");
    check_defined(true_value, "select");
    check_defined(false_value, "select");
    if (!condition.type().is_bool())
        user_error("The condition of select must be bool, not " << describe(condition.type()));
    adopt_literal(false_value, true_value, "select");
    adopt_literal(true_value, false_value, "select");
    match_types(true_value, false_value, "select");
    if (condition.type().lanes != true_value.type().lanes) {
        if (condition.type().lanes == 1) {
            // Select::make accepts a scalar condition over vectors.
        } else if (true_value.type().lanes == 1) {
            true_value = Broadcast::make(true_value, condition.type().lanes);
            false_value = Broadcast::make(false_value, condition.type().lanes);
        } else {
            user_error("select of a " << describe(condition.type()) << " condition over "
                                      << describe(true_value.type()) << " values");
        }
    }
    return Select::make(condition, true_value, false_value);
}

Expr select_chain(const std::vector<Expr> &args) {
    internal_assert(args.size() % 2 == 1, "select_chain with an even number of arguments");
    std::vector<Expr> values;
    for (size_t i = 1; i < args.size(); i += 2) values.push_back(args[i]);
    values.push_back(args.back());
    // The first non-literal value sets the type literal values adopt.
    Expr reference;
    for (const auto &v : values) {
        check_defined(v, "select");
        if (!is_immediate(v)) {
            reference = v;
            break;
        }
    }
    if (reference.defined())
        for (auto &v : values) adopt_literal(reference, v, "select");
    Expr result = values.back();
    for (size_t i = args.size() - 1; i >= 2; i -= 2)
        result = select(args[i - 2], values[(i - 2) / 2], result);
    return result;
}

Expr clamp(Expr a, Expr min_value, Expr max_value) {
    check_defined(a, "clamp");
    check_defined(min_value, "clamp");
    check_defined(max_value, "clamp");
    if (a.type().is_handle() || a.type().is_bool())
        user_error("clamp cannot apply to " << describe(a.type()));
    // The bounds take the type of the clamped value, like Halide.
    adopt_literal(a, min_value, "clamp");
    adopt_literal(a, max_value, "clamp");
    min_value = cast(a.type(), min_value);
    max_value = cast(a.type(), max_value);
    return Max::make(Min::make(a, max_value), min_value);
}

Expr abs(Expr a) {
    check_defined(a, "abs");
    Type t = a.type();
    if (t.is_handle() || t.is_bool()) user_error("abs cannot apply to " << describe(t));
    if (t.is_uint()) return a;
    Type result = t.is_int() ? t.with_code(Type::UInt) : t;
    return Call::make(result, Intrinsic::abs, {a}, Call::PureIntrinsic);
}

Expr absd(Expr a, Expr b) {
    check_defined(a, "absd");
    check_defined(b, "absd");
    check_not_handle(a, b, "absd");
    check_not_bool(a, b, "absd");
    adopt_literal(a, b, "absd");
    adopt_literal(b, a, "absd");
    match_types(a, b, "absd");
    Type t = a.type();
    Type result = t.is_int() ? t.with_code(Type::UInt) : t;
    return Call::make(result, Intrinsic::absd, {a, b}, Call::PureIntrinsic);
}

} // namespace loom
