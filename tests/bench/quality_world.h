/* The world settings of a quality scene (quality_scenes.h): RVO2's
 * parameters of the scene as an rvo_world_def, for the tools and tests
 * that run the scenes in rvo. */
#ifndef RVO_QUALITY_WORLD_H
#define RVO_QUALITY_WORLD_H

#include "quality_scenes.h"
#include "rvo.h"

static inline rvo_world_def qs_world_def(const qscene *s) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = s->dt;
    wd.agent.radius = s->radius;
    wd.agent.max_speed = s->max_speed;
    wd.agent.neighbor_dist = s->neighbor_dist;
    wd.agent.max_neighbors = s->max_neighbors;
    wd.agent.time_horizon = s->time_horizon;
    wd.agent.time_horizon_obst = s->time_horizon_obst;
    return wd;
}

#endif
