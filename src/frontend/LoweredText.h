#ifndef LOOM_FRONTEND_LOWERED_TEXT_H
#define LOOM_FRONTEND_LOWERED_TEXT_H

// The text outputs made from a lowered pipeline, shared by Pipeline's
// compile_to_* methods and Module::compile (src/frontend/Pipeline.cpp).

#include <string>

#include "loom/Pipeline.h"
#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** What compile_to_lowered_stmt writes for f. */
std::string lowered_stmt_text(const LoweredFunc &f, StmtOutputFormat format);
/** What compile_to_conceptual_stmt writes for f. */
std::string conceptual_stmt_text(const LoweredFunc &f, StmtOutputFormat format);
/** What compile_to_device_source writes for f: its kernels' source, or a
 * comment saying it has none. */
std::string device_source_text(const LoweredFunc &f, const Target &target);

} // namespace Internal
} // namespace loom

#endif
