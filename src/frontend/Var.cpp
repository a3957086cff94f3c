#include "loom/Var.h"

#include "frontend/ImplicitVars.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/StackGuard.h"

namespace loom {

Var::Var() : name_(Internal::unique_name("v")) {}

Var::Var(const std::string &name) : name_(name) {}

Var::operator Expr() const {
    return Internal::Variable::make(Int(32), name_);
}

Var Var::implicit(int n) {
    return Var("_" + std::to_string(n));
}

int Var::implicit_index(const std::string &name) {
    if (name.size() < 2 || name.size() > 10 || name[0] != '_') return -1;
    int n = 0;
    for (size_t i = 1; i < name.size(); i++) {
        if (name[i] < '0' || name[i] > '9') return -1;
        n = n * 10 + (name[i] - '0');
    }
    return n;
}

bool Var::is_implicit(const std::string &name) {
    return implicit_index(name) >= 0;
}

namespace Internal {

namespace {

bool is_placeholder_expr(const Expr &e) {
    const auto *v = e.as<Variable>();
    return v && Var::is_placeholder(v->name) && !v->param.defined() && !v->image.defined();
}

class CountImplicitVars : public IRVisitor {
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        if (!op->param.defined() && !op->image.defined())
            count = std::max(count, Var::implicit_index(op->name) + 1);
    }

public:
    int count = 0;
};

} // namespace

int expand_implicit_placeholder(std::vector<Expr> &args, int dimensions, const std::string &what) {
    int position = -1;
    for (size_t i = 0; i < args.size();) {
        if (!is_placeholder_expr(args[i])) {
            i++;
            continue;
        }
        if (position >= 0)
            user_error("Only one implicit placeholder ('_') is allowed in the arguments of "
                       << what);
        position = int(i);
        args.erase(args.begin() + i);
    }
    if (position >= 0 && dimensions >= 0) {
        int missing = dimensions - int(args.size());
        for (int k = 0; k < missing; k++)
            args.insert(args.begin() + position + k, Expr(Var::implicit(k)));
    }
    return position;
}

int count_implicit_vars(const std::vector<Expr> &exprs) {
    // Every definition walks its values here first, on the caller's thread:
    // a very deep value is walked again on a deep stack.
    int count = 0;
    run_retrying_on_deep_stack([&] {
        CountImplicitVars counter;
        for (const Expr &e : exprs)
            if (e.defined()) e.accept(&counter);
        count = counter.count;
    });
    return count;
}

} // namespace Internal
} // namespace loom
