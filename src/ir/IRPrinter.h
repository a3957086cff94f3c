#ifndef LOOM_IR_PRINTER_H
#define LOOM_IR_PRINTER_H

// Human-readable text for IR: expressions in C-like syntax, statements as an
// indented loop nest. The text of compile_to_lowered_stmt and LOOM_DEBUG.

#include <ostream>
#include <string>

#include "ir/IR.h"

namespace loom {
std::ostream &operator<<(std::ostream &os, const Expr &e);
std::ostream &operator<<(std::ostream &os, const Stmt &s);
std::ostream &operator<<(std::ostream &os, const Type &t);
std::ostream &operator<<(std::ostream &os, ForType t);
std::ostream &operator<<(std::ostream &os, MemoryType t);

namespace Internal {
std::string to_string(const Expr &e);
std::string to_string(const Stmt &s);
/** HTML rendering of a statement with syntax colouring (compile_to_lowered_stmt HTML). */
std::string to_html(const Stmt &s, const std::string &title);
} // namespace Internal
} // namespace loom

#endif
