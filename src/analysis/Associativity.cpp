#include "analysis/Associativity.h"

#include "ir/IREquality.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** Is e the old value of element `index`: a call of func at exactly args? */
bool is_self(const Expr &e, const std::string &func, const std::vector<Expr> &args, int index) {
    const auto *c = e.as<Call>();
    if (!c || c->call_type != Call::Loom || c->name != func || c->value_index != index ||
        c->args.size() != args.size())
        return false;
    for (size_t i = 0; i < args.size(); i++) {
        if (!equal(c->args[i], args[i])) return false;
    }
    return true;
}

bool calls_func(const Expr &e, const std::string &func) {
    bool found = false;
    visit_all(e, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Call && static_cast<const Call *>(n)->name == func &&
            static_cast<const Call *>(n)->call_type == Call::Loom)
            found = true;
    });
    return found;
}

/** value == old op e or e op old, with e not reading the Func: e. */
Expr other_operand(const Expr &a, const Expr &b, const std::string &func,
                   const std::vector<Expr> &args, int index) {
    if (is_self(a, func, args, index) && !calls_func(b, func)) return b;
    if (is_self(b, func, args, index) && !calls_func(a, func)) return a;
    return Expr();
}

bool match_element(const Expr &v, const std::string &func, const std::vector<Expr> &args, int index,
                   AssociativeOp::Kind *kind, Expr *operand, Expr *identity) {
    Type t = v.type();
    auto try_binary = [&](const Expr &a, const Expr &b, AssociativeOp::Kind k, Expr id) {
        Expr e = other_operand(a, b, func, args, index);
        if (!e.defined()) return false;
        *kind = k;
        *operand = e;
        *identity = id;
        return true;
    };
    if (const auto *op = v.as<Add>())
        return try_binary(op->a, op->b, AssociativeOp::Add, make_zero(t));
    if (const auto *op = v.as<Mul>())
        return try_binary(op->a, op->b, AssociativeOp::Mul, make_one(t));
    if (const auto *op = v.as<Min>())
        return try_binary(op->a, op->b, AssociativeOp::Min, type_max(t));
    if (const auto *op = v.as<Max>())
        return try_binary(op->a, op->b, AssociativeOp::Max, type_min(t));
    if (const auto *op = v.as<And>())
        return try_binary(op->a, op->b, AssociativeOp::And, const_true());
    if (const auto *op = v.as<Or>())
        return try_binary(op->a, op->b, AssociativeOp::Or, const_false());
    return false;
}

/** (select(c, a0, old0), ..., select(c, e, old_n)) with c = e > old_n (argmax) or e < old_n. */
bool match_arg_reduction(const std::string &func, const std::vector<Expr> &args,
                         const std::vector<Expr> &values, AssociativeOp &result) {
    size_t n = values.size();
    const auto *last = values[n - 1].as<Select>();
    if (!last || !is_self(last->false_value, func, args, int(n - 1))) return false;
    Expr e = last->true_value;
    if (calls_func(e, func)) return false;
    bool is_max;
    if (const auto *gt = last->condition.as<GT>();
        gt && equal(gt->a, e) && is_self(gt->b, func, args, int(n - 1))) {
        is_max = true;
    } else if (const auto *lt = last->condition.as<LT>();
               lt && equal(lt->a, e) && is_self(lt->b, func, args, int(n - 1))) {
        is_max = false;
    } else {
        return false;
    }
    result.kinds.assign(n, is_max ? AssociativeOp::ArgMax : AssociativeOp::ArgMin);
    for (size_t i = 0; i + 1 < n; i++) {
        const auto *s = values[i].as<Select>();
        if (!s || !equal(s->condition, last->condition) ||
            !is_self(s->false_value, func, args, int(i)) || calls_func(s->true_value, func))
            return false;
        result.operands.push_back(s->true_value);
        result.identities.push_back(make_zero(values[i].type()));
    }
    result.operands.push_back(e);
    Type t = values[n - 1].type();
    result.identities.push_back(is_max ? type_min(t) : type_max(t));
    result.matched = true;
    return true;
}

} // namespace

AssociativeOp find_associative_op(const std::string &func, const std::vector<Expr> &args,
                                  const std::vector<Expr> &values) {
    AssociativeOp result;
    if (values.size() > 1 && match_arg_reduction(func, args, values, result)) return result;
    result = AssociativeOp();
    for (size_t i = 0; i < values.size(); i++) {
        AssociativeOp::Kind k;
        Expr operand, identity;
        if (!match_element(values[i], func, args, int(i), &k, &operand, &identity)) {
            result.why_not = "value " + std::to_string(i) +
                             " is not the old value combined with a new one by +, *, min, "
                             "max, && or || (nor an argmin/argmax Tuple)";
            return result;
        }
        result.kinds.push_back(k);
        result.operands.push_back(operand);
        result.identities.push_back(identity);
    }
    result.matched = true;
    return result;
}

std::vector<Expr> combine(const AssociativeOp &op, const std::vector<Expr> &old_values,
                          const std::vector<Expr> &new_values) {
    std::vector<Expr> out;
    size_t n = old_values.size();
    if (!op.kinds.empty() &&
        (op.kinds[0] == AssociativeOp::ArgMax || op.kinds[0] == AssociativeOp::ArgMin)) {
        Expr better = op.kinds[0] == AssociativeOp::ArgMax
                          ? GT::make(new_values[n - 1], old_values[n - 1])
                          : LT::make(new_values[n - 1], old_values[n - 1]);
        for (size_t i = 0; i < n; i++)
            out.push_back(Select::make(better, new_values[i], old_values[i]));
        return out;
    }
    for (size_t i = 0; i < n; i++) {
        const Expr &a = old_values[i], &b = new_values[i];
        switch (op.kinds[i]) {
        case AssociativeOp::Add:
            out.push_back(Add::make(a, b));
            break;
        case AssociativeOp::Mul:
            out.push_back(Mul::make(a, b));
            break;
        case AssociativeOp::Min:
            out.push_back(Min::make(a, b));
            break;
        case AssociativeOp::Max:
            out.push_back(Max::make(a, b));
            break;
        case AssociativeOp::And:
            out.push_back(And::make(a, b));
            break;
        case AssociativeOp::Or:
            out.push_back(Or::make(a, b));
            break;
        default:
            break;
        }
    }
    return out;
}

} // namespace Internal
} // namespace loom
