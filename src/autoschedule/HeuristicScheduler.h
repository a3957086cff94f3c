#ifndef LOOM_AUTOSCHEDULE_HEURISTIC_SCHEDULER_H
#define LOOM_AUTOSCHEDULE_HEURISTIC_SCHEDULER_H

// The built-in "Loom" auto-scheduler (rules in HeuristicScheduler.cpp).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "loom/Target.h"

namespace loom {
class Pipeline;
namespace Internal {

struct HeuristicOptions {
    int parallelism = 1;
    int vector_bits = 128;              // of the widest vector register
    uint64_t cache_bytes = 1024 * 1024; // per-core cache the strips should fit in
    /** The target has a GPU (OpenCL or CUDA): roots become GPU tiles. */
    bool gpu = false;

    // Knobs the autotuner turns; the defaults are the heuristic's own choices.
    int rows_per_task = 0;                  // strip height of every group (0: chosen from sizes)
    int vector_multiplier = 1;              // vectors of this many registers
    int matmul_tile_vectors = 3;            // matrix products: tile width in vectors...
    int matmul_tile_rows = 32;              // ...and height
    int matmul_block_rows = 4;              // rows of sums kept in registers
    int gpu_tile_x = 32, gpu_tile_y = 8;    // threads of a GPU block (x is the coalesced one)
    int gpu_vector = 0, gpu_rows = 1;       // GPU outputs per thread: across x (0: a 32-bit
                                            // word's worth), and rows down y
    int gpu_matmul_x = 4, gpu_matmul_y = 8; // matrix products on a GPU: sums per thread
    /** Matrix products on a GPU: the width of the slices of the operands
     * (along the RVar) each block stages in shared memory; 0 reads them
     * through the cache. */
    int gpu_matmul_k = 16;
    /** Per Func: "inline", "root", "strip" (computed per strip of its group's
     * root) or "sliding" (stored per strip, computed per row). */
    std::map<std::string, std::string> placement;
};

/** Options from the target and AutoschedulerParams::extra (CompileError on
 * an unknown option or a bad value). */
HeuristicOptions heuristic_options(const Target &target,
                                   const std::map<std::string, std::string> &extra);

/** Schedule every Func of the pipeline that the user left unscheduled, for
 * outputs of these sizes (one list per output; empty when unknown). Returns
 * the Funcs left alone. */
std::vector<std::string> heuristic_schedule(const Pipeline &pipeline, const HeuristicOptions &opts,
                                            const std::vector<std::vector<int>> &output_sizes);

} // namespace Internal
} // namespace loom

#endif
