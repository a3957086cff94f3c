#ifndef LOOM_MODULE_H
#define LOOM_MODULE_H

/** \file Module: a pipeline lowered once for one target (Halide's Module),
 * from Pipeline::compile_to_module or Func::compile_to_module; compile()
 * writes any of the outputs compile_to writes from that one lowering. */

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loom/Argument.h"
#include "loom/OutputFileType.h"
#include "loom/Target.h"

namespace loom {

namespace Internal {
struct ModuleContents;
} // namespace Internal

/** One entry point of a Module: its name and its arguments in order,
 * outputs last (what Halide's LoweredFunc says of its signature). */
struct ModuleFunction {
    std::string name;
    std::vector<Argument> args;
};

class Module {
public:
    const std::string &name() const;
    const Target &target() const;
    /** The entry points, in the order they were added. */
    const std::vector<ModuleFunction> &functions() const;

    /** Write each requested output (see Pipeline::compile_to for the kinds
     * Loom writes; the others are a CompileError, raised before anything
     * is written). */
    void compile(const std::map<OutputFileType, std::string> &output_files) const;

    /** Internal: made by compile_to_module. */
    explicit Module(std::shared_ptr<const Internal::ModuleContents> contents);
    const Internal::ModuleContents &contents() const { return *contents_; }

private:
    std::shared_ptr<const Internal::ModuleContents> contents_;
};

} // namespace loom

#endif
