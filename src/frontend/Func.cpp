// Func and FuncRef: definitions, calls, and the realize/compile entry points
// (which forward to a Pipeline of this one output).

#include "loom/Func.h"

#include "frontend/ImplicitVars.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

#include <algorithm>
#include <mutex>
#include <ostream>

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
bool is_undef(const Expr &e) {
    const auto *c = e.as<Call>();
    return c && c->is_intrinsic(Intrinsic::undef);
}
} // namespace

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

std::vector<Expr> FuncRef::args_with_implicit_vars(const std::vector<Expr> &values) const {
    std::vector<Expr> args = args_;
    std::vector<Expr> uses = values;
    uses.insert(uses.end(), args.begin(), args.end());
    int needed = count_implicit_vars(uses);
    if (placeholder_ >= 0) {
        // Implicit Vars already among the arguments (f(_0, _) ...) stay where they are.
        int present = count_implicit_vars(args);
        for (int k = present; k < needed; k++)
            args.insert(args.begin() + placeholder_ + (k - present), Expr(Var::implicit(k)));
    }
    for (int k = 0; k < needed; k++) {
        std::string v = Var::implicit(k).name();
        bool found = std::any_of(args.begin(), args.end(), [&](const Expr &a) {
            const auto *var = a.as<Variable>();
            return var && var->name == v;
        });
        if (!found)
            user_error("The right-hand side of the definition of Func "
                       << func_.name() << " uses the implicit Var " << v
                       << ", but the left-hand side has no placeholder '_' for it (write "
                       << func_.name() << "(..., _) = ...)");
    }
    return args;
}

Stage FuncRef::define(const std::vector<Expr> &values) {
    const std::string &name = func_.name();
    for (size_t i = 0; i < values.size(); i++)
        if (!values[i].defined())
            user_error("Value " << i << " in the definition of Func " << name << " is undefined");
    std::vector<Expr> args = args_with_implicit_vars(values);
    if (func_.has_pure_definition()) {
        func_.define_update(args, values);
        return Stage(func_, int(func_.updates().size()));
    }
    std::vector<std::string> names;
    if (!pure_var_args(args, &names)) {
        for (size_t i = 0; i < args.size(); i++) {
            const auto *v = args[i].as<Variable>();
            if (!v || v->param.defined() || v->image.defined() || v->reduction_domain.defined())
                user_error("In the definition of Func "
                           << name << ", argument " << i << " is not a Var, but " << name
                           << " has no pure definition yet; the first definition of a Func takes "
                              "distinct Vars (f(x, y) = ...), update definitions come after it");
        }
        for (size_t i = 0; i < args.size(); i++)
            for (size_t j = 0; j < i; j++)
                if (args[i].as<Variable>()->name == args[j].as<Variable>()->name)
                    user_error("In the definition of Func " << name << ", the argument "
                                                            << args[i].as<Variable>()->name
                                                            << " appears more than once");
    }
    // A pure definition of undef() stores nothing (Function::define checks the rest).
    func_.define(names, values);
    return Stage(func_, 0);
}

Stage FuncRef::operator=(const Expr &value) {
    return define({value});
}

Stage FuncRef::operator=(const Tuple &values) {
    return define(values.as_vector());
}

Stage FuncRef::operator=(const FuncRef &other) {
    if (other.func_.defined() && other.func_.has_pure_definition() && other.func_.outputs() > 1)
        return *this = Tuple(other);
    return *this = Expr(other);
}

Stage FuncRef::update(const Tuple &e, UpdateOp op) {
    const std::string &name = func_.name();
    for (size_t i = 0; i < e.size(); i++)
        if (!e[i].defined()) user_error("Update of Func " << name << " with an undefined value");
    std::vector<Expr> args = args_with_implicit_vars(e.as_vector());
    if (!func_.has_pure_definition()) {
        // The implicit pure definition: the identity of the operator,
        // over Vars named after the pure Vars of the left-hand side.
        std::vector<std::string> names;
        for (size_t i = 0; i < args.size(); i++) {
            const auto *v = args[i].as<Variable>();
            bool pure =
                v && !v->param.defined() && !v->image.defined() && !v->reduction_domain.defined();
            std::string n = pure ? v->name : "_" + std::to_string(i);
            if (std::find(names.begin(), names.end(), n) != names.end())
                n = "_" + std::to_string(i);
            names.push_back(n);
        }
        std::vector<Expr> init;
        for (size_t i = 0; i < e.size(); i++) {
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
        Type t = func_.output_types()[i];
        if (is_undef(e[i])) { // f(x)[j] += v leaves the other elements alone
            values.push_back(undef(t));
            continue;
        }
        Expr self = FuncRef(func_, args)[int(i)];
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
    func_.define_update(args, values);
    return Stage(func_, int(func_.updates().size()));
}

FuncTupleElementRef FuncRef::operator[](int i) const {
    const std::string &name = func_.name();
    if (!func_.has_pure_definition())
        user_error("Func " << name << " is used before it is defined");
    if (i < 0 || i >= func_.outputs())
        user_error("Func " << name << " has " << plural(size_t(func_.outputs()), "value")
                           << "; there is no element " << i);
    return FuncTupleElementRef(*this, i);
}

size_t FuncRef::size() const {
    return func_.has_pure_definition() ? size_t(func_.outputs())
                                       : std::max<size_t>(1, func_.required_types().size());
}

Tuple FuncTupleElementRef::values_with_undefs(const Expr &e) const {
    const Function &f = ref_.function();
    std::vector<Expr> values;
    for (int i = 0; i < f.outputs(); i++)
        values.push_back(i == index_ ? e : undef(f.output_types()[size_t(i)]));
    return Tuple(values);
}

Stage FuncTupleElementRef::operator=(const Expr &e) {
    FuncRef ref = ref_;
    return ref = values_with_undefs(e);
}

Stage FuncTupleElementRef::operator=(const FuncRef &e) {
    return *this = Expr(e);
}

Stage FuncTupleElementRef::operator=(const FuncTupleElementRef &e) {
    return *this = Expr(e);
}

Stage FuncTupleElementRef::operator+=(const Expr &e) {
    FuncRef ref = ref_;
    return ref += values_with_undefs(e);
}

Stage FuncTupleElementRef::operator-=(const Expr &e) {
    FuncRef ref = ref_;
    return ref -= values_with_undefs(e);
}

Stage FuncTupleElementRef::operator*=(const Expr &e) {
    FuncRef ref = ref_;
    return ref *= values_with_undefs(e);
}

Stage FuncTupleElementRef::operator/=(const Expr &e) {
    FuncRef ref = ref_;
    return ref /= values_with_undefs(e);
}

FuncTupleElementRef::operator Expr() const {
    const Function &f = ref_.function();
    const std::vector<Expr> &args = ref_.arguments();
    const std::string &name = f.name();
    int i = index_;
    if (f.outputs() == 1) return Expr(ref_);
    std::vector<Expr> coords;
    for (size_t k = 0; k < args.size(); k++) {
        const Expr &a = args[k];
        if (!a.defined())
            user_error("Argument " << k << " of a call to Func " << name << " is undefined");
        Type t = a.type();
        if (!(t.is_int() || t.is_uint()) || t.is_bool())
            user_error("Argument " << k << " of a call to Func " << name << " has type "
                                   << type_to_string(t) << "; coordinates must be integers");
        coords.push_back(t == Int(32) ? a : Cast::make(Int(32), a));
    }
    if (int(coords.size()) != f.dimensions())
        user_error("Func " << name << " is called with " << plural(coords.size(), "argument")
                           << " but was defined with " << f.dimensions() << " (" << arg_list(f)
                           << ")");
    return Call::make(f, coords, i);
}

FuncRef::operator Tuple() const {
    if (!func_.has_pure_definition())
        user_error("Func " << func_.name() << " is used before it is defined");
    std::vector<Expr> elems;
    for (int i = 0; i < func_.outputs(); i++) elems.push_back(Expr((*this)[i]));
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

Func::Func(const Type &required_type, int required_dims, const std::string &name)
    : Func(std::vector<Type>{required_type}, required_dims, name) {}

Func::Func(const std::vector<Type> &required_types, int required_dims, const std::string &name)
    : func_(name.empty() ? unique_name("f") : name) {
    if (required_types.empty()) user_error("Func " << func_.name() << " is declared with no types");
    for (const Type &t : required_types)
        if (t.is_void() || t.is_vector())
            user_error("Func " << func_.name() << " is declared with type " << type_to_string(t)
                               << "; a Func's values are scalars");
    if (required_dims < 0)
        user_error("Func " << func_.name() << " is declared with " << required_dims
                           << " dimensions");
    func_.set_requirements(required_types, required_dims);
}

Func::Func(const Expr &e) : Func() {
    (*this)(std::vector<Expr>{}) = e;
}

Func::Func(const Buffer<> &im, int) : Func() {
    if (!im.defined()) user_error("Func(Buffer) of an undefined Buffer");
    (*this)(_) = im(_);
}

FuncRef Func::operator()(std::vector<Expr> args) const {
    int dims = func_.has_pure_definition() ? func_.dimensions() : -1;
    int placeholder = expand_implicit_placeholder(args, dims, "Func " + name());
    return FuncRef(func_, std::move(args), dims >= 0 ? -1 : placeholder);
}

FuncRef Func::operator()(const std::vector<Var> &args) const {
    return (*this)(std::vector<Expr>(args.begin(), args.end()));
}

Func::operator Stage() const {
    return Stage(func_, 0);
}

namespace {
void require_definition(const Function &f, const char *what) {
    if (!f.has_pure_definition())
        user_error("Func " << f.name() << " has no definition; cannot take its " << what);
}
} // namespace

int Func::dimensions() const {
    if (!func_.has_pure_definition() && func_.required_dimensions() >= 0)
        return func_.required_dimensions();
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

Tuple Func::values() const {
    require_definition(func_, "values");
    return Tuple(func_.values());
}

Type Func::type() const {
    if (!func_.has_pure_definition() && func_.required_types().size() == 1)
        return func_.required_types()[0];
    require_definition(func_, "type");
    if (func_.outputs() != 1)
        user_error("Func " << name() << " has " << func_.outputs() << " values; use types()");
    return func_.output_types()[0];
}

const std::vector<Type> &Func::types() const {
    if (!func_.has_pure_definition() && !func_.required_types().empty())
        return func_.required_types();
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
    // Threads sharing a Func may realize it at once; one of them makes its
    // Pipeline (which then locks its own compiles). pipeline_ is never reset,
    // so once made it is only read.
    static std::mutex make_mutex;
    std::lock_guard<std::mutex> lock(make_mutex);
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

void Func::set_custom_allocator(void *(*malloc_fn)(JITUserContext *, size_t),
                                void (*free_fn)(JITUserContext *, void *)) {
    jit_handlers().custom_malloc = malloc_fn;
    jit_handlers().custom_free = free_fn;
}

void Func::set_custom_do_task(int (*do_task)(JITUserContext *,
                                             int (*)(JITUserContext *, int, uint8_t *), int,
                                             uint8_t *)) {
    jit_handlers().custom_do_task = do_task;
}

void Func::set_custom_do_par_for(int (*do_par_for)(JITUserContext *,
                                                   int (*)(JITUserContext *, int, uint8_t *), int,
                                                   int, uint8_t *)) {
    jit_handlers().custom_do_par_for = do_par_for;
}

void Func::set_custom_trace(int32_t (*trace)(JITUserContext *, const loom_trace_event_t *)) {
    jit_handlers().custom_trace = trace;
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

void Func::compile_to_conceptual_stmt(const std::string &filename,
                                      const std::vector<Argument> &args, StmtOutputFormat format,
                                      const Target &target) {
    pipeline().compile_to_conceptual_stmt(filename, args, format, target);
}

void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const std::string &fn_name, const Target &target) {
    pipeline().compile_to_llvm_assembly(filename, args, fn_name.empty() ? name() : fn_name, target);
}

void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const Target &target) {
    compile_to_llvm_assembly(filename, args, "", target);
}

void Func::print_loop_nest() {
    pipeline().print_loop_nest();
}

std::ostream &operator<<(std::ostream &os, const Func &f) {
    const Function &fn = f.function();
    if (!fn.has_pure_definition()) return os << f.name() << " (undefined)";
    auto print_values = [&](const std::vector<Expr> &values) {
        if (values.size() == 1) {
            os << values[0];
            return;
        }
        os << "{";
        for (size_t i = 0; i < values.size(); i++) os << (i ? ", " : "") << values[i];
        os << "}";
    };
    os << f.name() << "(" << arg_list(fn) << ") = ";
    print_values(fn.values());
    for (const Definition &d : fn.updates()) {
        os << "\n" << f.name() << "(";
        for (size_t i = 0; i < d.args.size(); i++) os << (i ? ", " : "") << d.args[i];
        os << ") = ";
        print_values(d.values);
    }
    return os;
}

} // namespace loom
