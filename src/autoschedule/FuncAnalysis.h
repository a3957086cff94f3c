#ifndef LOOM_AUTOSCHEDULE_FUNC_ANALYSIS_H
#define LOOM_AUTOSCHEDULE_FUNC_ANALYSIS_H

// What the heuristic auto-scheduler needs to know of each Func: who calls
// it and how (at the same point, at constant offsets, or otherwise), what it
// costs, how wide its types are, and whether the user scheduled it.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "loom/Function.h"

namespace loom {
namespace Internal {

/** How a consumer's calls index a producer. */
enum class Access {
    Pointwise, // every argument is a Var of the consumer (or a constant)
    Stencil,   // Vars plus constant offsets
    Scaled,    // Vars times, over or modulo constants, plus constants (2 * x + 1, y / 2)
    Other      // data-dependent, clamped or transposed coordinates
};

struct FuncInfo {
    Function func;
    std::vector<std::string> consumers; // Funcs whose definitions call it
    Access access = Access::Pointwise;  // the worst access over all its calls
    int max_offset = 0;                 // the largest |offset| of a stencil access
    std::vector<int> dim_offset;        // the same per dimension of the Func
    int cost = 0;                       // IR nodes in its definitions
    int max_bits = 8;                   // the widest non-bool type it computes with
    /** A consumer has more dimensions (an RGB output of a gray ratio):
     * inlining would recompute each value once per extra coordinate. */
    bool reused_across_dims = false;
    /** A consumer reads it at two constants of one dimension (three colour
     * channels, each mixing all three): inlined, each value would be
     * computed once per read. */
    bool reread_at_constants = false;
    std::vector<std::string> producers; // Funcs its definitions call
    bool reads_images = false;          // its definitions read a Buffer or ImageParam
    /** Its innermost Var indexes another dimension of a Func it calls (a
     * transpose): vectors along it would gather across the callee's rows. */
    bool reads_transposed = false;
    /** The Funcs it reads at coordinates that are not its own x plus a
     * constant (clamped, interleaved, halved): a consumer's vector of it
     * would gather from them. */
    std::set<std::string> sparse_reads;
    /** It reads an image at a stride along x (2 * x + c % 2: a plane of a
     * mosaic): a consumer's vector of it would gather from the image. */
    bool strided_image_reads = false;
    /** It reads an image at coordinates that follow its Vars unclamped
     * (in(x, y), not a boundary condition's in(clamp(x, 0, w - 1), ...)):
     * computed over more than its consumers need, it reads outside. */
    bool unclamped_image_reads = false;
    /** Every Func and image it reads, it reads at its own Vars in their
     * positions (or constants): f(x, y) * g(x, y). */
    bool reads_at_own_point = true;
    /** The Funcs it reads so (computed over more, so are they). */
    std::set<std::string> unclamped_callees;
    int calls = 0; // calls to Funcs and images in its definitions
    bool is_output = false;
    bool has_updates = false;
    bool user_scheduled = false;
};

struct PipelineInfo {
    std::vector<std::string> order; // producers first
    std::map<std::string, FuncInfo> funcs;
};

PipelineInfo analyze_pipeline(const std::vector<Function> &funcs_in_order,
                              const std::vector<Function> &outputs);

/** Is e a Variable plus a sum of integer constants ((y + 2) - 1, ...)? The
 * constant goes to *offset. */
bool var_plus_const(const Expr &e, int64_t *offset);

/** Does arg follow the caller's Var own alone, with RVars (rvars), Params
 * and constants, through any arithmetic (a resize's floor((y + 0.5) /
 * scale) + tap, a clamp of y)? A strip of the caller's rows then reads a
 * strip of the callee's. */
bool follows_own_var(const Expr &arg, const std::string &own, const std::set<std::string> &rvars);

/** Does update u store where loaded values say (a histogram's bin)? Its
 * vectors would gather their inputs and scatter their sums lane by lane,
 * slower than scalar code. */
bool stores_at_loaded_index(const Definition &u);

/** Has the user scheduled f in any way (placement, loops, storage)? */
bool is_user_scheduled(const Function &f);

} // namespace Internal
} // namespace loom

#endif
