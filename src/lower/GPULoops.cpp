#include "lower/GPULoops.h"

#include <algorithm>
#include <functional>

#include "analysis/Simplify.h"
#include "ir/IREquality.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

const char *gpu_dim_name(int dim) {
    static const char *names[] = {"x", "y", "z"};
    return dim >= 0 && dim < 3 ? names[dim] : "?";
}

std::string block_id_name(int dim) {
    return std::string("__block_id_") + gpu_dim_name(dim);
}

std::string thread_id_name(int dim) {
    return std::string("__thread_id_") + gpu_dim_name(dim);
}

std::string gpu_loop_suffix(bool block, int dim) {
    return "." + (block ? block_id_name(dim) : thread_id_name(dim));
}

int gpu_loop_dim(const std::string &loop_name) {
    for (int d = 0; d < 3; d++) {
        for (bool block : {true, false}) {
            std::string suffix = gpu_loop_suffix(block, d);
            if (loop_name.size() > suffix.size() &&
                loop_name.compare(loop_name.size() - suffix.size(), suffix.size(), suffix) == 0)
                return d;
        }
    }
    return -1;
}

namespace {

/** Splits "f.s1.x.xo" into "f", 1 and "x.xo"; false when it has no ".sN." part. */
bool split_loop_name(const std::string &name, std::string &func, int &stage, std::string &var) {
    std::string n = name;
    if (gpu_loop_dim(n) >= 0) n = n.substr(0, n.rfind(".__"));
    for (size_t p = n.find(".s"); p != std::string::npos; p = n.find(".s", p + 1)) {
        size_t q = p + 2;
        while (q < n.size() && std::isdigit(static_cast<unsigned char>(n[q]))) q++;
        if (q == p + 2 || q >= n.size() || n[q] != '.') continue;
        func = n.substr(0, p);
        stage = std::stoi(n.substr(p + 2, q - p - 2));
        var = n.substr(q + 1);
        return true;
    }
    return false;
}

} // namespace

std::string describe_loop(const std::string &loop_name) {
    std::string func, var;
    int stage = 0;
    if (!split_loop_name(loop_name, func, stage, var)) return "loop " + loop_name;
    std::string last = var.substr(var.rfind('.') == std::string::npos ? 0 : var.rfind('.') + 1);
    return "loop " + last + " of Func " + func +
           (stage == 0 ? " (pure definition)" : " (update " + std::to_string(stage - 1) + ")");
}

std::string loop_func_name(const std::string &loop_name) {
    std::string func, var;
    int stage = 0;
    return split_loop_name(loop_name, func, stage, var) ? func : loop_name;
}

namespace {

bool contains_loop_where(const Stmt &s, bool (*pred)(ForType)) {
    bool found = false;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::For && pred(static_cast<const For *>(n)->for_type))
            found = true;
    });
    return found;
}

} // namespace

bool contains_gpu_loop(const Stmt &s) {
    return contains_loop_where(s, is_gpu_loop);
}

bool contains_block_loop(const Stmt &s) {
    return contains_loop_where(s, is_gpu_block);
}

BufferAccesses buffer_accesses(const Stmt &s) {
    BufferAccesses a;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Load) {
            const auto *l = static_cast<const Load *>(n);
            a.read.emplace(l->name, l->type.element_of());
        } else if (n->node_type == IRNodeType::Store) {
            const auto *st = static_cast<const Store *>(n);
            a.written.emplace(st->name, st->value.type().element_of());
        } else if (n->node_type == IRNodeType::Call) {
            const auto *c = static_cast<const Call *>(n);
            if (!c->is_intrinsic(Intrinsic::atomic_update)) return;
            const auto *name = c->args[0].as<StringImm>();
            a.read.emplace(name->value, c->type.element_of());
            a.written.emplace(name->value, c->type.element_of());
        }
    });
    return a;
}

Stmt gpu_barrier() {
    return Evaluate::make(Call::make(Int(32), Intrinsic::gpu_thread_barrier, {}, Call::Intrinsic));
}

namespace {

Expr cancel_difference(const Expr &a, const Expr &b);

class ConstantBound {
public:
    explicit ConstantBound(const std::map<std::string, Expr> &lets) : lets(lets) {}

    std::optional<int64_t> bound(const Expr &e, bool upper, int depth = 0) {
        if (depth > 40) return std::nullopt;
        if (auto c = as_const_int(e)) return *c;
        if (const auto *v = e.as<Variable>()) {
            auto it = lets.find(v->name);
            if (it == lets.end()) return std::nullopt;
            return bound(it->second, upper, depth + 1);
        }
        if (const auto *c = e.as<Cast>()) {
            if (!c->value.type().is_int() && !c->value.type().is_uint()) return std::nullopt;
            return bound(c->value, upper, depth + 1);
        }
        if (const auto *a = e.as<Add>()) {
            auto x = bound(a->a, upper, depth + 1), y = bound(a->b, upper, depth + 1);
            if (x && y) return *x + *y;
            return std::nullopt;
        }
        if (const auto *s = e.as<Sub>()) {
            // Move constants out of both sides: (X + c) - Y is c + (X - Y).
            Expr lhs = resolve(s->a, depth), rhs = resolve(s->b, depth);
            if (const auto *la = lhs.as<Add>()) {
                if (auto c = as_const_int(la->b)) {
                    auto d = bound(Sub::make(la->a, rhs), upper, depth + 1);
                    if (d) return *d + *c;
                }
            }
            if (const auto *ra = rhs.as<Add>()) {
                if (auto c = as_const_int(ra->b)) {
                    auto d = bound(Sub::make(lhs, ra->a), upper, depth + 1);
                    if (d) return *d - *c;
                }
            }
            if (auto d = difference_of_clamps(s->a, s->b, upper, depth)) return d;
            auto x = bound(s->a, upper, depth + 1), y = bound(s->b, !upper, depth + 1);
            if (x && y) return *x - *y;
            return std::nullopt;
        }
        if (const auto *m = e.as<Mul>()) {
            auto c = as_const_int(m->b);
            if (!c) {
                // Products of non-negative factors (sizes of allocations).
                auto la = bound(m->a, false, depth + 1), lb = bound(m->b, false, depth + 1);
                if (!la || !lb || *la < 0 || *lb < 0) return std::nullopt;
                if (!upper) return *la * *lb;
                auto ua = bound(m->a, true, depth + 1), ub = bound(m->b, true, depth + 1);
                if (ua && ub) return *ua * *ub;
                return std::nullopt;
            }
            auto x = bound(m->a, *c >= 0 ? upper : !upper, depth + 1);
            if (x) return *x * *c;
            return std::nullopt;
        }
        if (const auto *d = e.as<Div>()) {
            auto c = as_const_int(d->b);
            if (!c || *c <= 0) return std::nullopt;
            auto x = bound(d->a, upper, depth + 1);
            if (!x) return std::nullopt;
            int64_t q = *x / *c;
            if (*x % *c != 0 && *x < 0) q--; // Euclidean (floor for positive divisors)
            return q;
        }
        if (const auto *m = e.as<Min>()) {
            auto x = bound(m->a, upper, depth + 1), y = bound(m->b, upper, depth + 1);
            if (upper) {
                if (x && y) return std::min(*x, *y);
                return x ? x : y;
            }
            if (x && y) return std::min(*x, *y);
            return std::nullopt;
        }
        if (const auto *m = e.as<Max>()) {
            auto x = bound(m->a, upper, depth + 1), y = bound(m->b, upper, depth + 1);
            if (!upper) {
                if (x && y) return std::max(*x, *y);
                return x ? x : y;
            }
            if (x && y) return std::max(*x, *y);
            return std::nullopt;
        }
        if (const auto *s = e.as<Select>()) {
            auto x = bound(s->true_value, upper, depth + 1),
                 y = bound(s->false_value, upper, depth + 1);
            if (x && y) return upper ? std::max(*x, *y) : std::min(*x, *y);
            return std::nullopt;
        }
        if (const auto *l = e.as<Let>()) {
            lets[l->name] = l->value;
            return bound(l->body, upper, depth + 1);
        }
        if (const auto *c = e.as<Call>()) {
            if (c->is_intrinsic(Intrinsic::likely)) return bound(c->args[0], upper, depth + 1);
        }
        return std::nullopt;
    }

private:
    std::map<std::string, Expr> lets;

    Expr resolve(const Expr &e, int depth) {
        const auto *v = e.as<Variable>();
        if (!v || depth > 40) return e;
        auto it = lets.find(v->name);
        return it == lets.end() ? e : resolve(it->second, depth + 1);
    }

    /** min(A, M) - min(B, M) lies between min(A - B, 0) and max(A - B, 0);
     * the same holds for max. Clamped tile extents have this shape. */
    std::optional<int64_t> difference_of_clamps(const Expr &a, const Expr &b, bool upper,
                                                int depth) {
        Expr x = resolve(a, depth), y = resolve(b, depth);
        Expr xa, xb, ya, yb;
        if (const auto *m = x.as<Min>()) {
            const auto *n = y.as<Min>();
            if (!n) return std::nullopt;
            xa = m->a, xb = m->b, ya = n->a, yb = n->b;
        } else if (const auto *m = x.as<Max>()) {
            const auto *n = y.as<Max>();
            if (!n) return std::nullopt;
            xa = m->a, xb = m->b, ya = n->a, yb = n->b;
        } else {
            return std::nullopt;
        }
        Expr diff;
        if (equal(xb, yb))
            diff = cancel_difference(xa, ya);
        else if (equal(xa, ya))
            diff = cancel_difference(xb, yb);
        else if (equal(xa, yb))
            diff = cancel_difference(xb, ya);
        else if (equal(xb, ya))
            diff = cancel_difference(xa, yb);
        if (diff.defined()) {
            auto d = bound(diff, upper, depth + 1);
            if (!d) return std::nullopt;
            return upper ? std::max<int64_t>(*d, 0) : std::min<int64_t>(*d, 0);
        }
        // In general min(A, M) - min(B, N) lies between min(A - B, M - N)
        // and max(A - B, M - N); so does the same with max.
        auto d1 = bound(cancel_difference(xa, ya), upper, depth + 1);
        auto d2 = bound(cancel_difference(xb, yb), upper, depth + 1);
        if (!d1 || !d2) return std::nullopt;
        return upper ? std::max(*d1, *d2) : std::min(*d1, *d2);
    }
};

} // namespace

std::optional<int64_t> constant_bound(const Expr &e, bool upper,
                                      const std::map<std::string, Expr> &lets) {
    ConstantBound b(lets);
    if (auto r = b.bound(e, upper)) return r;
    Expr s = simplify(e);
    return ConstantBound(lets).bound(s, upper);
}

namespace {

/** a - b with the terms the two sums share cancelled: the simplifier keeps
 * (i * t + t + m) - (i * t + m) as it is when t is not a constant. */
Expr cancel_difference(const Expr &a, const Expr &b) {
    std::vector<std::pair<Expr, int>> terms; // term and sign
    std::function<void(const Expr &, int)> flatten = [&](const Expr &e, int sign) {
        if (const auto *x = e.as<Add>()) {
            flatten(x->a, sign);
            flatten(x->b, sign);
        } else if (const auto *x = e.as<Sub>()) {
            flatten(x->a, sign);
            flatten(x->b, -sign);
        } else {
            for (auto &t : terms) {
                if (t.second == -sign && equal(t.first, e)) {
                    t.second = 0;
                    return;
                }
            }
            terms.emplace_back(e, sign);
        }
    };
    flatten(a, 1);
    flatten(b, -1);
    Expr r = make_zero(a.type());
    for (const auto &[term, sign] : terms) {
        if (sign > 0)
            r = Add::make(r, term);
        else if (sign < 0)
            r = Sub::make(r, term);
    }
    return simplify(r);
}

/** Rewrites differences of clamps by their upper bounds (see the header). */
class BoundClampDifferences : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Sub *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        // (X + c) - Y -> (X - Y) + c, so the clamps meet.
        if (const auto *x = a.as<Add>(); x && is_const(x->b))
            return Add::make(mutate(Sub::make(x->a, b)), x->b);
        if (const auto *y = b.as<Add>(); y && is_const(y->b))
            return Sub::make(mutate(Sub::make(a, y->a)), y->b);
        const auto *ma = a.as<Min>(), *mb = b.as<Min>();
        if (ma && mb) {
            if (equal(ma->b, mb->b))
                return Max::make(cancel_difference(ma->a, mb->a), make_zero(a.type()));
            if (equal(ma->a, mb->a))
                return Max::make(cancel_difference(ma->b, mb->b), make_zero(a.type()));
            return Max::make(cancel_difference(ma->a, mb->a), cancel_difference(ma->b, mb->b));
        }
        return Sub::make(a, b);
    }
};

} // namespace

Expr symbolic_upper_bound(const Expr &e, const std::map<std::string, Expr> &lets) {
    Expr r = e;
    for (int round = 0; round < 32; round++) {
        std::map<std::string, Expr> used;
        for (const auto &v : free_variables(r)) {
            auto it = lets.find(v);
            if (it != lets.end()) used.insert(*it);
        }
        if (used.empty()) break;
        r = substitute(used, r);
        if (tree_size(r) > 2000) return Expr();
    }
    return simplify(BoundClampDifferences().mutate(simplify(r)));
}

} // namespace Internal
} // namespace loom
