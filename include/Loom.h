#ifndef LOOM_H
#define LOOM_H

/** \file The umbrella header of Loom's public API. */

// The standard headers Halide.h brings in, which ported programs rely on
// (assert, std::cout, memcpy, std::min, sqrt, printf, ...).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>

#include "LoomRuntime.h"
#include "loom/Argument.h"
#include "loom/AutoSchedule.h"
#include "loom/BoundaryConditions.h"
#include "loom/Buffer.h"
#include "loom/Callable.h"
#include "loom/DeviceAPI.h"
#include "loom/Dimension.h"
#include "loom/Error.h"
#include "loom/Evaluate.h"
#include "loom/Expr.h"
#include "loom/Extern.h"
#include "loom/Func.h"
#include "loom/Generator.h"
#include "loom/IROperator.h"
#include "loom/ImageParam.h"
#include "loom/InlineReductions.h"
#include "loom/JITHandlers.h"
#include "loom/Lambda.h"
#include "loom/Module.h"
#include "loom/Param.h"
#include "loom/Pipeline.h"
#include "loom/PipelineSchedule.h"
#include "loom/RDom.h"
#include "loom/Realization.h"
#include "loom/Target.h"
#include "loom/Tuple.h"
#include "loom/Type.h"
#include "loom/Var.h"

#endif
