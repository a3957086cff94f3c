#ifndef LOOM_IR_ERROR_H
#define LOOM_IR_ERROR_H

// Helpers to raise Loom's exceptions with messages built from streams:
//   user_error("Func f: " << n << " arguments");   -> CompileError
//   internal_assert(x.defined(), "why");           -> InternalError with file:line

#include <sstream>

#include "loom/Error.h"

#define user_error(msg_stream)                                                                     \
    do {                                                                                           \
        std::ostringstream loom_err_os_;                                                           \
        loom_err_os_ << msg_stream;                                                                \
        throw ::loom::CompileError(loom_err_os_.str());                                            \
    } while (0)

#define internal_error(msg_stream)                                                                 \
    do {                                                                                           \
        std::ostringstream loom_err_os_;                                                           \
        loom_err_os_ << "Internal error at " << __FILE__ << ":" << __LINE__ << ": " << msg_stream; \
        throw ::loom::InternalError(loom_err_os_.str());                                           \
    } while (0)

#define internal_assert(cond, msg_stream)                                                          \
    do {                                                                                           \
        if (!(cond)) internal_error("condition failed: " #cond ": " << msg_stream);                \
    } while (0)

#endif
