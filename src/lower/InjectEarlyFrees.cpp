#include "lower/InjectEarlyFrees.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

namespace {

/** One pass over the statement finds, for every Allocate, the statement
 * after which it is dead. Loops and branches are barriers: a Free is placed
 * only at the barrier depth of its Allocate, after the innermost statement
 * there that contains the last use. */
class FindLastUses : public IRVisitor {
public:
    struct Candidate {
        size_t barrier;
        const BaseStmtNode *last_use = nullptr;
        unsigned last_use_visit = 0;
        bool eligible = true;
    };
    std::map<const Allocate *, Candidate> candidates;

private:
    using IRVisitor::visit;
    /** Allocations in scope by name (innermost last for shadowed names). */
    std::map<std::string, std::vector<const Allocate *>> in_scope;
    /** For each barrier depth, the innermost statement at that depth
     * enclosing the current point, and which visit of it this is. */
    std::vector<std::pair<const BaseStmtNode *, unsigned>> innermost{{nullptr, 0}};
    unsigned visits = 0;

    Candidate *candidate_for(const std::string &name) {
        auto it = in_scope.find(name);
        if (it == in_scope.end() || it->second.empty()) return nullptr;
        return &candidates[it->second.back()];
    }

    void use(const std::string &name) {
        Candidate *c = candidate_for(name);
        if (!c || !c->eligible) return;
        auto [stmt, visit] = innermost[c->barrier];
        // The same statement node reached again elsewhere (shared IR): a
        // Free after it would run before the later use.
        if (c->last_use == stmt && c->last_use_visit != visit) c->eligible = false;
        c->last_use = stmt;
        c->last_use_visit = visit;
    }

    void refer_otherwise(const std::string &name) {
        if (Candidate *c = candidate_for(name)) c->eligible = false;
        // f.buffer and the like name the allocation too.
        for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1))
            if (Candidate *c = candidate_for(name.substr(0, dot))) c->eligible = false;
    }

    void enter(const BaseStmtNode *s) { innermost.back() = {s, ++visits}; }

    template <typename T> void visit_statement(const T *op) {
        auto saved = innermost.back();
        enter(op);
        IRVisitor::visit(op);
        innermost.back() = saved;
    }

    template <typename T> void visit_barrier(const T *op) {
        auto saved = innermost.back();
        enter(op);
        innermost.push_back({nullptr, 0});
        IRVisitor::visit(op);
        innermost.pop_back();
        innermost.back() = saved;
    }

    void visit(const Load *op) override {
        use(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        auto saved = innermost.back();
        enter(op);
        use(op->name);
        IRVisitor::visit(op);
        innermost.back() = saved;
    }
    void visit(const Variable *op) override {
        if (op->type.is_handle()) refer_otherwise(op->name);
    }
    void visit(const Call *op) override {
        for (const Expr &a : op->args)
            if (const auto *s = a.as<StringImm>()) refer_otherwise(s->value);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        auto saved = innermost.back();
        enter(op);
        for (const Expr &e : op->extents) e.accept(this);
        if (op->condition.defined()) op->condition.accept(this);
        candidates[op].barrier = innermost.size() - 1;
        in_scope[op->name].push_back(op);
        // The body is at the same depth: a Free goes inside it.
        innermost.back() = {nullptr, 0};
        op->body.accept(this);
        in_scope[op->name].pop_back();
        innermost.back() = saved;
    }
    void visit(const LetStmt *op) override { visit_statement(op); }
    void visit(const AssertStmt *op) override { visit_statement(op); }
    void visit(const ProducerConsumer *op) override { visit_statement(op); }
    void visit(const Provide *op) override { visit_statement(op); }
    void visit(const Realize *op) override { visit_statement(op); }
    void visit(const Evaluate *op) override { visit_statement(op); }
    void visit(const Free *op) override { refer_otherwise(op->name); }
    void visit(const For *op) override { visit_barrier(op); }
    void visit(const IfThenElse *op) override { visit_barrier(op); }
};

/** Puts Free(name) after the chosen statements, inside their Allocates. */
class InsertFrees : public IRMutator {
public:
    /** For each Allocate: the statement after which it is freed. */
    std::map<const Allocate *, const BaseStmtNode *> free_after;

private:
    using IRMutator::visit;
    /** Statement -> names to free after it, for the Allocates in scope. */
    std::map<const BaseStmtNode *, std::vector<std::string>> pending;

    Stmt visit(const Allocate *op) override {
        auto it = free_after.find(op);
        if (it == free_after.end()) return IRMutator::visit(op);
        pending[it->second].push_back(op->name);
        Stmt body = mutate(op->body);
        auto left = pending.find(it->second);
        if (left != pending.end()) {
            std::vector<std::string> &names = left->second;
            for (size_t i = 0; i < names.size(); i++) {
                if (names[i] != op->name) continue;
                names.erase(names.begin() + long(i));
                break;
            }
            if (names.empty()) pending.erase(left);
        }
        return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition,
                              body);
    }

public:
    Stmt mutate(const Stmt &s) override {
        const BaseStmtNode *node = s.get();
        Stmt result = IRMutator::mutate(s);
        auto it = pending.find(node);
        if (it == pending.end()) return result;
        std::vector<Stmt> block{result};
        for (const std::string &name : it->second) block.push_back(Free::make(name));
        pending.erase(it);
        return Block::make(block);
    }
    using IRMutator::mutate;
};

} // namespace

Stmt inject_early_frees(const Stmt &s) {
    FindLastUses finder;
    s.accept(&finder);
    InsertFrees inserter;
    for (const auto &[alloc, c] : finder.candidates)
        if (c.eligible && c.last_use) inserter.free_after[alloc] = c.last_use;
    if (inserter.free_after.empty()) return s;
    return inserter.mutate(s);
}

} // namespace Internal
} // namespace loom
