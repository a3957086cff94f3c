#ifndef LOOM_AUTOSCHEDULE_TUNING_CACHE_H
#define LOOM_AUTOSCHEDULE_TUNING_CACHE_H

// The autotuner's cache on disk: one entry per pipeline (by its outputs'
// names), output sizes, target and thread count, holding the winning
// schedule and a hash of each Func's definition, so an entry whose
// algorithm changed is recognised (and reported by Func name), never used.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loom/Function.h"
#include "loom/PipelineSchedule.h"

namespace loom {
namespace Internal {

struct TuningEntry {
    PipelineSchedule schedule;
    /** Per Func, producers first: its name and a hash of its definition in
     * which Funcs are named by position (Loom-made names such as those of
     * boundary conditions change from one copy of an algorithm to the next). */
    std::vector<std::pair<std::string, uint64_t>> definitions;
    double best_ms = 0, baseline_ms = 0;
};

class TuningCache {
    std::string dir_;

public:
    /** dir empty: $LOOM_TUNING_CACHE, $XDG_CACHE_HOME/loom/tuning or ~/.cache/loom/tuning. */
    explicit TuningCache(const std::string &dir);
    const std::string &dir() const { return dir_; }

    /** The key of a pipeline run: outputs, sizes, target and threads. */
    static std::string key(const std::vector<Function> &outputs,
                           const std::vector<std::vector<int>> &sizes, const std::string &target,
                           int threads);
    /** The definition hash of every Func of funcs (producers first). */
    static std::vector<std::pair<std::string, uint64_t>>
    definitions_of(const std::vector<Function> &funcs);

    std::optional<TuningEntry> load(const std::string &key) const;
    /** Writes the entry (quietly does nothing when the folder is not writable). */
    void store(const std::string &key, const TuningEntry &entry) const;
};

/** The Funcs whose definitions differ between a cache entry and now
 * (changed, added or removed), sorted. */
std::vector<std::string> stale_funcs(const std::vector<std::pair<std::string, uint64_t>> &cached,
                                     const std::vector<std::pair<std::string, uint64_t>> &now);

} // namespace Internal
} // namespace loom

#endif
