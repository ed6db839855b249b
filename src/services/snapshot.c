/* Snapshots: the whole world as portable bytes (rvo_world_save/_load).
 *
 * Layout, every number little-endian, floats as their IEEE-754 bits:
 *   magic    8 bytes  "RVOSNAP\0"
 *   version  u32      SNAP_VERSION
 *   crc      u32      CRC-32 (IEEE 802.3) of the payload
 *   size     u64      payload bytes
 *   payload           settings (visit_settings) then state (visit_state)
 *
 * One visitor serves both directions: saving writes each field, loading
 * reads it back into the same place. Adding world state is one line in a
 * visitor (written `if (s->version >= N) io_...(...)` once SNAP_VERSION is
 * bumped to N, so older snapshots still load) and, when the field has
 * limits, one check in validate(). A load builds a fresh world and checks
 * all of it before handing it out: bad input never yields a partial world.
 */
#include "world/world.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* 2: per agent, the side it goes round an obstacle on (solve/detour.c);
 * per obstacle, its side and closed flag as added (for reshaping) and its
 * velocity
 * 3: per agent, its lock timer (world/lock_timers.c: seconds left, the
 * preferred velocity and release distance it was locked with, where the
 * last integrate moved it, auto lock); whether an integrate ran since the
 * last solve; the agents an obstacle's new points left on its blocked
 * side, not yet put out (world.h: obst_trap)
 * 4: per agent, how far it has been carried back (world.h: carried)
 * 5: per agent, what world/aim.c has measured of where its preferred
 * velocity aims (32 bits); the last integrate's dt */
#define SNAP_VERSION 5u
#define SNAP_HEADER 24
static const uint8_t snap_magic[8] = {'R', 'V', 'O', 'S', 'N', 'A', 'P', 0};

/* ---- CRC-32, four bits at a time -------------------------------------- */
static uint32_t crc32_bytes(const uint8_t *p, size_t n) {
    static const uint32_t nibble[16] = {0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
                                        0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
                                        0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
                                        0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        c = (c >> 4) ^ nibble[c & 15];
        c = (c >> 4) ^ nibble[c & 15];
    }
    return c ^ 0xFFFFFFFFu;
}

static void put_le(uint8_t *p, uint64_t v, int bytes) {
    for (int k = 0; k < bytes; ++k)
        p[k] = (uint8_t)(v >> (8 * k));
}
static uint64_t get_le(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int k = 0; k < bytes; ++k)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

/* ---- the two-way stream ------------------------------------------------ */
typedef struct snap_io {
    bool reading;
    uint8_t *out;      /* writing: the payload, or NULL to measure it */
    const uint8_t *in; /* reading: the payload */
    size_t size;       /* reading: payload bytes */
    size_t pos;        /* bytes written (or measured) / read */
    uint32_t version;  /* of the snapshot being read; SNAP_VERSION when writing */
    rvo_status status; /* first failure while reading */
    rvo_error *err;    /* the caller's report, may be NULL */
} snap_io;

static bool io_ok(const snap_io *s) { return s->status == RVO_OK; }

RVO_PRINTF(3, 4) static void io_fail(snap_io *s, rvo_status st, const char *fmt, ...) {
    if (!io_ok(s))
        return;
    s->status = st;
    if (s->err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->err->message, sizeof s->err->message, fmt, ap);
        va_end(ap);
        s->err->status = st;
        s->err->arg = st == RVO_ERR_OUT_OF_MEMORY ? 0 : 1; /* the data */
    }
}

/* Moves n bytes of v between the stream and *v. */
static uint64_t io_raw(snap_io *s, uint64_t v, int n) {
    if (!io_ok(s))
        return 0;
    if (s->reading) {
        if (s->size - s->pos < (size_t)n) {
            io_fail(s, RVO_ERR_INVALID_ARGUMENT, "snapshot is truncated");
            return 0;
        }
        v = get_le(s->in + s->pos, n);
    } else if (s->out) {
        put_le(s->out + s->pos, v, n);
    }
    s->pos += (size_t)n;
    return v;
}

static void io_u64(snap_io *s, uint64_t *v) { *v = io_raw(s, *v, 8); }
static void io_u32(snap_io *s, uint32_t *v) { *v = (uint32_t)io_raw(s, *v, 4); }
static void io_i32(snap_io *s, int32_t *v) {
    uint32_t u;
    memcpy(&u, v, 4);
    u = (uint32_t)io_raw(s, u, 4);
    memcpy(v, &u, 4);
}
static void io_f32(snap_io *s, float *v) {
    uint32_t u;
    memcpy(&u, v, 4);
    u = (uint32_t)io_raw(s, u, 4);
    memcpy(v, &u, 4);
}
static void io_f64(snap_io *s, double *v) {
    uint64_t u;
    memcpy(&u, v, 8);
    u = io_raw(s, u, 8);
    memcpy(v, &u, 8);
}
static void io_vec2(snap_io *s, rvo_vec2 *v) {
    io_f32(s, &v->x);
    io_f32(s, &v->y);
}
static void io_bool(snap_io *s, bool *v) {
    const uint64_t b = io_raw(s, *v ? 1 : 0, 1);
    if (b > 1)
        io_fail(s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (a flag is %u)", (unsigned)b);
    *v = b == 1;
}
/* A count of items that take at least item_bytes each: checked against max
 * and against what is left, so corrupted counts cannot ask for huge memory. */
static void io_count(snap_io *s, int32_t *n, int32_t max, size_t item_bytes, const char *what) {
    io_i32(s, n);
    if (!io_ok(s) || !s->reading)
        return;
    if (*n < 0 || *n > max || (size_t)*n > (s->size - s->pos) / item_bytes) {
        io_fail(s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (%s count %ld)", what, (long)*n);
        *n = 0;
    }
}

/* ---- what a world holds ------------------------------------------------- */

/* Settings that rvo_world_create takes: loading reads them into a def. */
static void visit_settings(snap_io *s, rvo_world_def *d) {
    io_f32(s, &d->time_step);
    io_i32(s, &d->threads);
    io_u64(s, &d->seed);
    io_f32(s, &d->height_margin);
    rvo_agent_def *a = &d->agent;
    io_f32(s, &a->radius);
    io_f32(s, &a->max_speed);
    io_f32(s, &a->neighbor_dist);
    io_i32(s, &a->max_neighbors);
    io_f32(s, &a->time_horizon);
    io_f32(s, &a->time_horizon_obst);
    io_vec2(s, &a->velocity);
    io_vec2(s, &a->pref_velocity);
    io_f32(s, &a->weight);
    io_u32(s, &a->groups);
    io_u32(s, &a->mask);
    io_f32(s, &a->z);
    io_f32(s, &a->height);
}

static void visit_agent(snap_io *s, rvo_world *w, int32_t i) {
    io_u64(s, &w->ids[i]);
    io_vec2(s, &w->pos[i]);
    io_vec2(s, &w->vel[i]);
    io_vec2(s, &w->pref[i]);
    io_vec2(s, &w->newvel[i]);
    agent_params *a = &w->prm[i];
    io_f32(s, &a->radius);
    io_f32(s, &a->max_speed);
    io_f32(s, &a->neighbor_dist);
    io_f32(s, &a->time_horizon);
    io_f32(s, &a->time_horizon_obst);
    int32_t most = a->max_neighbors;
    io_i32(s, &most);
    a->max_neighbors =
        (int16_t)(most >= 0 && most <= RVO_MAX_NEIGHBORS_LIMIT ? most : -1); /* -1: caught by validate */
    io_f32(s, &a->weight);
    io_u32(s, &a->groups);
    io_u32(s, &a->mask);
    io_f32(s, &a->z);
    io_f32(s, &a->height);
    int32_t locked = a->locked;
    io_i32(s, &locked);
    a->locked = (int16_t)(locked == 0 || locked == 1 ? locked : 2); /* 2: caught by validate */
    if (s->reading)                                                 /* (bad values fail validate) */
        rvo__raise_k_most(w, a->max_neighbors);
    io_f32(s, &w->stall[i]); /* stall events */
    if (s->reading)
        w->knn_hint[i] = RVO_NO_HINT; /* (not saved: it changes no result) */
    if (s->version >= 2) {
        int32_t side = w->detour[i];
        io_i32(s, &side);
        w->detour[i] = (int8_t)(side < -1 ? -2 : side > 1 ? 2 : side); /* out of range: caught by validate */
    }
    if (s->version >= 3) { /* lock timers (a world that never made them: no timer, auto lock on) */
        agent_lock k, none;
        memset(&none, 0, sizeof none);
        memcpy(&k, w->lock ? &w->lock[i] : &none, sizeof k);
        io_f64(s, &k.left);
        io_f64(s, &k.release);
        io_vec2(s, &k.pref);
        io_vec2(s, &k.moved); /* (read by rvo_world_release_pushed after an integrate) */
        bool auto_lock = !k.no_auto;
        io_bool(s, &auto_lock);
        k.no_auto = !auto_lock;
        if (s->reading && io_ok(s) && memcmp(&k, &none, sizeof k) != 0) {
            if (!rvo__locks_make(w))
                io_fail(s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
            else
                w->lock[i] = k;
        }
    }
    if (s->version >= 4)
        io_f32(s, &w->carried[i]);
    if (s->version >= 5)
        io_u32(s, &w->aim[i]); /* (every value is a state; older: none yet, as a new agent) */
}

static void visit_agents(snap_io *s, rvo_world *w) {
    int32_t n = w->count;
    io_count(s, &n, RVO_MAX_SLOTS, 32, "agent");
    /* Loading adds n placeholder agents, so that every per-agent array
     * (including any added to agents.c later) is allocated and defaulted. */
    for (int32_t i = 0; s->reading && io_ok(s) && i < n; ++i)
        if (!rvo_world_add_agent(w, 0.0f, 0.0f, NULL))
            io_fail(s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
    for (int32_t i = 0; io_ok(s) && i < n; ++i)
        visit_agent(s, w, i);
}

/* Points of an obstacle as rvo_world_add_obstacle took them: a polygon's
 * ring, or an open polyline's points before it was doubled back. */
static int32_t saved_points(const obstacle *o) {
    return o->closed || o->count == 2 ? o->count : o->count / 2 + 1;
}

static void visit_obstacle(snap_io *s, rvo_world *w, int32_t k) {
    bool closed = s->reading ? false : w->obst[k].closed;
    int32_t npts = s->reading ? 0 : saved_points(&w->obst[k]);
    io_bool(s, &closed);
    io_count(s, &npts, RVO_MAX_SLOTS, 8, "obstacle point");
    if (!io_ok(s))
        return;
    if (s->reading) {
        float *xy = rvo__realloc(w, NULL, 0, sizeof(float) * 2 * (size_t)(npts > 0 ? npts : 1));
        if (!xy) {
            io_fail(s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
            return;
        }
        for (int32_t p = 0; p < 2 * npts; ++p)
            io_f32(s, &xy[p]);
        if (io_ok(s) && !rvo_world_add_obstacle(w, xy, npts, closed)) {
            if (strcmp(rvo_world_last_error(w), "out of memory") == 0)
                io_fail(s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
            else
                io_fail(s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (obstacle %ld: %s)", (long)k + 1,
                        rvo_world_last_error(w));
        }
        rvo__realloc(w, xy, sizeof(float) * 2 * (size_t)(npts > 0 ? npts : 1), 0);
        if (!io_ok(s))
            return;
        /* as saved: nothing for add_obstacle to merge or reinterpret */
        if (w->obst_count != k + 1 || w->obst[k].closed != closed || saved_points(&w->obst[k]) != npts) {
            io_fail(s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (obstacle %ld)", (long)k + 1);
            return;
        }
    } else {
        const obstacle *o = &w->obst[k];
        for (int32_t p = 0; p < npts; ++p)
            io_vec2(s, &w->verts[o->first + p].point);
    }
    obstacle *o = &w->obst[k];
    io_u64(s, &o->id);
    io_f32(s, &o->zmin);
    io_f32(s, &o->zmax);
    if (s->version >= 2) {
        int32_t side = o->side;
        bool asked = o->asked_closed;
        io_i32(s, &side);
        io_bool(s, &asked);
        o->side = (int8_t)(side < 0 || side > 2 ? -1 : side); /* out of range: caught by validate */
        o->asked_closed = asked;
        io_vec2(s, &o->vel);
    }
}

static void visit_obstacles(snap_io *s, rvo_world *w) {
    int32_t n = w->obst_count;
    io_count(s, &n, RVO_MAX_SLOTS, 32, "obstacle");
    for (int32_t k = 0; io_ok(s) && k < n; ++k)
        visit_obstacle(s, w, k);
}

/* An id pool: generations, dense indices and the free stack in its order,
 * so that a loaded world issues the ids the original would. */
static void visit_slots(snap_io *s, rvo_world *w, slot_table *t) {
    int32_t used = t->used, nfree = t->nfree;
    io_count(s, &used, RVO_MAX_SLOTS, 8, "id slot");
    if (!io_ok(s))
        return;
    if (s->reading) {
        rvo__slot_free(&w->base, t);
        const int32_t cap = used > 0 ? used : 1;
        t->gen = rvo__realloc(w, NULL, 0, sizeof *t->gen * (size_t)cap);
        t->index = rvo__realloc(w, NULL, 0, sizeof *t->index * (size_t)cap);
        t->free = rvo__realloc(w, NULL, 0, sizeof *t->free * (size_t)cap);
        t->cap = cap;
        if (!t->gen || !t->index || !t->free) {
            /* rvo__slot_free would free by cap: release what exists by hand */
            rvo__realloc(w, t->gen, t->gen ? sizeof *t->gen * (size_t)cap : 0, 0);
            rvo__realloc(w, t->index, t->index ? sizeof *t->index * (size_t)cap : 0, 0);
            rvo__realloc(w, t->free, t->free ? sizeof *t->free * (size_t)cap : 0, 0);
            memset(t, 0, sizeof *t);
            io_fail(s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
            return;
        }
        t->used = used;
        t->nfree = 0;
    }
    for (int32_t k = 0; io_ok(s) && k < used; ++k) {
        io_u32(s, &t->gen[k]);
        io_i32(s, &t->index[k]);
    }
    io_count(s, &nfree, used, 4, "free slot");
    if (!io_ok(s))
        return;
    t->nfree = nfree;
    for (int32_t k = 0; io_ok(s) && k < nfree; ++k)
        io_i32(s, &t->free[k]);
}

/* Pending traps (version 3): agent and obstacle ids, in order. Ids that
 * name nothing are dropped by the next step, as after a removal. */
static void visit_traps(snap_io *s, rvo_world *w) {
    int32_t n = w->ntraps;
    io_count(s, &n, RVO_MAX_SLOTS, 16, "trap");
    if (!io_ok(s))
        return;
    if (s->reading && n > 0) {
        int32_t cap = w->traps_cap;
        if (!rvo__grow(w, (void **)&w->traps, &cap, n, sizeof *w->traps)) {
            io_fail(s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
            return;
        }
        w->traps_cap = cap;
    }
    for (int32_t k = 0; io_ok(s) && k < n; ++k) {
        io_u64(s, &w->traps[k].agent);
        io_u64(s, &w->traps[k].obstacle);
    }
    if (s->reading)
        w->ntraps = io_ok(s) ? n : 0;
}

/* Everything else. The order is the format: append, never reorder. */
static void visit_state(snap_io *s, rvo_world *w) {
    io_bool(s, &w->rvo2_compat);
    io_i32(s, &w->solver);
    io_i32(s, &w->sampling_samples);
    io_f32(s, &w->sampling_weight);
    io_bool(s, &w->sampling_set);
    io_bool(s, &w->solved);
    io_bool(s, &w->ever_solved);
    io_bool(s, &w->strict_overlap);
    io_f32(s, &w->stall_progress); /* stall events */
    io_f32(s, &w->stall_min_time);
    visit_agents(s, w);
    visit_slots(s, w, &w->agent_slots);
    visit_obstacles(s, w);
    visit_slots(s, w, &w->obst_slots);
    if (s->version >= 3) {
        io_bool(s, &w->locks_moved); /* lock timers: an integrate ran, no solve since */
        visit_traps(s, w);
    }
    if (s->version >= 5)
        io_f32(s, &w->aim_dt);
}

/* ---- checks of a loaded world ------------------------------------------ */

static bool finite_vec(rvo_vec2 v, float limit) {
    return isfinite(v.x) && isfinite(v.y) && fabsf(v.x) <= limit && fabsf(v.y) <= limit;
}

/* The ids of a pool agree with the dense ids array and its free stack. */
static const char *check_slots(rvo_world *w, const slot_table *t, const rvo_agent_id *dense_ids,
                               int32_t count, const char *what, char *buf, size_t n) {
    int32_t live = 0;
    for (int32_t k = 0; k < t->used; ++k) {
        if (t->gen[k] > RVO_MAX_GENERATION || t->index[k] < -1 || t->index[k] >= count) {
            snprintf(buf, n, "%s slot %ld is corrupted", what, (long)k + 1);
            return buf;
        }
        if (t->index[k] >= 0) {
            const uint64_t id = ((uint64_t)t->gen[k] << RVO_SLOT_BITS) | (uint64_t)(k + 1);
            if (dense_ids[t->index[k]] != id) {
                snprintf(buf, n, "%s ids do not match their slots", what);
                return buf;
            }
            ++live;
        }
    }
    if (live != count) {
        snprintf(buf, n, "%s ids do not match their slots", what);
        return buf;
    }
    /* The free stack: distinct dead slots; a dead slot not on it is retired. */
    uint8_t *seen = rvo__realloc(w, NULL, 0, (size_t)(t->used > 0 ? t->used : 1));
    if (!seen)
        return "out of memory";
    memset(seen, 0, (size_t)(t->used > 0 ? t->used : 1));
    const char *e = NULL;
    for (int32_t k = 0; k < t->nfree && !e; ++k) {
        const int32_t f = t->free[k];
        if (f < 0 || f >= t->used || seen[f] || t->index[f] != -1)
            e = "free list";
        else
            seen[f] = 1;
    }
    for (int32_t k = 0; k < t->used && !e; ++k)
        if (t->index[k] == -1 && !seen[k] && t->gen[k] != RVO_MAX_GENERATION)
            e = "free list";
    rvo__realloc(w, seen, (size_t)(t->used > 0 ? t->used : 1), 0);
    if (e) {
        snprintf(buf, n, "%s %s is corrupted", what, e);
        return buf;
    }
    return NULL;
}

static const char *validate(rvo_world *w, char *buf, size_t n) {
    if (w->solver != RVO_SOLVER_ORCA && w->solver != RVO_SOLVER_UE && w->solver != RVO_SOLVER_RVO)
        return "unknown solver";
    if (w->sampling_set &&
        (w->sampling_samples < 1 || w->sampling_samples > 4096 || !isfinite(w->sampling_weight) ||
         w->sampling_weight < 0 || w->sampling_weight > RVO_MAX_COORD))
        return "bad sampling settings";
    if (w->solved && !w->ever_solved)
        return "bad phase";
    if (!(w->stall_progress >= 0 && w->stall_progress <= 1) || !(w->stall_min_time >= 0) ||
        !(w->stall_min_time <= RVO_MAX_COORD))
        return "bad stall threshold";
    if (!(w->aim_dt >= 0) || !isfinite(w->aim_dt))
        return "bad last time step";
    for (int32_t i = 0; i < w->count; ++i) {
        const agent_params *a = &w->prm[i];
        const char *e = NULL;
        if (!finite_vec(w->pos[i], INFINITY) || !finite_vec(w->vel[i], INFINITY) ||
            !finite_vec(w->newvel[i], INFINITY) || !finite_vec(w->pref[i], RVO_MAX_COORD))
            e = "a position or velocity is not finite";
        else if ((e = rvo__param_check(RVO_PARAM_RADIUS, a->radius)) ||
                 (e = rvo__param_check(RVO_PARAM_MAX_SPEED, a->max_speed)) ||
                 (e = rvo__param_check(RVO_PARAM_NEIGHBOR_DIST, a->neighbor_dist)) ||
                 (e = rvo__param_check(RVO_PARAM_MAX_NEIGHBORS, a->max_neighbors)) ||
                 (e = rvo__param_check(RVO_PARAM_TIME_HORIZON, a->time_horizon)) ||
                 (e = rvo__param_check(RVO_PARAM_TIME_HORIZON_OBST, a->time_horizon_obst)) ||
                 (e = rvo__param_check(RVO_PARAM_WEIGHT, a->weight)) ||
                 (e = rvo__param_check(RVO_PARAM_Z, a->z)) ||
                 (e = rvo__param_check(RVO_PARAM_HEIGHT, a->height)))
            ;
        else if (a->locked != 0 && a->locked != 1)
            e = "bad lock flag";
        else if (!(w->stall[i] >= 0) || !isfinite(w->stall[i]))
            e = "bad stall time";
        else if (!(w->carried[i] >= 0) || !isfinite(w->carried[i]))
            e = "bad carried distance";
        else if (w->detour[i] < -1 || w->detour[i] > 1)
            e = "bad detour side";
        else if (w->lock && (!(w->lock[i].left >= 0.0 && isfinite(w->lock[i].left)) ||
                             (w->lock[i].left > 0.0 && (a->locked != 1 || !(w->lock[i].release > 0.0) ||
                                                        !finite_vec(w->lock[i].pref, RVO_MAX_COORD))) ||
                             !finite_vec(w->lock[i].moved, INFINITY)))
            e = "bad lock timer";
        if (e) {
            snprintf(buf, n, "agent %ld: %s", (long)i + 1, e);
            return buf;
        }
    }
    const char *e = check_slots(w, &w->agent_slots, w->ids, w->count, "agent", buf, n);
    if (e)
        return e;
    for (int32_t k = 0; k < w->obst_count; ++k) {
        const obstacle *o = &w->obst[k];
        if (isnan(o->zmin) || o->zmin == INFINITY || isnan(o->zmax) || o->zmax == -INFINITY ||
            o->zmin > o->zmax) {
            snprintf(buf, n, "obstacle %ld: bad z range", (long)k + 1);
            return buf;
        }
        if (!isfinite(o->vel.x) || !isfinite(o->vel.y) || fabsf(o->vel.x) > RVO_MAX_COORD ||
            fabsf(o->vel.y) > RVO_MAX_COORD) {
            snprintf(buf, n, "obstacle %ld: bad velocity", (long)k + 1);
            return buf;
        }
        /* a side needs a closed obstacle, and its ring is stored wound for it */
        if (o->side < 0 || (o->closed && !o->asked_closed) ||
            (o->side != RVO_SIDE_WINDING && !o->asked_closed) ||
            (o->closed && o->side == RVO_SIDE_SOLID && o->enclosure) ||
            (o->closed && o->side == RVO_SIDE_ENCLOSURE && !o->enclosure)) {
            snprintf(buf, n, "obstacle %ld: bad side", (long)k + 1);
            return buf;
        }
    }
    /* obstacle ids live in obstacle structs: gather them for the check */
    rvo_obstacle_id *oids =
        rvo__realloc(w, NULL, 0, sizeof *oids * (size_t)(w->obst_count > 0 ? w->obst_count : 1));
    if (!oids)
        return "out of memory";
    for (int32_t k = 0; k < w->obst_count; ++k)
        oids[k] = w->obst[k].id;
    e = check_slots(w, &w->obst_slots, oids, w->obst_count, "obstacle", buf, n);
    rvo__realloc(w, oids, sizeof *oids * (size_t)(w->obst_count > 0 ? w->obst_count : 1), 0);
    return e;
}

/* ---- public ------------------------------------------------------------- */

/* The settings of w as a world def (what rvo_world_create took, as now). */
static rvo_world_def settings_of(const rvo_world *w) {
    rvo_world_def d = rvo_world_def_default();
    d.time_step = w->time_step;
    d.threads = w->threads;
    d.seed = w->seed;
    d.height_margin = w->height_margin;
    d.agent = w->defaults;
    return d;
}

static size_t write_payload(const rvo_world *cw, uint8_t *out) {
    rvo_world *w = (rvo_world *)cw; /* the visitors only read when writing */
    snap_io s;
    memset(&s, 0, sizeof s);
    s.out = out;
    s.version = SNAP_VERSION;
    rvo_world_def d = settings_of(w);
    visit_settings(&s, &d);
    visit_state(&s, w);
    return s.pos;
}

size_t rvo_world_save(const rvo_world *w, void *buf, size_t cap) {
    if (!w)
        return 0;
    const size_t payload = write_payload(w, NULL);
    const size_t total = SNAP_HEADER + payload;
    if (!buf || cap < total)
        return total;
    uint8_t *p = buf;
    write_payload(w, p + SNAP_HEADER);
    memcpy(p, snap_magic, 8);
    put_le(p + 8, SNAP_VERSION, 4);
    put_le(p + 12, crc32_bytes(p + SNAP_HEADER, payload), 4);
    put_le(p + 16, payload, 8);
    return total;
}

rvo_status rvo_world_load(const void *data, size_t size, const rvo_world_def *host, rvo_world **out,
                          rvo_error *err) {
    snap_io s;
    memset(&s, 0, sizeof s);
    s.reading = true;
    s.err = err;
    rvo__error_ok(err);
    if (!out)
        return rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 4, "out is NULL");
    *out = NULL;
    const uint8_t *p = data;
    if (!p && size > 0) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "data is NULL");
        return s.status;
    }
    if (size < 8 || memcmp(p, snap_magic, 8) != 0) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "not an rvo snapshot");
        return s.status;
    }
    if (size < SNAP_HEADER) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "snapshot is truncated");
        return s.status;
    }
    s.version = (uint32_t)get_le(p + 8, 4);
    if (s.version < 1 || s.version > SNAP_VERSION) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT,
                "snapshot version %lu is not supported (this build reads 1..%u)", (unsigned long)s.version,
                SNAP_VERSION);
        return s.status;
    }
    const uint64_t payload = get_le(p + 16, 8);
    if (payload > size - SNAP_HEADER) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "snapshot is truncated");
        return s.status;
    }
    if (payload < size - SNAP_HEADER) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "snapshot has trailing bytes");
        return s.status;
    }
    if (crc32_bytes(p + SNAP_HEADER, (size_t)payload) != (uint32_t)get_le(p + 12, 4)) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (checksum mismatch)");
        return s.status;
    }
    s.in = p + SNAP_HEADER;
    s.size = (size_t)payload;

    /* The host's def brings what bytes cannot: the allocator (and hooks). */
    rvo_world_def d = host ? *host : rvo_world_def_default();
    d.cookie = RVO_WORLD_COOKIE;
    visit_settings(&s, &d);
    if (!io_ok(&s))
        return s.status;
    if (host && host->enqueue_task)
        d.threads = host->threads; /* the host's worker count */
    const char *e = rvo__world_def_why(&d);
    if (e) {
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (%s)", e);
        return s.status;
    }
    rvo_world *w = rvo_world_create(&d, NULL);
    if (!w) {
        io_fail(&s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
        return s.status;
    }
    visit_state(&s, w);
    if (io_ok(&s) && s.pos != s.size)
        io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (%lu bytes left over)",
                (unsigned long)(s.size - s.pos));
    if (io_ok(&s)) {
        char buf[128];
        e = validate(w, buf, sizeof buf);
        if (e && strcmp(e, "out of memory") == 0)
            io_fail(&s, RVO_ERR_OUT_OF_MEMORY, "out of memory");
        else if (e)
            io_fail(&s, RVO_ERR_INVALID_ARGUMENT, "snapshot is corrupted (%s)", e);
    }
    if (!io_ok(&s)) {
        rvo_world_destroy(w);
        return s.status;
    }
    w->n_filtering = 0;
    for (int32_t i = 0; i < w->count; ++i)
        w->n_filtering += filters_pairs(&w->prm[i]);
    rvo__obstacles_moving_update(w);
    rvo__agents_changed(w);
    w->egrid.valid = false;
    rvo__ok(w);
    *out = w;
    return RVO_OK;
}
