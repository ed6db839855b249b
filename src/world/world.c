/* Definitions (defaults and checks), the last error, and the world's
 * settings. */
#include "world/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const param_names[RVO_PARAM_COUNT] = {
    "radius",        "max_speed",
    "neighbor_dist", "max_neighbors",
    "time_horizon",  "time_horizon_obst",
    "weight",        "groups",
    "mask",          "z",
    "height",
};

const char *rvo_version(void) { return RVO_VERSION; }

bool rvo__no_shortcuts = false;

const char *rvo_param_name(rvo_param p) {
    return ((int)p >= 0 && p < RVO_PARAM_COUNT) ? param_names[p] : NULL;
}

int rvo_param_from_name(const char *name) {
    if (!name)
        return -1;
    for (int i = 0; i < RVO_PARAM_COUNT; ++i)
        if (strcmp(name, param_names[i]) == 0)
            return i;
    return -1;
}

const char *rvo_status_string(rvo_status s) {
    switch (s) {
    case RVO_OK:
        return "ok";
    case RVO_ERR_INVALID_ARGUMENT:
        return "invalid argument";
    case RVO_ERR_UNKNOWN_ID:
        return "unknown or removed id";
    case RVO_ERR_OUT_OF_MEMORY:
        return "out of memory";
    case RVO_ERR_DEGENERATE:
        return "degenerate geometry";
    case RVO_ERR_PHASE:
        return "call not allowed in this phase";
    case RVO_ERR_CAPACITY:
        return "capacity exceeded";
    }
    return "unknown status";
}

rvo_agent_def rvo_agent_def_default(void) {
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

rvo_world_def rvo_world_def_default(void) {
    rvo_world_def d;
    memset(&d, 0, sizeof d);
    d.time_step = 1.0f / 60.0f;
    d.agent = rvo_agent_def_default();
    d.threads = 1;
    d.seed = 1;
    d.cookie = RVO_WORLD_COOKIE;
    return d;
}

/* Validates one parameter value; NULL when fine. */
static const char *check_param(rvo_param p, double v) {
    static RVO_THREAD_LOCAL char buf[RVO_PARAM_COUNT][64];
    const char *name = param_names[p];
    if (p == RVO_PARAM_HEIGHT && v == INFINITY)
        return NULL; /* no vertical extent */
    if (!isfinite(v)) {
        snprintf(buf[p], sizeof buf[p], "%s must be finite", name);
        return buf[p];
    }
    switch (p) {
    case RVO_PARAM_RADIUS:
    case RVO_PARAM_TIME_HORIZON:
    case RVO_PARAM_TIME_HORIZON_OBST:
        if (!(v > 0))
            return p == RVO_PARAM_RADIUS         ? "radius must be > 0"
                   : p == RVO_PARAM_TIME_HORIZON ? "time_horizon must be > 0"
                                                 : "time_horizon_obst must be > 0";
        break;
    case RVO_PARAM_MAX_SPEED:
        if (v < 0)
            return "max_speed must be >= 0";
        break;
    case RVO_PARAM_NEIGHBOR_DIST:
        if (v < 0)
            return "neighbor_dist must be >= 0";
        break;
    case RVO_PARAM_MAX_NEIGHBORS:
        if (v != floor(v))
            return "max_neighbors must be an integer";
        if (v < 0 || v > RVO_MAX_NEIGHBORS_LIMIT)
            return "max_neighbors must be in [0, 1024]";
        return NULL;
    case RVO_PARAM_WEIGHT:
        if (v < 0 || v > 1)
            return "weight must be in [0, 1]";
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
        if (!(v > 0))
            return "height must be > 0";
        break;
    default:
        return "unknown parameter";
    }
    if (fabs(v) > RVO_MAX_COORD) {
        snprintf(buf[p], sizeof buf[p], "%s must be <= 1e9", name);
        return buf[p];
    }
    return NULL;
}

const char *rvo__param_check(rvo_param p, double v) {
    if ((int)p < 0 || p >= RVO_PARAM_COUNT)
        return "unknown parameter";
    return check_param(p, v);
}

size_t rvo_agent_def_size(void) { return sizeof(rvo_agent_def); }
size_t rvo_world_def_size(void) { return sizeof(rvo_world_def); }

rvo_status rvo_agent_def_set_param(rvo_agent_def *d, rvo_param p, double v, rvo_error *err) {
    if (!d)
        return rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1, "agent def is NULL");
    if ((int)p < 0 || p >= RVO_PARAM_COUNT)
        return rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 2, "unknown parameter");
    const char *e = check_param(p, v);
    if (e)
        return rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 3, "%s", e);
    switch (p) {
    case RVO_PARAM_RADIUS:
        d->radius = (float)v;
        break;
    case RVO_PARAM_MAX_SPEED:
        d->max_speed = (float)v;
        break;
    case RVO_PARAM_NEIGHBOR_DIST:
        d->neighbor_dist = (float)v;
        break;
    case RVO_PARAM_MAX_NEIGHBORS:
        d->max_neighbors = (int32_t)v;
        break;
    case RVO_PARAM_TIME_HORIZON:
        d->time_horizon = (float)v;
        break;
    case RVO_PARAM_TIME_HORIZON_OBST:
        d->time_horizon_obst = (float)v;
        break;
    case RVO_PARAM_WEIGHT:
        d->weight = (float)v;
        break;
    case RVO_PARAM_GROUPS:
        d->groups = (uint32_t)v;
        break;
    case RVO_PARAM_MASK:
        d->mask = (uint32_t)v;
        break;
    case RVO_PARAM_Z:
        d->z = (float)v;
        break;
    case RVO_PARAM_HEIGHT:
        d->height = (float)v;
        break;
    default:
        break;
    }
    rvo__error_ok(err);
    return RVO_OK;
}

double rvo_agent_def_param(const rvo_agent_def *d, rvo_param p) {
    if (!d)
        return NAN;
    switch (p) {
    case RVO_PARAM_RADIUS:
        return d->radius;
    case RVO_PARAM_MAX_SPEED:
        return d->max_speed;
    case RVO_PARAM_NEIGHBOR_DIST:
        return d->neighbor_dist;
    case RVO_PARAM_MAX_NEIGHBORS:
        return d->max_neighbors;
    case RVO_PARAM_TIME_HORIZON:
        return d->time_horizon;
    case RVO_PARAM_TIME_HORIZON_OBST:
        return d->time_horizon_obst;
    case RVO_PARAM_WEIGHT:
        return d->weight;
    case RVO_PARAM_GROUPS:
        return d->groups;
    case RVO_PARAM_MASK:
        return d->mask;
    case RVO_PARAM_Z:
        return d->z;
    case RVO_PARAM_HEIGHT:
        return d->height;
    default:
        return NAN;
    }
}

const char *rvo__agent_def_why(const rvo_agent_def *d) {
    static RVO_THREAD_LOCAL char buf[64];
    const char *e;
    if (!d)
        return "agent def is NULL";
    if (d->cookie != RVO_AGENT_COOKIE)
        return "agent def not initialised with rvo_agent_def_default()";
    if ((e = check_param(RVO_PARAM_RADIUS, d->radius)))
        return e;
    if ((e = check_param(RVO_PARAM_MAX_SPEED, d->max_speed)))
        return e;
    if ((e = check_param(RVO_PARAM_NEIGHBOR_DIST, d->neighbor_dist)))
        return e;
    if ((e = check_param(RVO_PARAM_MAX_NEIGHBORS, d->max_neighbors)))
        return e;
    if ((e = check_param(RVO_PARAM_TIME_HORIZON, d->time_horizon)))
        return e;
    if ((e = check_param(RVO_PARAM_TIME_HORIZON_OBST, d->time_horizon_obst)))
        return e;
    if ((e = check_param(RVO_PARAM_WEIGHT, d->weight)))
        return e;
    if ((e = check_param(RVO_PARAM_Z, d->z)))
        return e;
    if ((e = check_param(RVO_PARAM_HEIGHT, d->height)))
        return e;
    if ((e = rvo__check_coord("vx", d->velocity.x, buf, sizeof buf)))
        return e;
    if ((e = rvo__check_coord("vy", d->velocity.y, buf, sizeof buf)))
        return e;
    if ((e = rvo__check_coord("pvx", d->pref_velocity.x, buf, sizeof buf)))
        return e;
    if ((e = rvo__check_coord("pvy", d->pref_velocity.y, buf, sizeof buf)))
        return e;
    return NULL;
}

static const char *check_dt(float dt) {
    if (!isfinite(dt))
        return "time_step must be finite";
    if (!(dt > 0))
        return "time_step must be > 0";
    return NULL;
}

const char *rvo__world_def_why(const rvo_world_def *d) {
    const char *e;
    if (!d)
        return "world def is NULL";
    if (d->cookie != RVO_WORLD_COOKIE)
        return "world def not initialised with rvo_world_def_default()";
    if ((e = check_dt(d->time_step)))
        return e;
    if (d->threads < 1 || d->threads > 64)
        return "threads must be in [1, 64]";
    if (!isfinite(d->height_margin) || d->height_margin < 0 || d->height_margin > RVO_MAX_COORD)
        return "height_margin must be within [0, 1e9]";
    if ((e = rvo__task_def_check(d)))
        return e;
    return rvo__agent_def_why(&d->agent);
}

static rvo_status def_report(const char *why, rvo_error *err) {
    if (why)
        return rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1, "%s", why);
    rvo__error_ok(err);
    return RVO_OK;
}

rvo_status rvo_agent_def_check(const rvo_agent_def *d, rvo_error *err) {
    return def_report(rvo__agent_def_why(d), err);
}

rvo_status rvo_world_def_check(const rvo_world_def *d, rvo_error *err) {
    return def_report(rvo__world_def_why(d), err);
}

const char *rvo_world_last_error(const rvo_world *w) { return w ? w->base.err : "world is NULL"; }
int rvo_world_last_error_arg(const rvo_world *w) { return w ? w->base.err_arg : 0; }

float rvo_world_time_step(const rvo_world *w) { return w ? w->time_step : 0.0f; }
int32_t rvo_world_threads(const rvo_world *w) { return w ? w->threads : 0; }
rvo_agent_def rvo_world_agent_defaults(const rvo_world *w) {
    return w ? w->defaults : rvo_agent_def_default();
}

rvo_status rvo_world_set_time_step(rvo_world *w, float dt) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const char *e = check_dt(dt);
    if (e)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "%s", e);
    w->time_step = dt;
    rvo__ok(w);
    return RVO_OK;
}

bool rvo_world_is_solved(const rvo_world *w) { return w && w->solved; }

rvo_status rvo_world_set_height_margin(rvo_world *w, float margin) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (!isfinite(margin) || margin < 0 || margin > RVO_MAX_COORD)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "height_margin must be within [0, 1e9]");
    w->height_margin = margin;
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_world_set_rvo2_compat(rvo_world *w, bool on) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    w->rvo2_compat = on;
    rvo__ok(w);
    return RVO_OK;
}

bool rvo_world_rvo2_compat(const rvo_world *w) { return w && w->rvo2_compat; }

rvo_status rvo__check_dt(rvo_world *w, float dt) {
    if (!isfinite(dt))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "dt must be finite");
    if (!(dt > 0))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "dt must be > 0");
    return RVO_OK;
}
