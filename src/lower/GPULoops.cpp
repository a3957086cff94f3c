#include "lower/GPULoops.h"

#include <algorithm>
#include <functional>
#include <tuple>

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

/** e with the lets it uses substituted, `rounds` levels deep; undefined
 * once it grows past max_size nodes. */
Expr write_out_lets(const Expr &e, const std::map<std::string, Expr> &lets, int rounds,
                    double max_size) {
    Expr r = e;
    for (int round = 0; round < rounds; round++) {
        std::map<std::string, Expr> used;
        for (const auto &v : free_variables(r)) {
            auto it = lets.find(v);
            if (it != lets.end()) used.insert(*it);
        }
        if (used.empty()) break;
        r = substitute(used, r);
        if (tree_size(r) > max_size) return Expr();
    }
    return r;
}

Expr cancel_difference(const Expr &a, const Expr &b, bool *cancelled = nullptr);

class ConstantBound {
public:
    explicit ConstantBound(const std::map<std::string, Expr> &lets) : lets(lets) {}

    std::optional<int64_t> bound(const Expr &e, bool upper, int depth = 0) {
        if (depth > 40 || --budget < 0) return std::nullopt;
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
            if (auto d = difference(s->a, s->b, upper, depth + 1)) return d;
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
    // Distributing differences over min and max multiplies the work: give
    // up (no bound) rather than take long.
    int budget = 20000;
    std::map<std::tuple<const IRNode *, const IRNode *, bool>, std::optional<int64_t>> memo;

    /** Expressions made while bounding: kept alive, since the memo is keyed
     * by node address. */
    std::vector<Expr> made;

    /** e * c with the product moved inside a min, max, sum or difference
     * (undefined for other e). */
    Expr distribute(const Expr &e, int64_t c) {
        auto times = [&](const Expr &x) {
            if (auto v = as_const_int(x)) return make_const(x.type(), *v * c);
            return Mul::make(x, make_const(x.type(), c));
        };
        Expr r;
        if (const auto *m = e.as<Min>())
            r = Min::make(times(m->a), times(m->b));
        else if (const auto *m = e.as<Max>())
            r = Max::make(times(m->a), times(m->b));
        else if (const auto *a = e.as<Add>())
            r = Add::make(times(a->a), times(a->b));
        else if (const auto *a = e.as<Sub>())
            r = Sub::make(times(a->a), times(a->b));
        if (r.defined()) made.push_back(r);
        return r;
    }

    /** e with the lets it uses written out (for comparing terms). */
    Expr expand(const Expr &e) {
        Expr r = write_out_lets(e, lets, 8, 500);
        return r.defined() ? r : e;
    }

    Expr resolve(const Expr &e, int depth) {
        const auto *v = e.as<Variable>();
        if (!v || depth > 40) return e;
        auto it = lets.find(v->name);
        return it == lets.end() ? e : resolve(it->second, depth + 1);
    }

    /** A bound of a - b that keeps what the two sides share: the
     * difference distributes over min and max (max(p, q) - y is at most
     * max(p - y, q - y)), constants move out, and equal terms cancel. This
     * bounds the clamped tile extents of bounds inference, such as
     * min(i * 16 + 15, m) - min(i * 16, m) + 1 <= 16. */
    std::optional<int64_t> difference(const Expr &a, const Expr &b, bool upper, int depth) {
        if (depth > 40 || --budget < 0) return std::nullopt;
        Expr x = resolve(a, depth), y = resolve(b, depth);
        // The same pairs recur along different paths: remember them.
        auto key = std::make_tuple(x.get(), y.get(), upper);
        auto known = memo.find(key);
        if (known != memo.end()) return known->second;
        auto result = difference_of(x, y, upper, depth);
        memo[key] = result;
        return result;
    }

    std::optional<int64_t> difference_of(const Expr &x, const Expr &y, bool upper, int depth) {
        if (const auto *l = x.as<Let>()) {
            lets[l->name] = l->value;
            return difference(l->body, y, upper, depth + 1);
        }
        if (const auto *l = y.as<Let>()) {
            lets[l->name] = l->value;
            return difference(x, l->body, upper, depth + 1);
        }
        // The difference is then the min (or max) of two differences: a
        // bound of a min from above (of a max from below) needs only one.
        auto of_min = [&](std::optional<int64_t> p, std::optional<int64_t> q) {
            if (p && q) return std::optional<int64_t>(std::min(*p, *q));
            return upper ? (p ? p : q) : std::optional<int64_t>();
        };
        auto of_max = [&](std::optional<int64_t> p, std::optional<int64_t> q) {
            if (p && q) return std::optional<int64_t>(std::max(*p, *q));
            return upper ? std::optional<int64_t>() : (p ? p : q);
        };
        // Constants out: (p + c) - y is c + (p - y).
        if (const auto *s = x.as<Add>()) {
            if (auto c = as_const_int(s->b)) {
                auto d = difference(s->a, y, upper, depth + 1);
                return d ? std::optional<int64_t>(*d + *c) : std::nullopt;
            }
        }
        if (const auto *s = y.as<Add>()) {
            if (auto c = as_const_int(s->b)) {
                auto d = difference(x, s->a, upper, depth + 1);
                return d ? std::optional<int64_t>(*d - *c) : std::nullopt;
            }
        }
        // Otherwise try every way to take the difference apart and keep the
        // tightest bound: which terms must pair up (a + 15 with a, m with m
        // in min(a + 15, m) - min(a, m)) depends on the expression.
        std::optional<int64_t> best;
        auto consider = [&](std::optional<int64_t> r) {
            if (r && (!best || (upper ? *r < *best : *r > *best))) best = r;
        };
        // Clamps of the same kind: min(p, m) - min(q, n) lies between
        // min(p - q, m - n) and max(p - q, m - n), and with m equal to n
        // between min(p - q, 0) and max(p - q, 0) (so do nested clamps).
        auto same_kind = [&](const Expr &xa, const Expr &xb, const Expr &ya, const Expr &yb) {
            const std::pair<const Expr *, const Expr *> pairings[2][2] = {{{&xa, &ya}, {&xb, &yb}},
                                                                          {{&xa, &yb}, {&xb, &ya}}};
            for (const auto &pairing : pairings) {
                for (int shared = 0; shared < 2; shared++) {
                    const auto &[s1, s2] = pairing[shared];
                    if (!equal(expand(*s1), expand(*s2))) continue;
                    const auto &[o1, o2] = pairing[1 - shared];
                    auto d = difference(*o1, *o2, upper, depth + 1);
                    if (d) consider(upper ? std::max<int64_t>(*d, 0) : std::min<int64_t>(*d, 0));
                }
                auto d1 = difference(*pairing[0].first, *pairing[0].second, upper, depth + 1);
                auto d2 = difference(*pairing[1].first, *pairing[1].second, upper, depth + 1);
                if (d1 && d2) consider(upper ? std::max(*d1, *d2) : std::min(*d1, *d2));
            }
        };
        if (const auto *mx = x.as<Min>())
            if (const auto *my = y.as<Min>()) same_kind(mx->a, mx->b, my->a, my->b);
        if (const auto *mx = x.as<Max>())
            if (const auto *my = y.as<Max>()) same_kind(mx->a, mx->b, my->a, my->b);
        if (const auto *m = y.as<Min>())
            consider(of_max(difference(x, m->a, upper, depth + 1),
                            difference(x, m->b, upper, depth + 1)));
        if (const auto *m = x.as<Max>())
            consider(of_max(difference(m->a, y, upper, depth + 1),
                            difference(m->b, y, upper, depth + 1)));
        if (const auto *m = x.as<Min>())
            consider(of_min(difference(m->a, y, upper, depth + 1),
                            difference(m->b, y, upper, depth + 1)));
        if (const auto *m = y.as<Max>())
            consider(of_min(difference(x, m->a, upper, depth + 1),
                            difference(x, m->b, upper, depth + 1)));
        // Sums: bound one term alone and pair the other with the other side.
        if (const auto *s = x.as<Add>()) {
            for (int i = 0; i < 2; i++) {
                auto c = bound(i ? s->a : s->b, upper, depth + 1);
                auto d = c ? difference(i ? s->b : s->a, y, upper, depth + 1) : std::nullopt;
                if (d) consider(*c + *d);
            }
        }
        if (const auto *s = y.as<Add>()) {
            for (int i = 0; i < 2; i++) {
                auto c = bound(i ? s->a : s->b, !upper, depth + 1);
                auto d = c ? difference(x, i ? s->b : s->a, upper, depth + 1) : std::nullopt;
                if (d) consider(*d - *c);
            }
        }
        // Products by one positive constant: p * c - q * c is c * (p - q);
        // c * min(p, q) is min(c * p, c * q) (and so for max, + and -), so
        // the terms inside can pair with the other side.
        auto positive_factor = [](const Expr &e) -> int64_t {
            const auto *m = e.as<Mul>();
            auto c = m ? as_const_int(m->b) : std::nullopt;
            return c && *c > 0 ? *c : 0;
        };
        int64_t cx = positive_factor(x), cy = positive_factor(y);
        if (cx && cx == cy) {
            auto d = difference(x.as<Mul>()->a, y.as<Mul>()->a, upper, depth + 1);
            if (d) consider(*d * cx);
        }
        if (cx) {
            if (Expr spread = distribute(resolve(x.as<Mul>()->a, depth), cx); spread.defined())
                consider(difference(spread, y, upper, depth + 1));
        }
        if (cy) {
            if (Expr spread = distribute(resolve(y.as<Mul>()->a, depth), cy); spread.defined())
                consider(difference(x, spread, upper, depth + 1));
        }
        // (p / c) * c lies in [p - (c - 1), p].
        auto rounded_down = [&](const Expr &e, Expr &p) -> int64_t {
            const auto *m = e.as<Mul>();
            Expr quotient = m ? resolve(m->a, depth) : Expr();
            const auto *d = m ? quotient.as<Div>() : nullptr;
            auto c = m ? as_const_int(m->b) : std::nullopt;
            if (!d || !c || *c <= 0 || !is_const(d->b, *c)) return 0;
            p = d->a;
            return *c;
        };
        Expr p;
        if (int64_t c = rounded_down(x, p)) {
            auto d = difference(p, y, upper, depth + 1);
            if (d) consider(upper ? *d : *d - (c - 1));
        }
        if (int64_t c = rounded_down(y, p)) {
            auto d = difference(x, p, upper, depth + 1);
            if (d) consider(upper ? *d + (c - 1) : *d);
        }
        // Quotients by one positive constant: floor(p / c) - floor(q / c)
        // lies within one of (p - q) / c.
        if (const auto *dx = x.as<Div>()) {
            const auto *dy = y.as<Div>();
            auto c = as_const_int(dx->b);
            if (dy && c && *c > 0 && is_const(dy->b, *c)) {
                auto d = difference(dx->a, dy->a, upper, depth + 1);
                if (d) {
                    int64_t q = *d >= 0 ? *d / *c : -((-*d + *c - 1) / *c);
                    consider(upper ? q + 1 : q - 1);
                }
            }
        }
        if (best) return best;
        bool cancelled = false;
        Expr diff = cancel_difference(x, y, &cancelled);
        if (auto c = as_const_int(diff)) return *c;
        if (!cancelled) return std::nullopt; // bounding the same difference again
        made.push_back(diff);
        return bound(diff, upper, depth + 1);
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
Expr cancel_difference(const Expr &a, const Expr &b, bool *cancelled) {
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
                    if (cancelled) *cancelled = true;
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
        // max(p, q) - r is max(p - r, q - r) (and so for min), so that r
        // cancels against terms inside.
        bool b_clamp = b.as<Min>() || b.as<Max>();
        if (const auto *m = a.as<Max>(); m && !b_clamp)
            return Max::make(mutate(Sub::make(m->a, b)), mutate(Sub::make(m->b, b)));
        if (const auto *m = a.as<Min>(); m && !b_clamp)
            return Min::make(mutate(Sub::make(m->a, b)), mutate(Sub::make(m->b, b)));
        // The same difference with the terms both sides share cancelled
        // (the simplifier keeps (p + q + m) - (p + r + m) when p is not simple).
        return cancel_difference(a, b);
    }
};

} // namespace

Expr symbolic_upper_bound(const Expr &e, const std::map<std::string, Expr> &lets) {
    Expr r = write_out_lets(e, lets, 32, 2000);
    if (!r.defined()) return r;
    // Lets inside the value (common subexpressions) too, so that the terms
    // they share with the rest cancel.
    Expr inlined = substitute_in_all_lets(r);
    if (tree_size(inlined) <= 2000) r = inlined;
    return simplify(BoundClampDifferences().mutate(simplify(r)));
}

} // namespace Internal
} // namespace loom
