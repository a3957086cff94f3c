// loom::Module (Halide's Module): one lowering of a pipeline, written to any
// of compile_to's outputs. Pipeline::compile_to is this with the Module
// made and written at once (src/frontend/PipelineAOT.cpp).

#include "loom/Module.h"

#include <fstream>

#include "aot/AOTOutputs.h"
#include "codegen/c/CodeGen_C.h"
#include "frontend/LoweredText.h"
#include "frontend/ModuleContents.h"
#include "ir/Error.h"
#include "ir/StackGuard.h"

namespace loom {

namespace Internal {

void write_file(const std::string &filename, const std::string &contents) {
    std::ofstream out(filename, std::ios::binary);
    if (!out) user_error("Cannot open " << filename << " for writing");
    out << contents;
    if (!out) user_error("Failed writing " << filename);
}

std::string object_file_suffix(const Target &t) {
    return t.os == Target::Windows ? ".obj" : ".o";
}

namespace {

// The name of an OutputFileType, for messages.
const char *output_name(OutputFileType type) {
    switch (type) {
    case OutputFileType::assembly:
        return "assembly";
    case OutputFileType::bitcode:
        return "bitcode";
    case OutputFileType::c_header:
        return "c_header";
    case OutputFileType::c_source:
        return "c_source";
    case OutputFileType::compiler_log:
        return "compiler_log";
    case OutputFileType::conceptual_stmt:
        return "conceptual_stmt";
    case OutputFileType::conceptual_stmt_html:
        return "conceptual_stmt_html";
    case OutputFileType::cpp_stub:
        return "cpp_stub";
    case OutputFileType::device_code:
        return "device_code";
    case OutputFileType::featurization:
        return "featurization";
    case OutputFileType::function_info_header:
        return "function_info_header";
    case OutputFileType::hlpipe:
        return "hlpipe";
    case OutputFileType::llvm_assembly:
        return "llvm_assembly";
    case OutputFileType::object:
        return "object";
    case OutputFileType::python_extension:
        return "python_extension";
    case OutputFileType::pytorch_wrapper:
        return "pytorch_wrapper";
    case OutputFileType::registration:
        return "registration";
    case OutputFileType::schedule:
        return "schedule";
    case OutputFileType::static_library:
        return "static_library";
    case OutputFileType::stmt:
        return "stmt";
    case OutputFileType::stmt_html:
        return "stmt_html";
    }
    return "unknown";
}

} // namespace

void check_output_files(const std::map<OutputFileType, std::string> &output_files,
                        const char *what) {
    for (const auto &[type, filename] : output_files) {
        switch (type) {
        case OutputFileType::compiler_log:
        case OutputFileType::cpp_stub:
        case OutputFileType::featurization:
        case OutputFileType::function_info_header:
        case OutputFileType::hlpipe:
        case OutputFileType::python_extension:
        case OutputFileType::pytorch_wrapper:
        case OutputFileType::registration:
            user_error(what << ": Loom cannot write the " << output_name(type) << " output ("
                            << filename
                            << "). It writes assembly, bitcode, c_header, c_source, "
                               "conceptual_stmt, conceptual_stmt_html, device_code, "
                               "llvm_assembly, object, schedule, static_library, stmt and "
                               "stmt_html.");
        default:
            break;
        }
        if (filename.empty())
            user_error(what << ": the " << output_name(type) << " output has no file name");
    }
}

void write_module_outputs(const ModuleContents &m,
                          const std::map<OutputFileType, std::string> &output_files,
                          const char *what) {
    check_output_files(output_files, what);
    const Target &target = m.target;
    // The entry point as object files hold it (concrete Buffers embedded,
    // GPU kernels in their shipped form), made once if any output needs it.
    LoweredFunc code;
    bool made = false;
    auto machine = [&]() -> const LoweredFunc & {
        if (!made)
            run_on_deep_stack([&] {
                code = with_aot_device_code(embed_concrete_buffers(m.lowered), target, what);
            });
        made = true;
        return code;
    };
    for (const auto &[type, filename] : output_files) {
        switch (type) {
        case OutputFileType::assembly:
            write_file(filename,
                       compile_machine_code(machine(), target, MachineCodeKind::Assembly));
            break;
        case OutputFileType::bitcode:
            write_file(filename, compile_machine_code(machine(), target, MachineCodeKind::Bitcode));
            break;
        case OutputFileType::llvm_assembly:
            write_file(filename,
                       compile_machine_code(machine(), target, MachineCodeKind::LLVMAssembly));
            break;
        case OutputFileType::object:
            write_file(filename, compile_machine_code(machine(), target, MachineCodeKind::Object));
            break;
        case OutputFileType::static_library:
            write_static_library(
                filename,
                {{machine().name + object_file_suffix(target),
                  compile_machine_code(machine(), target, MachineCodeKind::Object)}},
                target);
            break;
        case OutputFileType::c_header:
            write_file(filename, c_header_text(machine(), target));
            break;
        case OutputFileType::c_source:
            write_file(filename, codegen_c(machine(), target));
            break;
        case OutputFileType::stmt:
        case OutputFileType::stmt_html:
            write_file(filename, lowered_stmt_text(m.lowered, type == OutputFileType::stmt
                                                                  ? StmtOutputFormat::Text
                                                                  : StmtOutputFormat::HTML));
            break;
        case OutputFileType::conceptual_stmt:
        case OutputFileType::conceptual_stmt_html:
            write_file(filename,
                       conceptual_stmt_text(m.lowered, type == OutputFileType::conceptual_stmt
                                                           ? StmtOutputFormat::Text
                                                           : StmtOutputFormat::HTML));
            break;
        case OutputFileType::device_code:
            write_file(filename, device_source_text(m.lowered, target));
            break;
        case OutputFileType::schedule:
            write_file(filename, m.schedule);
            break;
        default:
            internal_error(what << ": output " << output_name(type) << " was not refused");
        }
    }
}

} // namespace Internal

Module::Module(std::shared_ptr<const Internal::ModuleContents> contents)
    : contents_(std::move(contents)) {
    internal_assert(contents_ != nullptr, "Module made without contents");
}

const std::string &Module::name() const {
    return contents_->name;
}

const Target &Module::target() const {
    return contents_->target;
}

const std::vector<ModuleFunction> &Module::functions() const {
    return contents_->functions;
}

void Module::compile(const std::map<OutputFileType, std::string> &output_files) const {
    Internal::write_module_outputs(*contents_, output_files, "Module::compile");
}

} // namespace loom
