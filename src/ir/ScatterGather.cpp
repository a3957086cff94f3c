// Sizes and elements of scatter()/gather() calls (ir/ScatterGather.h).

#include "ir/ScatterGather.h"

#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

int scatter_gather_size(const std::vector<Expr> &exprs, const std::string &stage) {
    int size = 0;
    for (const Expr &e : exprs) {
        visit_all(e, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::Call) return;
            const auto *c = static_cast<const Call *>(n);
            if (!c->is_intrinsic(Intrinsic::scatter_gather)) return;
            int k = int(c->args.size());
            if (size && k != size)
                user_error("The " << stage << " uses scatter()/gather() of " << size << " and of "
                                  << k << " values; all of one update must have one size");
            size = k;
        });
    }
    return size;
}

namespace {

class PickElement : public IRMutator {
    int index;

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (!op->is_intrinsic(Intrinsic::scatter_gather)) return IRMutator::visit(op);
        return mutate(op->args.at(size_t(index)));
    }

public:
    explicit PickElement(int i) : index(i) {}
};

} // namespace

Expr pick_scatter_element(const Expr &e, int index) {
    return PickElement(index).mutate(e);
}

} // namespace Internal
} // namespace loom
