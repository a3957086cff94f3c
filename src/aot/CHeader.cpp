// c_header_text(): the C header declaring a generated pipeline's entry points,
// with one comment per argument saying what to pass.

#include <cctype>
#include <set>
#include <sstream>

#include "aot/AOTOutputs.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

namespace {

const char *const c_keywords[] = {
    "auto",     "bool",    "break",     "case",     "char",    "const",    "continue",
    "default",  "do",      "double",    "else",     "enum",    "extern",   "float",
    "for",      "goto",    "if",        "inline",   "int",     "long",     "register",
    "restrict", "return",  "short",     "signed",   "sizeof",  "static",   "struct",
    "switch",   "typedef", "union",     "unsigned", "void",    "volatile", "while",
    "class",    "delete",  "new",       "private",  "public",  "template", "this",
    "throw",    "try",     "namespace", "operator", "virtual", "true",     "false"};

bool is_keyword(const std::string &s) {
    for (const char *k : c_keywords)
        if (s == k) return true;
    return false;
}

// Argument names come from Params and Funcs and may hold '.', '$' and the
// like; in the header they only document, so any identifier will do.
std::string c_parameter_name(const std::string &name, std::set<std::string> &used) {
    std::string s;
    for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
    if (is_keyword(s)) s += "_";
    std::string unique = s;
    for (int i = 2; used.count(unique); i++) unique = s + "_" + std::to_string(i);
    used.insert(unique);
    return unique;
}

std::string c_scalar_type(Type t) {
    internal_assert(t.is_scalar(), "vector scalar argument of type " << type_to_string(t));
    if (t.is_bool()) return "bool";
    if (t.is_handle()) return "void *";
    if (t.is_bfloat()) return "uint16_t"; // the bits of a bfloat16_t
    if (t.is_float()) {
        if (t.bits == 16) return "_Float16";
        return t.bits == 32 ? "float" : "double";
    }
    return std::string(t.is_uint() ? "uint" : "int") + std::to_string(t.bits) + "_t";
}

std::string type_words(Type t) {
    if (t.is_bool()) return "bool";
    if (t.is_handle()) return "handle";
    return (t.is_int()      ? "int"
            : t.is_uint()   ? "uint"
            : t.is_bfloat() ? "bfloat"
                            : "float") +
           std::to_string(t.bits);
}

std::string describe(const LoweredArgument &a) {
    std::ostringstream os;
    switch (a.kind) {
    case LoweredArgument::InputScalar:
        os << "scalar input " << a.name << ": " << type_words(a.type);
        break;
    case LoweredArgument::InputBuffer:
        os << "input buffer " << a.name << ": " << type_words(a.type) << ", " << a.dimensions
           << (a.dimensions == 1 ? " dimension" : " dimensions");
        if (a.buffer.defined()) os << " (a Buffer the pipeline was defined with)";
        break;
    case LoweredArgument::OutputBuffer:
        os << "output buffer " << a.name << ": " << type_words(a.type) << ", " << a.dimensions
           << (a.dimensions == 1 ? " dimension" : " dimensions");
        break;
    }
    return os.str();
}

std::string guard_name(const std::string &fn) {
    std::string s = "LOOM_GENERATED_";
    for (char c : fn) s += char(std::toupper(static_cast<unsigned char>(c)));
    return s + "_H";
}

// What a caller of a GPU pipeline must know: where the kernels run and
// that results stay on the device until copied back.
std::string gpu_note(const LoweredFunc &f) {
    bool opencl = false, cuda = false;
    for (const DeviceKernel &k : f.kernels)
        (k.device_api == DeviceAPI::CUDA ? cuda : opencl) = true;
    if (!opencl && !cuda) return "";
    std::ostringstream os;
    os << " *\n * The pipeline runs " << f.kernels.size()
       << (f.kernels.size() == 1 ? " GPU kernel" : " GPU kernels") << " through "
       << (opencl && cuda ? "OpenCL and CUDA"
           : opencl       ? "OpenCL"
                          : "CUDA")
       << ".\n";
    if (opencl)
        os << " * OpenCL: libOpenCL.so.1 is loaded with dlopen and the embedded OpenCL C is\n"
           << " * built for the device at the first call (and cached on disk).\n";
    if (cuda)
        os << " * CUDA: libcuda.so.1 is loaded with dlopen and the embedded cubin for the\n"
           << " * device is loaded at the first call (else its PTX).\n";
    os << " * With no driver or device the call returns loom_error_code_device after\n"
       << " * reporting why. Buffers the kernels write are left on the device\n"
       << " * (device-dirty): call loom_copy_to_host() before reading them on the host\n"
       << " * and loom_device_free() before their memory goes (loom::Runtime::Buffer of\n"
       << " * LoomBuffer.h: copy_to_host(); copies share the device memory and the\n"
       << " * last one frees it).\n";
    return os.str();
}

} // namespace

bool is_c_identifier(const std::string &s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return !is_keyword(s);
}

std::string c_header_text(const LoweredFunc &f, const Target &t) {
    std::set<std::string> used;
    std::vector<std::string> names;
    for (const auto &a : f.args) names.push_back(c_parameter_name(a.name, used));
    auto parameter_list = [&](const char *first) {
        std::ostringstream os;
        os << "(";
        if (first) os << "\n    " << first << (f.args.empty() ? "" : ",");
        for (size_t i = 0; i < f.args.size(); i++) {
            const auto &a = f.args[i];
            std::string decl = a.is_buffer() ? "loom_buffer_t *" + names[i]
                                             : c_scalar_type(a.type) + " " + names[i];
            os << "\n    " << decl << (i + 1 < f.args.size() ? ", " : " ") << "/* " << describe(a)
               << " */";
        }
        if (f.args.empty() && !first) os << "void";
        os << ")";
        return os.str();
    };

    const std::string &fn = f.name;
    std::ostringstream h;
    h << "/* Generated by Loom: entry points of pipeline " << fn << " for target " << t.to_string()
      << ".\n"
      << " * Link the object or static library with Loom::Runtime (libloom_runtime.a)\n"
      << " * and pthreads; libloom and LLVM are not needed.\n"
      << gpu_note(f) << " */\n"
      << "#ifndef " << guard_name(fn) << "\n"
      << "#define " << guard_name(fn) << "\n\n"
      << "#include \"LoomRuntime.h\"\n\n"
      << "#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n\n"
      << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
      << "/** Run the pipeline. Returns 0 on success, or a negative loom_error_code_t\n"
      << " * after reporting a message naming the problem (bad buffer type,\n"
      << " * dimensionality or size, ...) to the global error handler (see\n"
      << " * loom_set_error_handler; the default prints it to stderr). */\n"
      << "int " << fn << parameter_list(nullptr) << ";\n\n"
      << "/** As " << fn << ", with a per-call context: a non-NULL loom_call_context_t *\n"
      << " * whose error_handler receives this call's error messages. */\n"
      << "int " << fn << "_with_context" << parameter_list("void *user_context") << ";\n\n"
      << "/** argv[0] is the user context (may be NULL); argv[i + 1] is the i-th\n"
      << " * argument above: the loom_buffer_t * for buffers, a pointer to the value\n"
      << " * for scalars. */\n"
      << "int " << fn << "_argv(void **argv);\n\n"
      << "/** The names, kinds and types of the arguments, and the target. */\n"
      << "const loom_pipeline_metadata_t *" << fn << "_metadata(void);\n\n"
      << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n"
      << "#endif\n";
    return h.str();
}

} // namespace Internal
} // namespace loom
