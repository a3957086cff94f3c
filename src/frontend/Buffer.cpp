// Out-of-line helpers of loom/Buffer.h: names, errors, and reads in algorithms.

#include "loom/Buffer.h"

#include <atomic>

#include "ir/Error.h"
#include "ir/IR.h"

namespace loom {
namespace Internal {

std::string unique_buffer_name() {
    static std::atomic<int> counter{0};
    return "b" + std::to_string(counter++);
}

void buffer_error(const std::string &message) {
    throw RuntimeError(message);
}

Expr buffer_call(const Buffer<> &image, const std::vector<Expr> &args) {
    if (!image.defined()) user_error("An undefined Buffer is read in an algorithm");
    if (int(args.size()) != image.dimensions())
        user_error("Buffer " << image.name() << " is accessed with " << args.size() << " argument"
                             << (args.size() == 1 ? "" : "s") << " but has " << image.dimensions()
                             << " dimension" << (image.dimensions() == 1 ? "" : "s"));
    std::vector<Expr> coords;
    for (size_t i = 0; i < args.size(); i++) {
        const Expr &a = args[i];
        if (!a.defined())
            user_error("Argument " << i << " of a read of Buffer " << image.name()
                                   << " is undefined");
        Type t = a.type();
        if (!(t.is_int() || t.is_uint()) || t.is_bool())
            user_error("Argument " << i << " of a read of Buffer " << image.name() << " has type "
                                   << type_to_string(t) << "; coordinates must be integers");
        coords.push_back(t == Int(32) ? a : Cast::make(Int(32), a));
    }
    return Call::make(image, coords);
}

} // namespace Internal
} // namespace loom
