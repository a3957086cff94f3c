// Func and FuncRef: definitions, calls, and the realize/compile entry points
// (which forward to a Pipeline of this one output).

#include "loom/Func.h"

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"

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

FuncRef &FuncRef::operator=(const Expr &value) {
    const std::string &name = func_.name();
    std::vector<std::string> names;
    for (size_t i = 0; i < args_.size(); i++) {
        const auto *v = args_[i].as<Variable>();
        if (!v || v->param.defined() || v->image.defined())
            user_error("In the definition of Func "
                       << name << ", argument " << i
                       << " is not a Var; a pure definition takes only Vars "
                          "(update definitions are not supported yet)");
        names.push_back(v->name);
    }
    if (func_.has_pure_definition())
        user_error("Func " << name << " is already defined with arguments (" << arg_list(func_)
                           << "); it cannot be defined again");
    func_.define(names, {value});
    return *this;
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

void Func::compile_jit(const Target &target) {
    pipeline().compile_jit(target);
}

void Func::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                   StmtOutputFormat format, const Target &target) {
    pipeline().compile_to_lowered_stmt(filename, args, format, target);
}

void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const std::string &fn_name, const Target &target) {
    pipeline().compile_to_llvm_assembly(filename, args, fn_name.empty() ? name() : fn_name, target);
}

void Func::print_loop_nest() {
    pipeline().print_loop_nest();
}

} // namespace loom
