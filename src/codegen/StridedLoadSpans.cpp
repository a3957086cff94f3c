#include "codegen/StridedLoadSpans.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/IREquality.h"
#include "ir/IROperator.h"
#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

std::pair<Expr, int64_t> split_constant_offset(const Expr &index) {
    if (auto c = as_const_int(index)) return {Expr(), *c};
    if (const Add *a = index.as<Add>()) {
        if (auto c = as_const_int(a->b)) return {a->a, *c};
    }
    if (const Sub *s = index.as<Sub>()) {
        if (auto c = as_const_int(s->b)) return {s->a, -*c};
    }
    return {index, 0};
}

namespace {

bool same_symbolic(const Expr &a, const Expr &b) {
    if (!a.defined() || !b.defined()) return a.defined() == b.defined();
    return equal(a, b);
}

} // namespace

/** Walks what a region always evaluates (see the constructor's comment). */
class StridedLoadCollector : public IRVisitor {
public:
    explicit StridedLoadCollector(StridedLoadSpans &spans) : spans(spans) {}

    using IRVisitor::visit;

    void visit(const Load *op) override {
        op->index.accept(this);
        if (op->predicate.defined()) op->predicate.accept(this);
        if (op->predicate.defined() && !is_const_true(op->predicate)) return;
        Expr index = op->index;
        if (const Variable *v = index.as<Variable>()) {
            auto it = vector_lets.find(v->name);
            if (it != vector_lets.end()) index = it->second;
        }
        if (const Ramp *r = index.as<Ramp>()) {
            auto stride = as_const_int(r->stride);
            if (stride && (*stride > 1 || *stride < -1)) strided_buffers.insert(op->name);
        }
        loads.emplace_back(op->name, index);
    }
    void visit(const Call *op) override {
        // The arms of a lazy select and the value of require() may not run.
        if (op->is_intrinsic(Intrinsic::if_then_else) || op->is_intrinsic(Intrinsic::require)) {
            if (!op->args.empty()) op->args[0].accept(this);
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        bind(op->name, op->value);
        op->value.accept(this);
        op->body.accept(this);
    }
    void visit(const LetStmt *op) override {
        bind(op->name, op->value);
        op->value.accept(this);
        op->body.accept(this);
    }
    void visit(const AssertStmt *op) override { op->condition.accept(this); }
    // Loop bodies may run zero times and branches may not run: only what
    // decides them runs. An allocation's body could rebind a buffer name.
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
    }
    void visit(const IfThenElse *op) override { op->condition.accept(this); }
    void visit(const Allocate *) override {}

    /** Every unpredicated load, and the buffers that some strided load reads. */
    std::vector<std::pair<std::string, Expr>> loads;
    std::set<std::string> strided_buffers;

private:
    StridedLoadSpans &spans;
    std::map<std::string, Expr> vector_lets;

    void bind(const std::string &name, const Expr &value) {
        spans.bound_names.push_back(name);
        if (value.type().is_vector()) vector_lets[name] = value;
    }
};

void StridedLoadSpans::collect(const Stmt &region) {
    if (!region.defined()) return;
    StridedLoadCollector collector(*this);
    region.accept(&collector);
    // Only buffers with strided loads need spans (grouping costs a
    // comparison of indices per pair of loads).
    for (const auto &[buffer, index] : collector.loads) {
        if (collector.strided_buffers.count(buffer)) add(buffer, index);
    }
    if (spans.empty()) return;
    // A name bound twice: its uses may see different values.
    std::vector<std::string> names = bound_names;
    std::sort(names.begin(), names.end());
    if (std::adjacent_find(names.begin(), names.end()) != names.end()) spans.clear();
}

const StridedLoadSpans::Span *StridedLoadSpans::find(const std::string &buffer,
                                                     const Expr &symbolic) const {
    for (const Span &s : spans) {
        if (s.buffer == buffer && same_symbolic(s.symbolic, symbolic)) return &s;
    }
    return nullptr;
}

void StridedLoadSpans::add(const std::string &buffer, const Expr &index) {
    Expr first = index;
    int64_t extent = 0; // offset of the last element from the first
    if (index.type().is_vector()) {
        const Ramp *r = index.as<Ramp>();
        if (!r || !r->base.type().is_scalar()) return;
        auto stride = as_const_int(r->stride);
        if (!stride) return;
        first = r->base;
        extent = *stride * (r->lanes - 1);
    }
    auto [symbolic, offset] = split_constant_offset(first);
    int64_t lo = offset + std::min<int64_t>(extent, 0), hi = offset + std::max<int64_t>(extent, 0);
    for (Span &s : spans) {
        if (s.buffer == buffer && same_symbolic(s.symbolic, symbolic)) {
            s.lo = std::min(s.lo, lo);
            s.hi = std::max(s.hi, hi);
            return;
        }
    }
    spans.push_back({buffer, symbolic, lo, hi});
}

std::optional<int> StridedLoadSpans::dense_load_shift(const std::string &buffer, const Expr &base,
                                                      int stride, int lanes) const {
    auto [symbolic, offset] = split_constant_offset(base);
    const Span *span = find(buffer, symbolic);
    if (!span || stride < 1) return std::nullopt;
    auto fits = [&](int64_t r) {
        int64_t start = offset - r;
        return start >= span->lo && start + int64_t(stride) * lanes - 1 <= span->hi;
    };
    // The shift that starts at the group's first element (mod stride) first.
    int64_t shared = ((offset - span->lo) % stride + stride) % stride;
    if (fits(shared)) return int(shared);
    for (int r = 0; r < stride; r++) {
        if (fits(r)) return r;
    }
    return std::nullopt;
}

} // namespace Internal
} // namespace loom
