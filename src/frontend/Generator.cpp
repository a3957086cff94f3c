// Generators: member registration, GeneratorParam parsing, building the
// pipeline and writing the requested files. The command line is in
// GeneratorDriver.cpp, the registry in GeneratorRegistry.cpp.

#include "loom/Generator.h"

#include "frontend/DeviceSourceFiles.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace loom {
namespace Internal {

namespace {

// Generators under construction or alive on this thread. A member finds its
// generator as the one whose object contains the member's address, so
// GeneratorParams declared outside any generator register nowhere.
struct LiveGenerator {
    const char *begin;
    size_t size;
    GeneratorBase *generator;
};
thread_local std::vector<LiveGenerator> live_generators;

GeneratorBase *owner_of(const void *member) {
    const char *p = static_cast<const char *>(member);
    for (auto it = live_generators.rbegin(); it != live_generators.rend(); ++it)
        if (p >= it->begin && p < it->begin + it->size) return it->generator;
    return nullptr;
}

std::string join(const std::vector<std::string> &names) {
    std::string s;
    for (size_t i = 0; i < names.size(); i++) s += (i ? ", " : "") + names[i];
    return s;
}

} // namespace

void register_generator_param(void *member, GeneratorParamBase *p) {
    if (GeneratorBase *g = owner_of(member)) g->params_.push_back(p);
}
void register_generator_input(void *member, GeneratorInputBase *in) {
    if (GeneratorBase *g = owner_of(member)) g->inputs_.push_back(in);
}
void register_generator_output(void *member, GeneratorOutputBase *out) {
    if (GeneratorBase *g = owner_of(member)) g->outputs_.push_back(out);
}

// ---- Parsing of GeneratorParam values.

void generator_param_error(const std::string &what, const std::string &expected,
                           const std::string &text) {
    throw CompileError(what + " expects " + expected + ", got \"" + text + "\"");
}

long long parse_integer(const std::string &what, const std::string &expected,
                        const std::string &text) {
    const char *s = text.c_str();
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(s, &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || std::isspace((unsigned char)s[0]))
        generator_param_error(what, expected, text);
    return v;
}

double parse_floating(const std::string &what, const std::string &expected,
                      const std::string &text) {
    const char *s = text.c_str();
    char *end = nullptr;
    double v = std::strtod(s, &end);
    if (text.empty() || *end != '\0' || std::isspace((unsigned char)s[0]) || !std::isfinite(v))
        generator_param_error(what, expected, text);
    return v;
}

std::string floating_to_string(double v) {
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
}

bool parse_boolean(const std::string &what, const std::string &text) {
    if (text == "true") return true;
    if (text == "false") return false;
    generator_param_error(what, "true or false", text);
}

Type parse_type_name(const std::string &what, const std::string &text) {
    static const std::vector<Type> types = {Int(8),    Int(16),   Int(32),  Int(64),
                                            UInt(8),   UInt(16),  UInt(32), UInt(64),
                                            Float(32), Float(64), Bool()};
    std::vector<std::string> names;
    for (Type t : types) {
        if (type_to_string(t) == text) return t;
        names.push_back(type_to_string(t));
    }
    generator_param_error(what, "a type (one of " + join(names) + ")", text);
}

GeneratorParamBase::GeneratorParamBase(std::string name) : param_name_(std::move(name)) {}
GeneratorInputBase::GeneratorInputBase(std::string name) : input_name_(std::move(name)) {}
GeneratorOutputBase::GeneratorOutputBase(std::string name, std::optional<Type> type, int dims)
    : output_name_(std::move(name)), declared_type_(type), declared_dims_(dims) {}

void GeneratorOutputBase::check_output(const std::string &generator_name) const {
    Func f = output_func();
    std::string where = "Generator '" + generator_name + "': Output '" + output_name_ + "'";
    if (!f.defined())
        throw CompileError(where + " was not defined by generate() (define it with " +
                           output_name_ + "(x, y, ...) = ...)");
    if (f.outputs() != 1)
        throw CompileError(where + " is a Tuple-valued Func; outputs must have one value");
    if (declared_type_ && f.type() != *declared_type_)
        throw CompileError(where + " is declared with element type " +
                           type_to_string(*declared_type_) + " but defined with type " +
                           type_to_string(f.type()) + " (add a cast<>)");
    if (declared_dims_ >= 0 && f.dimensions() != declared_dims_)
        throw CompileError(where + " is declared with " + std::to_string(declared_dims_) +
                           " dimensions but defined with " + std::to_string(f.dimensions()));
}

// ---- GeneratorBase.

GeneratorBase::GeneratorBase(size_t size) : target_(get_target_from_environment()) {
    live_generators.push_back({reinterpret_cast<const char *>(this), size, this});
}

GeneratorBase::~GeneratorBase() {
    for (auto it = live_generators.begin(); it != live_generators.end(); ++it)
        if (it->generator == this) {
            live_generators.erase(it);
            break;
        }
}

void GeneratorBase::set_target(const Target &t) {
    if (pipeline_.defined())
        throw CompileError("Generator '" + generator_name_ +
                           "': the target can't change after the pipeline was built");
    target_ = t;
}

int GeneratorBase::natural_vector_size(Type t) const {
    return target_.natural_vector_size(t);
}

void GeneratorBase::set_generator_param(const std::string &name, const std::string &value) {
    if (pipeline_.defined())
        throw CompileError("Generator '" + generator_name_ + "': GeneratorParam '" + name +
                           "' can't change after the pipeline was built");
    if (name == "target") {
        if (!Target::validate_target_string(value))
            generator_param_error("GeneratorParam 'target'",
                                  "a target string (host, x86-64-linux-avx2, host-no_asserts, "
                                  "...)",
                                  value);
        target_ = Target(value);
        return;
    }
    // The auto-scheduler's GeneratorParams (Halide's names): "autoscheduler"
    // and its options "autoscheduler.<option>", and Halide 14's
    // "auto_schedule" and "machine_params".
    if (name == "autoscheduler") {
        autoscheduler_.name = value;
        use_autoscheduler_ = !value.empty();
        return;
    }
    if (name.rfind("autoscheduler.", 0) == 0) {
        autoscheduler_.extra[name.substr(14)] = value;
        return;
    }
    if (name == "auto_schedule") {
        if (value != "true" && value != "false")
            generator_param_error("GeneratorParam 'auto_schedule'", "true or false", value);
        use_autoscheduler_ = value == "true";
        return;
    }
    if (name == "machine_params") {
        // "parallelism,cache_size,balance": the first two are Loom options.
        std::vector<std::string> parts;
        std::stringstream ss(value);
        for (std::string part; std::getline(ss, part, ',');) parts.push_back(part);
        if (!parts.empty() && !parts[0].empty()) autoscheduler_.extra["parallelism"] = parts[0];
        if (parts.size() > 1 && !parts[1].empty())
            autoscheduler_.extra["last_level_cache_size"] = parts[1];
        return;
    }
    for (GeneratorParamBase *p : params_)
        if (p->param_name() == name) {
            p->set_from_string(value);
            return;
        }
    std::vector<std::string> names = {"target", "autoscheduler"};
    for (GeneratorParamBase *p : params_) names.push_back(p->param_name());
    throw CompileError("Generator '" + generator_name_ + "' has no GeneratorParam '" + name +
                       "'; valid parameters: " + join(names));
}

void GeneratorBase::set_generator_params(const std::map<std::string, std::string> &values) {
    for (const auto &[name, value] : values) set_generator_param(name, value);
}

std::string GeneratorBase::describe_params() const {
    std::ostringstream s;
    s << "    target=" << target_.to_string() << "  (a target string)\n";
    s << "    autoscheduler=" << (use_autoscheduler_ ? autoscheduler_.name : std::string())
      << "  (Loom, or empty for none; options as autoscheduler.parallelism=8)\n";
    for (GeneratorParamBase *p : params_)
        s << "    " << p->param_name() << "=" << p->value_string() << "  (" << p->type_description()
          << ")\n";
    return s.str();
}

Pipeline GeneratorBase::build_pipeline() {
    if (pipeline_.defined()) return pipeline_;
    std::set<std::string> seen = {"target"};
    auto check_name = [&](const std::string &kind, const std::string &name) {
        if (name.empty())
            throw CompileError("Generator '" + generator_name_ + "': a " + kind +
                               " has an empty name");
        if (!seen.insert(name).second)
            throw CompileError("Generator '" + generator_name_ + "': the name '" + name +
                               "' of a " + kind + " is used twice (or is reserved)");
    };
    for (GeneratorParamBase *p : params_) check_name("GeneratorParam", p->param_name());
    for (GeneratorInputBase *in : inputs_) check_name("Input", in->input_name());
    for (GeneratorOutputBase *out : outputs_) check_name("Output", out->output_name());
    if (outputs_.empty())
        throw CompileError("Generator '" + generator_name_ +
                           "' declares no Output<Buffer<T, D>>; a generator needs at least one");

    for (GeneratorInputBase *in : inputs_) in->finalize_input();
    call_generate();
    call_schedule();
    std::vector<Func> funcs;
    for (GeneratorOutputBase *out : outputs_) {
        out->check_output(generator_name_);
        funcs.push_back(out->output_func());
    }
    pipeline_ = Pipeline(funcs);
    if (use_autoscheduler_) {
        // Ahead of time the sizes come from the outputs' estimates.
        for (const Func &f : funcs)
            for (const std::string &a : f.function().args()) {
                bool known = false;
                for (const Internal::Bound &b : f.function().schedule().estimates)
                    known |= b.var == a && b.extent.defined();
                if (!known)
                    throw CompileError("Generator '" + generator_name_ +
                                       "' uses the auto-scheduler "
                                       "but Output " +
                                       f.name() + " has no estimate for " + a +
                                       "; give each Output set_estimates({{min, extent}, ...})");
            }
        pipeline_.apply_autoscheduler(target_, autoscheduler_);
    }
    return pipeline_;
}

std::vector<Argument> GeneratorBase::arguments() const {
    std::vector<Argument> args;
    for (GeneratorInputBase *in : inputs_) args.push_back(in->input_argument());
    return args;
}

const std::vector<std::pair<std::string, std::string>> &generator_output_kinds() {
    static const std::vector<std::pair<std::string, std::string>> kinds = {
        {"static_library", ".a (and .h)"},
        {"h", ".h"},
        {"object", ".o"},
        {"assembly", ".s"},
        {"c_source", ".c"},
        {"llvm_assembly", ".ll"},
        {"bitcode", ".bc"},
        {"stmt", ".stmt"},
        {"stmt_html", ".stmt.html"},
        {"conceptual_stmt", ".conceptual.stmt"},
        {"conceptual_stmt_html", ".conceptual.stmt.html"},
        {"device_source", ".cl/.cu (GPU targets)"},
        {"schedule", ".schedule.h (the schedule as C++)"},
    };
    return kinds;
}

void GeneratorBase::emit(const std::string &dir, const std::string &base,
                         const std::string &function_name, const std::vector<std::string> &kinds) {
    for (const std::string &k : kinds) {
        bool known = false;
        for (const auto &entry : generator_output_kinds()) known |= entry.first == k;
        if (!known) {
            std::vector<std::string> names;
            for (const auto &entry : generator_output_kinds()) names.push_back(entry.first);
            throw CompileError("Unknown output kind '" + k + "'; valid kinds: " + join(names));
        }
    }
    for (const std::string &k : kinds)
        if (k == "device_source") device_source_files("", target_); // a CPU target fails early
    Pipeline p = build_pipeline();
    std::vector<Argument> args = arguments();
    std::error_code ec;
    std::filesystem::create_directories(dir.empty() ? "." : dir, ec);
    if (ec) throw CompileError("Cannot create the output directory " + dir + ": " + ec.message());
    const std::string prefix = (std::filesystem::path(dir.empty() ? "." : dir) / base).string();
    for (const std::string &k : kinds) {
        if (k == "static_library") {
            p.compile_to_static_library(prefix, args, function_name, target_);
        } else if (k == "h") {
            p.compile_to_header(prefix + ".h", args, function_name, target_);
        } else if (k == "object") {
            p.compile_to_object(prefix + ".o", args, function_name, target_);
        } else if (k == "assembly") {
            p.compile_to_assembly(prefix + ".s", args, function_name, target_);
        } else if (k == "c_source") {
            p.compile_to_c(prefix + ".c", args, function_name, target_);
        } else if (k == "llvm_assembly") {
            p.compile_to_llvm_assembly(prefix + ".ll", args, function_name, target_);
        } else if (k == "bitcode") {
            p.compile_to_bitcode(prefix + ".bc", args, function_name, target_);
        } else if (k == "conceptual_stmt") {
            p.compile_to_conceptual_stmt(prefix + ".conceptual.stmt", args, StmtOutputFormat::Text,
                                         target_);
        } else if (k == "conceptual_stmt_html") {
            p.compile_to_conceptual_stmt(prefix + ".conceptual.stmt.html", args,
                                         StmtOutputFormat::HTML, target_);
        } else if (k == "stmt") {
            p.compile_to_lowered_stmt(prefix + ".stmt", args, StmtOutputFormat::Text, target_);
        } else if (k == "stmt_html") {
            p.compile_to_lowered_stmt(prefix + ".stmt.html", args, StmtOutputFormat::HTML, target_);
        } else if (k == "device_source") {
            compile_to_device_source_files(p, prefix, args, function_name, target_);
        } else if (k == "schedule") {
            std::ofstream out(prefix + ".schedule.h");
            out << "// The schedule of generator " << generator_name_ << " for "
                << target_.to_string()
                << (use_autoscheduler_
                        ? ", chosen by the auto-scheduler " + autoscheduler_.to_string()
                        : std::string())
                << ".\n// Paste it into schedule(); the block declares the loop Vars it uses.\n"
                << PipelineSchedule::of(p).to_cpp();
            if (!out) throw CompileError("Failed writing " + prefix + ".schedule.h");
        }
    }
}

} // namespace Internal
} // namespace loom
