/* The flags of who gives way (give_way.h): per agent, what can make a
 * pair with it split other than 50/50, and whether it is hemmed in. */
#include "solve/give_way.h"

#include <string.h>

/* Is agent k nearer to p than scale times its radius sum with me, a body
 * that me avoids, on its floor? */
static bool body_near(const rvo_world *w, const agent_params *me, int32_t k, rvo_vec2 p, float scale) {
    const agent_params *other = &w->prm[k];
    const float r = scale * (me->radius + other->radius);
    return v2_abs_sq(v2_sub(w->pos[k], p)) < r * r && (me->mask & other->groups) &&
           z_overlap(me->z, me->height, other->z, other->height, w->height_margin);
}

/* Does agent i touch agent k: another agent nearer than RVO_CONTACT_MARGIN
 * times the radius sum (distances from w->pos), one that i avoids, on its
 * floor? */
static bool touches(const rvo_world *w, int32_t i, int32_t k) {
    return k != i && body_near(w, &w->prm[i], k, w->pos[i], RVO_CONTACT_MARGIN);
}

/* Has agent k come near where it aims (world/aim.c): idle, or a streak of
 * RVO_AIM_NEAR_STEPS measures that put that point near? */
static bool aims_near(const rvo_world *w, int32_t k) {
    return rvo__idle(w->pref[k], &w->prm[k]) || rvo__aim_next(w, k).streak >= RVO_AIM_NEAR_STEPS;
}

/* Does agent k walk (not idle) and has it come near where it aims? */
static bool walks_near_aim(const rvo_world *w, int32_t k) {
    return !rvo__idle(w->pref[k], &w->prm[k]) && aims_near(w, k);
}

/* The agents that agent i touches: all of them in *all, the idle ones
 * among them in *idle, those that want to go against i's way (preferred
 * velocities more than 90 degrees apart) in *against. Searches the agent
 * grid, whose items may stand up to its slack from their cells (the box:
 * every agent i can touch). */
static void count_contacts(const rvo_world *w, int32_t i, int32_t *all, int32_t *idle, int32_t *against) {
    const agent_grid *g = &w->grid;
    const agent_params *me = &w->prm[i];
    const rvo_vec2 p = w->pos[i], pref = w->pref[i];
    const grid_cells b = rvo__grid_cells(g, p.x, p.y, RVO_CONTACT_MARGIN * (me->radius + g->max_radius));
    *all = *idle = *against = 0;
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy) /* (a row's cells are one span of items) */
        for (int32_t t = g->start[cy * g->nx + b.cx0]; t < g->start[cy * g->nx + b.cx1 + 1]; ++t) {
            const int32_t k = g->items[t];
            if (!touches(w, i, k))
                continue;
            ++*all;
            *idle += rvo__idle(w->pref[k], &w->prm[k]);
            *against += v2_dot(pref, w->pref[k]) < 0.0f;
        }
}

/* Is the spot q, where agent i would stand, taken: does a body that i
 * avoids, on its floor, other than i and k, cover it (nearer than
 * RVO_SIDE_FREE of the radius sum)? */
static bool spot_taken(const rvo_world *w, int32_t i, int32_t k, rvo_vec2 q) {
    const agent_grid *g = &w->grid;
    const agent_params *me = &w->prm[i];
    const grid_cells b = rvo__grid_cells(g, q.x, q.y, me->radius + g->max_radius);
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy)
        for (int32_t t = g->start[cy * g->nx + b.cx0]; t < g->start[cy * g->nx + b.cx1 + 1]; ++t) {
            const int32_t m = g->items[t];
            if (m != i && m != k && body_near(w, me, m, q, RVO_SIDE_FREE))
                return true;
        }
    return false;
}

/* Can agent i walk round agent k, which stands ahead of it: is one of the
 * two spots beside k, across i's preferred velocity, free, and the spot
 * past it along that velocity? A crowd at rest fills them; a lone agent
 * or a line met end-on leaves them open. */
static bool can_pass(const rvo_world *w, int32_t i, int32_t k) {
    const rvo_vec2 pref = w->pref[i];
    const float len = sqrtf(v2_abs_sq(pref));
    if (!(len > 0.0f))
        return false;
    const float d = (w->prm[i].radius + w->prm[k].radius) / len;
    const rvo_vec2 side = v2(-pref.y * d, pref.x * d), ahead = v2(pref.x * d, pref.y * d), pk = w->pos[k];
    const rvo_vec2 left = v2_add(pk, side), right = v2_sub(pk, side);
    return (!spot_taken(w, i, k, left) && !spot_taken(w, i, k, v2_add(left, ahead))) ||
           (!spot_taken(w, i, k, right) && !spot_taken(w, i, k, v2_add(right, ahead)));
}

typedef struct wall_query {
    const rvo_world *w;
    rvo_vec2 p;
    float z, height, reach_sq;
    bool near;
} wall_query;

static void visit_wall(void *ctx, int32_t e) {
    wall_query *q = ctx;
    const rvo_world *w = q->w;
    const obst_vertex *v = &w->verts[e];
    if (q->near || !obst_on_floor(&w->obst[v->obstacle], q->z, q->height, w->height_margin))
        return;
    const rvo_vec2 a = v->point, ab = v2_sub(w->verts[v->next].point, a);
    q->near = v2_abs_sq(v2_sub(q->p, v2_nearest_on_segment(q->p, a, ab))) < q->reach_sq;
}

/* Is an obstacle edge on agent i's floor within reach [m] of it? (Any
 * thread: rvo__gathered asks it, through rvo__gives_way, from the overlap
 * passes' workers.) */
static bool wall_near(const rvo_world *w, int32_t i, float reach) {
    if (w->nverts == 0)
        return false;
    const agent_params *a = &w->prm[i];
    const rvo_vec2 p = w->pos[i];
    wall_query q = {w, p, a->z, a->height, reach * reach, false};
    rvo__edge_grid_visit_cells(w, p.x - reach, p.y - reach, p.x + reach, p.y + reach, visit_wall, &q);
    return q.near;
}

/* The point agent i aims at, as its measure a puts it (world/aim.c): false
 * when unknown (no point measured near, or no preferred velocity). */
static bool aim_point(const rvo_world *w, int32_t i, aim_state a, rvo_vec2 *point) {
    if (a.dist > RVO_AIM_DIST_STEPS)
        return false;
    const rvo_vec2 pref = w->pref[i];
    const float len = sqrtf(v2_abs_sq(pref));
    if (!(len > 0.0f))
        return false;
    const float d = (float)a.dist * (float)(RVO_AIM_NEAR_RADII / RVO_AIM_DIST_STEPS) * w->prm[i].radius / len;
    *point = v2_add(w->pos[i], v2_scale(d, pref));
    return true;
}

/* Is there no room for agent i at the point it aims at, as its last
 * measure put it (a): a body other than i there (spot_taken)? Unknown: no. */
static bool aim_taken(const rvo_world *w, int32_t i, aim_state a) {
    rvo_vec2 point;
    return aim_point(w, i, a, &point) && spot_taken(w, i, i, point);
}

bool rvo__aims_apart(const rvo_world *w, int32_t i, int32_t j) {
    rvo_vec2 a, b;
    if (!aim_point(w, i, rvo__aim_next(w, i), &a) || !aim_point(w, j, rvo__aim_next(w, j), &b))
        return false;
    const float apart = RVO_AIMS_APART * (w->prm[i].radius + w->prm[j].radius);
    return v2_abs_sq(v2_sub(a, b)) > apart * apart;
}

/* rvo__gathered, idle contacts counting as near where they aim when
 * idle_near. */
static bool gathered(const rvo_world *w, int32_t i, bool idle_near) {
    if (rvo__idle(w->pref[i], &w->prm[i]))
        return false;
    const aim_state a = rvo__aim_next(w, i);
    if (a.streak < RVO_AIM_NEAR_STEPS || wall_near(w, i, RVO_AIM_WALL_RADII * w->prm[i].radius))
        return false;
    const agent_grid *g = &w->grid;
    const rvo_vec2 p = w->pos[i];
    const grid_cells b =
        rvo__grid_cells(g, p.x, p.y, RVO_CONTACT_MARGIN * (w->prm[i].radius + g->max_radius));
    int32_t touching = 0;
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy)
        for (int32_t t = g->start[cy * g->nx + b.cx0]; t < g->start[cy * g->nx + b.cx1 + 1]; ++t) {
            const int32_t k = g->items[t];
            if (!touches(w, i, k))
                continue;
            if (!(idle_near ? aims_near(w, k) : walks_near_aim(w, k)))
                return false;
            ++touching;
        }
    return touching >= RVO_GATHERED_CONTACTS && aim_taken(w, i, a);
}

bool rvo__gathered(const rvo_world *w, int32_t i) {
    if (w->shares_aim) /* the solve: set with the flags, from the same positions */
        return (w->uneven[i] & (RVO_UNEVEN_IDLE | RVO_UNEVEN_GATHERED)) == RVO_UNEVEN_GATHERED;
    return gathered(w, i, false);
}

/* Does stalled agent i press into an agent at rest, one it touches within
 * acos(RVO_REST_AHEAD_COS) of its preferred velocity that is idle and
 * hemmed in (it cannot give way), that already rests against one, or that
 * like i has stalled for RVO_LONG_STALL times the threshold pressing the
 * same way (preferred velocities within acos(RVO_REST_SAME_COS)), and that
 * i cannot walk round (can_pass)? An agent that stands still after a long
 * stall keeps resting on the first two kinds within the wider
 * acos(RVO_REST_KEEP_COS): otherwise a neighbour that shifted a little
 * out of the narrow cone let it walk one step along the crowd, and the
 * crowd never came to rest (docs/quality.md). */
static bool presses_on_rest(const rvo_world *w, int32_t i) {
    const agent_grid *g = &w->grid;
    const agent_params *me = &w->prm[i];
    const rvo_vec2 p = w->pos[i], pref = w->pref[i];
    const float still_speed = RVO_REST_STILL * me->max_speed;
    const bool keeps = (w->uneven[i] & RVO_UNEVEN_LONG) && v2_abs_sq(w->vel[i]) <= still_speed * still_speed;
    const float rest_cos = keeps ? RVO_REST_KEEP_COS : RVO_REST_AHEAD_COS;
    const grid_cells b = rvo__grid_cells(g, p.x, p.y, RVO_CONTACT_MARGIN * (me->radius + g->max_radius));
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy)
        for (int32_t t = g->start[cy * g->nx + b.cx0]; t < g->start[cy * g->nx + b.cx1 + 1]; ++t) {
            const int32_t k = g->items[t];
            const unsigned uk = w->uneven[k];
            /* idle and hemmed in, or resting already (within rest_cos);
             * or (both stalled for long) pressing the same way */
            float cos_max = rest_cos;
            bool at_rest = (uk & (RVO_UNEVEN_IDLE | RVO_UNEVEN_HEMMED_IDLE)) ==
                               (RVO_UNEVEN_IDLE | RVO_UNEVEN_HEMMED_IDLE) ||
                           (uk & RVO_UNEVEN_RESTS);
            if (!at_rest && (uk & w->uneven[i] & RVO_UNEVEN_LONG)) {
                const rvo_vec2 pk = w->pref[k];
                const float d = v2_dot(pref, pk);
                at_rest = d > 0.0f &&
                          d * d >= RVO_REST_SAME_COS * RVO_REST_SAME_COS * v2_abs_sq(pref) * v2_abs_sq(pk);
                cos_max = RVO_REST_AHEAD_COS;
            }
            if (!at_rest || !touches(w, i, k))
                continue;
            const rvo_vec2 rel = v2_sub(w->pos[k], p);
            const float d = v2_dot(pref, rel);
            if (d > 0.0f && d * d > cos_max * cos_max * v2_abs_sq(pref) * v2_abs_sq(rel) &&
                !can_pass(w, i, k))
                return true;
        }
    return false;
}

#if defined(RVO_SSE2)
/* rvo__update_shares' flag loop with strict overlap, four agents at a time
 * over the first multiple of four: each lane the scalar loop's tests (==,
 * != and the float products of rvo__idle and rvo__stalled, in their
 * order). Adds to the counts; returns the agents done. */
static int32_t flags4(rvo_world *w, float weight, float t, float t_long, int32_t *count, int32_t *params,
                      int32_t *yielders, int32_t *stalled_count) {
    const int32_t n4 = w->count & ~3;
    const agent_params *prm = w->prm;
    const rvo_vec2 *pref = w->pref;
    const float *stall = w->stall;
    const __m128 zero = _mm_setzero_ps(), w0 = _mm_set1_ps(weight), tt = _mm_set1_ps(t),
                 tl = _mm_set1_ps(t_long), idle_k = _mm_set1_ps(RVO_IDLE_SPEED);
    const __m128i izero = _mm_setzero_si128(), ones = _mm_set1_epi32(-1);
    static const uint8_t ones_in[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4}; /* (lane bits) */
    int32_t c = 0, pa = 0, y = 0, st = 0;
    for (int32_t i = 0; i < n4; i += 4) {
        const agent_params *a = prm + i;
        const __m128i locked = _mm_set_epi32(a[3].locked, a[2].locked, a[1].locked, a[0].locked);
        const __m128 wt = _mm_set_ps(a[3].weight, a[2].weight, a[1].weight, a[0].weight);
        const __m128i mask = _mm_set_epi32((int)a[3].mask, (int)a[2].mask, (int)a[1].mask, (int)a[0].mask);
        const __m128i groups =
            _mm_set_epi32((int)a[3].groups, (int)a[2].groups, (int)a[1].groups, (int)a[0].groups);
        const __m128 speed = _mm_set_ps(a[3].max_speed, a[2].max_speed, a[1].max_speed, a[0].max_speed);
        /* RVO_UNEVEN_PARAMS: locked != 0, weight != agent 0's (true for NaN, as cmpneq), mask != all
         * ones, groups == 0 */
        const __m128i p_bits =
            _mm_or_si128(_mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi32(locked, izero), ones),
                                      _mm_castps_si128(_mm_cmpneq_ps(wt, w0))),
                         _mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi32(mask, ones), ones),
                                      _mm_cmpeq_epi32(groups, izero)));
        /* rvo__idle: |pref|^2 <= (RVO_IDLE_SPEED max_speed)^2 */
        const __m128 p01 = _mm_loadu_ps(&pref[i].x), p23 = _mm_loadu_ps(&pref[i + 2].x);
        const __m128 px = _mm_shuffle_ps(p01, p23, _MM_SHUFFLE(2, 0, 2, 0));
        const __m128 py = _mm_shuffle_ps(p01, p23, _MM_SHUFFLE(3, 1, 3, 1));
        const __m128 lim = _mm_mul_ps(idle_k, speed);
        const __m128 idle =
            _mm_cmple_ps(_mm_add_ps(_mm_mul_ps(px, px), _mm_mul_ps(py, py)), _mm_mul_ps(lim, lim));
        /* rvo__stalled: s > 0 and s >= t; long: and s >= t_long */
        const __m128 s = _mm_loadu_ps(stall + i);
        const __m128 stalled = _mm_and_ps(_mm_cmpgt_ps(s, zero), _mm_cmpge_ps(s, tt));
        const __m128 lng = _mm_and_ps(stalled, _mm_cmpge_ps(s, tl));
        const __m128i u = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(p_bits, _mm_set1_epi32(RVO_UNEVEN_PARAMS)),
                         _mm_and_si128(_mm_castps_si128(idle), _mm_set1_epi32(RVO_UNEVEN_IDLE))),
            _mm_or_si128(_mm_and_si128(_mm_castps_si128(stalled), _mm_set1_epi32(RVO_UNEVEN_STALLED)),
                         _mm_and_si128(_mm_castps_si128(lng), _mm_set1_epi32(RVO_UNEVEN_LONG))));
        const __m128i u8 = _mm_packus_epi16(_mm_packs_epi32(u, izero), izero); /* (values < 128) */
        const int32_t four = _mm_cvtsi128_si32(u8);
        memcpy(w->uneven + i, &four, sizeof four);
        const unsigned any = ~(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(u, izero))) & 15u;
        if (any) { /* (rare: most agents have no flag) */
            c += ones_in[any];
            pa += ones_in[_mm_movemask_ps(_mm_castsi128_ps(p_bits))];
            y += ones_in[_mm_movemask_ps(_mm_or_ps(idle, stalled))];
            st += ones_in[_mm_movemask_ps(stalled)];
        }
    }
    *count += c;
    *params += pa;
    *yielders += y;
    *stalled_count += st;
    return n4;
}
#endif

/* Settling (rvo__lines_horizon): agent i wants at most RVO_SETTLED_SPEED
 * of its max speed, and so does the nearest agent it avoids, which it
 * touches. */
static bool settling(const rvo_world *w, int32_t i, const neighbor *nb, int32_t nn) {
    if (nn < 1 || !w->strict_overlap || w->rvo2_compat)
        return false;
    const int32_t j = nb[0].index;
    return rvo__wants_slow(w->pref[i], &w->prm[i]) && rvo__wants_slow(w->pref[j], &w->prm[j]) &&
           rvo__in_contact(w, i, j, nb[0].dist_sq);
}

/* Is stalled agent i near where it aims (world/aim.c: a streak of
 * RVO_AIM_NEAR_STEPS measures), touching one or more of its neighbours,
 * each walking (not idle: a crowd with an arrival radius rests as it is)
 * and near where it aims too? */
static bool near_aim_in_crowd(const rvo_world *w, int32_t i, const neighbor *nb, int32_t nn) {
    if (!aims_near(w, i))
        return false;
    int32_t touching = 0;
    for (int32_t k = 0; k < nn; ++k) {
        const int32_t j = nb[k].index;
        if (!rvo__in_contact(w, i, j, nb[k].dist_sq))
            continue;
        if (!walks_near_aim(w, j))
            return false;
        ++touching;
    }
    return touching > 0;
}

float rvo__capped_horizon(const rvo_world *w, int32_t i, const neighbor *nb, int32_t nn) {
    const unsigned u = w->n_uneven > 0 ? w->uneven[i] : 0u;
    const agent_params *a = &w->prm[i];
    float th = a->time_horizon;
    if (th > RVO_IDLE_HORIZON && ((u & RVO_UNEVEN_IDLE) || settling(w, i, nb, nn)))
        th = RVO_IDLE_HORIZON;
    if (u & RVO_UNEVEN_STALLED) {
        /* (not for a max speed of 0: it never walks those widths) */
        const float walk = RVO_STALLED_HORIZON_WIDTHS * 2.0f * a->radius / a->max_speed;
        if (walk > 0.0f && walk < th) {
            th = walk;
            if (th > RVO_IDLE_HORIZON && near_aim_in_crowd(w, i, nb, nn))
                th = RVO_IDLE_HORIZON;
        }
    }
    return th;
}

/* Flags the agents a pair with which may split other than 50/50
 * (rvo__share, rvo__gives_way): locked, a weight other than agent 0's, a
 * group or mask that can make a pair one-sided, and with strict overlap
 * idle or stalled (RVO_UNEVEN_*), those two also hemmed in or not. Between
 * two unflagged agents rvo__share is 0.5 and rvo__gives_way 0, so
 * agent_lines4 (orca.c) takes every agent and block of neighbours without
 * a flag, and agent_lines skips the per-neighbour tests when no agent has
 * one. */
bool rvo__update_shares(rvo_world *w, bool aims) {
    const int32_t n = w->count;
    if (!rvo__grow(w, (void **)&w->uneven, &w->uneven_cap, n, sizeof *w->uneven))
        return false;
    w->shares_aim = aims;
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
    int32_t i0 = 0;
#if defined(RVO_SSE2)
    if (gives && !rvo__no_shortcuts) /* four agents at a time: the same tests on the same operands, so the
                                        same flags */
        i0 = flags4(w, weight, t, t_long, &count, &params, &yielders, &stalled_count);
#endif
    for (int32_t i = i0; i < n; ++i) { /* (| rather than ||: no branches) */
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
        int32_t all, idle, against;
        count_contacts(w, i, &all, &idle, &against);
        const bool long_stall = aims && (uneven[i] & RVO_UNEVEN_LONG);
        /* gathered, idle contacts counting as near where they aim: tested
         * once for its two uses, and only where one of them can follow.
         * Without idle contacts it is rvo__gathered (RVO_UNEVEN_GATHERED,
         * for the solve). For a long stall it is crowd_near, the agent
         * having come as near where it aims as a crowd lets it: without
         * idle contacts, among RVO_SETTLED_CONTACTS or more, or while it
         * presses on at more than RVO_SETTLED_SPEED of its max speed. With
         * an arrival radius of one body radius, half a group sent to slots
         * too few for it stood idle in theirs and the agents left out
         * pressed on among them for good (4 of 8 draws of the block). An
         * agent slowed near its goal (the offset as the preferred
         * velocity) does not settle so: behind the pillar of test_detour
         * one rested on its goal and the agents pressing on it rested
         * short of theirs (stop 50). */
        const bool presses = !rvo__wants_slow(pref[i], &prm[i]);
        const bool may_gather =
            (idle == 0 && all >= RVO_GATHERED_CONTACTS) ||
            (long_stall && all >= (presses ? RVO_GATHERED_CONTACTS : RVO_SETTLED_CONTACTS));
        const bool near_all = aims && !(uneven[i] & RVO_UNEVEN_IDLE) && may_gather && gathered(w, i, true);
        if (uneven[i] & RVO_UNEVEN_IDLE)
            uneven[i] |= (uint8_t)((idle >= 1 || all >= 2) * RVO_UNEVEN_HEMMED_IDLE);
        else if (near_all && idle == 0)
            uneven[i] |= RVO_UNEVEN_GATHERED;
        uneven[i] |= (uint8_t)((all >= 3) * RVO_UNEVEN_HEMMED);
        /* tired: stalled for long, held back (it walked less than half its
         * tired aim: once free it walks at full speed again, even where
         * that aim is below the stall threshold's progress), touching two
         * agents or more of which none wants to go against its way (a
         * crowd pressing one way, which will not make way), or in a crowd
         * near where they all aim (crowd_near), whatever their ways;
         * resting, which the passes below decide, wins in the solve. Such
         * a crowd's agents settle on their tired aim, gathered ones among
         * two contacts too: a loose crowd at slots too tight for it, where
         * most touch two or three, churned on without a radius (stop 49). */
        const bool crowd_near =
            long_stall && near_all && (idle == 0 || presses || all >= RVO_SETTLED_CONTACTS);
        if (long_stall && all >= 2 && (against == 0 || crowd_near) &&
            v2_dot(w->vel[i], pref[i]) < 0.5f * rvo__tired_scale(w, i) * v2_abs_sq(pref[i]))
            uneven[i] |= RVO_UNEVEN_TIRED;
        if (aims && (all >= RVO_SETTLED_CONTACTS || crowd_near) &&
            rvo__settles(w, i, uneven[i], crowd_near ? rvo__tired_scale(w, i) : 1.0f))
            uneven[i] |= RVO_UNEVEN_RESTS;
    }
    /* at rest against a resting crowd: from the idle agents hemmed in, and
     * the settled ones, outwards, in the world's order (the same on any
     * thread count), until no more agent joins (a bounded number of
     * passes) */
    bool joined = aims && stalled_count > 0;
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
