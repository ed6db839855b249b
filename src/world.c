/* World lifetime, definitions, errors and the step phases. */
#include "rvo_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const param_names[RVO_PARAM_COUNT] = {
    "radius", "max_speed", "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst",
    "weight", "groups", "mask", "z", "height",
};

const char *rvo_version(void) { return RVO_VERSION; }

const char *rvo_param_name(rvo_param p) {
    return ((int)p >= 0 && p < RVO_PARAM_COUNT) ? param_names[p] : NULL;
}

int rvo_param_from_name(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < RVO_PARAM_COUNT; ++i)
        if (strcmp(name, param_names[i]) == 0) return i;
    return -1;
}

const char *rvo_status_string(rvo_status s) {
    switch (s) {
    case RVO_OK: return "ok";
    case RVO_ERR_INVALID_ARGUMENT: return "invalid argument";
    case RVO_ERR_UNKNOWN_ID: return "unknown or removed id";
    case RVO_ERR_OUT_OF_MEMORY: return "out of memory";
    case RVO_ERR_DEGENERATE: return "degenerate geometry";
    case RVO_ERR_PHASE: return "call not allowed in this phase";
    case RVO_ERR_CAPACITY: return "capacity exceeded";
    }
    return "unknown status";
}

rvo_agent_def rvo_default_agent_def(void) {
    rvo_agent_def d;
    memset(&d, 0, sizeof d);
    d.radius = 0.5f;
    d.max_speed = 2.0f;
    d.neighbor_dist = 10.0f;
    d.max_neighbors = 10;
    d.time_horizon = 2.0f;
    d.time_horizon_obst = 2.0f;
    d.weight = 0.5f;
    d.groups = 1;
    d.mask = 0xffffffffu;
    d.z = 0.0f;
    d.height = INFINITY;
    d.cookie = RVO_AGENT_COOKIE;
    return d;
}

rvo_world_def rvo_default_world_def(void) {
    rvo_world_def d;
    memset(&d, 0, sizeof d);
    d.time_step = 1.0f / 60.0f;
    d.agent = rvo_default_agent_def();
    d.threads = 1;
    d.seed = 1;
    d.cookie = RVO_WORLD_COOKIE;
    return d;
}

/* Validates one parameter value; NULL when fine. */
static const char *check_param(rvo_param p, double v) {
    static _Thread_local char buf[RVO_PARAM_COUNT][64];
    const char *name = param_names[p];
    if (p == RVO_PARAM_HEIGHT && v == INFINITY) return NULL; /* no vertical extent */
    if (!isfinite(v)) {
        snprintf(buf[p], sizeof buf[p], "%s must be finite", name);
        return buf[p];
    }
    switch (p) {
    case RVO_PARAM_RADIUS:
    case RVO_PARAM_TIME_HORIZON:
    case RVO_PARAM_TIME_HORIZON_OBST:
        if (!(v > 0)) return p == RVO_PARAM_RADIUS         ? "radius must be > 0"
                             : p == RVO_PARAM_TIME_HORIZON ? "time_horizon must be > 0"
                                                           : "time_horizon_obst must be > 0";
        break;
    case RVO_PARAM_MAX_SPEED:
        if (v < 0) return "max_speed must be >= 0";
        break;
    case RVO_PARAM_NEIGHBOR_DIST:
        if (v < 0) return "neighbor_dist must be >= 0";
        break;
    case RVO_PARAM_MAX_NEIGHBORS:
        if (v != floor(v)) return "max_neighbors must be an integer";
        if (v < 0 || v > RVO_MAX_NEIGHBORS_LIMIT) return "max_neighbors must be in [0, 1024]";
        return NULL;
    case RVO_PARAM_WEIGHT:
        if (v < 0 || v > 1) return "weight must be in [0, 1]";
        return NULL;
    case RVO_PARAM_GROUPS:
    case RVO_PARAM_MASK:
        if (v != floor(v) || v < 0 || v > 4294967295.0)
            return p == RVO_PARAM_GROUPS ? "groups must be an integer in [0, 2^32 - 1]"
                                         : "mask must be an integer in [0, 2^32 - 1]";
        return NULL;
    case RVO_PARAM_Z:
        break;
    case RVO_PARAM_HEIGHT:
        if (!(v > 0)) return "height must be > 0";
        break;
    default: return "unknown parameter";
    }
    if (fabs(v) > RVO_MAX_COORD) {
        snprintf(buf[p], sizeof buf[p], "%s must be <= 1e9", name);
        return buf[p];
    }
    return NULL;
}

const char *rvo__param_check(rvo_param p, double v) {
    if ((int)p < 0 || p >= RVO_PARAM_COUNT) return "unknown parameter";
    return check_param(p, v);
}

size_t rvo_agent_def_size(void) { return sizeof(rvo_agent_def); }
size_t rvo_world_def_size(void) { return sizeof(rvo_world_def); }

const char *rvo_agent_def_set(rvo_agent_def *d, rvo_param p, double v) {
    if (!d) return "agent def is NULL";
    if ((int)p < 0 || p >= RVO_PARAM_COUNT) return "unknown parameter";
    const char *e = check_param(p, v);
    if (e) return e;
    switch (p) {
    case RVO_PARAM_RADIUS: d->radius = (float)v; break;
    case RVO_PARAM_MAX_SPEED: d->max_speed = (float)v; break;
    case RVO_PARAM_NEIGHBOR_DIST: d->neighbor_dist = (float)v; break;
    case RVO_PARAM_MAX_NEIGHBORS: d->max_neighbors = (int32_t)v; break;
    case RVO_PARAM_TIME_HORIZON: d->time_horizon = (float)v; break;
    case RVO_PARAM_TIME_HORIZON_OBST: d->time_horizon_obst = (float)v; break;
    case RVO_PARAM_WEIGHT: d->weight = (float)v; break;
    case RVO_PARAM_GROUPS: d->groups = (uint32_t)v; break;
    case RVO_PARAM_MASK: d->mask = (uint32_t)v; break;
    case RVO_PARAM_Z: d->z = (float)v; break;
    case RVO_PARAM_HEIGHT: d->height = (float)v; break;
    default: break;
    }
    return NULL;
}

double rvo_agent_def_get(const rvo_agent_def *d, rvo_param p) {
    if (!d) return NAN;
    switch (p) {
    case RVO_PARAM_RADIUS: return d->radius;
    case RVO_PARAM_MAX_SPEED: return d->max_speed;
    case RVO_PARAM_NEIGHBOR_DIST: return d->neighbor_dist;
    case RVO_PARAM_MAX_NEIGHBORS: return d->max_neighbors;
    case RVO_PARAM_TIME_HORIZON: return d->time_horizon;
    case RVO_PARAM_TIME_HORIZON_OBST: return d->time_horizon_obst;
    case RVO_PARAM_WEIGHT: return d->weight;
    case RVO_PARAM_GROUPS: return d->groups;
    case RVO_PARAM_MASK: return d->mask;
    case RVO_PARAM_Z: return d->z;
    case RVO_PARAM_HEIGHT: return d->height;
    default: return NAN;
    }
}

const char *rvo__check_coord(const char *name, float v, char *buf, size_t n) {
    if (!isfinite(v)) {
        snprintf(buf, n, "%s must be finite", name);
        return buf;
    }
    if (fabsf(v) > RVO_MAX_COORD) {
        snprintf(buf, n, "%s must be within [-1e9, 1e9]", name);
        return buf;
    }
    return NULL;
}

const char *rvo_agent_def_check(const rvo_agent_def *d) {
    static _Thread_local char buf[64];
    const char *e;
    if (!d) return "agent def is NULL";
    if (d->cookie != RVO_AGENT_COOKIE) return "agent def not initialised with rvo_default_agent_def()";
    if ((e = check_param(RVO_PARAM_RADIUS, d->radius))) return e;
    if ((e = check_param(RVO_PARAM_MAX_SPEED, d->max_speed))) return e;
    if ((e = check_param(RVO_PARAM_NEIGHBOR_DIST, d->neighbor_dist))) return e;
    if ((e = check_param(RVO_PARAM_MAX_NEIGHBORS, d->max_neighbors))) return e;
    if ((e = check_param(RVO_PARAM_TIME_HORIZON, d->time_horizon))) return e;
    if ((e = check_param(RVO_PARAM_TIME_HORIZON_OBST, d->time_horizon_obst))) return e;
    if ((e = check_param(RVO_PARAM_WEIGHT, d->weight))) return e;
    if ((e = check_param(RVO_PARAM_Z, d->z))) return e;
    if ((e = check_param(RVO_PARAM_HEIGHT, d->height))) return e;
    if ((e = rvo__check_coord("vx", d->velocity.x, buf, sizeof buf))) return e;
    if ((e = rvo__check_coord("vy", d->velocity.y, buf, sizeof buf))) return e;
    if ((e = rvo__check_coord("pvx", d->pref_velocity.x, buf, sizeof buf))) return e;
    if ((e = rvo__check_coord("pvy", d->pref_velocity.y, buf, sizeof buf))) return e;
    return NULL;
}

static const char *check_dt(float dt) {
    if (!isfinite(dt)) return "time_step must be finite";
    if (!(dt > 0)) return "time_step must be > 0";
    return NULL;
}

const char *rvo_world_def_check(const rvo_world_def *d) {
    const char *e;
    if (!d) return "world def is NULL";
    if (d->cookie != RVO_WORLD_COOKIE) return "world def not initialised with rvo_default_world_def()";
    if ((e = check_dt(d->time_step))) return e;
    if (d->threads < 1 || d->threads > 64) return "threads must be in [1, 64]";
    if (!isfinite(d->height_margin) || d->height_margin < 0 || d->height_margin > RVO_MAX_COORD)
        return "height_margin must be within [0, 1e9]";
    if ((e = rvo__task_def_check(d))) return e;
    return rvo_agent_def_check(&d->agent);
}

/* ---- memory ------------------------------------------------------------ */

void *rvo__realloc(rvo_world *w, void *p, size_t old_size, size_t new_size) {
    if (w->alloc) return w->alloc(w->alloc_user, p, old_size, new_size);
    if (new_size == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, new_size);
}

/* Grows *p to hold at least need elements (doubling). False when out of memory. */
bool rvo__grow(rvo_world *w, void **p, int32_t *cap, int32_t need, size_t elem) {
    if (need <= *cap) return true;
    int64_t n = *cap > 0 ? *cap : 16;
    while (n < need) n *= 2;
    if (n > INT32_MAX) n = INT32_MAX;
    void *q = rvo__realloc(w, *p, (size_t)*cap * elem, (size_t)n * elem);
    if (!q) return false;
    *p = q;
    *cap = (int32_t)n;
    return true;
}

/* Grows count arrays that share one capacity, all or none: the new blocks
 * are allocated first and the old ones freed only once every allocation
 * succeeded, so a failure leaves each array and *cap as they were (a sized
 * allocator is always told a block's true size). */
bool rvo__grow_arrays(rvo_world *w, int32_t *cap, int32_t need, int count, void **const arrays[], const size_t elems[]) {
    if (need <= *cap) return true;
    int64_t n = *cap > 0 ? *cap : 16;
    while (n < need) n *= 2;
    if (n > INT32_MAX) n = INT32_MAX;
    void *fresh[RVO_GROW_ARRAYS_MAX];
    if (count > RVO_GROW_ARRAYS_MAX) return false;
    for (int k = 0; k < count; ++k) {
        fresh[k] = rvo__realloc(w, NULL, 0, (size_t)n * elems[k]);
        if (!fresh[k]) {
            while (k-- > 0) rvo__realloc(w, fresh[k], (size_t)n * elems[k], 0);
            return false;
        }
    }
    for (int k = 0; k < count; ++k) {
        if (*arrays[k]) {
            memcpy(fresh[k], *arrays[k], (size_t)*cap * elems[k]);
            rvo__realloc(w, *arrays[k], (size_t)*cap * elems[k], 0);
        }
        *arrays[k] = fresh[k];
    }
    *cap = (int32_t)n;
    return true;
}

/* ---- errors -------------------------------------------------------------- */

rvo_status rvo__fail(const rvo_world *cw, rvo_status s, int arg, const char *fmt, ...) {
    rvo_world *w = (rvo_world *)cw; /* the error slot is not world state */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
    w->err_arg = arg;
    return s;
}

const char *rvo_world_last_error(const rvo_world *w) { return w ? w->err : "world is NULL"; }
int rvo_world_last_error_arg(const rvo_world *w) { return w ? w->err_arg : 0; }

/* ---- lifetime ------------------------------------------------------------ */

rvo_world *rvo_world_create(const rvo_world_def *def) {
    if (rvo_world_def_check(def)) return NULL;
    rvo_world *w;
    if (def->alloc)
        w = def->alloc(def->alloc_user, NULL, 0, sizeof *w);
    else
        w = malloc(sizeof *w);
    if (!w) return NULL;
    memset(w, 0, sizeof *w);
    w->alloc = def->alloc;
    w->alloc_user = def->alloc_user;
    w->time_step = def->time_step;
    w->threads = def->threads;
    w->seed = def->seed;
    w->defaults = def->agent;
    w->height_margin = def->height_margin;
    w->stall_progress = RVO_DEFAULT_STALL_PROGRESS; /* stall events */
    w->stall_min_time = RVO_DEFAULT_STALL_MIN_TIME;
    w->strict_overlap = true; /* hard bodies by default (issue 6) */
    w->scratch = rvo__realloc(w, NULL, 0, sizeof(scratch) * (size_t)w->threads);
    if (!w->scratch) {
        rvo_world_destroy(w);
        return NULL;
    }
    memset(w->scratch, 0, sizeof(scratch) * (size_t)w->threads);
    if (!rvo__tasks_start(w, def)) {
        rvo_world_destroy(w);
        return NULL;
    }
    return w;
}

#define FREE_ARRAY(p, n) (rvo__realloc(w, (p), sizeof(*(p)) * (size_t)(n), 0), (p) = NULL)

void rvo_world_destroy(rvo_world *w) {
    if (!w) return;
    rvo__pool_stop(w);
    FREE_ARRAY(w->pos, w->cap);
    FREE_ARRAY(w->vel, w->cap);
    FREE_ARRAY(w->pref, w->cap);
    FREE_ARRAY(w->newvel, w->cap);
    FREE_ARRAY(w->prm, w->cap);
    FREE_ARRAY(w->ids, w->cap);
    FREE_ARRAY(w->stall, w->cap); /* stall events */
    FREE_ARRAY(w->sep_start, w->sep_start_cap);
    FREE_ARRAY(w->sep_cand, w->sep_cand_cap);
    FREE_ARRAY(w->sep_before, w->sep_before_cap);
    FREE_ARRAY(w->sep_active, 4 * w->sep_before_cap);
    FREE_ARRAY(w->uneven, w->uneven_cap);
    rvo__slot_free(w, &w->agent_slots);
    rvo__agent_grid_free(w);
    rvo__obstacles_free(w);
    if (w->scratch) {
        rvo__scratch_free(w);
        FREE_ARRAY(w->scratch, w->threads);
    }
    if (w->alloc)
        w->alloc(w->alloc_user, w, sizeof *w, 0);
    else
        free(w);
}

float rvo_world_time_step(const rvo_world *w) { return w ? w->time_step : 0.0f; }
int32_t rvo_world_threads(const rvo_world *w) { return w ? w->threads : 0; }
rvo_agent_def rvo_world_agent_defaults(const rvo_world *w) {
    return w ? w->defaults : rvo_default_agent_def();
}

rvo_status rvo_world_set_time_step(rvo_world *w, float dt) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    const char *e = check_dt(dt);
    if (e) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "%s", e);
    w->time_step = dt;
    rvo__ok(w);
    return RVO_OK;
}

bool rvo_world_is_solved(const rvo_world *w) { return w && w->solved; }

rvo_status rvo_world_set_height_margin(rvo_world *w, float margin) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    if (!isfinite(margin) || margin < 0 || margin > RVO_MAX_COORD)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "height_margin must be within [0, 1e9]");
    w->height_margin = margin;
    rvo__ok(w);
    return RVO_OK;
}

typedef struct integrate_ctx {
    rvo_world *w;
    float dt;
    bool refile; /* the overlap pass's grid is to serve the next solve */
} integrate_ctx;

static void move_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    (void)worker;
    const integrate_ctx *c = p;
    rvo_world *w = c->w;
    for (int32_t i = begin; i < end; ++i) {
        w->vel[i] = w->newvel[i];
        w->pos[i] = v2_add(w->pos[i], v2_mul(w->vel[i], c->dt));
        /* degenerate input (issue 8): a huge dt must not carry agents to inf */
        w->pos[i] = v2(rvo__clamp_coord(w->pos[i].x), rvo__clamp_coord(w->pos[i].y));
    }
}

static void finish_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    (void)worker;
    const integrate_ctx *c = p;
    rvo_world *w = c->w;
    if (!w->rvo2_compat) /* (rvo2_compat: no overlap pass, nothing moved since move_range's clamp) */
        for (int32_t i = begin; i < end; ++i) /* issue 8: pushed apart at the border, still inside */
            w->pos[i] = v2(rvo__clamp_coord(w->pos[i].x), rvo__clamp_coord(w->pos[i].y));
    if (c->refile) rvo__grid_refile(w, begin, end, &w->scratch[worker]);
    rvo__stall_update(w, c->dt, begin, end); /* stall events */
}

rvo_status rvo_world_integrate(rvo_world *w, float dt) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    if (!isfinite(dt)) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "dt must be finite");
    if (!(dt > 0)) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "dt must be > 0");
    if (!w->solved) return rvo__fail(w, RVO_ERR_PHASE, 0, "integrate needs a solve first");
    integrate_ctx c = {w, dt, false};
    rvo__pool_for(w, w->count, RVO_LOOP_CHUNK, move_range, &c);
    w->solved = false;
    w->grid.valid = false;
    const rvo_status sep = rvo__separate(w, dt, &c.refile);
    if (sep == RVO_ERR_OUT_OF_MEMORY) return rvo__fail(w, sep, 0, "out of memory");
    if (sep != RVO_OK)
        return rvo__fail(w, sep, 0, "task hook: ranges must cover every agent once, with worker < threads");
    /* The overlap pass built a grid of the moved agents (one grid build per
     * step, not two): refreshed where the passes moved them, it serves the
     * next solve, exact with its slack. */
    for (int32_t k = 0; k < w->threads; ++k) w->scratch[k].slack = 0.0f;
    rvo__pool_for(w, w->count, RVO_LOOP_CHUNK, finish_range, &c);
    if (c.refile) {
        float slack = 0.0f;
        for (int32_t k = 0; k < w->threads; ++k) slack = w->scratch[k].slack > slack ? w->scratch[k].slack : slack;
        w->grid.slack += slack;
        w->grid.valid = true;
    }
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_world_set_rvo2_compat(rvo_world *w, bool on) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    w->rvo2_compat = on;
    rvo__ok(w);
    return RVO_OK;
}

bool rvo_world_rvo2_compat(const rvo_world *w) { return w && w->rvo2_compat; }

rvo_status rvo_world_step(rvo_world *w, float dt) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    if (dt == 0.0f) dt = w->time_step;
    rvo_status s = rvo_world_solve(w, dt);
    if (s != RVO_OK) return s;
    return rvo_world_integrate(w, dt);
}
