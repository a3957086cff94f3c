#ifndef LOOM_IR_IRMATCH_H
#define LOOM_IR_IRMATCH_H

// A small runtime pattern matcher for algebraic rewrite rules.
//
// Patterns are trees built once (keep rule tables in function-local statics)
// from wildcards and the usual operators:
//
//     using namespace IRMatch;
//     static const RuleSet rules = {
//         rule(min(x + c0, x), x, c0 > 0, Domain::NoOverflow),
//         rule((x + c0) + c1, x + (c0 + c1), Domain::Integer),
//     };
//     if (Expr r = rules.apply(e, fold)) ...
//
// x, y, z, w match any expression (a repeated wildcard must match a
// structurally equal expression); c0..c2 match scalar constants only; integer
// literals match a constant of that value in any type. A rule's predicate is a
// pattern over the bound constants that must fold to true. The replacement is
// built with the types of the bound expressions (literals take the type of
// their context), then handed to `fold`, which is expected to simplify it.

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "ir/IR.h"
#include "ir/IREquality.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {
namespace IRMatch {

enum class PatKind : uint8_t { Wild, ConstWild, Literal, Op };

struct PatNode;

/** A handle to a pattern tree. Implicit from int: a literal constant. */
struct Pat {
    std::shared_ptr<const PatNode> node;
    Pat() = default;
    Pat(int literal);
    explicit Pat(std::shared_ptr<const PatNode> n) : node(std::move(n)) {}
};

struct PatNode {
    PatKind kind = PatKind::Literal;
    IRNodeType op = IRNodeType::IntImm; // for Op
    int index = 0;                      // for Wild / ConstWild
    int64_t literal = 0;                // for Literal
    std::vector<Pat> children;          // for Op
};

inline Pat::Pat(int literal) {
    auto n = std::make_shared<PatNode>();
    n->kind = PatKind::Literal;
    n->literal = literal;
    node = std::move(n);
}

inline Pat make_leaf(PatKind kind, int index) {
    auto n = std::make_shared<PatNode>();
    n->kind = kind;
    n->index = index;
    return Pat(std::move(n));
}

inline Pat make_op(IRNodeType op, std::vector<Pat> children) {
    auto n = std::make_shared<PatNode>();
    n->kind = PatKind::Op;
    n->op = op;
    n->children = std::move(children);
    return Pat(std::move(n));
}

constexpr int max_wilds = 4;
constexpr int max_consts = 3;

inline const Pat x = make_leaf(PatKind::Wild, 0);
inline const Pat y = make_leaf(PatKind::Wild, 1);
inline const Pat z = make_leaf(PatKind::Wild, 2);
inline const Pat w = make_leaf(PatKind::Wild, 3);
inline const Pat c0 = make_leaf(PatKind::ConstWild, 0);
inline const Pat c1 = make_leaf(PatKind::ConstWild, 1);
inline const Pat c2 = make_leaf(PatKind::ConstWild, 2);

inline Pat operator+(Pat a, Pat b) {
    return make_op(IRNodeType::Add, {a, b});
}
inline Pat operator-(Pat a, Pat b) {
    return make_op(IRNodeType::Sub, {a, b});
}
inline Pat operator*(Pat a, Pat b) {
    return make_op(IRNodeType::Mul, {a, b});
}
inline Pat operator/(Pat a, Pat b) {
    return make_op(IRNodeType::Div, {a, b});
}
inline Pat operator%(Pat a, Pat b) {
    return make_op(IRNodeType::Mod, {a, b});
}
inline Pat operator==(Pat a, Pat b) {
    return make_op(IRNodeType::EQ, {a, b});
}
inline Pat operator!=(Pat a, Pat b) {
    return make_op(IRNodeType::NE, {a, b});
}
inline Pat operator<(Pat a, Pat b) {
    return make_op(IRNodeType::LT, {a, b});
}
inline Pat operator<=(Pat a, Pat b) {
    return make_op(IRNodeType::LE, {a, b});
}
inline Pat operator>(Pat a, Pat b) {
    return make_op(IRNodeType::GT, {a, b});
}
inline Pat operator>=(Pat a, Pat b) {
    return make_op(IRNodeType::GE, {a, b});
}
inline Pat operator&&(Pat a, Pat b) {
    return make_op(IRNodeType::And, {a, b});
}
inline Pat operator||(Pat a, Pat b) {
    return make_op(IRNodeType::Or, {a, b});
}
inline Pat operator!(Pat a) {
    return make_op(IRNodeType::Not, {a});
}
inline Pat min(Pat a, Pat b) {
    return make_op(IRNodeType::Min, {a, b});
}
inline Pat max(Pat a, Pat b) {
    return make_op(IRNodeType::Max, {a, b});
}
inline Pat select(Pat c, Pat t, Pat f) {
    return make_op(IRNodeType::Select, {c, t, f});
}

/** Which types a rule is valid for. */
enum class Domain : uint8_t {
    Any,        // every type, floats included
    Integer,    // int and uint of any width: identities that hold modulo 2^n
    NoOverflow, // Int(32) and Int(64) only, whose overflow is undefined behaviour
};

inline bool domain_allows(Domain d, Type t) {
    switch (d) {
    case Domain::Any:
        return true;
    case Domain::Integer:
        return (t.is_int() || t.is_uint()) && !t.is_bool();
    case Domain::NoOverflow:
        return t.is_int() && t.bits >= 32;
    }
    return false;
}

/** What the wildcards of one match are bound to. */
struct Bindings {
    Expr wild[max_wilds];
    Expr consts[max_consts];
    unsigned bound = 0; // bit i: wild i; bit max_wilds + i: const i
};

/** Children of a node of the kinds patterns can name; false for other kinds. */
inline bool node_operands(const Expr &e, const Expr *out[3], int &count) {
    const IRNode *n = e.get();
    switch (e.node_type()) {
#define LOOM_MATCH_BINARY(T)                                                                       \
    case IRNodeType::T:                                                                            \
        out[0] = &static_cast<const T *>(n)->a;                                                    \
        out[1] = &static_cast<const T *>(n)->b;                                                    \
        count = 2;                                                                                 \
        return true;
        LOOM_MATCH_BINARY(Add)
        LOOM_MATCH_BINARY(Sub)
        LOOM_MATCH_BINARY(Mul)
        LOOM_MATCH_BINARY(Div)
        LOOM_MATCH_BINARY(Mod)
        LOOM_MATCH_BINARY(Min)
        LOOM_MATCH_BINARY(Max)
        LOOM_MATCH_BINARY(EQ)
        LOOM_MATCH_BINARY(NE)
        LOOM_MATCH_BINARY(LT)
        LOOM_MATCH_BINARY(LE)
        LOOM_MATCH_BINARY(GT)
        LOOM_MATCH_BINARY(GE)
        LOOM_MATCH_BINARY(And)
        LOOM_MATCH_BINARY(Or)
#undef LOOM_MATCH_BINARY
    case IRNodeType::Not:
        out[0] = &static_cast<const Not *>(n)->a;
        count = 1;
        return true;
    case IRNodeType::Select: {
        auto *s = static_cast<const Select *>(n);
        out[0] = &s->condition;
        out[1] = &s->true_value;
        out[2] = &s->false_value;
        count = 3;
        return true;
    }
    default:
        return false;
    }
}

inline bool is_scalar_constant(const Expr &e) {
    IRNodeType t = e.node_type();
    return t == IRNodeType::IntImm || t == IRNodeType::UIntImm || t == IRNodeType::FloatImm;
}

/** Match pattern p against e, extending the bindings b. */
inline bool match(const PatNode &p, const Expr &e, Bindings &b) {
    switch (p.kind) {
    case PatKind::Wild: {
        unsigned bit = 1u << p.index;
        if (b.bound & bit) return equal(b.wild[p.index], e);
        b.wild[p.index] = e;
        b.bound |= bit;
        return true;
    }
    case PatKind::ConstWild: {
        if (!is_scalar_constant(e)) return false;
        unsigned bit = 1u << (max_wilds + p.index);
        if (b.bound & bit) return equal(b.consts[p.index], e);
        b.consts[p.index] = e;
        b.bound |= bit;
        return true;
    }
    case PatKind::Literal:
        return is_const(e, p.literal);
    case PatKind::Op: {
        if (e.node_type() != p.op) return false;
        const Expr *operands[3];
        int count = 0;
        if (!node_operands(e, operands, count) || count != int(p.children.size())) return false;
        for (int i = 0; i < count; i++) {
            if (!match(*p.children[i].node, *operands[i], b)) return false;
        }
        return true;
    }
    }
    return false;
}

/** Could p match e, judging by node kinds and constants alone (repeated
 * wildcards unchecked)? Most rules of a set fail here, before any binding
 * takes a reference (an atomic count each) or compares subtrees. */
inline bool shape_may_match(const PatNode &p, const Expr &e) {
    switch (p.kind) {
    case PatKind::Wild:
        return true;
    case PatKind::ConstWild:
        return is_scalar_constant(e);
    case PatKind::Literal:
        return is_const(e, p.literal);
    case PatKind::Op: {
        if (e.node_type() != p.op) return false;
        const Expr *operands[3];
        int count = 0;
        if (!node_operands(e, operands, count) || count != int(p.children.size())) return false;
        for (int i = 0; i < count; i++) {
            if (!shape_may_match(*p.children[i].node, *operands[i])) return false;
        }
        return true;
    }
    }
    return false;
}

/** The type a pattern will have once built, if it names a bound expression. */
inline bool pattern_type(const PatNode &p, const Bindings &b, Type &out) {
    switch (p.kind) {
    case PatKind::Wild:
        out = b.wild[p.index].type();
        return true;
    case PatKind::ConstWild:
        out = b.consts[p.index].type();
        return true;
    case PatKind::Literal:
        return false;
    case PatKind::Op:
        switch (p.op) {
        case IRNodeType::EQ:
        case IRNodeType::NE:
        case IRNodeType::LT:
        case IRNodeType::LE:
        case IRNodeType::GT:
        case IRNodeType::GE: {
            Type operand;
            for (const Pat &c : p.children) {
                if (pattern_type(*c.node, b, operand)) {
                    out = Bool(operand.lanes);
                    return true;
                }
            }
            return false;
        }
        case IRNodeType::Select: {
            for (size_t i = 1; i < p.children.size(); i++) {
                if (pattern_type(*p.children[i].node, b, out)) return true;
            }
            return false;
        }
        default:
            for (const Pat &c : p.children) {
                if (pattern_type(*c.node, b, out)) return true;
            }
            return false;
        }
    }
    return false;
}

/** Build the replacement; `t` is the type the context expects of this subtree. */
inline Expr build(const PatNode &p, const Bindings &b, Type t) {
    switch (p.kind) {
    case PatKind::Wild:
        return b.wild[p.index];
    case PatKind::ConstWild:
        return b.consts[p.index];
    case PatKind::Literal:
        return make_const(t, p.literal);
    case PatKind::Op:
        break;
    }
    if (p.op == IRNodeType::Not) return Not::make(build(*p.children[0].node, b, t));
    if (p.op == IRNodeType::Select) {
        Expr c = build(*p.children[0].node, b, Bool());
        Type vt = t;
        pattern_type(p, b, vt);
        return Select::make(c, build(*p.children[1].node, b, vt),
                            build(*p.children[2].node, b, vt));
    }
    const PatNode &pa = *p.children[0].node, &pb = *p.children[1].node;
    Type operand = t;
    bool comparison = p.op == IRNodeType::EQ || p.op == IRNodeType::NE || p.op == IRNodeType::LT ||
                      p.op == IRNodeType::LE || p.op == IRNodeType::GT || p.op == IRNodeType::GE;
    if (comparison || p.op == IRNodeType::And || p.op == IRNodeType::Or) {
        if (!pattern_type(pa, b, operand)) pattern_type(pb, b, operand);
    }
    Expr a = build(pa, b, operand), c = build(pb, b, operand);
    switch (p.op) {
    case IRNodeType::Add:
        return Add::make(a, c);
    case IRNodeType::Sub:
        return Sub::make(a, c);
    case IRNodeType::Mul:
        return Mul::make(a, c);
    case IRNodeType::Div:
        return Div::make(a, c);
    case IRNodeType::Mod:
        return Mod::make(a, c);
    case IRNodeType::Min:
        return Min::make(a, c);
    case IRNodeType::Max:
        return Max::make(a, c);
    case IRNodeType::EQ:
        return EQ::make(a, c);
    case IRNodeType::NE:
        return NE::make(a, c);
    case IRNodeType::LT:
        return LT::make(a, c);
    case IRNodeType::LE:
        return LE::make(a, c);
    case IRNodeType::GT:
        return GT::make(a, c);
    case IRNodeType::GE:
        return GE::make(a, c);
    case IRNodeType::And:
        return And::make(a, c);
    case IRNodeType::Or:
        return Or::make(a, c);
    default:
        return Expr();
    }
}

/** Simplifies a freshly built replacement (the simplifier's entry point). */
using Folder = Expr (*)(const Expr &, void *context);

struct Rule {
    Pat before, after, predicate; // predicate may be empty
    Domain domain = Domain::Any;
};

inline Rule rule(Pat before, Pat after, Domain d = Domain::Any) {
    return Rule{std::move(before), std::move(after), Pat(), d};
}
inline Rule rule(Pat before, Pat after, Pat predicate, Domain d = Domain::Any) {
    return Rule{std::move(before), std::move(after), std::move(predicate), d};
}

/** An ordered list of rules; the first that matches wins. */
class RuleSet {
    std::vector<Rule> rules;

public:
    RuleSet(std::initializer_list<Rule> r) : rules(r) {}

    /** Rewrite e with the first applicable rule; undefined when none applies.
     * `type` is the type whose domain is checked (the operands' type for
     * comparisons). */
    Expr apply(const Expr &e, Type type, Folder fold, void *context) const {
        for (const Rule &r : rules) {
            if (!domain_allows(r.domain, type)) continue;
            if (!shape_may_match(*r.before.node, e)) continue;
            Bindings b;
            if (!match(*r.before.node, e, b)) continue;
            if (r.predicate.node) {
                Expr p = fold(build(*r.predicate.node, b, type), context);
                if (!is_const_true(p)) continue;
            }
            return fold(build(*r.after.node, b, e.type()), context);
        }
        return Expr();
    }
};

} // namespace IRMatch
} // namespace Internal
} // namespace loom

#endif
