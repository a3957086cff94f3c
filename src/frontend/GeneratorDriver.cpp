// The generator driver's command line:
//   gen -g NAME -o DIR [-e KINDS] [-f FUNCTION] [-n BASE] [target=T] [param=value ...]
//   gen --list
// Every error names what was wrong and the valid choices, and exits with 1.

#include <iostream>
#include <sstream>

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
           "  -n  the base name of the files (default: the function name)\n";
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
