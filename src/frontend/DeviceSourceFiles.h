#ifndef LOOM_FRONTEND_DEVICE_SOURCE_FILES_H
#define LOOM_FRONTEND_DEVICE_SOURCE_FILES_H

// The generator driver's device_source output (see PipelineAOT.cpp).

#include <string>
#include <vector>

#include "loom/Pipeline.h"

namespace loom {
namespace Internal {

/** The files the device_source output writes for target t, one per GPU
 * API of t: filename_prefix + ".cl" (OpenCL C) when t has opencl,
 * filename_prefix + ".cu" (CUDA C) when t has cuda. A CompileError for a
 * target with neither. */
std::vector<std::string> device_source_files(const std::string &filename_prefix, const Target &t);

/** Writes the device_source_files of p for t: each holds the source of all
 * the pipeline's kernels of its API, as the runtime compiles it (a comment
 * when the pipeline has none there). */
void compile_to_device_source_files(const Pipeline &p, const std::string &filename_prefix,
                                    const std::vector<Argument> &args, const std::string &fn_name,
                                    const Target &t);

} // namespace Internal
} // namespace loom

#endif
