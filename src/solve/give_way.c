/* The flags of who gives way (give_way.h): per agent, what can make a
 * pair with it split other than 50/50, and whether it is hemmed in. */
#include "solve/give_way.h"

/* Does agent i touch agent k: another agent nearer than RVO_CONTACT_MARGIN
 * times the radius sum (distances from w->pos), one that i avoids, on its
 * floor? */
static bool touches(const rvo_world *w, int32_t i, int32_t k) {
    if (k == i)
        return false;
    const agent_params *me = &w->prm[i], *other = &w->prm[k];
    const float touch = RVO_CONTACT_MARGIN * (me->radius + other->radius);
    return v2_abs_sq(v2_sub(w->pos[k], w->pos[i])) < touch * touch && (me->mask & other->groups) &&
           z_overlap(me->z, me->height, other->z, other->height, w->height_margin);
}

/* The agents that agent i touches: all of them in *all, the idle ones
 * among them in *idle. Searches the agent grid, whose items may stand up to
 * its slack from their cells (the box: every agent i can touch). */
static void count_contacts(const rvo_world *w, int32_t i, int32_t *all, int32_t *idle) {
    const agent_grid *g = &w->grid;
    const agent_params *me = &w->prm[i];
    const rvo_vec2 p = w->pos[i];
    const grid_cells b = rvo__grid_cells(g, p.x, p.y, RVO_CONTACT_MARGIN * (me->radius + g->max_radius));
    *all = *idle = 0;
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy) /* (a row's cells are one span of items) */
        for (int32_t t = g->start[cy * g->nx + b.cx0]; t < g->start[cy * g->nx + b.cx1 + 1]; ++t) {
            const int32_t k = g->items[t];
            if (!touches(w, i, k))
                continue;
            ++*all;
            *idle += rvo__idle(w->pref[k], &w->prm[k]);
        }
}

/* Does stalled agent i press into an agent at rest, one it touches within
 * acos(RVO_REST_AHEAD_COS) of its preferred velocity that is idle and
 * hemmed in (it cannot give way), that already rests against one, or that
 * like i has stalled for RVO_LONG_STALL times the threshold pressing the
 * same way (preferred velocities within acos(RVO_REST_SAME_COS))? */
static bool presses_on_rest(const rvo_world *w, int32_t i) {
    const agent_grid *g = &w->grid;
    const agent_params *me = &w->prm[i];
    const rvo_vec2 p = w->pos[i], pref = w->pref[i];
    const grid_cells b = rvo__grid_cells(g, p.x, p.y, RVO_CONTACT_MARGIN * (me->radius + g->max_radius));
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy)
        for (int32_t t = g->start[cy * g->nx + b.cx0]; t < g->start[cy * g->nx + b.cx1 + 1]; ++t) {
            const int32_t k = g->items[t];
            const unsigned uk = w->uneven[k];
            /* idle and hemmed in, resting already, or (both stalled for
             * long) pressing the same way */
            bool at_rest = (uk & (RVO_UNEVEN_IDLE | RVO_UNEVEN_HEMMED_IDLE)) ==
                               (RVO_UNEVEN_IDLE | RVO_UNEVEN_HEMMED_IDLE) ||
                           (uk & RVO_UNEVEN_RESTS);
            if (!at_rest && (uk & w->uneven[i] & RVO_UNEVEN_LONG)) {
                const rvo_vec2 pk = w->pref[k];
                const float d = v2_dot(pref, pk);
                at_rest = d > 0.0f &&
                          d * d >= RVO_REST_SAME_COS * RVO_REST_SAME_COS * v2_abs_sq(pref) * v2_abs_sq(pk);
            }
            if (!at_rest || !touches(w, i, k))
                continue;
            const rvo_vec2 rel = v2_sub(w->pos[k], p);
            const float d = v2_dot(pref, rel);
            if (d > 0.0f &&
                d * d > RVO_REST_AHEAD_COS * RVO_REST_AHEAD_COS * v2_abs_sq(pref) * v2_abs_sq(rel))
                return true;
        }
    return false;
}

/* Flags the agents a pair with which may split other than 50/50
 * (rvo__share, rvo__gives_way): locked, a weight other than agent 0's, a
 * group or mask that can make a pair one-sided, and with strict overlap
 * idle or stalled (RVO_UNEVEN_*), those two also hemmed in or not. Between
 * two unflagged agents rvo__share is 0.5 and rvo__gives_way 0, so
 * agent_lines4 (orca.c) takes every agent and block of neighbours without
 * a flag, and agent_lines skips the per-neighbour tests when no agent has
 * one. */
bool rvo__update_shares(rvo_world *w) {
    const int32_t n = w->count;
    if (!rvo__grow(w, (void **)&w->uneven, &w->uneven_cap, n, sizeof *w->uneven))
        return false;
    const bool gives = w->strict_overlap && !w->rvo2_compat;
    const float weight = n > 0 ? w->prm[0].weight : 0.0f;
    const float t = w->stall_min_time, t_long = RVO_LONG_STALL * t;
    const agent_params *prm = w->prm;
    if (!gives && w->n_filtering == 0) { /* usually no flag at all: look before writing them */
        int32_t i = 0;
        while (i < n && !prm[i].locked && prm[i].weight == weight)
            ++i;
        if (i == n) {
            w->n_uneven = 0;
            w->n_params = 0;
            w->equal_shares = true;
            return true;
        }
    }
    const rvo_vec2 *pref = w->pref;
    const float *stall = w->stall;
    uint8_t *uneven = w->uneven;
    int32_t count = 0, params = 0, yielders = 0, stalled_count = 0;
    for (int32_t i = 0; i < n; ++i) { /* (| rather than ||: no branches) */
        const agent_params *a = &prm[i];
        unsigned u = (a->locked != 0) | (a->weight != weight) | (a->mask != 0xffffffffu) | (a->groups == 0);
        if (gives) {
            const float s = stall[i];
            u |= rvo__idle(pref[i], a) * RVO_UNEVEN_IDLE;
            const unsigned stalled = rvo__stalled(s, t);
            u |= stalled * RVO_UNEVEN_STALLED | (stalled & (s >= t_long)) * RVO_UNEVEN_LONG;
            yielders += (u & (RVO_UNEVEN_IDLE | RVO_UNEVEN_STALLED)) != 0;
            stalled_count += stalled;
        }
        uneven[i] = (uint8_t)u;
        count += u != 0;
        params += u & RVO_UNEVEN_PARAMS;
    }
    /* hemmed in: only agents the rules can ask to give way (the rest of
     * the world pays nothing) */
    for (int32_t i = 0; yielders > 0 && i < n; ++i) {
        if (!(uneven[i] & (RVO_UNEVEN_IDLE | RVO_UNEVEN_STALLED)))
            continue;
        --yielders;
        int32_t all, idle;
        count_contacts(w, i, &all, &idle);
        uneven[i] |=
            (uint8_t)((idle >= 1 || all >= 2) * RVO_UNEVEN_HEMMED_IDLE | (all >= 3) * RVO_UNEVEN_HEMMED);
    }
    /* at rest against a resting crowd: from the idle agents hemmed in
     * outwards, in the world's order (the same on any thread count), until
     * no more agent joins (a bounded number of passes) */
    bool joined = stalled_count > 0;
    for (int pass = 0; joined && pass < RVO_REST_PASSES; ++pass) {
        joined = false;
        for (int32_t i = 0; i < n; ++i)
            if ((uneven[i] & (RVO_UNEVEN_STALLED | RVO_UNEVEN_IDLE | RVO_UNEVEN_RESTS)) ==
                    RVO_UNEVEN_STALLED &&
                presses_on_rest(w, i)) {
                uneven[i] |= RVO_UNEVEN_RESTS;
                joined = true;
            }
    }
    w->n_uneven = count;
    w->n_params = params;
    w->equal_shares = count == 0;
    return true;
}
