#include "ir/IRUtil.h"

#include <algorithm>
#include <atomic>
#include <map>

#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Scope.h"

namespace loom {
namespace Internal {

namespace {

// Collects the names of Variables not bound by an enclosing Let, LetStmt or For.
class FreeVariables : public IRVisitor {
    Scope<int> bound;

    template <typename T> void visit_binding(const T *op, const Expr &value) {
        value.accept(this);
        ScopedBinding<int> bind(bound, op->name, 0);
        op->body.accept(this);
    }

public:
    std::set<std::string> names;
    /** Only these names are of interest (null: all); `found` tells whether
     * any is used, without collecting the others. */
    const std::set<std::string> *wanted = nullptr;
    bool found = false;
    using IRVisitor::visit;

    void visit(const Variable *op) override {
        if (wanted) {
            found = found || (wanted->count(op->name) && !bound.contains(op->name));
        } else if (!bound.contains(op->name)) {
            names.insert(op->name);
        }
    }
    void visit(const Let *op) override { visit_binding(op, op->value); }
    void visit(const LetStmt *op) override { visit_binding(op, op->value); }
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        ScopedBinding<int> bind(bound, op->name, 0);
        op->body.accept(this);
    }
};

// Calls a function on every node before visiting its children.
class VisitAll : public IRVisitor {
    const std::function<void(const IRNode *)> &f;

public:
    explicit VisitAll(const std::function<void(const IRNode *)> &fn) : f(fn) {}
    using IRVisitor::visit;
#define LOOM_VISIT_ALL(T)                                                                          \
    void visit(const T *op) override {                                                             \
        f(op);                                                                                     \
        IRVisitor::visit(op);                                                                      \
    }
    LOOM_VISIT_ALL(IntImm)
    LOOM_VISIT_ALL(UIntImm)
    LOOM_VISIT_ALL(FloatImm)
    LOOM_VISIT_ALL(StringImm)
    LOOM_VISIT_ALL(Cast)
    LOOM_VISIT_ALL(Reinterpret)
    LOOM_VISIT_ALL(Variable)
    LOOM_VISIT_ALL(Add)
    LOOM_VISIT_ALL(Sub)
    LOOM_VISIT_ALL(Mul)
    LOOM_VISIT_ALL(Div)
    LOOM_VISIT_ALL(Mod)
    LOOM_VISIT_ALL(Min)
    LOOM_VISIT_ALL(Max)
    LOOM_VISIT_ALL(EQ)
    LOOM_VISIT_ALL(NE)
    LOOM_VISIT_ALL(LT)
    LOOM_VISIT_ALL(LE)
    LOOM_VISIT_ALL(GT)
    LOOM_VISIT_ALL(GE)
    LOOM_VISIT_ALL(And)
    LOOM_VISIT_ALL(Or)
    LOOM_VISIT_ALL(Not)
    LOOM_VISIT_ALL(Select)
    LOOM_VISIT_ALL(Load)
    LOOM_VISIT_ALL(Ramp)
    LOOM_VISIT_ALL(Broadcast)
    LOOM_VISIT_ALL(Call)
    LOOM_VISIT_ALL(Let)
    LOOM_VISIT_ALL(Shuffle)
    LOOM_VISIT_ALL(LetStmt)
    LOOM_VISIT_ALL(AssertStmt)
    LOOM_VISIT_ALL(ProducerConsumer)
    LOOM_VISIT_ALL(For)
    LOOM_VISIT_ALL(Store)
    LOOM_VISIT_ALL(Provide)
    LOOM_VISIT_ALL(Allocate)
    LOOM_VISIT_ALL(Free)
    LOOM_VISIT_ALL(Realize)
    LOOM_VISIT_ALL(Block)
    LOOM_VISIT_ALL(IfThenElse)
    LOOM_VISIT_ALL(Evaluate)
#undef LOOM_VISIT_ALL
};

template <typename T> bool uses_any(const T &node, const std::set<std::string> &names) {
    if (!node.defined() || names.empty()) return false;
    FreeVariables fv;
    fv.wanted = &names;
    node.accept(&fv);
    return fv.found;
}

} // namespace

std::set<std::string> free_variables(const Expr &e) {
    FreeVariables fv;
    if (e.defined()) e.accept(&fv);
    return fv.names;
}

bool expr_uses_var(const Expr &e, const std::string &name) {
    return uses_any(e, std::set<std::string>{name});
}

bool stmt_uses_var(const Stmt &s, const std::string &name) {
    return uses_any(s, std::set<std::string>{name});
}

bool expr_uses_vars(const Expr &e, const std::set<std::string> &names) {
    return uses_any(e, names);
}

int count_nodes(const Expr &e, int limit) {
    // IRVisitor has no per-node hook; a mutator's mutate() sees every node.
    struct Counter : public IRMutator {
        int count = 0, limit = 0;
        using IRMutator::mutate;
        Expr mutate(const Expr &x) override {
            if (++count > limit) return x;
            return IRMutator::mutate(x);
        }
    } c;
    c.limit = limit;
    if (e.defined()) c.mutate(e);
    return std::min(c.count, limit + 1);
}

void visit_all(const Expr &e, const std::function<void(const IRNode *)> &f) {
    VisitAll v(f);
    if (e.defined()) e.accept(&v);
}

void visit_all(const Stmt &s, const std::function<void(const IRNode *)> &f) {
    VisitAll v(f);
    if (s.defined()) s.accept(&v);
}

namespace {

class TreeSize : public IRMutator {
    std::map<const IRNode *, double> memo;

public:
    double count = 0;
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        auto it = memo.find(e.get());
        if (it != memo.end()) {
            count += it->second;
            return e;
        }
        double before = count++;
        IRMutator::mutate(e);
        memo[e.get()] = count - before;
        return e;
    }
};

} // namespace

double tree_size(const Expr &e) {
    TreeSize size;
    size.mutate(e);
    return size.count;
}

std::string unique_name(const std::string &prefix) {
    // The counter is shared by every prefix, so two names never collide even
    // when one prefix ends in "_<digits>".
    static std::atomic<uint64_t> counter{0};
    return prefix + "_" + std::to_string(++counter);
}

namespace {

class CollectReferencedNames : public IRVisitor {
public:
    std::set<std::string> names;
    using IRVisitor::visit;
    void visit(const Variable *op) override { names.insert(op->name); }
    void visit(const Load *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        // atomic_update names the buffer it updates in a string.
        if (op->is_intrinsic(Intrinsic::atomic_update))
            if (const auto *s = op->args[0].as<StringImm>()) names.insert(s->value);
        IRVisitor::visit(op);
    }
};

} // namespace

std::set<std::string> referenced_names(const Stmt &s) {
    CollectReferencedNames collect;
    s.accept(&collect);
    return std::move(collect.names);
}

} // namespace Internal
} // namespace loom
