#ifndef LOOM_AOT_AOT_OUTPUTS_H
#define LOOM_AOT_AOT_OUTPUTS_H

// Ahead-of-time outputs of a LoweredFunc: machine code (object file or
// assembly), static libraries and the C header. This header is LLVM-free so
// the front end (src/frontend/PipelineAOT.cpp) can use it.

#include <string>
#include <vector>

#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** What compile_machine_code returns: an object file, the target's
 * assembly, LLVM bitcode or LLVM assembly (the optimized module). */
enum class MachineCodeKind { Object, Assembly, Bitcode, LLVMAssembly };

/** The symbols an object for f exports: NAME, NAME_argv, NAME_metadata and
 * NAME_with_context. Everything else it defines is internal. */
std::vector<std::string> exported_symbols(const LoweredFunc &f);

/** Compile f for t exactly as the JIT does (codegen_llvm, then
 * optimize_module), make every symbol but the exported ones internal, and
 * return the object file (ELF for Linux targets) or assembly text. */
std::string compile_machine_code(const LoweredFunc &f, const Target &t, MachineCodeKind kind);

/** The object file of a multitarget library's dispatching entry points:
 * f's exported symbols (f.name, _argv, _with_context; _metadata describes
 * f) each call the same symbol of the variant variant_names[i] for the
 * first i whose x86 extensions cpu_features[i] (comma-separated, as
 * loom_can_use_cpu_features takes them) the running CPU has, chosen once at
 * the first call; the last variant is the fallback. */
std::string compile_multitarget_wrapper(const LoweredFunc &f,
                                        const std::vector<std::string> &variant_names,
                                        const std::vector<std::string> &cpu_features,
                                        const Target &t);

/** One object file to put into a static library. */
struct ArchiveMember {
    std::string name; // e.g. "brighten.o"
    std::string contents;
};

/** Write a static library (ar format with a symbol table; BSD/Darwin flavour
 * for OSX targets, GNU otherwise) holding the members. */
void write_static_library(const std::string &filename, const std::vector<ArchiveMember> &members,
                          const Target &t);

/** The C header declaring f's entry points (see compile_to_header). */
std::string c_header_text(const LoweredFunc &f, const Target &t);

/** f with the concrete Buffers it reads (input buffers with no Param behind
 * them, such as a lookup table) moved from its arguments to
 * f.embedded_buffers: the machine code carries their data, so they are no
 * argument of the entry point, its header or its metadata. */
LoweredFunc embed_concrete_buffers(LoweredFunc f);

/** f with its device code in the form an ahead-of-time output embeds: OpenCL
 * C as printed; CUDA C compiled with NVRTC (a cubin per capability of
 * aot_cuda_capabilities, PTX for the lowest) and bundled with its source
 * (runtime/cuda_compile.h). A CompileError naming `what` (the output) when
 * NVRTC is missing or fails, or when a kernel reads an embedded Buffer. */
LoweredFunc with_aot_device_code(LoweredFunc f, const Target &t, const std::string &what);

/** The CUDA capabilities (75, 80, ...) an ahead-of-time output compiles
 * cubins for: the target's cuda_capability_* features, each of which must
 * be in `supported` (NVRTC's); with none listed, those of 75, 80 and 90
 * that NVRTC supports (one cubin per major architecture in use; the PTX
 * for the lowest serves newer GPUs). Ascending. */
std::vector<int> aot_cuda_capabilities(const Target &t, const std::vector<int> &supported);

/** Is s usable as a C identifier (and so as a function name)? */
bool is_c_identifier(const std::string &s);

} // namespace Internal
} // namespace loom

#endif
