#ifndef LOOM_LOWER_TOUCH_INDEX_H
#define LOOM_LOWER_TOUCH_INDEX_H

// Where a scheduled pipeline reads and writes each Func and image, by
// production. Passes that handle one Func at a time (bounds inference,
// storage folding, sliding windows) use it to skip the productions that do
// not touch that Func and to stop after its last access: searching the whole
// rest of the pipeline for each Func would make a chain of N Funcs cost N^2.

#include <map>
#include <string>

#include "ir/IR.h"

namespace loom {
namespace Internal {

class TouchIndex {
public:
    /** Indexes s (one walk). */
    explicit TouchIndex(const Stmt &s);

    /** Reads (Call::Loom and Call::Image) of `name` in the whole statement. */
    int reads(const std::string &name) const;
    /** Writes (Provide) of `name` in the whole statement. */
    int writes(const std::string &name) const;
    /** Reads of `name` inside the productions of `production` (nested
     * productions included). */
    int reads_in(const std::string &production, const std::string &name) const;
    int writes_in(const std::string &production, const std::string &name) const;
    /** How many Realize nodes (how many produce nodes) `name` has: more
     * than one where specializations copied a loop nest. */
    int realizes(const std::string &name) const;
    int productions(const std::string &name) const;
    /** Produce nodes of `name` inside the productions of `production`. */
    int productions_in(const std::string &production, const std::string &name) const;

private:
    using Counts = std::map<std::string, int>;
    Counts reads_, writes_, realizes_, productions_;
    std::map<std::string, Counts> reads_in_, writes_in_, productions_in_;
    friend class TouchIndexBuilder;
};

} // namespace Internal
} // namespace loom

#endif
