// embed_concrete_buffers(): a Buffer the pipeline reads directly is data the
// pipeline was defined with, not an input a caller supplies, so an
// ahead-of-time entry point carries it inside the object (as Halide does)
// instead of asking every caller for it.

#include "aot/AOTOutputs.h"

namespace loom {
namespace Internal {

LoweredFunc embed_concrete_buffers(LoweredFunc f) {
    std::vector<LoweredArgument> args;
    for (LoweredArgument &a : f.args) {
        bool concrete =
            a.kind == LoweredArgument::InputBuffer && a.buffer.defined() && !a.param.defined();
        (concrete ? f.embedded_buffers : args).push_back(std::move(a));
    }
    f.args = std::move(args);
    return f;
}

} // namespace Internal
} // namespace loom
