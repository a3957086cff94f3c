// Pipeline's ahead-of-time outputs: object files, assembly, static libraries,
// C headers, C source, and the device source files of the generator driver.
// Lowering is the same as for the JIT; the machine code comes from src/aot
// (LLVM), the C source from src/codegen/c, and GPU pipelines carry their
// kernels as src/aot/DeviceCode.cpp prepares them.

#include <fstream>

#include "aot/AOTOutputs.h"
#include "codegen/c/CodeGen_C.h"
#include "frontend/DeviceSourceFiles.h"
#include "ir/Error.h"
#include "loom/Func.h"
#include "loom/Pipeline.h"
#include "lower/Lower.h"

namespace loom {

using namespace Internal;

namespace {

void write_file(const std::string &filename, const std::string &contents) {
    std::ofstream out(filename, std::ios::binary);
    if (!out) user_error("Cannot open " << filename << " for writing");
    out << contents;
    if (!out) user_error("Failed writing " << filename);
}

// Lowers the pipeline into the entry point fn_name (default: the first
// output's name), with the arguments in the order args gives (listed ones
// the pipeline does not read included). The C source keeps concrete Buffers
// as arguments.
LoweredFunc lower_for_aot(const Pipeline &p, const char *what, const std::vector<Argument> &args,
                          const std::string &fn_name, const Target &target) {
    if (!p.defined()) user_error(what << " of an empty Pipeline");
    std::vector<Function> outputs;
    for (const Func &f : p.outputs()) {
        if (!f.function().has_pure_definition())
            user_error("Func " << f.name() << " is compiled by " << what
                               << " but has no definition");
        outputs.push_back(f.function());
    }
    if (outputs.empty()) user_error("A Pipeline needs at least one output Func");
    std::string name = fn_name.empty() ? outputs[0].name() : fn_name;
    if (!is_c_identifier(name))
        user_error(what << ": the function name \"" << name
                        << "\" is not a C identifier (letters, digits and '_', not starting "
                           "with a digit, not a keyword); pass a valid fn_name");
    return lower(outputs, name, target, args);
}

// As lower_for_aot, with the concrete Buffers the pipeline reads embedded in
// the output: the entry point that headers describe.
LoweredFunc lower_for_header(const Pipeline &p, const char *what, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    return embed_concrete_buffers(lower_for_aot(p, what, args, fn_name, target));
}

// As lower_for_header, with the GPU kernels in the form the code embeds
// (CUDA compiled with NVRTC): what object files, libraries and C source hold.
LoweredFunc lower_for_machine_code(const Pipeline &p, const char *what,
                                   const std::vector<Argument> &args, const std::string &fn_name,
                                   const Target &target) {
    return with_aot_device_code(lower_for_header(p, what, args, fn_name, target), target, what);
}

std::string object_file_suffix(const Target &t) {
    return t.os == Target::Windows ? ".obj" : ".o";
}

} // namespace

void Pipeline::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    LoweredFunc f = lower_for_machine_code(*this, "compile_to_object", args, fn_name, target);
    write_file(filename, compile_machine_code(f, target, MachineCodeKind::Object));
}

void Pipeline::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                                   const std::string &fn_name, const Target &target) {
    LoweredFunc f = lower_for_machine_code(*this, "compile_to_assembly", args, fn_name, target);
    write_file(filename, compile_machine_code(f, target, MachineCodeKind::Assembly));
}

void Pipeline::compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    LoweredFunc f = lower_for_header(*this, "compile_to_header", args, fn_name, target);
    write_file(filename, c_header_text(f, target));
}

void Pipeline::compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name, const Target &target) {
    LoweredFunc f = lower_for_machine_code(*this, "compile_to_c", args, fn_name, target);
    write_file(filename, codegen_c(f, target));
}

void Pipeline::compile_to_static_library(const std::string &filename_prefix,
                                         const std::vector<Argument> &args,
                                         const std::string &fn_name, const Target &target) {
    LoweredFunc f =
        lower_for_machine_code(*this, "compile_to_static_library", args, fn_name, target);
    ArchiveMember object{f.name + object_file_suffix(target),
                         compile_machine_code(f, target, MachineCodeKind::Object)};
    write_static_library(filename_prefix + ".a", {object}, target);
    write_file(filename_prefix + ".h", c_header_text(f, target));
}

void Pipeline::compile_to_file(const std::string &filename_prefix,
                               const std::vector<Argument> &args, const std::string &fn_name,
                               const Target &target) {
    LoweredFunc f = lower_for_machine_code(*this, "compile_to_file", args, fn_name, target);
    write_file(filename_prefix + object_file_suffix(target),
               compile_machine_code(f, target, MachineCodeKind::Object));
    write_file(filename_prefix + ".h", c_header_text(f, target));
}

namespace Internal {

std::vector<std::string> device_source_files(const std::string &filename_prefix, const Target &t) {
    std::vector<std::string> files;
    if (t.has_feature(Target::OpenCL)) files.push_back(filename_prefix + ".cl");
    if (t.has_feature(Target::CUDA)) files.push_back(filename_prefix + ".cu");
    if (files.empty())
        user_error("The device_source output needs a GPU target, but " << t.to_string()
                                                                       << " has neither opencl "
                                                                          "nor cuda");
    return files;
}

void compile_to_device_source_files(const Pipeline &p, const std::string &filename_prefix,
                                    const std::vector<Argument> &args, const std::string &fn_name,
                                    const Target &t) {
    std::vector<std::string> files = device_source_files(filename_prefix, t);
    LoweredFunc f = lower_for_aot(p, "The device_source output", args, fn_name, t);
    for (const std::string &file : files) {
        bool cl = file.size() > 3 && file.compare(file.size() - 3, 3, ".cl") == 0;
        DeviceAPI api = cl ? DeviceAPI::OpenCL : DeviceAPI::CUDA;
        auto it = f.device_sources.find(api);
        write_file(file, it != f.device_sources.end()
                             ? it->second
                             : "/* Pipeline " + f.name + " has no " + (cl ? "OpenCL" : "CUDA") +
                                   " kernels for target " + t.to_string() + ". */\n");
    }
}

} // namespace Internal

} // namespace loom
