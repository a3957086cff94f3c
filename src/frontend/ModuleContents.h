#ifndef LOOM_FRONTEND_MODULE_CONTENTS_H
#define LOOM_FRONTEND_MODULE_CONTENTS_H

// What a loom::Module holds (include/loom/Module.h), and the writing of
// output files that Module::compile and Pipeline::compile_to share.

#include <map>
#include <string>
#include <vector>

#include "loom/Module.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

struct ModuleContents {
    std::string name;
    Target target;
    std::vector<ModuleFunction> functions;
    /** lower()'s result for the one entry point: every output is made from
     * it, so that later schedule changes do not reach the Module. */
    LoweredFunc lowered;
    /** The schedule output, taken when the Module was made (same reason). */
    std::string schedule;
};

/** Writes contents to filename (binary); CompileError when it cannot. */
void write_file(const std::string &filename, const std::string &contents);
/** ".obj" for Windows targets, else ".o". */
std::string object_file_suffix(const Target &t);

/** Refuses, naming `what`, an output kind Loom does not write or an empty
 * file name, before anything is written. */
void check_output_files(const std::map<OutputFileType, std::string> &output_files,
                        const char *what);

/** Writes each requested output of m (after check_output_files). */
void write_module_outputs(const ModuleContents &m,
                          const std::map<OutputFileType, std::string> &output_files,
                          const char *what);

} // namespace Internal
} // namespace loom

#endif
