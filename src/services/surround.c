/* rvo.surround's frame in bulk (lua/rvo/surround.lua holds the attack's
 * state and documents the behaviour): the phases, the ring, the probes and
 * the tangential projection of many units in one call. On LuaJIT the
 * module's own per-frame Lua had to run interpreted (compiled, it crashed
 * LuaJIT 2.1.0-beta3), where it cost more than the solve of its units.
 * Every operation is the Lua module's, in the same order and in doubles,
 * and the rays are rvo_world_ray_cast's, one at a time. */
#include "world/world.h"

#include <math.h>
#include <stdlib.h>

#define SUR_FAR 1e8 /* units this far out head straight; no ray is longer */
#define SUR_TWO_PI (2.0 * 3.141592653589793)
#define SUR_PI 3.141592653589793
#define SUR_STALL_TIME 1.0 /* s nearly still before a blocked unit tries the other side */
#define SUR_STANDING 0.25  /* an approaching unit this slow (of its max speed) blocks rays */
#define SUR_CLEAR_BODIES 1.0
#define SUR_ALL ((uint32_t)0xffffffffu)

/* Lua's float modulo (a - floor(a / b) * b for the operands here). */
static double lmod(double a, double b) {
    double m = fmod(a, b);
    if ((m > 0.0) ? b < 0.0 : (m < 0.0 && b != m))
        m += b;
    return m;
}

/* The angle of (x, y) around the target in [0, 2 pi). */
static double angle_of(double dx, double dy) {
    const double a = atan2(dy, dx);
    return a < 0.0 ? a + SUR_TWO_PI : a;
}

/* One unit's frame: where it is (x, y, its distance d to the target), its
 * body, its speed, its agent index; its angle around the target. */
typedef struct unit {
    double x, y, d, radius, speed, angle;
    int32_t agent;
    rvo_agent_id id;
} unit;

typedef struct plan {
    const rvo_surround_def *def;
    unit *u;            /* n units */
    int32_t n;          /* units */
    int32_t *by_id;     /* unit indices sorted by id: which unit a ray hit */
    uint8_t *phase;     /* 0 approach, 1 hold */
    double *stalled;    /* s */
    double *flip_until; /* s of the clock, < clock: no flip */
    double gap_angle;   /* < 0: nobody holds */
} plan;

/* Around the ring (by_angle): by angle, ties by id (a total order); else
 * by id. */
static bool before(const unit *p, const unit *q, bool by_angle) {
    if (by_angle && p->angle != q->angle)
        return p->angle < q->angle;
    return p->id < q->id;
}

/* Sorts the unit indices idx[0..m) (insertion sort: a handful of units;
 * any sort gives the same order, the order being total). */
static void sort_indices(const unit *u, int32_t *idx, int32_t m, bool by_angle) {
    for (int32_t i = 1; i < m; ++i) {
        const int32_t v = idx[i];
        int32_t j = i - 1;
        while (j >= 0 && before(&u[v], &u[idx[j]], by_angle)) {
            idx[j + 1] = idx[j];
            --j;
        }
        idx[j + 1] = v;
    }
}

/* The unit that agent id is, or -1. */
static int32_t unit_of(const plan *p, rvo_agent_id id) {
    int32_t lo = 0, hi = p->n - 1;
    while (lo <= hi) {
        const int32_t mid = (lo + hi) / 2;
        const rvo_agent_id m = p->u[p->by_id[mid]].id;
        if (m == id)
            return p->by_id[mid];
        if (m < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Whether a ray's hit (r: rvo_world_ray_cast's answer) blocks the way:
 * obstacles, holders, the target, bystanders do; fellow units still
 * approaching do not, unless they stand (move with the target). */
static bool blocks(rvo_world *w, const plan *p, int r, const rvo_ray_hit *hit) {
    if (r <= 0)
        return false;
    if (hit->agent != 0) {
        const int32_t k = unit_of(p, hit->agent);
        if (k >= 0 && p->phase[k] == 0) {
            const int32_t a = rvo__slot_lookup(&w->agent_slots, hit->agent);
            const double vx = (double)w->vel[a].x - p->def->target_vx,
                         vy = (double)w->vel[a].y - p->def->target_vy;
            const double slow = SUR_STANDING * (double)w->prm[a].max_speed;
            if (vx * vx + vy * vy >= slow * slow)
                return false;
        }
    }
    return true;
}

static int cast(rvo_world *w, double x, double y, double dx, double dy, double len, double clearance,
                rvo_ray_hit *hit) {
    return rvo_world_ray_cast(w, (float)x, (float)y, (float)dx, (float)dy, (float)len, (float)clearance,
                              SUR_ALL, hit);
}

/* A blocked unit's side to try first (1: its left, -1: its right): toward
 * the widest gap between holders, the other way for a while once stalled. */
static double side_of(const rvo_world *w, plan *p, int32_t k) {
    const rvo_surround_def *def = p->def;
    const unit *u = &p->u[k];
    double side = 1.0;
    if (p->gap_angle >= 0.0) {
        const double here = angle_of(u->x - def->target_x, u->y - def->target_y);
        side = lmod(p->gap_angle - here, SUR_TWO_PI) < SUR_PI ? -1.0 : 1.0;
    }
    const double vx = (double)w->vel[u->agent].x, vy = (double)w->vel[u->agent].y;
    double stalled = p->stalled[k];
    const double slow = 0.1 * u->speed;
    if (vx * vx + vy * vy < slow * slow)
        stalled = stalled + def->dt;
    else
        stalled = 0.0;
    p->stalled[k] = stalled;
    if (stalled > SUR_STALL_TIME)
        p->flip_until[k] = def->clock + SUR_STALL_TIME;
    if (p->flip_until[k] > def->clock)
        side = -side;
    return side;
}

/* Phase 1: unit k's preferred velocity toward the ring, into *v; < 0 on a
 * failed ray cast. (Velocities are clamped into the coordinate range as
 * floats: the same as clamping the doubles first, the bound being a float.) */
static int approach(rvo_world *w, plan *p, int32_t k, rvo_vec2 *v) {
    const rvo_surround_def *def = p->def;
    const unit *u = &p->u[k];
    const double r_goal = def->attack_radius - 0.5 * def->tolerance, dt = def->dt;
    if (u->d == 0.0) {
        *v = v2(rvo__clamp_coord((float)u->speed), 0.0f); /* on the target's centre: any way out */
        return 0;
    }
    double ux = (def->target_x - u->x) / u->d, uy = (def->target_y - u->y) / u->d;
    double gap = u->d - r_goal;
    if (gap < 0.0)
        ux = -ux, uy = -uy, gap = -gap;
    double s = u->speed;
    if (gap < s * dt)
        s = gap / dt;
    if (!def->probes || gap == 0.0 || gap > SUR_FAR || fabs(u->x) > SUR_FAR || fabs(u->y) > SUR_FAR) {
        *v = v2(rvo__clamp_coord((float)(ux * s)), rvo__clamp_coord((float)(uy * s)));
        return 0;
    }
    if (u->d > r_goal && gap <= 2.0 * u->radius) { /* arriving: press in, moving with the target */
        *v = v2(rvo__clamp_coord((float)(def->target_vx + ux * s)),
                rvo__clamp_coord((float)(def->target_vy + uy * s)));
        return 0;
    }
    /* two probes from the body's edges, then one as wide as the body */
    const double ex = -uy * u->radius * 0.999, ey = ux * u->radius * 0.999;
    const double from[3][3] = {
        {u->x + ex, u->y + ey, 0.0}, {u->x - ex, u->y - ey, 0.0}, {u->x, u->y, u->radius * 0.999}};
    bool blocked = false;
    rvo_ray_hit hit;
    for (int r = 0; r < 3 && !blocked; ++r) {
        const int got = cast(w, from[r][0], from[r][1], ux, uy, gap, from[r][2], &hit);
        if (got < 0)
            return got;
        blocked = blocks(w, p, got, &hit);
    }
    if (!blocked) {
        *v = v2(rvo__clamp_coord((float)(ux * s)), rvo__clamp_coord((float)(uy * s)));
        return 0;
    }
    /* blocked: five rays as wide as the body; the freest wins, ties to the
     * first (straight on, then toward the gap) */
    const double side = side_of(w, p, k), c = sqrt(0.5);
    const double sx = -uy * side, sy = ux * side;
    const double dirs[5][2] = {
        {ux, uy}, {c * (ux + sx), c * (uy + sy)}, {sx, sy}, {c * (ux - sx), c * (uy - sy)}, {-sx, -sy}};
    double length = def->probe_length;
    if (length > SUR_FAR)
        length = SUR_FAR;
    const double enough = SUR_CLEAR_BODIES * 2.0 * u->radius;
    double best = -1.0;
    int bk = 0;
    for (int m = 0; m < 5; ++m) {
        const int got = cast(w, u->x, u->y, dirs[m][0], dirs[m][1], length, u->radius * 0.999, &hit);
        if (got < 0)
            return got;
        double free = blocks(w, p, got, &hit) ? (double)hit.distance : length;
        if (free > enough)
            free = enough;
        if (free > best)
            best = free, bk = m;
    }
    *v = v2(rvo__clamp_coord((float)(dirs[bk][0] * u->speed)),
            rvo__clamp_coord((float)(dirs[bk][1] * u->speed)));
    return 0;
}

static rvo_status check_def(const rvo_world *w, const rvo_surround_def *def) {
    if (!def)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "def is NULL");
    const double v[] = {def->target_x,     def->target_y, def->target_vx,    def->target_vy,
                        def->spread_speed, def->dt,       def->probe_length, def->clock};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; ++k)
        if (!isfinite(v[k]))
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "def holds a number that is not finite");
    if (!(def->attack_radius > 0.0 && isfinite(def->attack_radius) && def->tolerance > 0.0 &&
          def->tolerance < def->attack_radius && def->dt > 0.0 && def->probe_length > 0.0 &&
          def->spread_speed >= 0.0))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1,
                         "def: attack_radius > 0, 0 < tolerance < attack_radius, dt > 0, probe_length > 0, "
                         "spread_speed >= 0");
    return RVO_OK;
}

/* The units' frame (u[k] of units[k]); fails naming an unknown id. */
static rvo_status read_units(rvo_world *w, const rvo_surround_def *def, const rvo_agent_id *ids, int32_t n,
                             unit *u) {
    for (int32_t k = 0; k < n; ++k) {
        const int32_t a = rvo__slot_lookup(&w->agent_slots, ids[k]);
        if (a < 0)
            return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 2, "unknown or removed agent id (number %ld in units)",
                             (long)k + 1);
        const double x = (double)w->pos[a].x, y = (double)w->pos[a].y;
        const double dx = x - def->target_x, dy = y - def->target_y;
        u[k] = (unit){
            x, y,     sqrt(dx * dx + dy * dy), (double)w->prm[a].radius, (double)w->prm[a].max_speed, 0.0,
            a, ids[k]};
    }
    return RVO_OK;
}

int32_t rvo_world_surround_plan(rvo_world *w, const rvo_surround_def *def, const rvo_agent_id *units,
                                int32_t n, uint8_t *phase, double *stalled, double *flip_until,
                                rvo_agent_id *holders, double *gap_angle) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    rvo_status st = check_def(w, def);
    if (st != RVO_OK)
        return st;
    if (n < 0 || n > (1 << 24))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "n must be in 0..16777216");
    if (n > 0 && (!units || !phase || !stalled || !flip_until || !holders))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "a list is NULL");
    for (int32_t k = 0; k < n; ++k) {
        if (phase[k] > 1)
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4, "phase %ld must be 0 or 1", (long)k + 1);
        if (!isfinite(stalled[k]) || !isfinite(flip_until[k]))
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, isfinite(stalled[k]) ? 6 : 5,
                             "timer %ld is not finite", (long)k + 1);
    }
    unit *u = NULL;
    int32_t *idx = NULL;
    if (n > 0) {
        u = rvo__realloc(w, NULL, 0, sizeof *u * (size_t)n);
        idx = rvo__realloc(w, NULL, 0, sizeof *idx * 3 * (size_t)n);
        if (!u || !idx) {
            rvo__realloc(w, u, sizeof *u * (size_t)n, 0);
            rvo__realloc(w, idx, sizeof *idx * 3 * (size_t)n, 0);
            return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        }
    }
    st = read_units(w, def, units, n, u);
    int32_t nh = 0;
    if (st == RVO_OK) {
        const double r_attack = def->attack_radius, tol = def->tolerance;
        const double r_goal = r_attack - 0.5 * tol, tx = def->target_x, ty = def->target_y;
        int32_t *hold = idx, *ring = idx + n, *by = idx + 2 * n;
        plan p = {def, u, n, by, phase, stalled, flip_until, -1.0};
        /* who holds now: entering the band starts phase 2; a holder carried
         * more than a band's width out of it starts over */
        for (int32_t k = 0; k < n; ++k) {
            const double d = u[k].d;
            if (def->hold) {
                if (phase[k] == 0 && d >= r_attack - tol && d <= r_attack) {
                    phase[k] = 1;
                    stalled[k] = 0.0, flip_until[k] = -1.0;
                } else if (phase[k] == 1 && (d > r_attack + tol || d < r_attack - 2.0 * tol)) {
                    phase[k] = 0;
                }
            }
            if (phase[k] == 1) {
                u[k].angle = d > 0.0 ? angle_of(u[k].x - tx, u[k].y - ty) : 0.0;
                hold[nh++] = k;
            }
            by[k] = k;
        }
        sort_indices(u, hold, nh, true);
        sort_indices(u, by, n, false);
        /* the middle of the widest gap between holders */
        double widest = -1.0;
        for (int32_t h = 0; h < nh; ++h) {
            const double a = u[hold[h]].angle, b = u[hold[h == nh - 1 ? 0 : h + 1]].angle;
            double width = lmod(b - a, SUR_TWO_PI);
            if (nh == 1)
                width = SUR_TWO_PI;
            if (width > widest)
                widest = width, p.gap_angle = lmod(a + 0.5 * width, SUR_TWO_PI);
        }
        /* the ring the holders space themselves on: they and the units
         * arriving within a body width of the band */
        int32_t nr = 0;
        for (int32_t h = 0; h < nh; ++h)
            ring[nr++] = hold[h];
        for (int32_t k = 0; k < n; ++k)
            if (phase[k] == 0 && u[k].d > r_attack && u[k].d <= r_attack + 2.0 * u[k].radius) {
                u[k].angle = angle_of(u[k].x - tx, u[k].y - ty);
                ring[nr++] = k;
            }
        sort_indices(u, ring, nr, true);
        const double gain = 1.0 / def->dt;
        for (int32_t r = 0; r < nr; ++r) {
            const int32_t k = ring[r];
            if (phase[k] != 1)
                continue;
            const double d = u[k].d;
            double ex = 1.0, ey = 0.0;
            if (d > 0.0)
                ex = (u[k].x - tx) / d, ey = (u[k].y - ty) / d;
            const double speed = u[k].speed;
            double radial = (r_goal - d) * gain;
            if (radial > speed)
                radial = speed;
            else if (radial < -speed)
                radial = -speed;
            double tangential = 0.0;
            if (def->spread && nr >= 2) {
                const double prev_a = u[ring[r == 0 ? nr - 1 : r - 1]].angle;
                const double next_a = u[ring[r == nr - 1 ? 0 : r + 1]].angle;
                const double to_next = lmod(next_a - u[k].angle, SUR_TWO_PI);
                double from_prev = lmod(u[k].angle - prev_a, SUR_TWO_PI);
                if (nr == 2)
                    from_prev = SUR_TWO_PI - to_next;
                tangential = 0.5 * (to_next - from_prev) * d;
                const double cap = def->spread_speed;
                if (tangential > cap)
                    tangential = cap;
                else if (tangential < -cap)
                    tangential = -cap;
            }
            w->pref[u[k].agent] =
                v2(rvo__clamp_coord((float)(def->target_vx + ex * radial - ey * tangential)),
                   rvo__clamp_coord((float)(def->target_vy + ey * radial + ex * tangential)));
        }
        /* phase 1 */
        for (int32_t k = 0; k < n && st == RVO_OK; ++k) {
            if (phase[k] != 0)
                continue;
            const int got = approach(w, &p, k, &w->pref[u[k].agent]);
            if (got < 0)
                st = (rvo_status)got;
        }
        for (int32_t h = 0; h < nh; ++h)
            holders[h] = u[hold[h]].id;
        if (gap_angle)
            *gap_angle = p.gap_angle;
    }
    rvo__realloc(w, u, sizeof *u * (size_t)n, 0);
    rvo__realloc(w, idx, sizeof *idx * 3 * (size_t)n, 0);
    if (st != RVO_OK)
        return st;
    rvo__ok(w);
    return nh;
}

rvo_status rvo_world_surround_project(rvo_world *w, const rvo_surround_def *def, const rvo_agent_id *holders,
                                      int32_t n) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    rvo_status st = check_def(w, def);
    if (st != RVO_OK)
        return st;
    if (!w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "call it between solve and integrate");
    if (n < 0)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "n must be >= 0");
    if (n > 0 && !holders)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "holders is NULL");
    if ((st = rvo__check_ids(w, holders, n, 2, "holders")) != RVO_OK)
        return st;
    const double r_goal = def->attack_radius - 0.5 * def->tolerance, dt = def->dt, gain = 1.0 / dt;
    const double tx = def->target_x, ty = def->target_y, tvx = def->target_vx, tvy = def->target_vy;
    for (int32_t k = 0; k < n; ++k) {
        const int32_t a = rvo__slot_lookup(&w->agent_slots, holders[k]);
        const double x = (double)w->pos[a].x, y = (double)w->pos[a].y;
        const double d = sqrt((x - tx) * (x - tx) + (y - ty) * (y - ty));
        if (!(d > 0.0))
            continue; /* on the target's centre: no direction */
        const double ex = (x - tx) / d, ey = (y - ty) / d;
        const double rx = (double)w->newvel[a].x - tvx, ry = (double)w->newvel[a].y - tvy;
        const double t = rx * -ey + ry * ex; /* tangential part of the relative velocity */
        const double speed = (double)w->prm[a].max_speed, radius = (double)w->prm[a].radius;
        double radial = (r_goal - d) * gain;
        if (radial > speed)
            radial = speed;
        else if (radial < -speed)
            radial = -speed;
        const double px = tvx + ex * radial - ey * t, py = tvy + ey * radial + ex * t;
        const double len = sqrt(px * px + py * py) * dt;
        bool free = len == 0.0;
        if (!free) {
            rvo_ray_hit hit;
            const int got = cast(w, x, y, px, py, len > SUR_FAR ? SUR_FAR : len, radius * 0.999, &hit);
            if (got < 0)
                return (rvo_status)got;
            free = got == 0;
        }
        rvo_vec2 nv = v2(rvo__clamp_coord((float)px), rvo__clamp_coord((float)py));
        if (!free) { /* the radial part alone if that is free, else it stands */
            const double qx = tvx + ex * radial, qy = tvy + ey * radial;
            const int los =
                rvo_world_line_of_sight(w, (float)x, (float)y, rvo__clamp_coord((float)(x + qx * dt)),
                                        rvo__clamp_coord((float)(y + qy * dt)), (float)radius);
            if (los < 0)
                return (rvo_status)los;
            nv = los ? v2(rvo__clamp_coord((float)qx), rvo__clamp_coord((float)qy))
                     : v2((float)tvx, (float)tvy);
        }
        const rvo_status s = rvo_agent_set_new_velocity(w, holders[k], nv.x, nv.y);
        if (s != RVO_OK)
            return s;
    }
    rvo__ok(w);
    return RVO_OK;
}
