#include "codegen/ArgvMessages.h"

namespace loom {
namespace Internal {

std::string argv_null_message(const LoweredFunc &f) {
    return f.name + "_argv: argv is NULL; it must point to " + std::to_string(f.args.size() + 1) +
           " entries: the user context (may be NULL), then one per argument in the order of " +
           f.name + "_metadata()";
}

std::string argv_slot_null_message(const LoweredFunc &f, size_t i) {
    return f.name + "_argv: argv[" + std::to_string(i + 1) +
           "] is NULL, but it must point to the " + "value of the scalar argument " +
           f.args[i].name;
}

} // namespace Internal
} // namespace loom
