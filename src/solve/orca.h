/* ORCA (RVO2's solver, the default): the half-plane lines of an agent
 * and the linear programs that pick its new velocity. */
#ifndef RVO_SOLVE_ORCA_H
#define RVO_SOLVE_ORCA_H

#include "index/scratch.h"
#include "world/world.h"

#define RVO_EPSILON 0.00001f /* RVO2's tolerance for parallel lines */
#ifndef RVO_KEEP_RIGHT       /* -D to tune */
#define RVO_KEEP_RIGHT 0.95f
#endif /* sine of the widest head-on angle that keeps right */
/* Keep-right applies within a stream: two agents nearer than this many
 * radius sums whose velocities and preferred velocities are both within
 * acos(RVO_KEEP_RIGHT_COS) of each other (docs/quality.md). */
#ifndef RVO_KEEP_RIGHT_REACH /* -D to tune */
#define RVO_KEEP_RIGHT_REACH 2.5f
#endif
#ifndef RVO_KEEP_RIGHT_COS /* -D to tune */
#define RVO_KEEP_RIGHT_COS 0.9f
#endif
/* ... and each of the two walks within acos(RVO_KEEP_RIGHT_ALIGN) of its own
 * preferred velocity: off for a crowd deflected round a rally point, where
 * keep-right kept a vortex going (0.4-0.9 m/s; docs/quality.md). */
#ifndef RVO_KEEP_RIGHT_ALIGN /* -D to tune */
#define RVO_KEEP_RIGHT_ALIGN 0.95f
#endif
/* Head-on pairs take a leg, not the cut-off circle (orca.c, head_on):
 * sine of the widest angle off the line between them. */
#ifndef RVO_HEAD_ON_SIN /* -D to tune */
#define RVO_HEAD_ON_SIN 0.02f
#endif
/* ... and so do two agents crossing (preferences between acos(+-this) of
 * square) that walk where they want, once the cut-off circle would act. */
#ifndef RVO_HEAD_ON_CROSS_COS /* -D to tune */
#define RVO_HEAD_ON_CROSS_COS 0.3f
#endif
/* ... and so does a head-on pair braking from afar, before either stalls:
 * more than RVO_HEAD_ON_FAR radius sums apart, closing at
 * RVO_HEAD_ON_CLOSING or more of their preferred speeds together, one of
 * them slowed below RVO_HEAD_ON_SLOW of its preferred speed along its way
 * (orca.c, braking_from_afar). */
#ifndef RVO_HEAD_ON_FAR /* -D to tune */
#define RVO_HEAD_ON_FAR 8.0f
#endif
#ifndef RVO_HEAD_ON_CLOSING /* -D to tune */
#define RVO_HEAD_ON_CLOSING 0.25f
#endif
#ifndef RVO_HEAD_ON_SLOW /* -D to tune */
#define RVO_HEAD_ON_SLOW 0.4f
#endif
/* pref: the velocity the linear program aims for (the agent's preferred
 * velocity, or its detour's: solve/detour.h). */
rvo_vec2 rvo__orca_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s, rvo_vec2 pref);
int32_t rvo__orca_lines(const rvo_world *w, int32_t i, float dt, scratch *s, int32_t *num_obst);
int32_t rvo__obstacle_neighbors(const rvo_world *w, int32_t i, scratch *s);
int32_t rvo__pack_obstacle_edges(const rvo_world *w, int32_t i, scratch *s, orca_line *L, orca_line *P);
/* The velocity of the obstacle that edge (first vertex) e belongs to. */
static inline rvo_vec2 rvo__edge_velocity(const rvo_world *w, int32_t e) {
    return w->obst[w->verts[e].obstacle].vel;
}
/* linear programs (exposed for unit tests) */
bool rvo__lp1(const orca_line *lines, int32_t line_no, float radius, rvo_vec2 opt, bool dir_opt,
              rvo_vec2 *result);
int32_t rvo__lp2(const orca_line *lines, int32_t n, float radius, rvo_vec2 opt, bool dir_opt,
                 rvo_vec2 *result);
void rvo__lp3(const orca_line *lines, int32_t n, int32_t num_obst, int32_t begin, float radius,
              rvo_vec2 *result, orca_line *proj);

#endif
