/* Sampling RVO (RVO Library 1.x, van den Berg et al. 2008; seeds/003):
 * candidate velocities are scored by
 *
 *     penalty(v) = w / tc(v) + |v_pref - v|
 *
 * where tc(v) is the time to the first collision if the agent takes v,
 * and the candidate with the least penalty wins.
 *
 * Candidates, in index order (ties go to the lower index): the preferred
 * velocity (clamped to max_speed), zero, then `samples` velocities on a
 * sunflower (Vogel) spiral filling the max_speed disc evenly. The spiral is
 * turned by an angle hashed from the world seed, the agent id and the bits
 * of the agent's position, so neighbours sample different velocities and an
 * agent samples new ones as it moves, yet the result depends only on the
 * world state: the same on any thread count and after a snapshot reload
 * (no random state is kept or shared).
 *
 * tc against an agent B uses the generalised reciprocal velocity obstacle
 * of the seed with alpha = this agent's responsibility share (orca.c's
 * formula): the relative velocity tested is v_A + (v - v_A) / alpha - v_B,
 * which is 2 v - v_A - v_B for equal weights and v - v_B when B is locked or
 * does not avoid A; with alpha = 0 (weight 0) B is ignored. Obstacles: the
 * agent's disc swept along v against the edge (along v - v_O, in the frame
 * of an obstacle moving with v_O, as a locked agent). Collisions later than the
 * horizon (time_horizon, time_horizon_obst, at least dt) count as none.
 * A velocity whose disc would touch an obstacle edge within this step is
 * never chosen while another is left (zero always is).
 *
 * Already overlapping (RVO Library's "collision mode"): candidates are
 * ranked first by how far they fall short of leaving every overlap within
 * this step (ORCA's 1/dt rule: for an agent its share of the separation,
 * for an edge all of it; coincident agents split along a direction fixed by
 * their ids), and only then by the penalty above over the other
 * neighbours. (RVO Library ranks by whole steps to exit, which in dense
 * crowds let overlaps grow to near coincidence.)
 */
#include "index/grid.h"
#include "solve/give_way.h"
#include "solve/orca.h"
#include "solve/solvers.h"

/* ---- shared geometry ---------------------------------------------------- */

/* Disc of radius r at the origin moving with velocity v against the edge
 * a->b (relative to the disc's centre; e its unit direction, len its
 * length). Returns the time of first contact, INFINITY if none. When the
 * disc already overlaps the edge, sets *depth to r - distance (> 0), *n to
 * the unit direction out of the edge, and returns 0 if v approaches the
 * edge, INFINITY otherwise; else sets both to zero. */
float rvo__edge_toi(rvo_vec2 a, rvo_vec2 b, rvo_vec2 e, float len, float r, rvo_vec2 v, float *depth,
                    rvo_vec2 *n) {
    float t = -v2_dot(a, e); /* projection of the origin on the edge */
    t = t < 0.0f ? 0.0f : t > len ? len : t;
    const rvo_vec2 cp = v2_add(a, v2_scale(t, e)); /* closest point */
    const float d_sq = v2_abs_sq(cp);
    if (d_sq < r * r) {
        const float d = sqrtf(d_sq);
        *depth = r - d;
        *n = d > 0.0f ? v2(-cp.x / d, -cp.y / d) : v2(e.y, -e.x); /* outside of a CCW polygon edge */
        return v2_dot(v, *n) < 0.0f ? 0.0f : INFINITY;
    }
    *depth = 0.0f;
    *n = v2(0.0f, 0.0f);
    /* The flat side facing the disc: signed distance h + t * vn. */
    const float h = -v2_det(e, a), vn = v2_det(e, v);
    if (fabsf(h) > r && h * vn < 0.0f) {
        const float th = (fabsf(h) - r) / fabsf(vn);
        const float q = v2_dot(e, v2_sub(v2_scale(th, v), a));
        if (q >= 0.0f && q <= len)
            return th;
    }
    /* Otherwise an end cap is touched first, if anything. */
    float best = INFINITY;
    const float vv = v2_dot(v, v);
    for (int k = 0; k < 2; ++k) {
        const rvo_vec2 c = k ? b : a;
        const float bq = v2_dot(v, c), cq = v2_dot(c, c) - r * r;
        if (!(bq > 0.0f))
            continue;
        const float disc = bq * bq - vv * cq;
        if (!(disc > 0.0f))
            continue;
        const float tc = cq / (bq + sqrtf(disc)); /* the smaller root, stably */
        if (tc < best)
            best = tc;
    }
    return best;
}

/* ---- parameters ------------------------------------------------------- */

rvo_status rvo_world_set_sampling(rvo_world *w, int32_t samples, float penalty_weight) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (samples < 1 || samples > 4096)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "samples must be in [1, 4096]");
    if (!isfinite(penalty_weight) || penalty_weight < 0.0f || penalty_weight > RVO_MAX_COORD)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "penalty weight must be finite and >= 0");
    w->sampling_samples = samples;
    w->sampling_weight = penalty_weight;
    w->sampling_set = true;
    rvo__ok(w);
    return RVO_OK;
}

/* ---- the solver ----------------------------------------------------------- */

static uint64_t mix64(uint64_t z) { /* splitmix64's finaliser */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t float_bits(float f) {
    union {
        float f;
        uint32_t u;
    } c;
    c.f = f == 0.0f ? 0.0f : f; /* -0 and +0 alike */
    return c.u;
}

/* Per-neighbour data, packed in the worker's line buffers (lines[k] and
 * proj[k] hold 8 floats for the k-th agent or edge):
 *   agent: lines = {p: its relative position, kv: v_A - v_B},
 *          proj  = {(1/alpha, c = |p|^2 - R^2), (0, 0)}; when overlapping
 *          (c < 0) p is the unit direction to B and proj.direction.x the
 *          closing speed (negative: separating) that leaves it in dt
 *   edge:  lines = {a, b relative to the agent}, proj = {e, (len, 0)} */

#define GOLDEN_COS (-0.73736888f) /* cos and sin of the golden angle, 2.39996323 rad */
#define GOLDEN_SIN (0.67549029f)
#define MAX_INV_ALPHA 1e6f

rvo_vec2 rvo__sampling_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s) {
    const agent_params *me = &w->prm[i];
    const rvo_vec2 pos = w->pos[i], va = w->vel[i], pref = w->pref[i];
    const float vmax = me->max_speed, r = me->radius;
    const int32_t samples = w->sampling_set ? w->sampling_samples : RVO_DEFAULT_SAMPLES;
    const float wt = w->sampling_set ? w->sampling_weight : RVO_DEFAULT_PENALTY_WEIGHT;
    const float tau = me->time_horizon > dt ? me->time_horizon : dt;
    const float tau_o = me->time_horizon_obst > dt ? me->time_horizon_obst : dt;
    orca_line *L = s->lines, *P = s->proj;
    bool colliding = false;
    const bool moving = w->obst_moving > 0; /* some edge may move: relative velocities */

    /* Agents. */
    const int32_t nn = rvo__agent_neighbors(w, i, s->agents);
    int32_t na = 0;
    for (int32_t k = 0; k < nn; ++k) {
        const int32_t bi = s->agents[k].index;
        const agent_params *other = &w->prm[bi];
        const float share = rvo__share(me, other);
        if (!(share > 1.0f / MAX_INV_ALPHA))
            continue; /* this agent does not yield to B */
        const rvo_vec2 p = v2_sub(w->pos[bi], pos);
        const float R = r + other->radius;
        const float d_sq = v2_abs_sq(p);
        const float c = d_sq - R * R;
        L[na].point = p;
        L[na].direction = v2_sub(va, w->vel[bi]);
        P[na].point = v2(1.0f / share, c);
        P[na].direction = v2(0.0f, 0.0f);
        if (c < 0.0f) { /* overlapping: keep the way apart and the speed to leave within dt */
            const float d = sqrtf(d_sq);
            L[na].point = d > 0.0f ? v2_scale(1.0f / d, p) : rvo__split_direction(w->ids[i], w->ids[bi]);
            P[na].direction = v2((R - d) / dt, 0.0f);
            colliding = true;
        }
        ++na;
    }
    /* Obstacle edges. */
    const int32_t nobst = rvo__pack_obstacle_edges(w, i, s, L + na, P + na);
    for (int32_t k = 0; k < nobst; ++k)
        if (s->obst[k].dist_sq < r * r)
            colliding = true;

    /* The preferred velocity within max_speed. */
    rvo_vec2 pv = pref;
    const float pref_sq = v2_abs_sq(pref);
    if (pref_sq > vmax * vmax)
        pv = v2_scale(vmax / sqrtf(pref_sq), pref);
    if (na == 0 && nobst == 0)
        return pv;

    /* The spiral's turn for this agent and state. */
    uint64_t h = mix64(w->seed ^ 0x9E3779B97F4A7C15ull);
    h = mix64(h ^ w->ids[i]);
    h = mix64(h ^ ((uint64_t)float_bits(pos.x) << 32 | float_bits(pos.y)));
    const float phi = (float)(h >> 40) * (6.2831853f / 16777216.0f);
    float cs = cosf(phi), sn = sinf(phi);
    const float inv_n = 1.0f / (float)samples;

    float best1 = INFINITY, best2 = INFINITY; /* (overlap shortfall, penalty) of the best */
    rvo_vec2 best = v2(0.0f, 0.0f);
    bool have = false;
    /* No velocity in the disc is closer to pref than the clamped pref. */
    const float dv_floor = v2_abs(v2_sub(pref, pv));
    const float pref_len = sqrtf(pref_sq);
    for (int32_t idx = 0; idx < samples + 2; ++idx) {
        if (have && best1 == 0.0f && best2 <= dv_floor)
            break; /* nothing left can beat it */
        rvo_vec2 v;
        if (idx == 0) {
            v = pv;
        } else if (idx == 1) {
            v = v2(0.0f, 0.0f);
        } else {
            const float rad_sq = vmax * vmax * (((float)(idx - 2) + 0.5f) * inv_n);
            const float c0 = cs, s0 = sn;
            cs = c0 * GOLDEN_COS - s0 * GOLDEN_SIN;
            sn = s0 * GOLDEN_COS + c0 * GOLDEN_SIN;
            if (have && !colliding) {
                /* The penalty is at least |v_pref - v| >= ||v_pref| - |v||:
                 * only the ring of radii within best2 of |v_pref| can win,
                 * and the spiral's radii grow. */
                const float outer = pref_len + best2, inner = pref_len - best2;
                if (rad_sq >= outer * outer)
                    break;
                if (inner > 0.0f && rad_sq <= inner * inner)
                    continue;
            }
            const float rad = sqrtf(rad_sq);
            v = v2(rad * c0, rad * s0);
        }
        const float dv_sq = v2_abs_sq(v2_sub(pref, v));

        /* Collision mode: how far v falls short of leaving every overlap
         * within this step (its share of it, for agents) [m/s]. */
        float k1 = 0.0f;
        if (colliding) {
            for (int32_t k = 0; k < na && k1 <= best1; ++k) {
                if (!(P[k].point.y < 0.0f))
                    continue;
                const rvo_vec2 u = v2_add(v2_scale(P[k].point.x, v2_sub(v, va)), L[k].direction);
                const float short_by = v2_dot(u, L[k].point) + P[k].direction.x;
                if (short_by > k1)
                    k1 = short_by;
            }
            for (int32_t k = 0; k < nobst && k1 <= best1; ++k) {
                if (!(s->obst[k].dist_sq < r * r))
                    continue;
                float depth;
                rvo_vec2 nrm;
                const rvo_vec2 u = moving ? v2_sub(v, rvo__edge_velocity(w, s->obst[k].index)) : v;
                rvo__edge_toi(L[na + k].point, L[na + k].direction, P[na + k].point, P[na + k].direction.x, r,
                              u, &depth, &nrm);
                const float short_by = depth / dt - v2_dot(u, nrm);
                if (short_by > k1)
                    k1 = short_by;
            }
            if (k1 > best1)
                continue;
        }
        /* The penalty, given up as soon as it cannot beat the best. */
        const float bound = (have && k1 == best1) ? best2 : INFINITY;
        if (dv_sq >= bound * bound)
            continue;
        const float dv = sqrtf(dv_sq);
        float tc = INFINITY;
        float pen = dv;
        bool pruned = false;
        for (int32_t k = 0; k < na && !pruned; ++k) {
            const float c = P[k].point.y;
            if (c < 0.0f)
                continue; /* overlapping: counted above */
            const rvo_vec2 u = v2_add(v2_scale(P[k].point.x, v2_sub(v, va)), L[k].direction);
            const float bb = v2_dot(u, L[k].point);
            if (!(bb > 0.0f))
                continue; /* not approaching */
            const float disc = bb * bb - v2_abs_sq(u) * c;
            if (!(disc > 0.0f))
                continue; /* passes by */
            const float t = c / (bb + sqrtf(disc));
            if (t < tc && t < tau) {
                tc = t;
                pen = wt > 0.0f ? wt / tc + dv : dv;
                pruned = pen >= bound;
            }
        }
        for (int32_t k = 0; k < nobst && !pruned; ++k) {
            if (s->obst[k].dist_sq < r * r)
                continue; /* overlapping: counted above */
            float depth;
            rvo_vec2 nrm;
            const rvo_vec2 u = moving ? v2_sub(v, rvo__edge_velocity(w, s->obst[k].index)) : v;
            const float t = rvo__edge_toi(L[na + k].point, L[na + k].direction, P[na + k].point,
                                          P[na + k].direction.x, r, u, &depth, &nrm);
            if (t < dt) { /* would touch the edge within this step */
                pen = INFINITY;
                pruned = true;
            } else if (t < tc && t < tau_o) {
                tc = t;
                pen = wt > 0.0f ? wt / tc + dv : dv;
                pruned = pen >= bound;
            }
        }
        if (pruned)
            continue;
        if (!have || k1 < best1 || pen < best2) {
            best1 = k1;
            best2 = pen;
            best = v;
            have = true;
        }
    }
    /* Rounding in the spiral may overshoot max_speed by a hair. */
    const float b_sq = v2_abs_sq(best);
    if (b_sq > vmax * vmax)
        best = v2_scale(vmax / sqrtf(b_sq), best);
    if (!v2_finite(best))
        best = v2(0.0f, 0.0f);
    return best;
}
