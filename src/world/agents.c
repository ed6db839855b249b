/* Agents: dense arrays in the world's agent order, reached through ids. */
#include "world/world.h"

#include <string.h>

static bool reserve_agents(rvo_world *w, int32_t need) {
    /* (the lock timers last: only once made, rvo__locks_make) */
    void **const arrays[] = {(void **)&w->pos,     (void **)&w->vel,    (void **)&w->pref,
                             (void **)&w->newvel,  (void **)&w->prm,    (void **)&w->ids,
                             (void **)&w->stall,   (void **)&w->detour, (void **)&w->knn_hint,
                             (void **)&w->carried, (void **)&w->aim,    (void **)&w->lock};
    const size_t elems[] = {sizeof *w->pos,      sizeof *w->vel,     sizeof *w->pref,  sizeof *w->newvel,
                            sizeof *w->prm,      sizeof *w->ids,     sizeof *w->stall, sizeof *w->detour,
                            sizeof *w->knn_hint, sizeof *w->carried, sizeof *w->aim,   sizeof *w->lock};
    return rvo__grow_arrays(w, &w->cap, need, w->lock ? 12 : 11, arrays, elems);
}

/* Looks an id up; fails with arg as the argument number when unknown. */
static int32_t find(const rvo_world *w, rvo_agent_id id, int arg) {
    const int32_t i = rvo__slot_lookup(&w->agent_slots, id);
    if (i < 0)
        rvo__fail(w, RVO_ERR_UNKNOWN_ID, arg, "unknown or removed agent id");
    return i;
}

static rvo_status check_xy(const rvo_world *w, float x, float y, const char *nx, const char *ny, int arg) {
    char buf[64];
    const char *e;
    if ((e = rvo__check_coord(nx, x, buf, sizeof buf)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, arg, "%s", e);
    if ((e = rvo__check_coord(ny, y, buf, sizeof buf)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, arg + 1, "%s", e);
    return RVO_OK;
}

rvo_agent_id rvo_world_add_agent(rvo_world *w, float x, float y, const rvo_agent_def *def) {
    if (!w)
        return 0;
    if (check_xy(w, x, y, "x", "y", 1) != RVO_OK)
        return 0;
    if (!def)
        def = &w->defaults;
    const char *e = rvo__agent_def_why(def);
    if (e) {
        rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "%s", e);
        return 0;
    }
    if (!reserve_agents(w, w->count + 1)) {
        rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        return 0;
    }
    rvo_agent_id id;
    rvo_status s = rvo__slot_alloc(&w->base, &w->agent_slots, w->count, &id);
    if (s != RVO_OK) {
        rvo__fail(w, s, 0, s == RVO_ERR_CAPACITY ? "too many agents" : "out of memory");
        return 0;
    }
    const int32_t i = w->count++;
    w->pos[i] = v2(x, y);
    w->vel[i] = def->velocity;
    w->pref[i] = def->pref_velocity;
    w->newvel[i] = def->velocity; /* an agent added after a solve keeps its velocity */
    w->prm[i].radius = def->radius;
    w->prm[i].max_speed = def->max_speed;
    w->prm[i].neighbor_dist = def->neighbor_dist;
    w->prm[i].max_neighbors = (int16_t)def->max_neighbors; /* (checked above) */
    rvo__raise_k_most(w, def->max_neighbors);
    w->prm[i].time_horizon = def->time_horizon;
    w->prm[i].time_horizon_obst = def->time_horizon_obst;
    w->prm[i].weight = def->weight;
    w->prm[i].groups = def->groups;
    w->prm[i].mask = def->mask;
    w->prm[i].z = def->z;
    w->prm[i].height = def->height;
    w->prm[i].locked = 0;
    w->n_filtering += filters_pairs(&w->prm[i]);
    w->ids[i] = id;
    w->stall[i] = 0.0f; /* stall events */
    w->carried[i] = 0.0f;
    w->aim[i] = rvo__aim_new();
    w->knn_hint[i] = RVO_NO_HINT;
    w->detour[i] = 0;
    if (w->lock)
        memset(&w->lock[i], 0, sizeof w->lock[i]); /* no timer, auto lock on */
    rvo__agents_changed(w);
    rvo__ok(w);
    return id;
}

rvo_status rvo_world_remove_agent(rvo_world *w, rvo_agent_id id) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id, 1);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    w->n_filtering -= filters_pairs(&w->prm[i]);
    const int32_t last = --w->count;
    if (i != last) { /* move the last agent into the hole */
        w->pos[i] = w->pos[last];
        w->vel[i] = w->vel[last];
        w->pref[i] = w->pref[last];
        w->newvel[i] = w->newvel[last];
        w->prm[i] = w->prm[last];
        w->ids[i] = w->ids[last];
        w->stall[i] = w->stall[last]; /* stall events */
        w->carried[i] = w->carried[last];
        w->aim[i] = w->aim[last];
        w->knn_hint[i] = w->knn_hint[last];
        w->detour[i] = w->detour[last];
        if (w->lock)
            w->lock[i] = w->lock[last];
        rvo__slot_set_index(&w->agent_slots, w->ids[i], i);
    }
    rvo__slot_release(&w->agent_slots, id);
    RVO_ASSERT(w->count >= 0 && (i == w->count || rvo__slot_lookup(&w->agent_slots, w->ids[i]) == i));
    rvo__agents_changed(w);
    rvo__ok(w);
    return RVO_OK;
}

bool rvo_agent_is_valid(const rvo_world *w, rvo_agent_id id) {
    return w && rvo__slot_lookup(&w->agent_slots, id) >= 0;
}

int32_t rvo_world_agent_count(const rvo_world *w) { return w ? w->count : 0; }

int32_t rvo_world_agent_ids(const rvo_world *w, rvo_agent_id *out, int32_t cap) {
    if (!w)
        return 0;
    if (out && cap > 0)
        memcpy(out, w->ids, sizeof *out * (size_t)(cap < w->count ? cap : w->count));
    return w->count;
}

/* ---- per-agent vectors -------------------------------------------------- */

/* The checks and errors of set_vec and get_vec, kept out of their fast
 * paths (which then need no stack frame). */
static RVO_NOINLINE rvo_status set_vec_slow(rvo_world *w, rvo_agent_id id, float x, float y, rvo_vec2 *arr,
                                            const char *nx, const char *ny) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id, 1);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    if (check_xy(w, x, y, nx, ny, 2) != RVO_OK)
        return RVO_ERR_INVALID_ARGUMENT;
    arr[i] = v2(x, y);
    rvo__ok(w);
    return RVO_OK;
}

static inline rvo_status set_vec(rvo_world *w, rvo_agent_id id, float x, float y, rvo_vec2 *arr,
                                 const char *nx, const char *ny) {
    const int32_t i = w ? rvo__slot_lookup(&w->agent_slots, id) : -1;
    if (i >= 0 && rvo__coord_ok(x) && rvo__coord_ok(y)) {
        arr[i] = v2(x, y);
        rvo__ok(w);
        return RVO_OK;
    }
    return set_vec_slow(w, id, x, y, arr, nx, ny);
}

static RVO_NOINLINE rvo_status get_vec_slow(const rvo_world *w, rvo_agent_id id) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    find(w, id, 1);
    return RVO_ERR_UNKNOWN_ID;
}

static inline rvo_status get_vec(const rvo_world *w, rvo_agent_id id, const rvo_vec2 *arr, rvo_vec2 *out) {
    const int32_t i = w && out ? rvo__slot_lookup(&w->agent_slots, id) : -1;
    if (i < 0)
        return get_vec_slow(out ? w : NULL, id);
    *out = arr[i];
    return RVO_OK;
}

rvo_status rvo_agent_set_position(rvo_world *w, rvo_agent_id id, float x, float y) {
    rvo_status s = set_vec(w, id, x, y, w ? w->pos : NULL, "x", "y");
    if (s == RVO_OK)
        rvo__agents_changed(w);
    return s;
}
rvo_status rvo_agent_position(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out) {
    return get_vec(w, id, w ? w->pos : NULL, out);
}
rvo_status rvo_agent_set_velocity(rvo_world *w, rvo_agent_id id, float vx, float vy) {
    return set_vec(w, id, vx, vy, w ? w->vel : NULL, "vx", "vy");
}
rvo_status rvo_agent_velocity(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out) {
    return get_vec(w, id, w ? w->vel : NULL, out);
}
rvo_status rvo_agent_set_pref_velocity(rvo_world *w, rvo_agent_id id, float vx, float vy) {
    return set_vec(w, id, vx, vy, w ? w->pref : NULL, "vx", "vy");
}
rvo_status rvo_agent_pref_velocity(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out) {
    return get_vec(w, id, w ? w->pref : NULL, out);
}
rvo_status rvo_agent_new_velocity(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out) {
    if (w && !w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "new velocities exist only between solve and integrate");
    return get_vec(w, id, w ? w->newvel : NULL, out);
}
/* Post-processed velocities are held to max_speed here, so that integrate
 * moves ORCA's own results exactly as RVO2 does. */
static rvo_vec2 clamp_speed(rvo_vec2 v, float max_speed) {
    const float sq = v2_abs_sq(v);
    return sq > sqrf(max_speed) ? v2_scale(max_speed / sqrtf(sq), v) : v;
}

rvo_status rvo_agent_set_new_velocity(rvo_world *w, rvo_agent_id id, float vx, float vy) {
    if (w && !w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "new velocities exist only between solve and integrate");
    rvo_status s = set_vec(w, id, vx, vy, w ? w->newvel : NULL, "vx", "vy");
    if (s == RVO_OK) {
        const int32_t i = rvo__slot_lookup(&w->agent_slots, id);
        w->newvel[i] = clamp_speed(w->newvel[i], w->prm[i].max_speed);
    }
    return s;
}

rvo_status rvo_agent_set_param(rvo_world *w, rvo_agent_id id, rvo_param p, double value) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id, 1);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    const char *e = rvo__param_check(p, value);
    if (e)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, (int)p >= 0 && p < RVO_PARAM_COUNT ? 3 : 2, "%s", e);
    agent_params *a = &w->prm[i];
    w->n_filtering -= filters_pairs(a);
    switch (p) {
    case RVO_PARAM_RADIUS:
        a->radius = (float)value;
        rvo__agents_changed(w); /* (the grid keeps the largest radius) */
        break;
    case RVO_PARAM_MAX_SPEED:
        a->max_speed = (float)value;
        break;
    case RVO_PARAM_NEIGHBOR_DIST:
        a->neighbor_dist = (float)value;
        break;
    case RVO_PARAM_MAX_NEIGHBORS:
        a->max_neighbors = (int16_t)value; /* (checked: <= RVO_MAX_NEIGHBORS_LIMIT) */
        rvo__raise_k_most(w, a->max_neighbors);
        break;
    case RVO_PARAM_TIME_HORIZON:
        a->time_horizon = (float)value;
        break;
    case RVO_PARAM_TIME_HORIZON_OBST:
        a->time_horizon_obst = (float)value;
        break;
    case RVO_PARAM_WEIGHT:
        a->weight = (float)value;
        break;
    case RVO_PARAM_GROUPS:
        a->groups = (uint32_t)value;
        break;
    case RVO_PARAM_MASK:
        a->mask = (uint32_t)value;
        break;
    case RVO_PARAM_Z:
        a->z = (float)value;
        break;
    case RVO_PARAM_HEIGHT:
        a->height = (float)value;
        break;
    default:
        break;
    }
    /* A float rounding to 0 must not sneak a zero radius or horizon in. */
    if (!(a->radius > 0))
        a->radius = 1e-30f;
    if (!(a->time_horizon > 0))
        a->time_horizon = 1e-30f;
    if (!(a->time_horizon_obst > 0))
        a->time_horizon_obst = 1e-30f;
    if (!(a->height > 0))
        a->height = 1e-30f;
    w->n_filtering += filters_pairs(a);
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_agent_param(const rvo_world *w, rvo_agent_id id, rvo_param p, double *out) {
    if (!w || !out)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id, 1);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    const agent_params *a = &w->prm[i];
    switch (p) {
    case RVO_PARAM_RADIUS:
        *out = a->radius;
        break;
    case RVO_PARAM_MAX_SPEED:
        *out = a->max_speed;
        break;
    case RVO_PARAM_NEIGHBOR_DIST:
        *out = a->neighbor_dist;
        break;
    case RVO_PARAM_MAX_NEIGHBORS:
        *out = a->max_neighbors;
        break;
    case RVO_PARAM_TIME_HORIZON:
        *out = a->time_horizon;
        break;
    case RVO_PARAM_TIME_HORIZON_OBST:
        *out = a->time_horizon_obst;
        break;
    case RVO_PARAM_WEIGHT:
        *out = a->weight;
        break;
    case RVO_PARAM_GROUPS:
        *out = a->groups;
        break;
    case RVO_PARAM_MASK:
        *out = a->mask;
        break;
    case RVO_PARAM_Z:
        *out = a->z;
        break;
    case RVO_PARAM_HEIGHT:
        *out = a->height;
        break;
    default:
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "unknown parameter");
    }
    return RVO_OK;
}

/* ---- bulk ------------------------------------------------------------------ */

static int32_t get_bulk(const rvo_world *w, const rvo_vec2 *arr, float *xy, int32_t n) {
    if (!w)
        return 0;
    if (xy && n > 0)
        memcpy(xy, arr, sizeof(rvo_vec2) * (size_t)(n < w->count ? n : w->count));
    return w->count;
}

int32_t rvo_world_positions(const rvo_world *w, float *xy, int32_t n) {
    return get_bulk(w, w ? w->pos : NULL, xy, n);
}
int32_t rvo_world_velocities(const rvo_world *w, float *xy, int32_t n) {
    return get_bulk(w, w ? w->vel : NULL, xy, n);
}
int32_t rvo_world_new_velocities(const rvo_world *w, float *xy, int32_t n) {
    return get_bulk(w, w ? w->newvel : NULL, xy, n);
}
const float *rvo_world_positions_view(const rvo_world *w) { return w && w->pos ? &w->pos[0].x : NULL; }
const float *rvo_world_velocities_view(const rvo_world *w) { return w && w->vel ? &w->vel[0].x : NULL; }

static rvo_status set_bulk(rvo_world *w, rvo_vec2 *arr, const float *xy, int32_t n) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (n != w->count)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "expected %d agents' values, got %d", (int)w->count,
                         (int)n);
    if (n > 0 && !xy)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "values are NULL");
    int bad = 0; /* one branch-free pass (it vectorises); the culprit only on failure */
    for (int32_t k = 0; k < 2 * n; ++k)
        bad |= !rvo__coord_ok(xy[k]);
    for (int32_t k = 0; bad && k < 2 * n; ++k)
        if (!rvo__coord_ok(xy[k]))
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "value %d must be finite and within [-1e9, 1e9]",
                             (int)k + 1);
    if (n > 0)
        memcpy(arr, xy, sizeof(rvo_vec2) * (size_t)n);
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_world_set_pref_velocities(rvo_world *w, const float *xy, int32_t n) {
    return set_bulk(w, w ? w->pref : NULL, xy, n);
}
rvo_status rvo_world_set_new_velocities(rvo_world *w, const float *xy, int32_t n) {
    if (w && !w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "new velocities exist only between solve and integrate");
    rvo_status s = set_bulk(w, w ? w->newvel : NULL, xy, n);
    if (s == RVO_OK)
        for (int32_t i = 0; i < n; ++i)
            w->newvel[i] = clamp_speed(w->newvel[i], w->prm[i].max_speed);
    return s;
}

/* ---- bulk access by id ---------------------------------------------------- */

rvo_status rvo__check_ids(const rvo_world *w, const rvo_agent_id *ids, int32_t n, int arg, const char *name) {
    for (int32_t k = 0; k < n; ++k)
        if (rvo__slot_lookup(&w->agent_slots, ids[k]) < 0)
            return rvo__fail(w, RVO_ERR_UNKNOWN_ID, arg, "unknown or removed agent id (number %ld in %s)",
                             (long)k + 1, name);
    return RVO_OK;
}

/* Whether ids[0..n-1] are all live agents (out: where the values go or come
 * from); else a failure naming the first unknown id by its place in ids.
 * Arguments: ids 1, n 2, the values 3. */
static rvo_status check_ids(const rvo_world *w, const rvo_agent_id *ids, int32_t n, const float *out) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (n < 0)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "n must be >= 0");
    if (n > 0 && !ids)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "ids is NULL");
    if (n > 0 && !out)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "values are NULL");
    return rvo__check_ids(w, ids, n, 1, "ids");
}

static rvo_status get_vecs_of(const rvo_world *w, const rvo_vec2 *arr, const rvo_agent_id *ids, int32_t n,
                              float *xy) {
    const rvo_status s = check_ids(w, ids, n, xy);
    if (s != RVO_OK)
        return s;
    for (int32_t k = 0; k < n; ++k) {
        const rvo_vec2 v = arr[rvo__slot_lookup(&w->agent_slots, ids[k])];
        xy[2 * k] = v.x;
        xy[2 * k + 1] = v.y;
    }
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_world_positions_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *xy) {
    return get_vecs_of(w, w ? w->pos : NULL, ids, n, xy);
}
rvo_status rvo_world_velocities_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *xy) {
    return get_vecs_of(w, w ? w->vel : NULL, ids, n, xy);
}
rvo_status rvo_world_new_velocities_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *xy) {
    if (w && !w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "new velocities exist only between solve and integrate");
    return get_vecs_of(w, w ? w->newvel : NULL, ids, n, xy);
}

/* Each agent's radius (radius true) or max speed. */
static rvo_status sizes_of(const rvo_world *w, bool radius, const rvo_agent_id *ids, int32_t n, float *out) {
    const rvo_status s = check_ids(w, ids, n, out);
    if (s != RVO_OK)
        return s;
    for (int32_t k = 0; k < n; ++k) {
        const agent_params *a = &w->prm[rvo__slot_lookup(&w->agent_slots, ids[k])];
        out[k] = radius ? a->radius : a->max_speed;
    }
    rvo__ok(w);
    return RVO_OK;
}
rvo_status rvo_world_radii_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *out) {
    return sizes_of(w, true, ids, n, out);
}
rvo_status rvo_world_max_speeds_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *out) {
    return sizes_of(w, false, ids, n, out);
}

/* Checks every id and value before it writes any. */
static rvo_status set_vecs_of(rvo_world *w, rvo_vec2 *arr, const rvo_agent_id *ids, int32_t n,
                              const float *xy) {
    const rvo_status s = check_ids(w, ids, n, xy);
    if (s != RVO_OK)
        return s;
    for (int32_t k = 0; k < 2 * n; ++k)
        if (!rvo__coord_ok(xy[k]))
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "value %d must be finite and within [-1e9, 1e9]",
                             (int)k + 1);
    for (int32_t k = 0; k < n; ++k)
        arr[rvo__slot_lookup(&w->agent_slots, ids[k])] = v2(xy[2 * k], xy[2 * k + 1]);
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_world_set_pref_velocities_of(rvo_world *w, const rvo_agent_id *ids, int32_t n,
                                            const float *xy) {
    return set_vecs_of(w, w ? w->pref : NULL, ids, n, xy);
}
rvo_status rvo_world_set_new_velocities_of(rvo_world *w, const rvo_agent_id *ids, int32_t n,
                                           const float *xy) {
    if (w && !w->solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "new velocities exist only between solve and integrate");
    const rvo_status s = set_vecs_of(w, w ? w->newvel : NULL, ids, n, xy);
    if (s == RVO_OK)
        for (int32_t k = 0; k < n; ++k) {
            const int32_t i = rvo__slot_lookup(&w->agent_slots, ids[k]);
            w->newvel[i] = clamp_speed(w->newvel[i], w->prm[i].max_speed);
        }
    return s;
}

/* ---- locks and avoidance reports ------------------------------------------ */

rvo_status rvo_agent_lock(rvo_world *w, rvo_agent_id id, float vx, float vy) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id, 1);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    if (check_xy(w, vx, vy, "vx", "vy", 2) != RVO_OK)
        return RVO_ERR_INVALID_ARGUMENT;
    w->prm[i].locked = 1;
    w->vel[i] = v2(vx, vy); /* others see the lock velocity from now on */
    if (w->solved)
        w->newvel[i] = w->vel[i];
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_agent_unlock(rvo_world *w, rvo_agent_id id) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id, 1);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    w->prm[i].locked = 0;
    if (w->lock)
        w->lock[i].left = 0.0; /* a timed lock ends too */
    rvo__ok(w);
    return RVO_OK;
}

int rvo_agent_is_locked(const rvo_world *w, rvo_agent_id id) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = find(w, id, 1);
    if (i < 0)
        return RVO_ERR_UNKNOWN_ID;
    return w->prm[i].locked ? 1 : 0;
}

int32_t rvo_world_avoiding(rvo_world *w, float tolerance, rvo_agent_id *out, int32_t cap) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (!isfinite(tolerance) || tolerance < 0)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "tolerance must be finite and >= 0");
    if (cap < 0 || (cap > 0 && !out))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "bad output buffer");
    if (!w->ever_solved)
        return rvo__fail(w, RVO_ERR_PHASE, 0, "no solve has run yet");
    const float tol_sq = tolerance * tolerance;
    int32_t n = 0;
    for (int32_t i = 0; i < w->count; ++i) {
        if (w->prm[i].locked)
            continue;
        if (rvo__diverted(w, i, tol_sq)) {
            if (n < cap)
                out[n] = w->ids[i];
            ++n;
        }
    }
    rvo__ok(w);
    return n;
}
