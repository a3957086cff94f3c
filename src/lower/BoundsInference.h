#ifndef LOOM_LOWER_BOUNDS_INFERENCE_H
#define LOOM_LOWER_BOUNDS_INFERENCE_H

// Defines, with LetStmts wrapped around the pipeline, the bounds the loop
// nests and Realize nodes of schedule_functions refer to:
//  - "f.s<k>.<v>.min" / ".max" for every stage of every scheduled Func: for
//    outputs the region of the output buffer ("f.min.<d>", "f.extent.<d>"),
//    for Funcs computed at root the region their consumers read;
//  - "f.<v>.min_realized" / ".extent_realized": the storage of those Funcs;
//  - "<b>.required.min.<d>" / ".max.<d>": the region of each input image
//    the whole pipeline reads, and of each output buffer the loops write
//    (for the bounds checks).
// Consumers' bounds are defined before (outside) their producers'.

#include <string>
#include <vector>

#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

Stmt bounds_inference(const Stmt &s, const std::vector<Function> &outputs,
                      const std::vector<std::string> &order, const Environment &env);

/** Names of the required-region Variables of an image. */
std::string required_min_name(const std::string &image, int dim);
std::string required_max_name(const std::string &image, int dim);

} // namespace Internal
} // namespace loom

#endif
