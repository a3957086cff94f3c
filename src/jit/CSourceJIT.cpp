// The C-source JIT: codegen_c -> temporary .c file -> system C compiler ->
// shared object -> dlopen. A test vehicle for the C backend: it runs every JIT
// test through generated C when LOOM_JIT_BACKEND=c.

#include "jit/CSourceJIT.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "codegen/c/CodeGen_C.h"
#include "frontend/TargetFeatures.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

// LoomRuntime.h as it was when libloom was built (RuntimeHeaderText.cpp.in).
extern const char loom_runtime_header_text[];

namespace {

bool debug_enabled() {
    const char *d = std::getenv("LOOM_DEBUG");
    return d && *d && std::strcmp(d, "0") != 0;
}

/** $LOOM_INCLUDE_DIR, when set, overrides the LoomRuntime.h built into
 * libloom (for trying header changes without rebuilding). */
std::string include_dir_override() {
    const char *d = std::getenv("LOOM_INCLUDE_DIR");
    return d && *d ? d : "";
}

/** -march=native when the target is this machine, else its ISA features. */
std::string target_flags(const Target &t) {
    Target host = get_host_target();
    if (t.arch != host.arch || t.bits != host.bits) return "";
    bool same_isa = true;
    for (int f = 0; f < Target::FeatureEnd; f++) {
        auto feature = Target::Feature(f);
        if (is_x86_isa_feature(feature) && t.has_feature(feature) != host.has_feature(feature))
            same_isa = false;
    }
    if (same_isa) return " -march=native";
    std::string flags;
    for (const std::string &ext : x86_isa_extensions(t))
        if (ext != "avx10.1-512") flags += " -m" + ext; // GCC 14 names AVX10 first
    return flags;
}

std::string shell_quote(const std::string &s) {
    std::string r = "'";
    for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return r + "'";
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void remove_folder(const std::string &dir, const std::vector<std::string> &files) {
    for (const auto &f : files) std::remove((dir + "/" + f).c_str());
    rmdir(dir.c_str());
}

} // namespace

bool use_c_source_jit() {
    const char *b = std::getenv("LOOM_JIT_BACKEND");
    if (!b || !*b || std::strcmp(b, "llvm") == 0) return false;
    if (std::strcmp(b, "c") == 0) return true;
    user_error("LOOM_JIT_BACKEND=" << b
                                   << " is not a JIT backend; use \"llvm\" (the default) or \"c\" "
                                      "(generated C compiled by the system C compiler)");
}

CSourceModule compile_c_source_module(const LoweredFunc &f, const Target &target) {
    std::string source = codegen_c(f, target);

    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/loom_c_jit_XXXXXX";
    std::vector<char> dir_buf(pattern.begin(), pattern.end());
    dir_buf.push_back('\0');
    if (!mkdtemp(dir_buf.data()))
        internal_error("C JIT: could not create a temporary folder from " << pattern);
    std::string dir = dir_buf.data();
    std::string c_file = f.name + ".c", so_file = f.name + ".so", log_file = "compile.log";
    std::string header_file = "LoomRuntime.h";
    auto write = [&](const std::string &file, const char *text) {
        std::ofstream out(dir + "/" + file);
        out << text;
        if (!out) internal_error("C JIT: could not write " << dir << "/" << file);
    };
    write(c_file, source.c_str());
    std::string include_dir = include_dir_override();
    if (include_dir.empty()) {
        write(header_file, loom_runtime_header_text);
        include_dir = dir;
    }

    const char *cc_env = std::getenv("CC");
    std::string cc = cc_env && *cc_env ? cc_env : "cc";
    // Multiply-adds fuse as in the LLVM backend (Halide's default), except
    // under strict_float, where each float operation rounds on its own.
    std::string contract =
        target.has_feature(Target::StrictFloat) ? " -ffp-contract=off" : " -ffp-contract=fast";
    std::string command = cc + " -std=c99 -O2 -shared -fPIC" + contract + " -fno-math-errno" +
                          target_flags(target) + " -I" + shell_quote(include_dir) + " -o " +
                          shell_quote(dir + "/" + so_file) + " " + shell_quote(dir + "/" + c_file) +
                          " -lm > " + shell_quote(dir + "/" + log_file) + " 2>&1";
    int status = std::system(command.c_str());
    bool keep = debug_enabled();
    if (status != 0) {
        std::string log = read_file(dir + "/" + log_file);
        internal_error("C JIT: the C compiler failed on the generated source of "
                       << f.name << " (kept in " << dir << "):\n$ " << command << "\n"
                       << log);
    }

    void *handle = dlopen((dir + "/" + so_file).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        std::string text = why ? why : "";
        size_t undefined = text.find("undefined symbol: ");
        if (undefined != std::string::npos) {
            // A C function the pipeline calls (HalideExtern_N) that the process lacks.
            if (!keep) remove_folder(dir, {c_file, so_file, log_file, header_file});
            user_error("The pipeline " << f.name << " calls the C function "
                                       << text.substr(undefined + 18)
                                       << ", which this process does not have. An extern "
                                          "function (HalideExtern_N) must be defined with extern "
                                          "\"C\" and exported: link the program with -rdynamic "
                                          "(CMake: ENABLE_EXPORTS)");
        }
        internal_error("C JIT: could not load " << dir << "/" << so_file << ": "
                                                << (why ? why : "unknown error"));
    }
    if (keep) {
        std::fprintf(stderr, "loom: C JIT source of %s kept in %s\n", f.name.c_str(), dir.c_str());
    } else {
        // The loaded object stays mapped after its file is gone.
        remove_folder(dir, {c_file, so_file, log_file, header_file});
    }

    CSourceModule m;
    m.library = std::shared_ptr<void>(handle, [](void *h) { dlclose(h); });
    m.argv = reinterpret_cast<int (*)(void **)>(dlsym(handle, (f.name + "_argv").c_str()));
    m.metadata = reinterpret_cast<const loom_pipeline_metadata_t *(*)()>(
        dlsym(handle, (f.name + "_metadata").c_str()));
    if (!m.argv || !m.metadata)
        internal_error("C JIT: " << f.name << "_argv or " << f.name
                                 << "_metadata is missing from the compiled source");
    return m;
}

} // namespace Internal
} // namespace loom
