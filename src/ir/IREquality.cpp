#include "ir/IREquality.h"

#include <cstdint>
#include <cstring>

#include "ir/StackGuard.h"

namespace loom {
namespace Internal {

namespace {

template <typename T> int cmp_value(const T &a, const T &b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

int cmp_double(double a, double b) {
    if (a < b) return -1;
    if (b < a) return 1;
    // Equal or unordered (NaN): fall back to the bits so the order stays total.
    uint64_t ba, bb;
    std::memcpy(&ba, &a, sizeof(a));
    std::memcpy(&bb, &b, sizeof(b));
    return cmp_value(ba, bb);
}

int cmp_type(Type a, Type b) {
    if (int c = cmp_value(int(a.code), int(b.code))) return c;
    if (int c = cmp_value(int(a.bits), int(b.bits))) return c;
    return cmp_value(int(a.lanes), int(b.lanes));
}

// Structural three-way comparison: node kind, type, names and values, then children.
class Comparer {
    /** Children compared by identity (hash-consing: they are canonical). */
    bool shallow = false;
    int depth = 0;

public:
    Comparer() = default;
    explicit Comparer(bool shallow_children) : shallow(shallow_children) {}

    int cmp(const Expr &a, const Expr &b) {
        if (a.same_as(b)) return 0;
        if (shallow && depth > 0) {
            auto x = reinterpret_cast<uintptr_t>(a.get()), y = reinterpret_cast<uintptr_t>(b.get());
            return x < y ? -1 : 1;
        }
        check_stack();
        if (!a.defined()) return -1;
        if (!b.defined()) return 1;
        if (int c = cmp_value(int(a.node_type()), int(b.node_type()))) return c;
        if (int c = cmp_type(a.type(), b.type())) return c;
        depth++;
        int c = cmp_fields(a.get(), b.get());
        depth--;
        return c;
    }

    int cmp(const Stmt &a, const Stmt &b) {
        if (a.same_as(b)) return 0;
        if (!a.defined()) return -1;
        if (!b.defined()) return 1;
        if (int c = cmp_value(int(a.node_type()), int(b.node_type()))) return c;
        return cmp_fields(a.get(), b.get());
    }

private:
    int cmp(const std::vector<Expr> &a, const std::vector<Expr> &b) {
        if (int c = cmp_value(a.size(), b.size())) return c;
        for (size_t i = 0; i < a.size(); i++) {
            if (int c = cmp(a[i], b[i])) return c;
        }
        return 0;
    }

    template <typename T> int cmp_binary(const BaseExprNode *x, const BaseExprNode *y) {
        auto *a = static_cast<const T *>(x);
        auto *b = static_cast<const T *>(y);
        if (int c = cmp(a->a, b->a)) return c;
        return cmp(a->b, b->b);
    }

    int cmp_fields(const BaseExprNode *x, const BaseExprNode *y) {
        switch (x->node_type) {
        case IRNodeType::IntImm:
            return cmp_value(static_cast<const IntImm *>(x)->value,
                             static_cast<const IntImm *>(y)->value);
        case IRNodeType::UIntImm:
            return cmp_value(static_cast<const UIntImm *>(x)->value,
                             static_cast<const UIntImm *>(y)->value);
        case IRNodeType::FloatImm:
            return cmp_double(static_cast<const FloatImm *>(x)->value,
                              static_cast<const FloatImm *>(y)->value);
        case IRNodeType::StringImm:
            return cmp_value(static_cast<const StringImm *>(x)->value,
                             static_cast<const StringImm *>(y)->value);
        case IRNodeType::Cast:
            return cmp(static_cast<const Cast *>(x)->value, static_cast<const Cast *>(y)->value);
        case IRNodeType::Reinterpret:
            return cmp(static_cast<const Reinterpret *>(x)->value,
                       static_cast<const Reinterpret *>(y)->value);
        case IRNodeType::Variable:
            return cmp_value(static_cast<const Variable *>(x)->name,
                             static_cast<const Variable *>(y)->name);
        case IRNodeType::Add:
            return cmp_binary<Add>(x, y);
        case IRNodeType::Sub:
            return cmp_binary<Sub>(x, y);
        case IRNodeType::Mul:
            return cmp_binary<Mul>(x, y);
        case IRNodeType::Div:
            return cmp_binary<Div>(x, y);
        case IRNodeType::Mod:
            return cmp_binary<Mod>(x, y);
        case IRNodeType::Min:
            return cmp_binary<Min>(x, y);
        case IRNodeType::Max:
            return cmp_binary<Max>(x, y);
        case IRNodeType::EQ:
            return cmp_binary<EQ>(x, y);
        case IRNodeType::NE:
            return cmp_binary<NE>(x, y);
        case IRNodeType::LT:
            return cmp_binary<LT>(x, y);
        case IRNodeType::LE:
            return cmp_binary<LE>(x, y);
        case IRNodeType::GT:
            return cmp_binary<GT>(x, y);
        case IRNodeType::GE:
            return cmp_binary<GE>(x, y);
        case IRNodeType::And:
            return cmp_binary<And>(x, y);
        case IRNodeType::Or:
            return cmp_binary<Or>(x, y);
        case IRNodeType::Not:
            return cmp(static_cast<const Not *>(x)->a, static_cast<const Not *>(y)->a);
        case IRNodeType::Select: {
            auto *a = static_cast<const Select *>(x);
            auto *b = static_cast<const Select *>(y);
            if (int c = cmp(a->condition, b->condition)) return c;
            if (int c = cmp(a->true_value, b->true_value)) return c;
            return cmp(a->false_value, b->false_value);
        }
        case IRNodeType::Load: {
            auto *a = static_cast<const Load *>(x);
            auto *b = static_cast<const Load *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp(a->index, b->index)) return c;
            return cmp(a->predicate, b->predicate);
        }
        case IRNodeType::Ramp: {
            auto *a = static_cast<const Ramp *>(x);
            auto *b = static_cast<const Ramp *>(y);
            if (int c = cmp_value(a->lanes, b->lanes)) return c;
            if (int c = cmp(a->base, b->base)) return c;
            return cmp(a->stride, b->stride);
        }
        case IRNodeType::Broadcast: {
            auto *a = static_cast<const Broadcast *>(x);
            auto *b = static_cast<const Broadcast *>(y);
            if (int c = cmp_value(a->lanes, b->lanes)) return c;
            return cmp(a->value, b->value);
        }
        case IRNodeType::Call: {
            auto *a = static_cast<const Call *>(x);
            auto *b = static_cast<const Call *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp_value(int(a->call_type), int(b->call_type))) return c;
            if (int c = cmp_value(int(a->op), int(b->op))) return c;
            if (int c = cmp_value(a->value_index, b->value_index)) return c;
            return cmp(a->args, b->args);
        }
        case IRNodeType::Let: {
            auto *a = static_cast<const Let *>(x);
            auto *b = static_cast<const Let *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp(a->value, b->value)) return c;
            return cmp(a->body, b->body);
        }
        case IRNodeType::Shuffle: {
            auto *a = static_cast<const Shuffle *>(x);
            auto *b = static_cast<const Shuffle *>(y);
            if (int c = cmp_value(a->indices, b->indices)) return c;
            return cmp(a->vectors, b->vectors);
        }
        default:
            return 0;
        }
    }

    int cmp_fields(const BaseStmtNode *x, const BaseStmtNode *y) {
        switch (x->node_type) {
        case IRNodeType::LetStmt: {
            auto *a = static_cast<const LetStmt *>(x);
            auto *b = static_cast<const LetStmt *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp(a->value, b->value)) return c;
            return cmp(a->body, b->body);
        }
        case IRNodeType::AssertStmt: {
            auto *a = static_cast<const AssertStmt *>(x);
            auto *b = static_cast<const AssertStmt *>(y);
            if (int c = cmp(a->condition, b->condition)) return c;
            return cmp(a->message, b->message);
        }
        case IRNodeType::ProducerConsumer: {
            auto *a = static_cast<const ProducerConsumer *>(x);
            auto *b = static_cast<const ProducerConsumer *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp_value(a->is_producer, b->is_producer)) return c;
            return cmp(a->body, b->body);
        }
        case IRNodeType::For: {
            auto *a = static_cast<const For *>(x);
            auto *b = static_cast<const For *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp_value(int(a->for_type), int(b->for_type))) return c;
            if (int c = cmp_value(int(a->device_api), int(b->device_api))) return c;
            if (int c = cmp(a->min, b->min)) return c;
            if (int c = cmp(a->extent, b->extent)) return c;
            return cmp(a->body, b->body);
        }
        case IRNodeType::Store: {
            auto *a = static_cast<const Store *>(x);
            auto *b = static_cast<const Store *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp(a->value, b->value)) return c;
            if (int c = cmp(a->index, b->index)) return c;
            if (int c = cmp_value(a->streaming, b->streaming)) return c;
            return cmp(a->predicate, b->predicate);
        }
        case IRNodeType::Provide: {
            auto *a = static_cast<const Provide *>(x);
            auto *b = static_cast<const Provide *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp(a->values, b->values)) return c;
            if (int c = cmp(a->args, b->args)) return c;
            return cmp(a->predicate, b->predicate);
        }
        case IRNodeType::Allocate: {
            auto *a = static_cast<const Allocate *>(x);
            auto *b = static_cast<const Allocate *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp_type(a->type, b->type)) return c;
            if (int c = cmp_value(int(a->memory_type), int(b->memory_type))) return c;
            if (int c = cmp(a->extents, b->extents)) return c;
            if (int c = cmp(a->condition, b->condition)) return c;
            return cmp(a->body, b->body);
        }
        case IRNodeType::Free:
            return cmp_value(static_cast<const Free *>(x)->name,
                             static_cast<const Free *>(y)->name);
        case IRNodeType::Realize: {
            auto *a = static_cast<const Realize *>(x);
            auto *b = static_cast<const Realize *>(y);
            if (int c = cmp_value(a->name, b->name)) return c;
            if (int c = cmp_value(a->types.size(), b->types.size())) return c;
            for (size_t i = 0; i < a->types.size(); i++) {
                if (int c = cmp_type(a->types[i], b->types[i])) return c;
            }
            if (int c = cmp_value(int(a->memory_type), int(b->memory_type))) return c;
            if (int c = cmp_value(a->bounds.size(), b->bounds.size())) return c;
            for (size_t i = 0; i < a->bounds.size(); i++) {
                if (int c = cmp(a->bounds[i].min, b->bounds[i].min)) return c;
                if (int c = cmp(a->bounds[i].extent, b->bounds[i].extent)) return c;
            }
            if (int c = cmp(a->condition, b->condition)) return c;
            return cmp(a->body, b->body);
        }
        case IRNodeType::Block: {
            auto *a = static_cast<const Block *>(x);
            auto *b = static_cast<const Block *>(y);
            if (int c = cmp(a->first, b->first)) return c;
            return cmp(a->rest, b->rest);
        }
        case IRNodeType::IfThenElse: {
            auto *a = static_cast<const IfThenElse *>(x);
            auto *b = static_cast<const IfThenElse *>(y);
            if (int c = cmp(a->condition, b->condition)) return c;
            if (int c = cmp(a->then_case, b->then_case)) return c;
            return cmp(a->else_case, b->else_case);
        }
        case IRNodeType::Evaluate:
            return cmp(static_cast<const Evaluate *>(x)->value,
                       static_cast<const Evaluate *>(y)->value);
        default:
            return 0;
        }
    }
};

} // namespace

bool equal(const Expr &a, const Expr &b) {
    return Comparer().cmp(a, b) == 0;
}
bool equal(const Stmt &a, const Stmt &b) {
    return Comparer().cmp(a, b) == 0;
}
int compare(const Expr &a, const Expr &b) {
    return Comparer().cmp(a, b);
}
int compare_shallow(const Expr &a, const Expr &b) {
    return Comparer(true).cmp(a, b);
}

} // namespace Internal
} // namespace loom
