#include "lower/VectorizeLoops.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <type_traits>
#include <vector>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/Scope.h"
#include "ir/Substitute.h"

namespace loom {
namespace Internal {

namespace {

bool reads_buffer(const Expr &e, const std::string &name) {
    bool found = false;
    visit_all(e, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Load) found |= static_cast<const Load *>(n)->name == name;
    });
    return found;
}

bool contains_vector_nodes(const Stmt &s) {
    bool found = false;
    visit_all(s, [&](const IRNode *n) {
        found |= n->node_type == IRNodeType::Ramp || n->node_type == IRNodeType::Broadcast ||
                 n->node_type == IRNodeType::Shuffle;
    });
    return found;
}

Expr and_predicates(const Expr &a, const Expr &b) {
    return a.defined() ? And::make(a, b) : b;
}

/** Adds `predicate` to every Load of e, so lanes that the surrounding
 * condition disables never touch memory. */
class PredicateLoads : public IRMutator {
    Expr predicate;

protected:
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        Expr index = mutate(op->index);
        return Load::make(op->type, op->name, index, op->image, op->param,
                          and_predicates(op->predicate, predicate));
    }

public:
    explicit PredicateLoads(Expr p) : predicate(std::move(p)) {}
};

Expr predicate_loads(const Expr &e, const Expr &predicate) {
    return e.defined() ? PredicateLoads(predicate).mutate(e) : e;
}

/** Can this statement run under a lane mask (only stores, lets and ifs)? */
bool can_predicate(const Stmt &s) {
    bool ok = true;
    visit_all(s, [&](const IRNode *n) {
        switch (n->node_type) {
        case IRNodeType::For:
        case IRNodeType::Allocate:
        case IRNodeType::Free:
        case IRNodeType::AssertStmt:
        case IRNodeType::Provide:
        case IRNodeType::Realize:
            ok = false;
            break;
        case IRNodeType::Evaluate:
            ok &= is_pure(static_cast<const Evaluate *>(n)->value);
            break;
        case IRNodeType::Call:
            // require() would check the lanes the mask leaves out.
            ok &= !static_cast<const Call *>(n)->is_intrinsic(Intrinsic::require);
            break;
        default:
            break;
        }
    });
    return ok;
}

/** Rewrites a statement so each Store and Load happens only where
 * `predicate` holds; nested ifs fold their condition into the predicate.
 * Conditions are bound to lets first so later stores cannot change them. */
class PredicateStmt : public IRMutator {
    Expr predicate;

protected:
    using IRMutator::visit;
    Stmt visit(const Store *op) override {
        return Store::make(op->name, predicate_loads(op->value, predicate),
                           predicate_loads(op->index, predicate), op->image, op->param,
                           and_predicates(predicate_loads(op->predicate, predicate), predicate));
    }
    Stmt visit(const LetStmt *op) override {
        return LetStmt::make(op->name, predicate_loads(op->value, predicate), mutate(op->body));
    }
    Stmt visit(const Evaluate *op) override {
        return Evaluate::make(predicate_loads(op->value, predicate));
    }
    Stmt visit(const IfThenElse *op) override {
        std::string name = unique_name("vector_if_cond");
        Expr cond = Variable::make(Bool(), name);
        Stmt then_case = PredicateStmt(And::make(predicate, cond)).mutate(op->then_case);
        Stmt else_case;
        if (op->else_case.defined()) {
            else_case = PredicateStmt(And::make(predicate, Not::make(cond))).mutate(op->else_case);
        }
        return LetStmt::make(name, predicate_loads(unwrap_likely(op->condition), predicate),
                             Block::make({then_case, else_case}));
    }

public:
    explicit PredicateStmt(Expr p) : predicate(std::move(p)) {}
};

/** In a copy of a statement made for one lane, the loop variable is
 * min + lane, vector lets give up their lane, widened allocations are
 * indexed lane-major, and predicated scalar stores become ifs. */
class LaneSubs : public IRMutator {
    const std::set<std::string> &widened_allocs;
    int lanes, lane;

    Expr lane_index(const Expr &index) {
        return Add::make(Mul::make(index, make_const(index.type(), lanes)),
                         make_const(index.type(), lane));
    }

protected:
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        if (!widened_allocs.count(op->name)) return IRMutator::visit(op);
        Expr pred = op->predicate.defined() ? mutate(op->predicate) : Expr();
        return Load::make(op->type, op->name, lane_index(mutate(op->index)), op->image, op->param,
                          pred);
    }
    Stmt visit(const Store *op) override {
        Expr index = mutate(op->index);
        if (widened_allocs.count(op->name)) index = lane_index(index);
        Stmt store = Store::make(op->name, mutate(op->value), index, op->image, op->param);
        if (!op->predicate.defined()) return store;
        return IfThenElse::make(mutate(op->predicate), store);
    }

public:
    LaneSubs(const std::set<std::string> &allocs, int lanes, int lane)
        : widened_allocs(allocs), lanes(lanes), lane(lane) {}
};

/** Widens the body of one vectorized loop. */
class VectorSubs : public IRMutator {
    std::string var;
    Expr min;
    int lanes;
    // Lane-dependent names -> their vector value (the loop variable's ramp,
    // or the Variable of a widened let); an undefined entry is a scalar
    // binding that shadows an outer one.
    Scope<Expr> vector_names;
    Scope<int> widened_allocs;
    // Set while mutating a statement's expressions when something cannot be
    // widened; that statement then runs once per lane.
    bool must_scalarize = false;
    int in_index = 0; // mutating a Load or Store index

    static Expr widen(const Expr &e, int to_lanes) {
        if (!e.defined()) return e;
        return broadcast_if_needed(e, to_lanes);
    }
    static int max_lanes(const std::vector<Expr> &es) {
        int l = 1;
        for (const Expr &e : es) {
            if (e.defined()) l = std::max(l, int(e.type().lanes));
        }
        return l;
    }

    /** Element index of `index` in a widened allocation: lane-major. */
    Expr widened_alloc_index(const Expr &index) const {
        if (index.type().is_scalar()) {
            return Ramp::make(Mul::make(index, make_const(index.type(), lanes)),
                              make_one(index.type()), lanes);
        }
        Type t = index.type();
        return Add::make(Mul::make(index, make_const(t, lanes)),
                         Ramp::make(make_zero(t.element_of()), make_one(t.element_of()), lanes));
    }

    static Expr lane_of(const Expr &vector, int lane) {
        if (const Ramp *r = vector.as<Ramp>()) {
            return Add::make(r->base, Mul::make(r->stride, make_const(r->stride.type(), lane)));
        }
        return Shuffle::make_extract_element(vector, lane);
    }

    Stmt scalarize(const Stmt &s) {
        std::set<std::string> allocs;
        for (const auto &kv : widened_allocs.flatten()) allocs.insert(kv.first);
        std::vector<Stmt> copies;
        for (int lane = 0; lane < lanes; lane++) {
            std::map<std::string, Expr> subs;
            for (const auto &kv : vector_names.flatten()) {
                if (!kv.second.defined()) continue;
                if (kv.first == var) {
                    subs[kv.first] = Add::make(min, make_const(min.type(), lane));
                } else {
                    subs[kv.first] = lane_of(kv.second, lane);
                }
            }
            copies.push_back(LaneSubs(allocs, lanes, lane).mutate(substitute(subs, s)));
        }
        return Block::make(copies);
    }

    template <typename T> Expr widen_binary(const T *op) {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.same_as(op->a) && b.same_as(op->b)) return op;
        if (Expr folded = fold_ramp<T>(a, b); folded.defined()) return folded;
        int l = max_lanes({a, b});
        return T::make(widen(a, l), widen(b, l));
    }

    /** Keep ramps ramps through linear arithmetic with scalars (and other
     * ramps), so indices built from the loop variable stay recognizably
     * dense without waiting for the simplifier. Undefined when not linear. */
    template <typename T> static Expr fold_ramp(const Expr &a, const Expr &b) {
        constexpr bool is_add = std::is_same_v<T, Add>, is_sub = std::is_same_v<T, Sub>;
        const Ramp *ra = a.as<Ramp>(), *rb = b.as<Ramp>();
        if constexpr (is_add || is_sub) {
            if (ra && rb)
                return Ramp::make(T::make(ra->base, rb->base), T::make(ra->stride, rb->stride),
                                  ra->lanes);
            if (ra && b.type().is_scalar())
                return Ramp::make(T::make(ra->base, b), ra->stride, ra->lanes);
            if (rb && a.type().is_scalar()) {
                Expr stride =
                    is_sub ? Sub::make(make_zero(rb->stride.type()), rb->stride) : rb->stride;
                return Ramp::make(T::make(a, rb->base), stride, rb->lanes);
            }
        } else if constexpr (std::is_same_v<T, Mul>) {
            if (ra && is_const(b))
                return Ramp::make(Mul::make(ra->base, b), Mul::make(ra->stride, b), ra->lanes);
            if (rb && is_const(a))
                return Ramp::make(Mul::make(a, rb->base), Mul::make(a, rb->stride), rb->lanes);
        }
        return Expr();
    }

    /** Mutate a binding's value and body, renaming it when it becomes a vector. */
    template <typename Node, typename Body>
    auto widen_binding(const Node *op) -> decltype(Node::make(op->name, op->value, op->body)) {
        Expr value = mutate(op->value);
        const Ramp *ramp = value.as<Ramp>();
        if (ramp && is_const(ramp->stride)) {
            // Bind the scalar base and substitute the ramp itself, so loads and
            // stores indexed by it stay visibly dense.
            std::string name = op->name + ".base";
            Expr ramp_of_base =
                Ramp::make(Variable::make(ramp->base.type(), name), ramp->stride, ramp->lanes);
            ScopedBinding<Expr> bind(vector_names, op->name, ramp_of_base);
            Body body = mutate(op->body);
            return Node::make(name, ramp->base, body);
        }
        if (value.type().is_vector()) {
            std::string name = op->name + ".widened";
            ScopedBinding<Expr> bind(vector_names, op->name, Variable::make(value.type(), name));
            Body body = mutate(op->body);
            return Node::make(name, value, body);
        }
        ScopedBinding<Expr> shadow(vector_names, op->name, Expr());
        Body body = mutate(op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Node::make(op->name, value, body);
    }

public:
    VectorSubs(std::string v, Expr m, int l) : var(std::move(v)), min(std::move(m)), lanes(l) {
        vector_names.push(var, Ramp::make(min, make_one(min.type()), lanes));
    }

    using IRMutator::mutate;
    Stmt mutate(const Stmt &s) override {
        if (!s.defined()) return s;
        bool outer = must_scalarize;
        must_scalarize = false;
        Stmt result = IRMutator::mutate(s);
        if (must_scalarize) result = scalarize(s);
        must_scalarize = outer;
        return result;
    }

protected:
    using IRMutator::visit;

    Expr visit(const Variable *op) override {
        const Expr *replacement = vector_names.find(op->name);
        if (replacement && replacement->defined()) return *replacement;
        return op;
    }
    Expr visit(const Cast *op) override {
        Expr v = mutate(op->value);
        if (v.same_as(op->value)) return op;
        // In an index, large_buffers' int64(x - min) of the vectorized x is a
        // ramp still, so the access stays dense: index arithmetic does not
        // wrap (it is `nsw`). Elsewhere int32 lanes may wrap before the cast.
        const Ramp *r = v.as<Ramp>();
        if (r && in_index > 0 && op->type == Int(64) && r->base.type() == Int(32))
            return Ramp::make(Cast::make(Int(64), r->base), Cast::make(Int(64), r->stride),
                              r->lanes);
        return Cast::make(op->type.with_lanes(v.type().lanes), v);
    }
    Expr visit(const Reinterpret *op) override {
        Expr v = mutate(op->value);
        if (v.same_as(op->value)) return op;
        return Reinterpret::make(op->type.with_lanes(v.type().lanes), v);
    }
    Expr visit(const Add *op) override { return widen_binary(op); }
    Expr visit(const Sub *op) override { return widen_binary(op); }
    Expr visit(const Mul *op) override { return widen_binary(op); }
    Expr visit(const Div *op) override { return widen_binary(op); }
    Expr visit(const Mod *op) override { return widen_binary(op); }
    Expr visit(const Min *op) override { return widen_binary(op); }
    Expr visit(const Max *op) override { return widen_binary(op); }
    Expr visit(const EQ *op) override { return widen_binary(op); }
    Expr visit(const NE *op) override { return widen_binary(op); }
    Expr visit(const LT *op) override { return widen_binary(op); }
    Expr visit(const LE *op) override { return widen_binary(op); }
    Expr visit(const GT *op) override { return widen_binary(op); }
    Expr visit(const GE *op) override { return widen_binary(op); }
    Expr visit(const And *op) override { return widen_binary(op); }
    Expr visit(const Or *op) override { return widen_binary(op); }

    Expr visit(const Select *op) override {
        Expr c = mutate(op->condition), t = mutate(op->true_value), f = mutate(op->false_value);
        if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
            return op;
        }
        int l = max_lanes({c, t, f});
        // A scalar condition may choose between vectors; a vector one needs vector values.
        return Select::make(c, widen(t, l), widen(f, l));
    }

    Expr mutate_index(const Expr &index) {
        in_index++;
        Expr result = mutate(index);
        in_index--;
        return result;
    }

    Expr visit(const Load *op) override {
        Expr index = mutate_index(op->index);
        Expr pred = op->predicate.defined() ? mutate(op->predicate) : Expr();
        if (widened_allocs.contains(op->name)) {
            index = widened_alloc_index(index);
        } else if (index.same_as(op->index) && pred.same_as(op->predicate)) {
            return op;
        }
        int l = max_lanes({index, pred});
        return Load::make(op->type.with_lanes(l), op->name, widen(index, l), op->image, op->param,
                          widen(pred, l));
    }

    // Vectors inside the loop body cannot be widened again.
    Expr keep_vector(const BaseExprNode *op, Expr mutated) {
        if (mutated.get() == op) return mutated;
        must_scalarize = true;
        return Expr(op);
    }
    Expr visit(const Ramp *op) override { return keep_vector(op, IRMutator::visit(op)); }
    Expr visit(const Broadcast *op) override { return keep_vector(op, IRMutator::visit(op)); }
    Expr visit(const Shuffle *op) override { return keep_vector(op, IRMutator::visit(op)); }

    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Intrinsic::if_then_else)) return widen_if_then_else(op);
        bool changed = false;
        std::vector<Expr> args = mutate_exprs(op->args, &changed);
        if (!changed) return op;
        // require() checks all lanes at once, so it widens like a pure call.
        bool widenable = op->call_type == Call::PureIntrinsic ||
                         op->call_type == Call::PureExtern || op->is_intrinsic(Intrinsic::require);
        if (!widenable) {
            must_scalarize = true;
            return op;
        }
        int l = max_lanes(args);
        for (Expr &a : args) {
            if (!a.type().is_handle() && !a.as<StringImm>()) a = widen(a, l);
        }
        Type t = op->type.with_lanes(l);
        if (op->op != Intrinsic::None) return Call::make(t, op->op, args, op->call_type);
        return Call::make(t, op->name, args, op->call_type);
    }

    /** A lazy select: with a lane-varying condition each side loads only
     * in the lanes that pick it. */
    Expr widen_if_then_else(const Call *op) {
        Expr c = mutate(op->args[0]);
        std::vector<Expr> values(op->args.begin() + 1, op->args.end());
        if (c.type().is_vector()) {
            Expr cond = unwrap_likely(op->args[0]);
            values[0] = predicate_loads(values[0], cond);
            if (values.size() > 1) values[1] = predicate_loads(values[1], Not::make(cond));
        }
        bool changed = !c.same_as(op->args[0]);
        for (Expr &v : values) {
            Expr m = mutate(v);
            changed |= !m.same_as(v);
            v = m;
        }
        if (!changed) return op;
        std::vector<Expr> args{c};
        args.insert(args.end(), values.begin(), values.end());
        int l = max_lanes(args);
        for (Expr &a : args) a = widen(a, l);
        return Call::make(op->type.with_lanes(l), Intrinsic::if_then_else, args, op->call_type);
    }

    Expr visit(const Let *op) override { return widen_binding<Let, Expr>(op); }
    Stmt visit(const LetStmt *op) override { return widen_binding<LetStmt, Stmt>(op); }

    Stmt visit(const AssertStmt *op) override {
        Expr c = mutate(op->condition), m = mutate(op->message);
        if (!c.same_as(op->condition) || !m.same_as(op->message)) must_scalarize = true;
        return op;
    }

    /** An atomic update in a vectorized loop runs once per lane, but its
     * index is computed for all lanes at once first, so the loads that pick
     * the elements (a histogram's samples) stay vector loads. Undefined when
     * that does not apply. */
    Stmt vectorize_atomic_update(const Call *op) {
        const auto *buffer = op->args[0].as<StringImm>();
        if (!buffer || widened_allocs.contains(buffer->value)) return Stmt();
        bool outer = must_scalarize;
        must_scalarize = false;
        Expr index = mutate_index(op->args[1]);
        bool scalar_only = must_scalarize;
        must_scalarize = outer;
        if (scalar_only || index.type().is_scalar() || index.as<Ramp>()) return Stmt();
        std::string name = unique_name(buffer->value + ".atomic_index");
        std::vector<Expr> args = op->args;
        args[1] = Variable::make(index.type().element_of(), name);
        Stmt per_lane = Evaluate::make(Call::make(op->type, op->op, args, op->call_type));
        std::string widened = name + ".widened";
        ScopedBinding<Expr> bind(vector_names, name, Variable::make(index.type(), widened));
        return LetStmt::make(widened, index, scalarize(per_lane));
    }

    Stmt visit(const Evaluate *op) override {
        if (const Call *c = op->value.as<Call>(); c && c->is_intrinsic(Intrinsic::atomic_update)) {
            if (Stmt s = vectorize_atomic_update(c); s.defined()) return s;
        }
        Expr v = mutate(op->value);
        // Side effects must happen once per lane.
        if (!is_pure(op->value)) must_scalarize = true;
        if (v.same_as(op->value)) return op;
        return Evaluate::make(v);
    }

    Stmt visit(const Store *op) override {
        Expr value = mutate(op->value), index = mutate_index(op->index);
        Expr pred = op->predicate.defined() ? mutate(op->predicate) : Expr();
        bool widened_alloc = widened_allocs.contains(op->name);
        if (widened_alloc) {
            index = widened_alloc_index(index);
        } else if (value.same_as(op->value) && index.same_as(op->index) &&
                   pred.same_as(op->predicate)) {
            // Runs once instead of once per lane: fine unless it reads what it writes.
            if (reads_buffer(op->value, op->name) || reads_buffer(op->index, op->name)) {
                must_scalarize = true;
            }
            return op;
        } else if (index.type().is_scalar()) {
            // Every lane writes one address: the last lane must win.
            must_scalarize = true;
            return op;
        }
        int l = max_lanes({value, index, pred});
        return Store::make(op->name, widen(value, l), widen(index, l), op->image, op->param,
                           widen(pred, l));
    }

    Stmt visit(const IfThenElse *op) override {
        Expr c = mutate(op->condition);
        if (c.type().is_scalar()) {
            Stmt then_case = mutate(op->then_case), else_case = mutate(op->else_case);
            if (c.same_as(op->condition) && then_case.same_as(op->then_case) &&
                else_case.same_as(op->else_case)) {
                return op;
            }
            return IfThenElse::make(c, then_case, else_case);
        }
        if (!can_predicate(op->then_case) ||
            (op->else_case.defined() && !can_predicate(op->else_case))) {
            must_scalarize = true;
            return op;
        }
        return mutate(PredicateStmt(const_true()).mutate(Stmt(op)));
    }

    Stmt visit(const For *op) override {
        Expr m = mutate(op->min), e = mutate(op->extent);
        if (!m.same_as(op->min) || !e.same_as(op->extent)) {
            must_scalarize = true;
            return op;
        }
        ScopedBinding<Expr> shadow(vector_names, op->name, Expr());
        Stmt body = mutate(op->body);
        if (body.same_as(op->body)) return op;
        return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body);
    }

    Stmt visit(const Allocate *op) override {
        bool changed = false;
        std::vector<Expr> extents = mutate_exprs(op->extents, &changed);
        Expr cond = op->condition.defined() ? mutate(op->condition) : Expr();
        if (changed || !cond.same_as(op->condition)) {
            must_scalarize = true;
            return op;
        }
        // Each lane gets its own copy, interleaved lane-major.
        extents.push_back(Expr(lanes));
        ScopedBinding<int> bind(widened_allocs, op->name, lanes);
        Stmt body = mutate(op->body);
        return Allocate::make(op->name, op->type, op->memory_type, extents, op->condition, body);
    }
};

class LoopVectorizer : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Vectorized) return IRMutator::visit(op);
        std::optional<int64_t> extent = as_const_int(op->extent);
        if (!extent) extent = as_const_int(simplify(op->extent));
        internal_assert(extent && *extent >= 1,
                        "vectorized loop " << op->name << " needs a constant extent");
        // Inner vectorized loops first.
        Stmt body = mutate(op->body);
        if (*extent == 1) return LetStmt::make(op->name, op->min, body);
        if (contains_vector_nodes(body)) {
            // Vectors of vectors are not supported: keep this level serial.
            return For::make(op->name, op->min, op->extent, ForType::Serial, op->device_api, body);
        }
        Expr min = op->min;
        std::string base_name;
        if (!is_const(min) && !min.as<Variable>()) {
            base_name = unique_name(op->name + ".base");
            min = Variable::make(op->min.type(), base_name);
        }
        Stmt result = VectorSubs(op->name, min, int(*extent)).mutate(body);
        if (!base_name.empty()) result = LetStmt::make(base_name, op->min, result);
        return result;
    }
};

} // namespace

Stmt vectorize_loops(const Stmt &s) {
    return LoopVectorizer().mutate(s);
}

} // namespace Internal
} // namespace loom
