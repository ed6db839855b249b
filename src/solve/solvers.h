/* The alternative solvers (rvo_solver): Unreal-style avoidance and
 * sampling RVO. */
#ifndef RVO_SOLVE_SOLVERS_H
#define RVO_SOLVE_SOLVERS_H

#include "index/scratch.h"
#include "world/world.h"

rvo_vec2 rvo__ue_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s);
rvo_vec2 rvo__sampling_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s);
/* First contact time of a disc of radius r at the origin moving with v
 * against the edge a->b (unit direction e, length len); see solver_sampling.c. */
float rvo__edge_toi(rvo_vec2 a, rvo_vec2 b, rvo_vec2 e, float len, float r, rvo_vec2 v, float *depth,
                    rvo_vec2 *n);

#endif
