// Internal::Function: creation and the pure definition, with its checks.

#include "loom/Function.h"

#include <algorithm>
#include <atomic>
#include <set>

#include "frontend/Random.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "ir/IRUtil.h"
#include "ir/ScatterGather.h"
#include "ir/StackGuard.h"

namespace loom {
namespace Internal {

uint64_t next_function_version() {
    static std::atomic<uint64_t> counter{1};
    return counter++;
}

FunctionContents::~FunctionContents() {
    if (image.defined() && image.image_func() == this) image.set_image_func(nullptr);
}

Function Function::wrapper_for(const Function &caller) const {
    for (const WrapperEntry &w : ptr()->wrappers)
        if (w.caller == caller.name()) return Function(w.wrapper.get());
    if (caller.get()->wrapped == ptr()) return Function();
    for (const WrapperEntry &w : ptr()->wrappers)
        if (w.caller.empty()) return Function(w.wrapper.get());
    return Function();
}

Function::Function(const std::string &name) {
    strong_ = new FunctionContents;
    strong_->name = name;
    strong_->version = next_function_version();
}

namespace {

std::string list_names(const std::vector<std::string> &names) {
    std::string s;
    for (size_t i = 0; i < names.size(); i++) s += (i ? ", " : "") + names[i];
    return s;
}

/** Variables that are neither arguments nor parameters nor buffer fields. */
void check_free_variables(const std::string &func, const std::vector<std::string> &args,
                          const Expr &value) {
    std::set<std::string> arg_set(args.begin(), args.end());
    visit_all(value, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Variable) return;
        const auto *v = static_cast<const Variable *>(n);
        if (v->param.defined() || v->image.defined() || arg_set.count(v->name)) return;
        if (v->reduction_domain.defined())
            user_error("The pure definition of Func "
                       << func << " uses the RVar " << v->name
                       << "; reduction domains belong in update definitions (e.g. " << func
                       << "(x) = 0; " << func << "(x) += g(x, r);)");
        user_error("The definition of Func " << func << " uses Var " << v->name
                                             << ", which is not one of its arguments ("
                                             << list_names(args) << ")");
    });
}

} // namespace

void Function::define(const std::vector<std::string> &args, const std::vector<Expr> &values) {
    // Checking a very deep value recurses deeply: such a definition is
    // checked again on a deep stack. Nothing changes until the checks pass.
    run_retrying_on_deep_stack([&] {
        internal_assert(defined(), "define of an undefined Function");
        const std::string &fname = ptr()->name;
        if (has_pure_definition())
            user_error(
                "Func " << fname
                        << " is already defined; a Func has one pure definition (with arguments ("
                        << list_names(ptr()->args) << "))");
        if (values.empty()) user_error("Func " << fname << " is defined with no values");
        std::set<std::string> seen;
        for (const auto &a : args) {
            if (!seen.insert(a).second)
                user_error("In the definition of Func " << fname << ", the argument " << a
                                                        << " appears more than once");
        }
        for (size_t i = 0; i < values.size(); i++) {
            const Expr &v = values[i];
            if (!v.defined()) user_error("Func " << fname << " is defined with an undefined Expr");
            if (v.type().is_void())
                user_error("Func " << fname << " is defined with a value of no type");
            if (v.type().is_vector())
                user_error("Func " << fname << " is defined with a vector value of type "
                                   << type_to_string(v.type()));
            check_free_variables(fname, args, v);
            // A whole value of undef() stores nothing (the updates fill it in, as
            // in Halide); inside an expression it would have no meaning.
            const auto *whole = v.as<Call>();
            if (whole && whole->is_intrinsic(Intrinsic::undef)) continue;
            visit_all(v, [&](const IRNode *n) {
                const auto *c =
                    n->node_type == IRNodeType::Call ? static_cast<const Call *>(n) : nullptr;
                if (c && c->is_intrinsic(Intrinsic::undef))
                    user_error("The pure definition of Func "
                               << fname
                               << " uses undef() inside an expression; undef() may only stand "
                                  "for a whole value (it leaves that value unwritten)");
            });
        }

        const std::vector<Type> &required = ptr()->required_types;
        if (!required.empty()) {
            bool same = required.size() == values.size();
            for (size_t i = 0; same && i < values.size(); i++)
                same = values[i].type() == required[i];
            if (!same) {
                std::string want, got;
                for (size_t i = 0; i < required.size(); i++)
                    want += (i ? ", " : "") + type_to_string(required[i]);
                for (size_t i = 0; i < values.size(); i++)
                    got += (i ? ", " : "") + type_to_string(values[i].type());
                user_error("Func " << fname << " was declared with type (" << want
                                   << ") but is defined with (" << got << ")");
            }
        }
        if (ptr()->required_dimensions >= 0 && int(args.size()) != ptr()->required_dimensions)
            user_error("Func " << fname << " was declared with " << ptr()->required_dimensions
                               << " dimensions but is defined with " << args.size() << " ("
                               << list_names(args) << ")");
        if (scatter_gather_size(values, "pure definition of Func " + fname) > 0)
            user_error("The pure definition of Func "
                       << fname << " uses scatter() or gather(); they write several elements at "
                       << "once and belong in update definitions");

        // Everything that may fail comes before the Function changes (see define()).
        std::vector<Expr> arg_vars;
        for (const auto &a : args) arg_vars.push_back(Variable::make(Int(32), a));
        // random_float() and friends become hashes of the pure Vars.
        int random_tag = next_random_definition_tag();
        std::vector<Expr> lowered;
        for (const auto &v : values) lowered.push_back(lower_random(v, arg_vars, random_tag));

        ptr()->args = args;
        ptr()->output_types.clear();
        for (const auto &v : values) ptr()->output_types.push_back(v.type());
        Definition &def = ptr()->init;
        def.args = arg_vars;
        def.values = lowered;
        def.schedule.dims.clear();
        for (const auto &a : args)
            def.schedule.dims.push_back(Dim{a, ForType::Serial, DeviceAPI::None, false});

        ptr()->output_buffers.clear();
        for (size_t i = 0; i < values.size(); i++) {
            std::string name = values.size() == 1 ? fname : fname + "." + std::to_string(i);
            ptr()->output_buffers.emplace_back(values[i].type(), true, int(args.size()), name);
        }
        invalidate_cache();
    });
}

namespace {

/** Calls of one Func become calls of another through a weak handle (see
 * Function::weak()): a Func's calls of itself, or a clone's of the original. */
class RepointCalls : public IRMutator {
    const Function &from_, &to_;

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (!c || c->call_type != Call::Loom || !c->func.same_as(from_) ||
            (c->func.is_weak() && c->func.same_as(to_)))
            return e;
        auto *n = new Call(*c);
        n->func = to_.weak();
        n->name = to_.name();
        return n;
    }

public:
    RepointCalls(const Function &from, const Function &to) : from_(from), to_(to) {}
};

} // namespace

void repoint_self_calls(Definition &def, const Function &from, const Function &to) {
    RepointCalls repoint(from, to);
    for (Expr &e : def.args) e = repoint.mutate(e);
    for (Expr &e : def.values) e = repoint.mutate(e);
    for (Expr &e : def.predicates) e = repoint.mutate(e);
}

namespace {

bool is_undef(const Expr &e) {
    const auto *c = e.as<Call>();
    return c && c->is_intrinsic(Intrinsic::undef);
}

bool is_pure_var(const Variable *v) {
    return !v->param.defined() && !v->image.defined() && !v->reduction_domain.defined();
}

} // namespace

void Function::define_update(const std::vector<Expr> &lhs, const std::vector<Expr> &rhs) {
    // As define(): a deep update is checked again on a deep stack, and the
    // Function changes only at the end.
    run_retrying_on_deep_stack([&] {
        internal_assert(defined(), "define_update of an undefined Function");
        const std::string &fname = ptr()->name;
        std::string stage =
            "update definition " + std::to_string(ptr()->updates.size()) + " of Func " + fname;
        if (!has_pure_definition())
            user_error("Func " << fname << " has no pure definition; give it one (e.g. " << fname
                               << "(x) = 0) before an update definition");
        const std::vector<std::string> &pure = ptr()->args;
        if (lhs.size() != pure.size())
            user_error("The " << stage << " has " << lhs.size()
                              << " arguments on the left-hand side, but the pure definition has "
                              << pure.size() << " (" << list_names(pure) << ")");
        if (rhs.size() != ptr()->output_types.size())
            user_error("The " << stage << " has " << rhs.size()
                              << " values, but the pure definition has "
                              << ptr()->output_types.size());

        std::vector<Expr> args;
        std::set<std::string> lhs_pure; // pure Vars used in their own position
        for (size_t i = 0; i < lhs.size(); i++) {
            Expr a = lhs[i];
            if (!a.defined())
                user_error("Argument " << i << " of the " << stage << " is undefined");
            Type t = a.type();
            if (!(t.is_int() || t.is_uint()) || t.is_bool() || t.is_vector())
                user_error("Argument " << i << " of the " << stage << " has type "
                                       << type_to_string(t) << "; coordinates must be integers");
            if (t != Int(32)) a = Cast::make(Int(32), a);
            if (const auto *v = a.as<Variable>(); v && is_pure_var(v)) {
                if (v->name != pure[i])
                    user_error("In the " << stage << ", Var " << v->name << " is argument " << i
                                         << " on the left-hand side, but the pure definition has "
                                         << pure[i] << " there; a pure Var of an update must keep "
                                         << "its position (pure arguments: " << list_names(pure)
                                         << ")");
                lhs_pure.insert(v->name);
            }
            args.push_back(a);
        }

        std::vector<Expr> values;
        for (size_t i = 0; i < rhs.size(); i++) {
            Expr v = rhs[i];
            if (!v.defined()) user_error("Value " << i << " of the " << stage << " is undefined");
            if (is_undef(v)) {
                // Leaving an element unchanged: lowering stores nothing for it.
                values.push_back(
                    Call::make(ptr()->output_types[i], Intrinsic::undef, {}, Call::PureIntrinsic));
                continue;
            }
            if (v.type() != ptr()->output_types[i])
                user_error("Value " << i << " of the " << stage << " has type "
                                    << type_to_string(v.type()) << ", but the pure definition has "
                                    << type_to_string(ptr()->output_types[i])
                                    << "; cast it to the Func's type");
            values.push_back(v);
        }

        ReductionDomain domain;
        auto check_vars = [&](const Expr &e, bool on_lhs) {
            visit_all(e, [&](const IRNode *n) {
                if (n->node_type == IRNodeType::Call &&
                    is_undef(Expr(static_cast<const Call *>(n))))
                    user_error("The " << stage << " uses undef() inside an expression; undef() "
                                      << "may only stand for a whole value");
                if (n->node_type != IRNodeType::Variable) return;
                const auto *v = static_cast<const Variable *>(n);
                if (v->param.defined() || v->image.defined()) return;
                if (v->reduction_domain.defined()) {
                    if (domain.defined() && !domain.same_as(v->reduction_domain))
                        user_error("The " << stage << " uses RVars of two different RDoms ("
                                          << domain.domain()[0].var << ", " << v->name
                                          << "); an update definition uses at most one RDom");
                    domain = v->reduction_domain;
                    return;
                }
                if (lhs_pure.count(v->name)) return;
                // where() conditions name the RVars of their domain without a pointer to it.
                if (domain.defined()) {
                    for (const ReductionVariable &rv : domain.domain())
                        if (rv.var == v->name) return;
                }
                bool is_arg = std::find(pure.begin(), pure.end(), v->name) != pure.end();
                user_error("In the "
                           << stage << ", Var " << v->name
                           << (on_lhs ? " is used inside a left-hand side argument"
                                      : " is used on the right-hand side")
                           << (is_arg ? " but is not itself an argument in its own position on the "
                                        "left-hand side"
                                      : " but is not an argument on the left-hand side")
                           << "; free Vars of an update must be pure arguments of " << fname
                           << " in their own positions (" << list_names(pure) << ")");
            });
        };
        for (const Expr &a : args) {
            if (const auto *v = a.as<Variable>(); v && is_pure_var(v)) continue;
            check_vars(a, true);
        }
        for (const Expr &v : values) {
            if (!is_undef(v)) check_vars(v, false);
        }

        std::vector<Expr> all_exprs = args;
        all_exprs.insert(all_exprs.end(), values.begin(), values.end());
        scatter_gather_size(all_exprs, stage); // one size for all, or an error

        // random_float() and friends become hashes of the pure Vars and RVars.
        std::vector<Expr> random_vars;
        for (const Expr &a : args)
            if (const auto *v = a.as<Variable>(); v && is_pure_var(v)) random_vars.push_back(a);
        if (domain.defined())
            for (const ReductionVariable &rv : domain.domain())
                random_vars.push_back(Variable::make(Int(32), rv.var, domain));
        int random_tag = next_random_definition_tag();

        Definition def;
        RepointCalls weaken(*this, *this);
        for (const Expr &a : args)
            def.args.push_back(weaken.mutate(lower_random(a, random_vars, random_tag)));
        for (const Expr &v : values)
            def.values.push_back(weaken.mutate(lower_random(v, random_vars, random_tag)));
        if (domain.defined()) {
            domain.freeze();
            def.rvars = domain.domain();
            for (const Expr &p : domain.predicates()) {
                check_vars(p, false);
                def.predicates.push_back(weaken.mutate(p));
            }
        }
        // Default loop order, innermost first: the RVars, then the pure Vars.
        for (const ReductionVariable &rv : def.rvars)
            def.schedule.dims.push_back(Dim{rv.var, ForType::Serial, DeviceAPI::None, true});
        for (size_t i = 0; i < pure.size(); i++) {
            const auto *v = def.args[i].as<Variable>();
            if (v && v->name == pure[i])
                def.schedule.dims.push_back(Dim{pure[i], ForType::Serial, DeviceAPI::None, false});
        }
        ptr()->updates.push_back(def);
        invalidate_cache();
    });
}

} // namespace Internal
} // namespace loom
