#include "lower/Lower.h"

#include <iostream>

#include "analysis/CSE.h"
#include "analysis/Simplify.h"
#include "ir/IRPrinter.h"
#include "lower/AddImageChecks.h"
#include "lower/BoundsInference.h"
#include "lower/CheckVectorExtents.h"
#include "lower/FindEnvironment.h"
#include "lower/GroupInvariantIndexTerms.h"
#include "lower/InferArguments.h"
#include "lower/InlineFunctions.h"
#include "lower/LowerUtil.h"
#include "lower/PartitionLoops.h"
#include "lower/PrefetchStridedLoads.h"
#include "lower/RemoveDeadLets.h"
#include "lower/ScheduleFunctions.h"
#include "lower/SlidingWindow.h"
#include "lower/StorageFlattening.h"
#include "lower/StorageFolding.h"
#include "lower/StreamingStores.h"
#include "lower/UnpackBuffers.h"
#include "lower/UnrollLoops.h"
#include "lower/VectorizeLoops.h"

namespace loom {
namespace Internal {

namespace {

void log_pass(const char *pass, const Stmt &s) {
    if (debug_level() >= 2) std::cerr << "Lowering after " << pass << ":\n" << s << "\n";
}

} // namespace

LoweredFunc lower(const std::vector<Function> &outputs, const std::string &name,
                  const Target &target, const std::vector<Argument> &listed) {
    Environment env = find_environment(outputs);
    std::vector<std::string> realization = realization_order(outputs, env);

    Stmt s = schedule_functions(outputs, realization, env);
    log_pass("schedule_functions", s);

    s = inline_functions(s, outputs);
    log_pass("inline_functions", s);

    s = bounds_inference(s, outputs, realization, env);
    log_pass("bounds_inference", s);

    s = check_vector_extents(s);

    s = sliding_window(s, env);
    log_pass("sliding_window", s);

    s = storage_folding(s, env);
    log_pass("storage_folding", s);

    std::vector<LoweredArgument> args = infer_arguments(s, outputs, listed);

    s = storage_flattening(s, outputs, env);
    log_pass("storage_flattening", s);

    s = partition_loops(s);
    log_pass("partition_loops", s);

    s = unroll_loops(s);
    log_pass("unroll_loops", s);

    s = vectorize_loops(s);
    log_pass("vectorize_loops", s);

    s = unpack_buffers(s, args);
    log_pass("unpack_buffers", s);

    s = add_image_checks(s, args, outputs, image_readers(realization, env), target);
    log_pass("add_image_checks", s);

    s = simplify(s);
    log_pass("simplify", s);

    s = group_invariant_index_terms(s);
    log_pass("group_invariant_index_terms", s);

    s = common_subexpression_elimination(s);
    log_pass("common_subexpression_elimination", s);

    s = remove_dead_lets(s);
    log_pass("remove_dead_lets", s);

    s = streaming_stores(s, args, target);
    log_pass("streaming_stores", s);

    s = prefetch_strided_loads(s, target);
    log_pass("prefetch_strided_loads", s);

    s = bind_host_pointers(s, args);
    log_pass("bind_host_pointers", s);

    // Listed arguments the pipeline never reads: no checks, no unpacking.
    return LoweredFunc{name, add_unread_arguments(args, listed), s, {}};
}

} // namespace Internal
} // namespace loom
