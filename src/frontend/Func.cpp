// Func and FuncRef: definitions, calls, and the realize/compile entry points
// (which forward to a Pipeline of this one output).

#include "loom/Func.h"

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

#include <algorithm>

namespace loom {

using namespace Internal;

namespace {

std::string arg_list(const Function &f) {
    std::string s;
    for (size_t i = 0; i < f.args().size(); i++) s += (i ? ", " : "") + f.args()[i];
    return s;
}

std::string plural(size_t n, const char *word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

Expr undef(Type t) {
    return Call::make(t, Intrinsic::undef, {}, Call::PureIntrinsic);
}

namespace {

/** Are args distinct pure Vars (no Params, no RVars)? */
bool pure_var_args(const std::vector<Expr> &args, std::vector<std::string> *names = nullptr) {
    std::vector<std::string> seen;
    for (const Expr &a : args) {
        const auto *v = a.as<Variable>();
        if (!v || v->param.defined() || v->image.defined() || v->reduction_domain.defined())
            return false;
        if (std::find(seen.begin(), seen.end(), v->name) != seen.end()) return false;
        seen.push_back(v->name);
    }
    if (names) *names = seen;
    return true;
}

} // namespace

void FuncRef::define(const std::vector<Expr> &values) {
    const std::string &name = func_.name();
    if (func_.has_pure_definition()) {
        func_.define_update(args_, values);
        return;
    }
    std::vector<std::string> names;
    if (!pure_var_args(args_, &names)) {
        for (size_t i = 0; i < args_.size(); i++) {
            const auto *v = args_[i].as<Variable>();
            if (!v || v->param.defined() || v->image.defined() || v->reduction_domain.defined())
                user_error("In the definition of Func "
                           << name << ", argument " << i << " is not a Var, but " << name
                           << " has no pure definition yet; the first definition of a Func takes "
                              "distinct Vars (f(x, y) = ...), update definitions come after it");
        }
        for (size_t i = 0; i < args_.size(); i++)
            for (size_t j = 0; j < i; j++)
                if (args_[i].as<Variable>()->name == args_[j].as<Variable>()->name)
                    user_error("In the definition of Func " << name << ", the argument "
                                                            << args_[i].as<Variable>()->name
                                                            << " appears more than once");
    }
    // A pure definition of undef() stores nothing (Function::define checks the rest).
    func_.define(names, values);
}

FuncRef &FuncRef::operator=(const Expr &value) {
    define({value});
    return *this;
}

FuncRef &FuncRef::operator=(const Tuple &values) {
    define(values.as_vector());
    return *this;
}

FuncRef &FuncRef::operator=(const FuncRef &other) {
    if (other.func_.defined() && other.func_.has_pure_definition() && other.func_.outputs() > 1)
        return *this = Tuple(other);
    return *this = Expr(other);
}

FuncRef &FuncRef::update(const Tuple &e, UpdateOp op) {
    const std::string &name = func_.name();
    if (!func_.has_pure_definition()) {
        // The implicit pure definition: the identity of the operator,
        // over Vars named after the pure Vars of the left-hand side.
        std::vector<std::string> names;
        for (size_t i = 0; i < args_.size(); i++) {
            const auto *v = args_[i].as<Variable>();
            bool pure =
                v && !v->param.defined() && !v->image.defined() && !v->reduction_domain.defined();
            std::string n = pure ? v->name : "_" + std::to_string(i);
            if (std::find(names.begin(), names.end(), n) != names.end())
                n = "_" + std::to_string(i);
            names.push_back(n);
        }
        std::vector<Expr> init;
        for (size_t i = 0; i < e.size(); i++) {
            if (!e[i].defined())
                user_error("Update of Func " << name << " with an undefined value");
            int identity = (op == UpdateOp::Mul || op == UpdateOp::Div) ? 1 : 0;
            init.push_back(make_const(e[i].type(), identity));
        }
        func_.define(names, init);
    }
    if (e.size() != size_t(func_.outputs()))
        user_error("Update of Func " << name << " with " << e.size() << " values, but it has "
                                     << func_.outputs());
    std::vector<Expr> values;
    for (size_t i = 0; i < e.size(); i++) {
        if (!e[i].defined()) user_error("Update of Func " << name << " with an undefined value");
        Type t = func_.output_types()[i];
        Expr self = FuncRef(func_, args_)[int(i)];
        Expr rhs = e[i].type() == t ? e[i] : Cast::make(t, e[i]);
        switch (op) {
        case UpdateOp::Add:
            values.push_back(Add::make(self, rhs));
            break;
        case UpdateOp::Sub:
            values.push_back(Sub::make(self, rhs));
            break;
        case UpdateOp::Mul:
            values.push_back(Mul::make(self, rhs));
            break;
        case UpdateOp::Div:
            values.push_back(Div::make(self, rhs));
            break;
        }
    }
    func_.define_update(args_, values);
    return *this;
}

Expr FuncRef::operator[](int i) const {
    const std::string &name = func_.name();
    if (!func_.has_pure_definition())
        user_error("Func " << name << " is used before it is defined");
    if (i < 0 || i >= func_.outputs())
        user_error("Func " << name << " has " << plural(size_t(func_.outputs()), "value")
                           << "; there is no element " << i);
    if (func_.outputs() == 1) return Expr(*this);
    std::vector<Expr> coords;
    for (size_t k = 0; k < args_.size(); k++) {
        const Expr &a = args_[k];
        if (!a.defined())
            user_error("Argument " << k << " of a call to Func " << name << " is undefined");
        Type t = a.type();
        if (!(t.is_int() || t.is_uint()) || t.is_bool())
            user_error("Argument " << k << " of a call to Func " << name << " has type "
                                   << type_to_string(t) << "; coordinates must be integers");
        coords.push_back(t == Int(32) ? a : Cast::make(Int(32), a));
    }
    if (int(coords.size()) != func_.dimensions())
        user_error("Func " << name << " is called with " << plural(coords.size(), "argument")
                           << " but was defined with " << func_.dimensions() << " ("
                           << arg_list(func_) << ")");
    return Call::make(func_, coords, i);
}

FuncRef::operator Tuple() const {
    if (!func_.has_pure_definition())
        user_error("Func " << func_.name() << " is used before it is defined");
    std::vector<Expr> elems;
    for (int i = 0; i < func_.outputs(); i++) elems.push_back((*this)[i]);
    return Tuple(elems);
}

FuncRef::operator Expr() const {
    const std::string &name = func_.name();
    if (!func_.has_pure_definition())
        user_error("Func " << name << " is used before it is defined");
    if (int(args_.size()) != func_.dimensions())
        user_error("Func " << name << " is called with " << plural(args_.size(), "argument")
                           << " but was defined with " << func_.dimensions() << " ("
                           << arg_list(func_) << ")");
    if (func_.outputs() != 1)
        user_error("Func " << name << " has " << func_.outputs() << " values; select one with [i]");
    std::vector<Expr> coords;
    for (size_t i = 0; i < args_.size(); i++) {
        const Expr &a = args_[i];
        if (!a.defined())
            user_error("Argument " << i << " of a call to Func " << name << " is undefined");
        Type t = a.type();
        if (!(t.is_int() || t.is_uint()) || t.is_bool())
            user_error("Argument " << i << " of a call to Func " << name << " has type "
                                   << type_to_string(t) << "; coordinates must be integers");
        coords.push_back(t == Int(32) ? a : Cast::make(Int(32), a));
    }
    return Call::make(func_, coords, 0);
}

namespace {
const Definition &update_definition(const Function &f, int i) {
    int n = int(f.updates().size());
    if (i < 0 || i >= n)
        user_error("Func " << f.name() << " has " << plural(size_t(n), "update definition")
                           << "; update " << i << " does not exist");
    return f.updates()[size_t(i)];
}
} // namespace

int Func::num_update_definitions() const {
    return func_.defined() ? int(func_.updates().size()) : 0;
}

std::vector<Expr> Func::update_args(int i) const {
    return update_definition(func_, i).args;
}

Expr Func::update_value(int i) const {
    const Definition &d = update_definition(func_, i);
    if (d.values.size() != 1)
        user_error("Func " << name() << " has " << d.values.size()
                           << " values; use update_values()");
    return d.values[0];
}

Tuple Func::update_values(int i) const {
    return Tuple(update_definition(func_, i).values);
}

Func Func::rfactor(std::vector<std::pair<RVar, Var>> preserved) {
    return update(0).rfactor(std::move(preserved));
}

Func Func::rfactor(const RVar &r, const Var &v) {
    return update(0).rfactor(r, v);
}

Func &Func::atomic() {
    update(0).atomic();
    return *this;
}

Func::Func() : func_(unique_name("f")) {}

Func::Func(const std::string &name) : func_(name) {}

Func::Func(const Expr &e) : Func() {
    (*this)(std::vector<Expr>{}) = e;
}

FuncRef Func::operator()(std::vector<Expr> args) const {
    return FuncRef(func_, std::move(args));
}

FuncRef Func::operator()(const std::vector<Var> &args) const {
    std::vector<Expr> exprs(args.begin(), args.end());
    return FuncRef(func_, std::move(exprs));
}

namespace {
void require_definition(const Function &f, const char *what) {
    if (!f.has_pure_definition())
        user_error("Func " << f.name() << " has no definition; cannot take its " << what);
}
} // namespace

int Func::dimensions() const {
    require_definition(func_, "dimensions");
    return func_.dimensions();
}

std::vector<Var> Func::args() const {
    require_definition(func_, "arguments");
    std::vector<Var> vars;
    for (const auto &a : func_.args()) vars.emplace_back(a);
    return vars;
}

Expr Func::value() const {
    require_definition(func_, "value");
    if (func_.outputs() != 1)
        user_error("Func " << name() << " has " << func_.outputs() << " values; use values()");
    return func_.values()[0];
}

std::vector<Expr> Func::values() const {
    require_definition(func_, "values");
    return func_.values();
}

Type Func::type() const {
    require_definition(func_, "type");
    if (func_.outputs() != 1)
        user_error("Func " << name() << " has " << func_.outputs() << " values; use types()");
    return func_.output_types()[0];
}

const std::vector<Type> &Func::types() const {
    require_definition(func_, "types");
    return func_.output_types();
}

int Func::outputs() const {
    return func_.has_pure_definition() ? func_.outputs() : 0;
}

OutputImageParam Func::output_buffer() const {
    require_definition(func_, "output buffer");
    if (func_.outputs() != 1)
        user_error("Func " << name() << " has " << func_.outputs()
                           << " outputs; use output_buffers()");
    return OutputImageParam(func_.output_buffers()[0]);
}

std::vector<OutputImageParam> Func::output_buffers() const {
    require_definition(func_, "output buffers");
    std::vector<OutputImageParam> out;
    for (const auto &p : func_.output_buffers()) out.emplace_back(p);
    return out;
}

Pipeline &Func::pipeline() const {
    if (!pipeline_.defined()) pipeline_ = Pipeline(*this);
    return pipeline_;
}

Realization Func::realize(std::vector<int> sizes, const Target &target) {
    return pipeline().realize(std::move(sizes), target);
}

void Func::realize(Realization outputs, const Target &target) {
    pipeline().realize(std::move(outputs), target);
}

Realization Func::realize(JITUserContext *context, std::vector<int> sizes, const Target &target) {
    return pipeline().realize(context, std::move(sizes), target);
}

void Func::realize(JITUserContext *context, Realization outputs, const Target &target) {
    pipeline().realize(context, std::move(outputs), target);
}

void Func::compile_jit(const Target &target) {
    pipeline().compile_jit(target);
}

void Func::infer_input_bounds(const std::vector<int> &sizes, const Target &target) {
    pipeline().infer_input_bounds(sizes, target);
}

void Func::infer_input_bounds(Realization outputs, const Target &target) {
    pipeline().infer_input_bounds(std::move(outputs), target);
}

void Func::infer_input_bounds(JITUserContext *context, const std::vector<int> &sizes,
                              const Target &target) {
    pipeline().infer_input_bounds(context, sizes, target);
}

void Func::infer_input_bounds(JITUserContext *context, Realization outputs, const Target &target) {
    pipeline().infer_input_bounds(context, std::move(outputs), target);
}

std::vector<Argument> Func::infer_arguments() const {
    return pipeline().infer_arguments();
}

Callable Func::compile_to_callable(const std::vector<Argument> &args, const Target &target) {
    return pipeline().compile_to_callable(args, target);
}

JITHandlers &Func::jit_handlers() {
    return pipeline().jit_handlers();
}

void Func::set_error_handler(void (*handler)(JITUserContext *, const char *)) {
    pipeline().set_error_handler(handler);
}

void Func::set_custom_print(void (*handler)(JITUserContext *, const char *)) {
    pipeline().set_custom_print(handler);
}

void Func::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                   StmtOutputFormat format, const Target &target) {
    pipeline().compile_to_lowered_stmt(filename, args, format, target);
}

void Func::compile_to_device_source(const std::string &filename, const std::vector<Argument> &args,
                                    const Target &target) {
    pipeline().compile_to_device_source(filename, args, target);
}

std::string Func::device_source(const std::vector<Argument> &args, const Target &target) {
    return pipeline().device_source(args, target);
}

void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const std::string &fn_name, const Target &target) {
    pipeline().compile_to_llvm_assembly(filename, args, fn_name.empty() ? name() : fn_name, target);
}

void Func::print_loop_nest() {
    pipeline().print_loop_nest();
}

} // namespace loom
