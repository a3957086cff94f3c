// The camera_pipe generator program (see CameraPipeGenerator.h).
#include "CameraPipeGenerator.h"

LOOM_REGISTER_GENERATOR(CameraPipeGenerator, camera_pipe)
