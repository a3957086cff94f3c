// Pipeline's ahead-of-time outputs: object files, assembly, static libraries,
// C headers, C source, and the device source files of the generator driver.
// Lowering is the same as for the JIT; the machine code comes from src/aot
// (LLVM), the C source from src/codegen/c, and GPU pipelines carry their
// kernels as src/aot/DeviceCode.cpp prepares them.

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include "aot/AOTOutputs.h"
#include "codegen/c/CodeGen_C.h"
#include "frontend/DeviceSourceFiles.h"
#include "frontend/ModuleContents.h"
#include "frontend/TargetFeatures.h"
#include "ir/Error.h"
#include "ir/StackGuard.h"
#include "loom/Func.h"
#include "loom/Pipeline.h"
#include "loom/PipelineSchedule.h"
#include "lower/Lower.h"

namespace loom {

using namespace Internal;

namespace {

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
    return lower(outputs, name, pipeline_target(p, target), args);
}

// As lower_for_aot, with the concrete Buffers the pipeline reads embedded in
// the output: the entry point that headers describe.
LoweredFunc lower_for_header(const Pipeline &p, const char *what, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    // The passes after lowering recurse as deep as the IR (see StackGuard.h).
    LoweredFunc f;
    run_on_deep_stack(
        [&] { f = embed_concrete_buffers(lower_for_aot(p, what, args, fn_name, target)); });
    return f;
}

// As lower_for_header, with the GPU kernels in the form the code embeds
// (CUDA compiled with NVRTC): what object files, libraries and C source hold.
LoweredFunc lower_for_machine_code(const Pipeline &p, const char *what,
                                   const std::vector<Argument> &args, const std::string &fn_name,
                                   const Target &target) {
    LoweredFunc f;
    run_on_deep_stack([&] {
        f = with_aot_device_code(lower_for_header(p, what, args, fn_name, target), target, what);
    });
    return f;
}

// `suffix` made into the tail of a C identifier ('-' and other characters
// become '_').
std::string identifier_tail(const std::string &suffix) {
    std::string s = suffix;
    for (char &c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

std::string join_with_commas(const std::vector<std::string> &words) {
    std::string s;
    for (const std::string &w : words) s += (s.empty() ? "" : ",") + w;
    return s;
}

// The pipeline compiled once per target (objects named after each
// variant), the dispatching wrapper and the header of a multitarget output.
struct MultitargetOutput {
    std::vector<ArchiveMember> variants; // name: the variant's entry point + object suffix
    std::vector<std::string> suffixes;
    ArchiveMember wrapper;
    std::string header;
};

MultitargetOutput compile_multitarget(const Pipeline &p, const char *what,
                                      const std::vector<Argument> &args,
                                      const std::vector<Target> &targets,
                                      std::vector<std::string> suffixes) {
    if (!p.defined()) user_error(what << " of an empty Pipeline");
    if (targets.empty()) user_error(what << " needs at least one target; none was given");
    if (!suffixes.empty() && suffixes.size() != targets.size())
        user_error(what << " got " << suffixes.size() << " suffixes for " << targets.size()
                        << " targets: pass one suffix per target, or none (then the target "
                           "strings are the suffixes)");
    const Target &baseline = targets.back();
    for (const Target &t : targets) {
        check_can_generate_code(t, what);
        if (t.arch != baseline.arch || t.bits != baseline.bits || t.os != baseline.os)
            user_error(what << ": every target must name the same architecture, bit width and "
                               "OS, but "
                            << t.to_string() << " differs from the last target "
                            << baseline.to_string());
    }
    if (suffixes.empty())
        for (const Target &t : targets) suffixes.push_back(t.to_string());

    std::string fn_name = p.outputs()[0].name();
    MultitargetOutput out;
    out.suffixes = suffixes;
    std::vector<std::string> names, features;
    std::set<std::string> seen;
    for (size_t i = 0; i < targets.size(); i++) {
        std::string name = fn_name + "_" + identifier_tail(suffixes[i]);
        if (!seen.insert(name).second)
            user_error(what << ": two targets have the suffix \"" << suffixes[i]
                            << "\" (or one that differs only in punctuation); each target needs "
                               "its own");
        LoweredFunc f = lower_for_machine_code(p, what, args, name, targets[i]);
        out.variants.push_back({name + object_file_suffix(targets[i]),
                                compile_machine_code(f, targets[i], MachineCodeKind::Object)});
        names.push_back(name);
        features.push_back(join_with_commas(x86_isa_extensions(targets[i])));
    }
    LoweredFunc f = lower_for_machine_code(p, what, args, fn_name, baseline);
    out.wrapper = {fn_name + "_wrapper" + object_file_suffix(baseline),
                   compile_multitarget_wrapper(f, names, features, baseline)};
    out.header = c_header_text(f, baseline);
    return out;
}

} // namespace

void Pipeline::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target) {
    LoweredFunc f = lower_for_machine_code(*this, "compile_to_bitcode", args, fn_name, target);
    write_file(filename, compile_machine_code(f, target, MachineCodeKind::Bitcode));
}

namespace {

// The Module of compile_to_module and compile_to (`what` names the caller
// in errors).
Module make_module(const Pipeline &p, const char *what, const std::vector<Argument> &args,
                   const std::string &fn_name, const Target &target) {
    auto m = std::make_shared<ModuleContents>();
    run_on_deep_stack([&] { m->lowered = lower_for_aot(p, what, args, fn_name, target); });
    m->name = m->lowered.name;
    m->target = target;
    ModuleFunction signature{m->lowered.name, {}};
    for (const LoweredArgument &a : m->lowered.args)
        signature.args.emplace_back(a.name, Argument::Kind(a.kind), a.type, a.dimensions);
    m->functions.push_back(signature);
    m->schedule = PipelineSchedule::of(p).to_cpp();
    return Module(m);
}

} // namespace

Module Pipeline::compile_to_module(const std::vector<Argument> &args, const std::string &fn_name,
                                   const Target &target) {
    return make_module(*this, "compile_to_module", args, fn_name, target);
}

void Pipeline::compile_to(const std::map<OutputFileType, std::string> &output_files,
                          const std::vector<Argument> &args, const std::string &fn_name,
                          const Target &target) {
    // Refuse what Loom cannot write before lowering or writing anything.
    check_output_files(output_files, "compile_to");
    Module m = make_module(*this, "compile_to", args, fn_name, target);
    write_module_outputs(m.contents(), output_files, "compile_to");
}

void Pipeline::compile_to_multitarget_static_library(const std::string &filename_prefix,
                                                     const std::vector<Argument> &args,
                                                     const std::vector<Target> &targets) {
    const char *what = "compile_to_multitarget_static_library";
    if (targets.size() == 1) {
        compile_to_static_library(filename_prefix, args, "", targets[0]);
        return;
    }
    MultitargetOutput out = compile_multitarget(*this, what, args, targets, {});
    std::vector<ArchiveMember> members = out.variants;
    members.push_back(out.wrapper);
    write_static_library(filename_prefix + ".a", members, targets.back());
    write_file(filename_prefix + ".h", out.header);
}

void Pipeline::compile_to_multitarget_object_files(const std::string &filename_prefix,
                                                   const std::vector<Argument> &args,
                                                   const std::vector<Target> &targets,
                                                   const std::vector<std::string> &suffixes) {
    const char *what = "compile_to_multitarget_object_files";
    if (targets.size() == 1 && suffixes.size() <= 1) {
        compile_to_file(filename_prefix, args, "", targets[0]);
        return;
    }
    MultitargetOutput out = compile_multitarget(*this, what, args, targets, suffixes);
    for (size_t i = 0; i < out.variants.size(); i++)
        write_file(filename_prefix + "-" + out.suffixes[i] + object_file_suffix(targets[i]),
                   out.variants[i].contents);
    write_file(filename_prefix + "_wrapper" + object_file_suffix(targets.back()),
               out.wrapper.contents);
    write_file(filename_prefix + ".h", out.header);
}

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
