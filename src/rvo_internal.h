/* Every internal header of the C core, for the tests that reach inside
 * (tests/c). The core's own files include only the modules they use, of
 * their layer and below (docs/architecture.md). */
#ifndef RVO_INTERNAL_H
#define RVO_INTERNAL_H

#include "base/alloc.h"
#include "base/ids.h"
#include "base/math.h"
#include "base/platform.h"
#include "base/pool.h"
#include "index/grid.h"
#include "index/scratch.h"
#include "solve/detour.h"
#include "solve/give_way.h"
#include "solve/orca.h"
#include "solve/separate.h"
#include "solve/solvers.h"
#include "world/world.h"

#endif
