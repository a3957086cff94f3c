// The generator driver's command line:
//   gen -g NAME -o DIR [-e KINDS] [-f FUNCTION] [-n BASE] [--autotune SECONDS]
//       [target=T] [param=value ...]
//   gen --list
// Every error names what was wrong and the valid choices, and exits with 1.

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "autoschedule/AutoScheduler.h"
#include "autoschedule/ScheduleUtil.h"
#include "ir/IROperator.h"
#include "loom/Generator.h"

namespace loom {
namespace Internal {

namespace {

std::vector<std::string> split_commas(const std::string &s) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            if (!cur.empty()) parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) parts.push_back(cur);
    return parts;
}

const char *usage_text() {
    return "usage: <generator> -g NAME -o DIR [-e KINDS] [-f FUNCTION_NAME] [-n FILE_BASE]\n"
           "                   [target=TARGET] [param=value ...]\n"
           "       <generator> --list\n"
           "  -g  the registered generator to run (optional when only one is registered)\n"
           "  -o  the directory to write into (created if missing)\n"
           "  -e  comma-separated outputs (default static_library):\n"
           "      static_library (.a and .h), h, object (.o), assembly (.s), c_source (.c),\n"
           "      llvm_assembly (.ll), bitcode (.bc), stmt, stmt_html, conceptual_stmt,\n"
           "      conceptual_stmt_html, device_source (.cl for opencl targets, .cu for\n"
           "      cuda: the GPU kernels' source)\n"
           "  -f  the name of the generated function (default: the generator name)\n"
           "  -n  the base name of the files (default: the function name)\n"
           "  --autotune SECONDS\n"
           "      search schedules for the Funcs schedule() leaves alone (see\n"
           "      using_autoscheduler()) by running them on this machine, on inputs and\n"
           "      outputs of the sizes their set_estimates give; the target must be one\n"
           "      this machine runs. -e schedule writes the winner as C++.\n";
}

void list_generators(std::ostream &out) {
    std::vector<std::string> names = GeneratorRegistry::enumerate();
    if (names.empty()) {
        out << "No generators are registered in this program.\n";
        return;
    }
    out << "Registered generators and their GeneratorParams (name=default):\n";
    for (const std::string &n : names) {
        out << "  " << n << "\n";
        try {
            out << GeneratorRegistry::create(n)->describe_params();
        } catch (const Error &e) {
            out << "    (cannot instantiate: " << e.what() << ")\n";
        }
    }
}

struct Options {
    std::string generator, output_dir, function_name, file_base;
    std::vector<std::string> kinds = {"static_library"};
    std::vector<std::pair<std::string, std::string>> params;
    bool list = false;
    double autotune_seconds = 0;
};

// Throws CompileError for malformed command lines.
Options parse_command_line(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value_of = [&](const char *flag) {
            if (i + 1 >= argc) throw CompileError(std::string(flag) + " needs a value");
            return std::string(argv[++i]);
        };
        if (a == "--list" || a == "-l") {
            o.list = true;
        } else if (a == "-g") {
            o.generator = value_of("-g");
        } else if (a == "-o") {
            o.output_dir = value_of("-o");
        } else if (a == "-e") {
            o.kinds = split_commas(value_of("-e"));
            if (o.kinds.empty()) throw CompileError("-e needs at least one output kind");
        } else if (a == "-f") {
            o.function_name = value_of("-f");
        } else if (a == "-n") {
            o.file_base = value_of("-n");
        } else if (a == "--autotune") {
            std::string v = value_of("--autotune");
            char *end = nullptr;
            o.autotune_seconds = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || !(o.autotune_seconds > 0))
                throw CompileError("--autotune needs a number of seconds above 0, not '" + v + "'");
        } else if (!a.empty() && a[0] == '-') {
            throw CompileError("Unknown flag '" + a + "'");
        } else {
            size_t eq = a.find('=');
            if (eq == std::string::npos || eq == 0)
                throw CompileError("Expected a flag or param=value, got '" + a + "'");
            o.params.emplace_back(a.substr(0, eq), a.substr(eq + 1));
        }
    }
    return o;
}

// Halide target words Loom accepts but does not act on are kept, and named
// here, so that nobody relies on them by mistake.
void note_ignored_target_words(const Target &t, std::ostream &err) {
    std::vector<std::string> no_code = t.words_without_code_generation();
    if (!no_code.empty()) {
        err << "note: target " << t.to_string()
            << ": accepted but Loom cannot generate code for it: ";
        for (size_t i = 0; i < no_code.size(); i++) err << (i ? ", " : "") << no_code[i];
        err << "\n";
    }
    std::vector<std::string> ignored = t.validate();
    ignored.erase(ignored.begin(), ignored.begin() + no_code.size());
    if (ignored.empty()) return;
    err << "note: target " << t.to_string() << ": accepted but has no effect in Loom: ";
    for (size_t i = 0; i < ignored.size(); i++) err << (i ? ", " : "") << ignored[i];
    err << "\n";
}

/** Inputs of the sizes their estimates give, filled with fixed values:
 * integers in [0, 256), floats in [0, 1). */
Buffer<> estimated_input(const Parameter &p) {
    std::vector<int> sizes, mins;
    for (int d = 0; d < p.dimensions(); d++) {
        const BufferConstraint &c = p.constraint(d);
        auto extent = c.extent_estimate.defined() ? as_const_int(c.extent_estimate) : std::nullopt;
        if (!extent || *extent <= 0)
            throw CompileError("--autotune: Input " + p.name() + " has no estimate for dimension " +
                               std::to_string(d) + "; give it set_estimates({{min, extent}, ...})");
        auto min = c.min_estimate.defined() ? as_const_int(c.min_estimate) : std::nullopt;
        sizes.push_back(int(*extent));
        mins.push_back(min ? int(*min) : 0);
    }
    Buffer<> b(p.type(), sizes, p.name());
    b.set_min(mins);
    uint8_t *host = b.raw_buffer()->host;
    uint32_t seed = 1;
    for (size_t i = 0; i < b.number_of_elements(); i++) {
        seed = seed * 1664525u + 1013904223u;
        double v = double(seed >> 8) / double(1 << 24);
        Type t = p.type();
        uint8_t *e = host + i * size_t(t.bytes());
        if (t.is_float() && t.bits() == 32) {
            float f = float(v);
            std::memcpy(e, &f, 4);
        } else if (t.is_float() && t.bits() == 64) {
            std::memcpy(e, &v, 8);
        } else {
            uint64_t n = uint64_t(v * 256);
            std::memcpy(e, &n, size_t(t.bytes())); // little-endian: the low bytes
        }
    }
    return b;
}

/** --autotune: tune the generator's pipeline on this machine before emit(). */
void autotune_generator(GeneratorBase &g, double seconds, std::ostream &err) {
    if (!g.using_autoscheduler()) g.set_generator_param("autoscheduler", "none");
    Target target = g.get_target();
    Target host = get_host_target();
    if (target.arch != host.arch || target.bits != host.bits || target.os != host.os)
        throw CompileError("--autotune runs candidates on this machine (" + host.to_string() +
                           "), which cannot run target " + target.to_string());
    Pipeline p = g.build_pipeline();
    std::map<std::string, Parameter> params = all_params_of(pipeline_functions(p));
    for (const Argument &a : g.arguments()) {
        auto it = params.find(a.name);
        if (it == params.end() || !a.is_buffer()) continue; // scalars keep their defaults
        it->second.set_buffer(estimated_input(it->second));
    }
    std::vector<std::vector<int>> sizes = output_estimates(p);
    if (sizes.empty())
        throw CompileError("--autotune: every Output needs set_estimates({{min, extent}, ...})");
    std::vector<Buffer<>> outs;
    for (size_t i = 0; i < sizes.size(); i++)
        for (const Type &t : p.outputs()[i].function().output_types())
            outs.emplace_back(t, sizes[i], p.outputs()[i].name());
    AutotuneOptions options;
    options.budget_seconds = seconds;
    options.target = target;
    AutotuneResult r = autotune(p, Realization(outs), options);
    err << "autotune: "
        << (r.from_cache ? "from the cache" : std::to_string(r.trials) + " schedules tried")
        << " in " << r.tuning_seconds << " s; best " << r.best_ms << " ms (the auto-scheduler's "
        << r.baseline_ms << " ms)\n";
}

} // namespace

int generate_filter_main(int argc, char **argv, std::ostream &out, std::ostream &err) {
    if (argc <= 1) {
        // Nothing to generate is a failed build step (as in Halide), not a success.
        err << usage_text();
        list_generators(err);
        return 1;
    }
    try {
        Options o = parse_command_line(argc, argv);
        if (o.list) {
            list_generators(out);
            return 0;
        }
        if (o.generator.empty()) {
            std::vector<std::string> names = GeneratorRegistry::enumerate();
            if (names.size() != 1) {
                std::string list;
                for (const std::string &n : names) list += (list.empty() ? "" : ", ") + n;
                throw CompileError("Missing -g NAME; registered generators: " +
                                   (list.empty() ? std::string("(none)") : list));
            }
            o.generator = names[0];
        }
        if (o.output_dir.empty()) throw CompileError("Missing -o DIR (the output directory)");
        std::unique_ptr<GeneratorBase> g = GeneratorRegistry::create(o.generator);
        for (const auto &[name, value] : o.params) g->set_generator_param(name, value);
        note_ignored_target_words(g->get_target(), err);
        if (o.autotune_seconds > 0) autotune_generator(*g, o.autotune_seconds, err);
        std::string fn = o.function_name.empty() ? o.generator : o.function_name;
        std::string base = o.file_base.empty() ? fn : o.file_base;
        g->emit(o.output_dir, base, fn, o.kinds);
        return 0;
    } catch (const Error &e) {
        err << "error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception &e) {
        err << "error: " << e.what() << "\n";
        return 1;
    }
}

int generate_filter_main(int argc, char **argv) {
    return generate_filter_main(argc, argv, std::cout, std::cerr);
}

} // namespace Internal
} // namespace loom
