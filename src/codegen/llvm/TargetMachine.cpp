// make_target_machine(): an LLVM TargetMachine for a loom::Target.

#include <cstdlib>
#include <mutex>
#include <string>

#include <llvm/ADT/StringMap.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include "codegen/llvm/CodeGen_LLVM.h"
#include "codegen/llvm/InnermostLSR.h"
#include "frontend/TargetFeatures.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

namespace {

// Intel's microcode fix for the JCC erratum (Skylake to Cascade Lake) keeps
// a jump that crosses or ends at a 32-byte boundary out of the decoded-uop
// cache, so a tight loop that happens to land there runs from the slow legacy
// decoder: the same histogram loop took 9 or 14 ms depending on where it sat.
// Padding branches away from those boundaries (clang's
// -mbranches-within-32B-boundaries) costs a few nop bytes, and compile time:
// the assembler relaxes each section again and again while the padding moves
// (nearly half of stencil_chain's machine code time on an AMD EPYC). So only
// where this process runs on one of those cores (LLVM's names for them);
// other CPUs (AMD's, Ice Lake and later) have no such erratum. The option
// lives only in LLVM's command-line registry, so it holds for the whole
// process; a user's own setting wins.
bool host_has_jcc_erratum() {
    static const char *const affected[] = {"skylake", "skylake-avx512", "cascadelake",
                                           "cooperlake"};
    std::string cpu = llvm::sys::getHostCPUName().str();
    for (const char *name : affected)
        if (cpu == name) return true;
    return false;
}

void pad_branches_within_32_byte_boundaries() {
    if (!host_has_jcc_erratum()) return;
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("x86-branches-within-32B-boundaries");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
        it->second->addOccurrence(0, it->first(), "true");
}

// Tail merging (BranchFolder) compares the tails of every pair of blocks
// that branch to one block, and LLVM considers up to 150 such predecessors:
// the error exits of a pipeline of many stages (one per allocation or
// check) made machine code generation grow with the cube of the number of
// stages (a chain of 200 compute_root Funcs compiled in 7.7 s, 2.0 s with
// the limit below). Merging only
// among up to 16 predecessors keeps what it gains on small functions (the
// merged blocks are error paths, never a loop). A user's own setting wins.
void limit_tail_merging() {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("tail-merge-threshold");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
        it->second->addOccurrence(0, it->first(), "16");
}

void initialize_native_target() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        llvm::InitializeNativeTargetAsmParser();
        // LLVM's own options (-disable-lsr, -time-passes, ...) for experiments
        // on the code generator, without rebuilding Loom.
        if (std::getenv("LOOM_LLVM_ARGS")) {
            const char *argv[] = {"loom"};
            llvm::cl::ParseCommandLineOptions(1, argv, "", nullptr, "LOOM_LLVM_ARGS");
        }
        pad_branches_within_32_byte_boundaries();
        limit_tail_merging();
        disable_codegen_loop_strength_reduction();
    });
}

// Only cross compilation (AOT for another architecture) needs these, and
// registering them all costs start-up time.
void initialize_all_targets() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeAllTargetInfos();
        llvm::InitializeAllTargets();
        llvm::InitializeAllTargetMCs();
        llvm::InitializeAllAsmPrinters();
    });
}

// Does t describe exactly the machine we run on (ignoring non-ISA features)?
bool is_host(const Target &t) {
    Target host = get_host_target();
    if (t.arch != host.arch || t.bits != host.bits || t.os != host.os) return false;
    for (int f = 0; f < Target::FeatureEnd; f++)
        if (is_x86_isa_feature(Target::Feature(f)) &&
            t.has_feature(Target::Feature(f)) != host.has_feature(Target::Feature(f)))
            return false;
    return true;
}

std::string feature_string(const Target &t) {
    std::string s;
    auto add = [&](const std::string &f) {
        if (!s.empty()) s += ",";
        s += f;
    };
    if (t.arch == Target::X86) {
        for (const std::string &ext : x86_isa_extensions(t)) add("+" + ext);
    } else if (t.arch == Target::ARM && t.bits == 64) {
        add("+neon");
    }
    return s;
}

} // namespace

std::unique_ptr<llvm::TargetMachine> make_target_machine(const Target &t) {
    check_can_generate_code(t, "LLVM code");
    initialize_native_target();
    bool host = is_host(t);
    std::string triple = host ? llvm::sys::getProcessTriple() : t.llvm_triple();
    std::string error;
    const llvm::Target *llvm_target = llvm::TargetRegistry::lookupTarget(triple, error);
    if (!llvm_target) {
        initialize_all_targets();
        error.clear();
        llvm_target = llvm::TargetRegistry::lookupTarget(triple, error);
    }
    if (!llvm_target)
        user_error("Target " << t.to_string() << " (LLVM triple " << triple
                             << ") is not supported by this LLVM: " << error);

    std::string cpu = "generic", features;
    if (host) {
        cpu = llvm::sys::getHostCPUName().str();
        for (const auto &f : llvm::sys::getHostCPUFeatures()) {
            if (!features.empty()) features += ",";
            features += (f.second ? "+" : "-") + f.first().str();
        }
    } else {
        if (t.arch == Target::X86) cpu = t.bits == 64 ? "x86-64" : "pentium4";
        features = feature_string(t);
    }

    llvm::TargetOptions options;
    // One section per function: the assembler lays out and relaxes (pads
    // branches, see above) each section as a whole, which costs more than
    // linear time in its size; outlined loop nests make many small ones.
    options.FunctionSections = true;
    // Fused multiply-adds where a float multiply feeds an add and both carry
    // the `contract` flag, which the code generator sets on every float
    // operation (Halide's default) except inside strict_float() and under
    // the strict_float target feature (CodeGen_LLVM.cpp); none at all there.
    options.AllowFPOpFusion =
        t.has_feature(Target::StrictFloat) ? llvm::FPOpFusion::Strict : llvm::FPOpFusion::Standard;
    llvm::TargetMachine *tm =
        llvm_target->createTargetMachine(triple, cpu, features, options, llvm::Reloc::PIC_,
                                         std::nullopt, llvm::CodeGenOptLevel::Aggressive);
    if (!tm) user_error("Could not create an LLVM target machine for " << t.to_string());
    // Functions marked optnone (a pipeline's entry function: checks and
    // calls, its loop nests outlined) get the fast instruction selector, whose
    // cost is linear in their size; the others keep the optimizing one.
    tm->setO0WantsFastISel(true);
    return std::unique_ptr<llvm::TargetMachine>(tm);
}

} // namespace Internal
} // namespace loom
