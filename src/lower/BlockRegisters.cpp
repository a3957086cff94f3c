#include "lower/BlockRegisters.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"

namespace loom {
namespace Internal {

namespace {

/** An affine integer expression: constant + sum of coefficient * term, plus
 * lane * lane_stride for vectors. Terms are variables (loop variables of the
 * allocation's body, thread ids, outer symbols) or opaque subexpressions
 * that contain no loop variable, keyed by their text. */
struct Linear {
    int64_t constant = 0;
    std::map<std::string, int64_t> coefficient;
    std::map<std::string, Expr> term; // the Expr of each key
    int lanes = 1;
    int64_t lane_stride = 0;

    void add(const Linear &o, int64_t sign) {
        constant += sign * o.constant;
        for (const auto &[k, c] : o.coefficient) {
            coefficient[k] += sign * c;
            term.emplace(k, o.term.at(k));
            if (coefficient[k] == 0) coefficient.erase(k);
        }
        lanes = std::max(lanes, o.lanes);
        lane_stride += sign * o.lane_stride;
    }
    void scale(int64_t f) {
        constant *= f;
        for (auto &kc : coefficient) kc.second *= f;
        lane_stride *= f;
        for (auto it = coefficient.begin(); it != coefficient.end();)
            it = it->second == 0 ? coefficient.erase(it) : std::next(it);
    }
    bool is_constant() const { return coefficient.empty() && lane_stride == 0; }
};

struct LoopRange {
    int64_t min = 0, max = 0;
    bool known = true; // a constant range
};

/** Loop variables in scope and let values (already inlined) at an access. */
struct Context {
    std::map<std::string, LoopRange> loops;
    std::map<std::string, Expr> lets;
    /** Lets of the host code around the kernel: a kernel argument computed
     * from others on the host (out.s0.y.max) is read through them, so that
     * equal values written two ways compare equal. */
    const std::map<std::string, Expr> *host_lets = nullptr;

    /** Binds a let (its value inlined); returns the binding it hides. */
    Expr bind(const std::string &name, const Expr &value) {
        auto it = lets.find(name);
        Expr hidden = it == lets.end() ? Expr() : it->second;
        lets[name] = substitute(lets, value);
        return hidden;
    }
    void unbind(const std::string &name, const Expr &hidden) {
        if (hidden.defined())
            lets[name] = hidden;
        else
            lets.erase(name);
    }
};

bool mentions_loop(const Expr &e, const Context &c) {
    bool found = false;
    visit_all(e, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Variable &&
            c.loops.count(static_cast<const Variable *>(n)->name))
            found = true;
    });
    return found;
}

std::optional<Linear> linearize(const Expr &e, const Context &c) {
    Linear l;
    if (auto k = as_const_int(e)) {
        l.constant = *k;
        return l;
    }
    if (const auto *v = e.as<Variable>()) {
        auto let = c.lets.find(v->name);
        if (let != c.lets.end()) return linearize(let->second, c);
        if (c.host_lets)
            if (auto host = c.host_lets->find(v->name); host != c.host_lets->end())
                return linearize(host->second, c);
        l.coefficient[v->name] = 1;
        l.term[v->name] = e;
        return l;
    }
    if (const auto *a = e.as<Add>()) {
        auto x = linearize(a->a, c), y = linearize(a->b, c);
        if (!x || !y) return std::nullopt;
        x->add(*y, 1);
        return x;
    }
    if (const auto *s = e.as<Sub>()) {
        auto x = linearize(s->a, c), y = linearize(s->b, c);
        if (!x || !y) return std::nullopt;
        x->add(*y, -1);
        return x;
    }
    if (const auto *m = e.as<Mul>()) {
        auto x = linearize(m->a, c), y = linearize(m->b, c);
        if (!x || !y) return std::nullopt;
        if (y->is_constant() && y->lanes == 1) {
            x->scale(y->constant);
            return x;
        }
        if (x->is_constant() && x->lanes == 1) {
            y->scale(x->constant);
            return y;
        }
        if (y->is_constant() && x->is_constant()) { // broadcast constants
            x->constant *= y->constant;
            x->lanes = std::max(x->lanes, y->lanes);
            return x;
        }
    }
    if (const auto *r = e.as<Ramp>()) {
        auto base = linearize(r->base, c);
        auto stride = as_const_int(r->stride);
        if (!base || !stride || base->lanes != 1) return std::nullopt;
        base->lanes = r->lanes;
        base->lane_stride = *stride;
        return base;
    }
    if (const auto *b = e.as<Broadcast>()) {
        auto value = linearize(b->value, c);
        if (!value || value->lanes != 1) return std::nullopt;
        value->lanes = b->lanes;
        return value;
    }
    if (const auto *let = e.as<Let>()) {
        Context inner = c;
        inner.lets[let->name] = let->value;
        return linearize(let->body, inner);
    }
    if (const auto *cast = e.as<Cast>(); cast && cast->type.is_int() && cast->value.type().is_int())
        return linearize(cast->value, c);
    // Anything else is one opaque term, as long as no loop runs through it.
    Expr inlined = substitute(c.lets, e);
    if (mentions_loop(inlined, c)) return std::nullopt;
    if (c.host_lets)
        for (int round = 0; round < 8; round++) {
            Expr next = substitute(*c.host_lets, inlined);
            if (next.same_as(inlined)) break;
            inlined = next;
        }
    inlined = simplify(inlined);
    std::ostringstream key;
    key << inlined;
    l.coefficient[key.str()] = 1;
    l.term[key.str()] = inlined;
    return l;
}

/** One access: the thread's base (terms that are no loop variable), the
 * constant offset range the loops and lanes add, and the loop part. */
struct Access {
    Linear base, loops;
    int64_t lo = 0, hi = 0;
    bool write = false;
};

class Collect : public IRVisitor {
public:
    Collect(const std::string &name, const std::map<std::string, Expr> &host_lets) : name(name) {
        context.host_lets = &host_lets;
    }
    const std::string &name;
    Context context;
    std::vector<Access> accesses;
    std::vector<std::string> failures;

    void note(const Expr &index, bool write) {
        auto l = linearize(index, context);
        if (!l) {
            std::ostringstream why;
            why << "its index " << substitute(context.lets, index)
                << " is not an affine function of the thread ids and loops";
            failures.push_back(why.str());
            return;
        }
        Access a;
        a.write = write;
        a.base.constant = l->constant;
        a.loops.lanes = l->lanes;
        a.loops.lane_stride = l->lane_stride;
        a.lo = std::min<int64_t>(0, l->lane_stride * (l->lanes - 1));
        a.hi = std::max<int64_t>(0, l->lane_stride * (l->lanes - 1));
        for (const auto &[k, c] : l->coefficient) {
            auto loop = context.loops.find(k);
            Linear &part = loop == context.loops.end() ? a.base : a.loops;
            part.coefficient[k] = c;
            part.term[k] = l->term.at(k);
            if (loop != context.loops.end()) {
                if (!loop->second.known) {
                    failures.push_back("the loop " + k +
                                       " runs through its index, with no "
                                       "constant range");
                    return;
                }
                a.lo += std::min(c * loop->second.min, c * loop->second.max);
                a.hi += std::max(c * loop->second.min, c * loop->second.max);
            }
        }
        accesses.push_back(a);
    }

private:
    using IRVisitor::visit;
    void visit(const For *op) override {
        auto mn = linearize(op->min, context), ex = linearize(op->extent, context);
        // A loop without a constant range is fine where no access uses it.
        if (!mn || !ex || !mn->is_constant() || !ex->is_constant())
            context.loops[op->name] = {0, 0, false};
        else
            context.loops[op->name] = {mn->constant, mn->constant + ex->constant - 1, true};
        IRVisitor::visit(op);
        context.loops.erase(op->name);
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        Expr hidden = context.bind(op->name, op->value);
        op->body.accept(this);
        context.unbind(op->name, hidden);
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        Expr hidden = context.bind(op->name, op->value);
        op->body.accept(this);
        context.unbind(op->name, hidden);
    }
    void visit(const Load *op) override {
        IRVisitor::visit(op);
        if (op->name == name) note(op->index, false);
    }
    void visit(const Store *op) override {
        IRVisitor::visit(op);
        if (op->name == name) note(op->index, true);
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->is_intrinsic(Intrinsic::atomic_update))
            if (const auto *n = op->args[0].as<StringImm>(); n && n->value == name)
                note(op->args[1], true);
    }
};

Expr rebuild(const Linear &l, int64_t constant, Type t) {
    Expr e = make_const(t.element_of(), constant);
    for (const auto &[k, c] : l.coefficient) {
        Expr v = l.term.at(k);
        Expr term = c == 1 ? v : Mul::make(v, make_const(v.type(), c));
        e = is_const_zero(e) ? term : Add::make(e, term);
    }
    if (l.lanes == 1) return e;
    if (l.lane_stride == 0) return Broadcast::make(e, l.lanes);
    return Ramp::make(e, make_const(t.element_of(), l.lane_stride), l.lanes);
}

/** Rewrites each access's index to its offset from the thread's base. */
class Rewrite : public IRMutator {
public:
    Rewrite(const std::string &name, const Linear &base, int64_t offset, int64_t extent,
            const std::map<std::string, Expr> &host_lets)
        : name(name), base(base), offset(offset), extent(extent) {
        context.host_lets = &host_lets;
    }

private:
    const std::string &name;
    const Linear &base;
    int64_t offset, extent;
    Context context;
    using IRMutator::visit;

    Expr local(const Expr &index) {
        auto l = linearize(index, context);
        internal_assert(l, "register index became non-affine");
        Linear loops;
        loops.lanes = l->lanes;
        loops.lane_stride = l->lane_stride;
        Linear rest;
        for (const auto &[k, c] : l->coefficient) {
            Linear &part = context.loops.count(k) ? loops : rest;
            part.coefficient[k] = c;
            part.term[k] = l->term.at(k);
        }
        rest.constant = l->constant;
        rest.add(base, -1);
        internal_assert(rest.is_constant(), "register access base changed");
        return rebuild(loops, rest.constant - offset, index.type());
    }
    Stmt visit(const For *op) override {
        context.loops[op->name] = {};
        Stmt s = IRMutator::visit(op);
        context.loops.erase(op->name);
        return s;
    }
    Stmt visit(const LetStmt *op) override {
        Expr hidden = context.bind(op->name, op->value);
        Stmt s = IRMutator::visit(op);
        context.unbind(op->name, hidden);
        return s;
    }
    Expr visit(const Let *op) override {
        Expr hidden = context.bind(op->name, op->value);
        Expr e = IRMutator::visit(op);
        context.unbind(op->name, hidden);
        return e;
    }
    Expr visit(const Load *op) override {
        if (op->name != name) return IRMutator::visit(op);
        Expr pred = op->predicate.defined() ? mutate(op->predicate) : op->predicate;
        return Load::make(op->type, op->name, local(op->index), op->image, op->param, pred);
    }
    Stmt visit(const Store *op) override {
        if (op->name != name) return IRMutator::visit(op);
        Expr value = mutate(op->value);
        Expr pred = op->predicate.defined() ? mutate(op->predicate) : op->predicate;
        return Store::make(op->name, value, local(op->index), op->image, op->param, pred,
                           op->streaming);
    }
    Expr visit(const Call *op) override {
        if (!op->is_intrinsic(Intrinsic::atomic_update)) return IRMutator::visit(op);
        const auto *n = op->args[0].as<StringImm>();
        if (!n || n->value != name) return IRMutator::visit(op);
        std::vector<Expr> args = mutate_exprs(op->args);
        args[1] = local(op->args[1]);
        return Call::make(op->type, Intrinsic::atomic_update, args, op->call_type);
    }
    Stmt visit(const Allocate *op) override {
        Stmt body = mutate(op->body);
        if (op->name != name)
            return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition,
                                  body);
        return Allocate::make(op->name, op->type, MemoryType::Register,
                              {make_const(Int(32), extent)}, op->condition, body);
    }
};

} // namespace

Stmt give_threads_their_registers(const Stmt &s, const std::string &name,
                                  const std::string &kernel_description,
                                  const std::map<std::string, Expr> &host_lets) {
    Collect collect(name, host_lets);
    s.accept(&collect);
    auto fail = [&](const std::string &why) {
        user_error("Func " << name << " is computed at a GPU block loop of " << kernel_description
                           << " and stored in MemoryType::Register, so each thread keeps the "
                              "part it computes and uses; but "
                           << why
                           << ". Schedule the Func's stages and its consumers with the same "
                              "gpu_threads splits (each thread touching the same elements "
                              "in every stage), or store it in MemoryType::GPUShared");
    };
    if (!collect.failures.empty()) fail(collect.failures[0]);
    if (collect.accesses.empty()) return s;
    const Linear &base = collect.accesses[0].base;
    int64_t lo = INT64_MAX, hi = INT64_MIN, write_lo = INT64_MAX, write_hi = INT64_MIN;
    for (const Access &a : collect.accesses) {
        Linear d = a.base;
        d.add(base, -1);
        if (!d.is_constant()) {
            std::ostringstream why;
            why << "its accesses start at different elements for the same thread ("
                << rebuild(base, base.constant, Int(32)) << " and "
                << rebuild(a.base, a.base.constant, Int(32)) << ")";
            fail(why.str());
        }
        lo = std::min(lo, d.constant + a.lo);
        hi = std::max(hi, d.constant + a.hi);
        if (a.write) {
            write_lo = std::min(write_lo, d.constant + a.lo);
            write_hi = std::max(write_hi, d.constant + a.hi);
        }
    }
    if (write_lo > write_hi || lo < write_lo || hi > write_hi)
        fail("a thread reads elements outside those it writes");
    return Rewrite(name, base, lo, hi - lo + 1, host_lets).mutate(s);
}

} // namespace Internal
} // namespace loom
