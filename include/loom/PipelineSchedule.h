#ifndef LOOM_PIPELINE_SCHEDULE_H
#define LOOM_PIPELINE_SCHEDULE_H

/** \file PipelineSchedule: the schedule of a whole pipeline as a value, to
 * compare, hash, print as C++, save as JSON and apply to another copy of
 * the same algorithm (the auto-scheduler and the autotuner produce one). */

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "loom/Schedule.h"

namespace loom {

class Pipeline;

class PipelineSchedule {
public:
    /** One Func's schedule: its placement and storage, and the loop
     * schedule of each of its definitions (pure first, then updates). */
    struct FuncEntry {
        std::string func;              // the Func's name
        std::vector<std::string> args; // its pure Vars, to check a Func it is applied to
        Internal::FuncSchedule placement;
        std::vector<Internal::StageSchedule> stages;
        std::vector<bool> atomic; // per stage: atomic() was called
        /** Per stage: its loops before any scheduling, innermost first (the
         * pure Vars, and for updates the RVars inside them). */
        std::vector<std::vector<std::string>> initial_loops;

        /** An rfactor() of one of its updates, in the order they were made:
         * the update's schedule when rfactor was called (its RVar splits),
         * its loops before any scheduling, the RVar loops kept as new pure
         * Vars, and the intermediate Func's name. */
        struct RFactor {
            int stage = 1; // 1 + the update's index
            Internal::StageSchedule before;
            std::vector<std::string> initial_loops;
            std::vector<std::pair<std::string, std::string>> preserved; // RVar loop -> Var
            std::string intermediate;
        };
        std::vector<RFactor> rfactors;
        /** For an intermediate made by rfactor(): the Func whose update made
         * it (applying the schedule makes it again); "" otherwise. */
        std::string rfactor_of;

        /** For a wrapper made by in(), clone_in() or ImageParam::in(): the
         * Func it wraps (for an ImageParam, the image's Func `<name>_im`),
         * the ImageParam's name when it wraps an image, the callers it was
         * made for ("" stands for every other caller: `in()`), and whether it
         * is a clone. For Buffer::in, `of` and `image` are the Buffer's name
         * and `buffer` is set. Applying the schedule makes it again. */
        struct Wrapper {
            std::string of, image;
            std::vector<std::string> callers;
            bool clone = false, buffer = false;
        };
        Wrapper wrapper; // of is "" for a Func that is not a wrapper
    };

    PipelineSchedule() = default;

    /** The schedules of every Func the pipeline computes, producers first. */
    static PipelineSchedule of(const Pipeline &pipeline);

    /** Give each Func of `pipeline` the schedule recorded for the Func of the
     * same name (a Func with no recorded schedule keeps its own). Throws
     * CompileError, changing nothing, when a recorded Func is missing from the
     * pipeline or has other pure Vars or another number of updates.
     * Recorded rfactor() calls are made again (updates the pipeline factored
     * otherwise are put back first), so the intermediates they create, with
     * the recorded names, get their recorded schedules; so are recorded
     * wrappers (in(), clone_in(), ImageParam::in()). */
    void apply(const Pipeline &pipeline) const;

    /** The recorded Funcs, producers first. */
    const std::vector<FuncEntry> &funcs() const { return funcs_; }
    std::vector<FuncEntry> &funcs() { return funcs_; }
    /** The entry of the Func with this name, or nullptr. */
    const FuncEntry *find(const std::string &func) const;

    /** The schedule as C++ calls on the user's Funcs and Vars, named as in
     * the algorithm (`blur_y.compute_at(out, yo).vectorize(x, 8);`), in a
     * block that declares the loop Vars the calls use: paste it where the
     * Funcs are in scope. apply_source() reads it back. */
    std::string to_cpp() const;

    /** Apply schedule source as written by to_cpp() (or by hand in the same
     * form: one statement per Func, calls on `func` or `func.update(i)`)
     * to pipeline. Throws CompileError naming the line on anything else. */
    static void apply_source(const Pipeline &pipeline, const std::string &source);

    /** A JSON document holding the whole schedule; from_json() reads it.
     * Factors and bounds must be integer constants or Params (a CompileError
     * names the Func otherwise); specializations are not saved. */
    std::string to_json() const;
    static PipelineSchedule from_json(const std::string &json);
    void save(const std::string &filename) const;
    static PipelineSchedule load(const std::string &filename);

    /** A stable 64-bit hash of the schedule (equal schedules hash equal in
     * every process). */
    uint64_t hash() const;
    bool operator==(const PipelineSchedule &other) const;
    bool operator!=(const PipelineSchedule &other) const { return !(*this == other); }

private:
    std::vector<FuncEntry> funcs_;
};

} // namespace loom

#endif
