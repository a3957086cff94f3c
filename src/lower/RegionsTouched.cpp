#include "lower/RegionsTouched.h"

#include "analysis/Bounds.h"
#include "ir/IROperator.h"
#include "ir/IRVisitor.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

namespace {

class RegionsTouched : public IRVisitor {
    bool writes;
    Scope<Interval> scope;

    void record(const std::string &name, const std::vector<Expr> &args) {
        Box box(args.size());
        for (size_t i = 0; i < args.size(); i++) box[i] = bounds_of_expr_in_scope(args[i], scope);
        auto it = regions.find(name);
        if (it == regions.end()) {
            regions.emplace(name, box);
        } else if (it->second.size() == box.size()) {
            it->second = box_union(it->second, box);
        }
    }

protected:
    using IRVisitor::visit;

    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        Interval lo = bounds_of_expr_in_scope(op->min, scope);
        Interval extent = bounds_of_expr_in_scope(op->extent, scope);
        Interval range;
        if (lo.has_lower_bound()) range.min = lo.min;
        if (lo.has_upper_bound() && extent.has_upper_bound()) {
            range.max = sub(add(lo.max, extent.max), 1);
        }
        ScopedBinding<Interval> bind(scope, op->name, range);
        op->body.accept(this);
    }

    void visit(const LetStmt *op) override {
        op->value.accept(this);
        ScopedBinding<Interval> bind(scope, op->name, bounds_of_expr_in_scope(op->value, scope));
        op->body.accept(this);
    }

    void visit(const Let *op) override {
        op->value.accept(this);
        ScopedBinding<Interval> bind(scope, op->name, bounds_of_expr_in_scope(op->value, scope));
        op->body.accept(this);
    }

    void visit(const IfThenElse *op) override {
        op->condition.accept(this);
        const auto *le = unwrap_likely(op->condition).as<LE>();
        const auto *v = le ? le->a.as<Variable>() : nullptr;
        Expr bound =
            v && scope.contains(v->name) ? bounds_of_expr_in_scope(le->b, scope).max : Expr();
        if (bound.defined()) {
            Interval narrowed = scope.get(v->name);
            narrowed.max = narrowed.max.defined() ? min(narrowed.max, bound) : bound;
            ScopedBinding<Interval> bind(scope, v->name, narrowed);
            op->then_case.accept(this);
        } else {
            op->then_case.accept(this);
        }
        if (op->else_case.defined()) op->else_case.accept(this);
    }

    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        if (writes) record(op->name, op->args);
    }

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (!writes && (op->call_type == Call::Loom || op->call_type == Call::Image)) {
            record(op->name, op->args);
        }
    }

public:
    std::map<std::string, Box> regions;
    explicit RegionsTouched(bool w) : writes(w) {}
};

std::map<std::string, Box> touched(const Stmt &s, bool writes) {
    RegionsTouched visitor(writes);
    s.accept(&visitor);
    return visitor.regions;
}

} // namespace

std::map<std::string, Box> regions_read(const Stmt &s) {
    return touched(s, false);
}
std::map<std::string, Box> regions_written(const Stmt &s) {
    return touched(s, true);
}

} // namespace Internal
} // namespace loom
