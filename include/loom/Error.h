#ifndef LOOM_ERROR_H
#define LOOM_ERROR_H

/** \file Exceptions thrown by Loom. */

#include <stdexcept>
#include <string>

namespace loom {

/** Base of every error Loom throws. */
struct Error : std::runtime_error {
    explicit Error(const std::string &msg) : std::runtime_error(msg) {}
};

/** A malformed algorithm or schedule, found at definition or compile time. */
struct CompileError : Error {
    explicit CompileError(const std::string &msg) : Error(msg) {}
};

/** A failure while running a pipeline (bad buffers, failed checks). */
struct RuntimeError : Error {
    explicit RuntimeError(const std::string &msg) : Error(msg) {}
};

/** A bug in Loom itself. Please report it. */
struct InternalError : Error {
    explicit InternalError(const std::string &msg) : Error(msg) {}
};

} // namespace loom

#endif
