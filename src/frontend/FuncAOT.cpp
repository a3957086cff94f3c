// Func's ahead-of-time outputs forward to the Pipeline of this one output;
// the entry point is named after the Func unless fn_name says otherwise.

#include "loom/Func.h"
#include "loom/Pipeline.h"

namespace loom {

namespace {
std::string entry_name(const Func &f, const std::string &fn_name) {
    return fn_name.empty() ? f.name() : fn_name;
}
} // namespace

void Func::compile_to_static_library(const std::string &filename_prefix,
                                     const std::vector<Argument> &args, const std::string &fn_name,
                                     const Target &target) {
    pipeline().compile_to_static_library(filename_prefix, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    pipeline().compile_to_object(filename, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                             const Target &target) {
    compile_to_object(filename, args, "", target);
}

void Func::compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    pipeline().compile_to_header(filename, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                               const std::string &fn_name, const Target &target) {
    pipeline().compile_to_assembly(filename, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                               const Target &target) {
    compile_to_assembly(filename, args, "", target);
}

void Func::compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                        const std::string &fn_name, const Target &target) {
    pipeline().compile_to_c(filename, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                           const std::string &fn_name, const Target &target) {
    pipeline().compile_to_file(filename_prefix, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                              const std::string &fn_name, const Target &target) {
    pipeline().compile_to_bitcode(filename, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                              const Target &target) {
    compile_to_bitcode(filename, args, "", target);
}

Module Func::compile_to_module(const std::vector<Argument> &args, const std::string &fn_name,
                               const Target &target) {
    return pipeline().compile_to_module(args, entry_name(*this, fn_name), target);
}

void Func::compile_to(const std::map<OutputFileType, std::string> &output_files,
                      const std::vector<Argument> &args, const std::string &fn_name,
                      const Target &target) {
    pipeline().compile_to(output_files, args, entry_name(*this, fn_name), target);
}

void Func::compile_to_multitarget_static_library(const std::string &filename_prefix,
                                                 const std::vector<Argument> &args,
                                                 const std::vector<Target> &targets) {
    pipeline().compile_to_multitarget_static_library(filename_prefix, args, targets);
}

void Func::compile_to_multitarget_object_files(const std::string &filename_prefix,
                                               const std::vector<Argument> &args,
                                               const std::vector<Target> &targets,
                                               const std::vector<std::string> &suffixes) {
    pipeline().compile_to_multitarget_object_files(filename_prefix, args, targets, suffixes);
}

} // namespace loom
