#include "ir/IROperator.h"

#include <limits>

#include "ir/Error.h"
#include "ir/IRPrinter.h"
#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

namespace {

Expr broadcast_const(Type t, Expr scalar) {
    return t.is_vector() ? Broadcast::make(std::move(scalar), t.lanes) : scalar;
}

// Looks through a broadcast to the scalar it repeats.
const BaseExprNode *scalar_of(const Expr &e) {
    if (!e.defined()) return nullptr;
    if (const Broadcast *b = e.as<Broadcast>()) return scalar_of(b->value);
    return e.get();
}

} // namespace

Expr make_const(Type t, int64_t v) {
    Type s = t.element_of();
    Expr c;
    switch (s.code) {
    case Type::Int:
        c = IntImm::make(s, v);
        break;
    case Type::UInt:
        c = UIntImm::make(s, s.is_bool() ? uint64_t(v != 0) : uint64_t(v));
        break;
    case Type::Float:
    case Type::BFloat:
        c = FloatImm::make(s, double(v));
        break;
    case Type::Handle:
        internal_error("make_const of handle type");
    }
    return broadcast_const(t, c);
}

Expr make_const(Type t, uint64_t v) {
    Type s = t.element_of();
    Expr c;
    switch (s.code) {
    case Type::Int:
        c = IntImm::make(s, int64_t(v));
        break;
    case Type::UInt:
        c = UIntImm::make(s, s.is_bool() ? uint64_t(v != 0) : v);
        break;
    case Type::Float:
    case Type::BFloat:
        c = FloatImm::make(s, double(v));
        break;
    case Type::Handle:
        internal_error("make_const of handle type");
    }
    return broadcast_const(t, c);
}

Expr make_const(Type t, int v) {
    return make_const(t, int64_t(v));
}

Expr make_const(Type t, double v) {
    Type s = t.element_of();
    Expr c;
    switch (s.code) {
    case Type::Int:
        c = IntImm::make(s, int64_t(v));
        break;
    case Type::UInt:
        c = UIntImm::make(s, s.is_bool() ? uint64_t(v != 0) : uint64_t(int64_t(v)));
        break;
    case Type::Float:
    case Type::BFloat:
        c = FloatImm::make(s, v);
        break;
    case Type::Handle:
        internal_error("make_const of handle type");
    }
    return broadcast_const(t, c);
}

Expr make_zero(Type t) {
    if (t.is_handle()) return Reinterpret::make(t, make_const(UInt(64, t.lanes), int64_t(0)));
    return make_const(t, int64_t(0));
}
Expr make_one(Type t) {
    return make_const(t, int64_t(1));
}
Expr make_bool(bool v, int lanes) {
    return make_const(Bool(lanes), int64_t(v));
}
Expr const_true(int lanes) {
    return make_bool(true, lanes);
}
Expr const_false(int lanes) {
    return make_bool(false, lanes);
}

Expr type_max(Type t) {
    if (t.is_int()) return make_const(t, t.max_int());
    if (t.is_uint()) return make_const(t, t.max_uint());
    internal_assert(t.is_float(), "type_max of " << t);
    return make_const(t, std::numeric_limits<double>::infinity());
}

Expr type_min(Type t) {
    if (t.is_int()) return make_const(t, t.min_int());
    if (t.is_uint()) return make_const(t, int64_t(0));
    internal_assert(t.is_float(), "type_min of " << t);
    return make_const(t, -std::numeric_limits<double>::infinity());
}

bool is_const(const Expr &e) {
    const BaseExprNode *n = scalar_of(e);
    if (!n) return false;
    return n->node_type == IRNodeType::IntImm || n->node_type == IRNodeType::UIntImm ||
           n->node_type == IRNodeType::FloatImm;
}

bool is_const(const Expr &e, int64_t v) {
    const BaseExprNode *n = scalar_of(e);
    if (!n) return false;
    switch (n->node_type) {
    case IRNodeType::IntImm:
        return static_cast<const IntImm *>(n)->value == v;
    case IRNodeType::UIntImm:
        return v >= 0 && static_cast<const UIntImm *>(n)->value == uint64_t(v);
    case IRNodeType::FloatImm:
        return static_cast<const FloatImm *>(n)->value == double(v);
    default:
        return false;
    }
}

bool is_const_zero(const Expr &e) {
    return is_const(e, 0);
}
bool is_const_one(const Expr &e) {
    return is_const(e, 1);
}
bool is_const_true(const Expr &e) {
    return e.defined() && e.type().is_bool() && is_const(e, 1);
}
bool is_const_false(const Expr &e) {
    return e.defined() && e.type().is_bool() && is_const(e, 0);
}

bool is_positive_const(const Expr &e) {
    const BaseExprNode *n = scalar_of(e);
    if (!n) return false;
    if (n->node_type == IRNodeType::IntImm) return static_cast<const IntImm *>(n)->value > 0;
    if (n->node_type == IRNodeType::UIntImm) return static_cast<const UIntImm *>(n)->value > 0;
    return false;
}

bool is_negative_const(const Expr &e) {
    const BaseExprNode *n = scalar_of(e);
    if (!n) return false;
    if (n->node_type == IRNodeType::IntImm) return static_cast<const IntImm *>(n)->value < 0;
    return false;
}

std::optional<int64_t> as_const_int(const Expr &e) {
    const BaseExprNode *n = scalar_of(e);
    if (n && n->node_type == IRNodeType::IntImm) return static_cast<const IntImm *>(n)->value;
    return std::nullopt;
}

std::optional<uint64_t> as_const_uint(const Expr &e) {
    const BaseExprNode *n = scalar_of(e);
    if (n && n->node_type == IRNodeType::UIntImm) return static_cast<const UIntImm *>(n)->value;
    return std::nullopt;
}

std::optional<double> as_const_float(const Expr &e) {
    const BaseExprNode *n = scalar_of(e);
    if (n && n->node_type == IRNodeType::FloatImm) return static_cast<const FloatImm *>(n)->value;
    return std::nullopt;
}

namespace {
class FindImpureCall : public IRVisitor {
public:
    bool found = false;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (!op->is_pure()) found = true;
        IRVisitor::visit(op);
    }
};
} // namespace

bool is_pure(const Expr &e) {
    if (!e.defined()) return true;
    FindImpureCall finder;
    e.accept(&finder);
    return !finder.found;
}

Expr broadcast_if_needed(const Expr &e, int lanes) {
    if (lanes == 1 || e.type().lanes == lanes) return e;
    internal_assert(e.type().is_scalar(), "broadcast_if_needed of a " << e.type().lanes
                                                                      << "-lane vector to " << lanes
                                                                      << " lanes");
    return Broadcast::make(e, lanes);
}

Expr make_intrinsic(Type t, Intrinsic op, const std::vector<Expr> &args) {
    Call::CallType ct = op == Intrinsic::debug_print ? Call::Intrinsic : Call::PureIntrinsic;
    return Call::make(t, op, args, ct);
}

Expr likely(const Expr &e) {
    return make_intrinsic(e.type(), Intrinsic::likely, {e});
}

Expr unwrap_likely(const Expr &e) {
    if (const Call *c = e.as<Call>()) {
        if (c->is_intrinsic(Intrinsic::likely) || c->is_intrinsic(Intrinsic::likely_if_innermost))
            return c->args[0];
    }
    return e;
}

} // namespace Internal
} // namespace loom
