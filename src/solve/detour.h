/* A way around obstacles (default mode, ORCA): an agent stalled against an
 * obstacle that blocks its preferred direction follows the obstacle's
 * outline to one side until the way ahead is free. ORCA alone stops for
 * good in front of a convex obstacle whose far side it wants to reach
 * (its preferred velocity projects to nothing along the edge). */
#ifndef RVO_SOLVE_DETOUR_H
#define RVO_SOLVE_DETOUR_H

#include "index/scratch.h"
#include "solve/give_way.h"
#include "world/world.h"

/* An obstacle counts while its outline is within this many radii of the
 * agent's edge (contact, allowing for the clearance ORCA keeps). */
#ifndef RVO_DETOUR_REACH /* -D to tune */
#define RVO_DETOUR_REACH 1.0f
#endif
/* The way ahead is blocked when a disc of this share of the radius, swept
 * RVO_DETOUR_AHEAD radii along the preferred velocity, touches an edge (a
 * little under 1: sliding along an edge at its clearance is not blocked). */
#ifndef RVO_DETOUR_CLEARANCE /* -D to tune */
#define RVO_DETOUR_CLEARANCE 0.95f
#endif
/* A detour starts only for an agent heading into the outline within
 * acos(RVO_DETOUR_FACING) of its normal. */
#ifndef RVO_DETOUR_FACING /* -D to tune */
#define RVO_DETOUR_FACING 0.7f
#endif
#ifndef RVO_DETOUR_AHEAD /* -D to tune */
#define RVO_DETOUR_AHEAD 2.0f
#endif

/* The preferred velocity agent i's solve should aim for: its own, or
 * while it goes round an obstacle the outline's tangent at the same speed.
 * Starts, keeps or ends the detour (w->detour[i]: 0, or +1 / -1 for the
 * obstacle on the agent's right / left); writes only agent i's state. */
rvo_vec2 rvo__detour_pref_slow(rvo_world *w, int32_t i, scratch *s);
static inline rvo_vec2 rvo__detour_pref(rvo_world *w, int32_t i, scratch *s) {
    /* the common case, inline: not going round, not stalled */
    if (w->detour[i] == 0 && !rvo__stalled(w->stall[i], w->stall_min_time))
        return w->pref[i];
    return rvo__detour_pref_slow(w, i, s);
}

#endif
