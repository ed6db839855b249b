#include "core.h"

/* ---- queries ---------------------------------------------------------- */

/* ---- game semantics: locks, the avoiding report, height --------------- */

static int l_avoiding(lua_State *L) {
    static const char fn[] = "avoiding";
    lworld *lw = check_world(L, fn);
    double tol = opt_num(L, 1, fn, 1e-4);
    int has_buf = opt_table(L, 2, fn);
    int32_t cap = rvo_world_agent_count(lw->w);
    rvo_agent_id *buf = ids(L, lw, (size_t)cap);
    /* at most every agent: one call is enough */
    int32_t n = rvo_world_avoiding(lw->w, (float)tol, buf, cap);
    if (n < 0) {
        /* core: tolerance = 1, out = 2 (the buffer) */
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > cap) {
        n = cap;
    }
    lua_settop(L, 3); /* tolerance and buf at their places, even when absent */
    return push_id_list(L, buf, n, 2, has_buf);
}

/* ---- stall events: threshold, bulk query, per-agent time ------------- */

/* world:stalled([ids [, times]]): without ids returns ids, times, n (times
 * is the table given, filled, or a new one); with ids fills them (times only
 * when given) and returns n. */
static int l_stalled(lua_State *L) {
    static const char fn[] = "stalled";
    lworld *lw = check_world(L, fn);
    int has_ids = opt_table(L, 1, fn);
    int has_times = opt_table(L, 2, fn);
    int32_t cap = rvo_world_agent_count(lw->w);
    rvo_agent_id *ib = ids(L, lw, (size_t)cap);
    float *tb = floats(L, lw, (size_t)cap);
    int32_t n = rvo_world_stalled(lw->w, ib, tb, cap), i;
    int ti, tt;
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > cap) {
        n = cap;
    }
    lua_settop(L, 3);
    if (has_ids) {
        ti = 2;
    } else {
        lua_createtable(L, n, 0);
        ti = lua_gettop(L);
    }
    if (has_times || !has_ids) {
        if (has_times) {
            tt = 3;
        } else {
            lua_createtable(L, n, 0);
            tt = lua_gettop(L);
        }
        for (i = 0; i < n; i++) {
            lua_pushnumber(L, (lua_Number)tb[i]);
            lua_seti(L, tt, (lua_Integer)i + 1);
        }
        clear_tail(L, tt, (lua_Integer)n + 1);
    }
    for (i = 0; i < n; i++) {
        push_id(L, ib[i]);
        lua_seti(L, ti, (lua_Integer)i + 1);
    }
    clear_tail(L, ti, (lua_Integer)n + 1);
    lua_pushinteger(L, n);
    if (has_ids) {
        return 1;
    }
    lua_pushvalue(L, ti);
    lua_pushvalue(L, tt);
    lua_pushinteger(L, n);
    return 3; /* ids, times, n */
}

/* ---- queries ---------------------------------------------------------- */

static int l_neighbors(lua_State *L) {
    static const char fn[] = "neighbors";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    int has_buf = opt_table(L, 2, fn);
    rvo_agent_id *buf = ids(L, lw, 64);
    int32_t n = rvo_world_query_neighbors(lw->w, id, buf, (int32_t)lw->icap);
    if (n > (int32_t)lw->icap) {
        buf = ids(L, lw, (size_t)n);
        n = rvo_world_query_neighbors(lw->w, id, buf, (int32_t)lw->icap);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > (int32_t)lw->icap) {
        n = (int32_t)lw->icap;
    }
    return push_id_list(L, buf, n, 2, has_buf);
}

static int l_query_radius(lua_State *L) {
    static const char fn[] = "query_radius";
    lworld *lw = check_world(L, fn);
    double x = check_num(L, 1, fn);
    double y = check_num(L, 2, fn);
    double r = check_num(L, 3, fn);
    int has_buf = opt_table(L, 4, fn);
    rvo_agent_id *buf = ids(L, lw, 64);
    int32_t n = rvo_world_query_radius(lw->w, (float)x, (float)y, (float)r, buf, (int32_t)lw->icap);
    if (n > (int32_t)lw->icap) {
        buf = ids(L, lw, (size_t)n);
        n = rvo_world_query_radius(lw->w, (float)x, (float)y, (float)r, buf, (int32_t)lw->icap);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > (int32_t)lw->icap) {
        n = (int32_t)lw->icap;
    }
    return push_id_list(L, buf, n, 4, has_buf);
}

static int l_query_obstacles(lua_State *L) {
    static const char fn[] = "query_obstacles";
    lworld *lw = check_world(L, fn);
    double x = check_num(L, 1, fn);
    double y = check_num(L, 2, fn);
    double r = check_num(L, 3, fn);
    int has_buf = opt_table(L, 4, fn);
    rvo_obstacle_id *buf = ids(L, lw, 64);
    int32_t n = rvo_world_query_obstacles(lw->w, (float)x, (float)y, (float)r, buf, (int32_t)lw->icap);
    if (n > (int32_t)lw->icap) {
        buf = ids(L, lw, (size_t)n);
        n = rvo_world_query_obstacles(lw->w, (float)x, (float)y, (float)r, buf, (int32_t)lw->icap);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > (int32_t)lw->icap) {
        n = (int32_t)lw->icap;
    }
    return push_id_list(L, buf, n, 4, has_buf);
}

/* A ray cast's optional mask (argument arg): every bit when absent. The
 * core takes a uint32_t: the number is judged as set_mask judges it. */
static uint32_t opt_mask(lua_State *L, int arg, const char *fn) {
    const double m = opt_num(L, arg, fn, 4294967295.0);
    rvo_agent_def scratch = rvo_agent_def_default();
    rvo_error err;
    if (rvo_agent_def_set_param(&scratch, RVO_PARAM_MASK, m, &err) != RVO_OK) {
        arg_error(L, arg, fn, err.message);
    }
    return (uint32_t)m;
}

/* ray_cast(x, y, dx, dy, max_dist [, clearance [, mask]]) -> nil or
 * { distance, x, y, nx, ny, agent, obstacle } */
static int l_ray_cast(lua_State *L) {
    static const char fn[] = "ray_cast";
    lworld *lw = check_world(L, fn);
    double x = check_num(L, 1, fn);
    double y = check_num(L, 2, fn);
    double dx = check_num(L, 3, fn);
    double dy = check_num(L, 4, fn);
    double max_dist = check_num(L, 5, fn);
    double c = opt_num(L, 6, fn, 0.0);
    uint32_t m = opt_mask(L, 7, fn);
    rvo_ray_hit hit;
    int r;
    if (lua_isnoneornil(L, 9)) {
        /* core: x, y, dx, dy, max_dist, clearance, mask, hit = 1..8, as in Lua */
        r = rvo_world_ray_cast(lw->w, (float)x, (float)y, (float)dx, (float)dy, (float)max_dist, (float)c, m,
                               &hit);
    } else {
        /* point-blank: ignore = the caster's id, or false for nobody */
        rvo_agent_id ignore = 0;
        if (!(lua_type(L, 9) == LUA_TBOOLEAN && !lua_toboolean(L, 9))) {
            if (lua_type(L, 9) != LUA_TNUMBER) {
                type_error(L, 8, fn, "number or false", 9);
            }
            ignore = check_id(L, 8, fn);
            if (ignore == 0) {
                arg_error(L, 8, fn, "unknown or removed agent id");
            }
        }
        /* core: ..., mask, ignore, hit = 1..9, as in Lua */
        r = rvo_world_ray_cast_from(lw->w, (float)x, (float)y, (float)dx, (float)dy, (float)max_dist,
                                    (float)c, m, ignore, &hit);
    }
    if (r < 0) {
        core_error(L, lw->w, (rvo_status)r, fn, NULL, 0);
    }
    if (r == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 7);
    lua_pushnumber(L, (lua_Number)hit.distance);
    lua_setfield(L, -2, "distance");
    lua_pushnumber(L, (lua_Number)hit.point.x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, (lua_Number)hit.point.y);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, (lua_Number)hit.normal.x);
    lua_setfield(L, -2, "nx");
    lua_pushnumber(L, (lua_Number)hit.normal.y);
    lua_setfield(L, -2, "ny");
    if (hit.agent != 0) {
        push_id(L, hit.agent);
        lua_setfield(L, -2, "agent");
    }
    if (hit.obstacle != 0) {
        push_id(L, hit.obstacle);
        lua_setfield(L, -2, "obstacle");
    }
    return 1;
}

/* ray_casts(rays [, out [, mask]]) -> out (or a new list), hits: rays =
 * {x, y, dx, dy, max_dist, clearance, ...}, 6 numbers per ray; out gets 3
 * numbers per ray: the distance (-1 when nothing is hit), the agent id and
 * the obstacle id hit (0: none). With out, returns only the hit count. */
static int l_ray_casts(lua_State *L) {
    static const char fn[] = "ray_casts";
    static const signed char map[] = {1, 1, 3, 2}; /* core: rays, n, mask, hits */
    lworld *lw = check_world(L, fn);
    lua_Integer len, n, k;
    int has_out, t;
    uint32_t m;
    float *rays;
    rvo_ray_hit *hits;
    int32_t found;
    check_table(L, 1, fn);
    has_out = opt_table(L, 2, fn);
    m = opt_mask(L, 3, fn);
    len = list_len(L, 2, (lua_Integer)lua_rawlen(L, 2));
    if (len % 6 != 0) {
        lua_pushfstring(L, "expected 6 numbers per ray (x, y, dx, dy, max_dist, clearance), got %I", len);
        arg_error(L, 1, fn, lua_tostring(L, -1));
    }
    n = len / 6;
    if (n > INT32_MAX / 16) {
        arg_error(L, 1, fn, "too many rays");
    }
    /* the rays (6n floats: 24n bytes, so the hits after them are 8-byte
     * aligned in the malloc'd scratch), then the n hits */
    rays = floats(L, lw, 6 * (size_t)n + (size_t)n * (sizeof(rvo_ray_hit) / sizeof(float)));
    hits = (rvo_ray_hit *)(void *)(rays + 6 * n);
    for (k = 0; k < len; k++) {
        if (lua_rawgeti(L, 2, k + 1) != LUA_TNUMBER) {
            lua_pushfstring(L, "number expected at index %I, got %s", k + 1, type_name(L, -1));
            arg_error(L, 1, fn, lua_tostring(L, -1));
        }
        rays[k] = (float)lua_tonumberx(L, -1, NULL);
        lua_pop(L, 1);
    }
    found = rvo_world_ray_casts(lw->w, rays, (int32_t)n, m, hits);
    if (found < 0) {
        core_error(L, lw->w, (rvo_status)found, fn, map, 4);
    }
    if (has_out) {
        t = 2 + 1;
    } else {
        lua_createtable(L, 3 * (int)n, 0);
        t = lua_gettop(L);
    }
    for (k = 0; k < n; k++) {
        const rvo_ray_hit *h = &hits[k];
        if (h->agent != 0 || h->obstacle != 0) {
            lua_pushnumber(L, (lua_Number)h->distance);
        } else {
            lua_pushnumber(L, -1.0);
        }
        lua_seti(L, t, 3 * k + 1);
        push_id(L, h->agent);
        lua_seti(L, t, 3 * k + 2);
        push_id(L, h->obstacle);
        lua_seti(L, t, 3 * k + 3);
    }
    clear_tail(L, t, 3 * n + 1);
    lua_pushinteger(L, found);
    return has_out ? 1 : 2;
}

static int l_line_of_sight(lua_State *L) {
    static const char fn[] = "line_of_sight";
    lworld *lw = check_world(L, fn);
    double x1 = check_num(L, 1, fn);
    double y1 = check_num(L, 2, fn);
    double x2 = check_num(L, 3, fn);
    double y2 = check_num(L, 4, fn);
    double c = opt_num(L, 5, fn, 0.0);
    int r = rvo_world_line_of_sight(lw->w, (float)x1, (float)y1, (float)x2, (float)y2, (float)c);
    if (r < 0) {
        core_error(L, lw->w, (rvo_status)r, fn, NULL, 0);
    }
    lua_pushboolean(L, r > 0);
    return 1;
}

/* ---- debug view: ORCA lines of one agent -------------------------------- */

/* orca_lines(id [, dt [, buf]]) -> lines, count, obstacle_count (or, with
 * buf, count, obstacle_count); lines = {px, py, dx, dy, ...} */
static int l_orca_lines(lua_State *L) {
    static const char fn[] = "orca_lines";
    static const signed char map[] = {1, 2, 3, 3};
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    double dt = 0;
    int has_buf, t;
    int32_t n, nobst = 0, k;
    float *buf;
    if (!lua_isnoneornil(L, 3)) {
        dt = check_num(L, 2, fn);
        if (dt <= 0) {
            arg_error(L, 2, fn, "dt must be > 0"); /* 0 means time_step only in C */
        }
    }
    has_buf = opt_table(L, 3, fn);
    buf = floats(L, lw, 4 * 64);
    n = rvo_agent_orca_lines(lw->w, id, (float)dt, buf, (int32_t)(lw->fcap / 4), &nobst);
    if (n > (int32_t)(lw->fcap / 4)) {
        buf = floats(L, lw, 4 * (size_t)n);
        n = rvo_agent_orca_lines(lw->w, id, (float)dt, buf, (int32_t)(lw->fcap / 4), &nobst);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, map, 4);
    }
    if (has_buf) {
        t = 3 + 1;
    } else {
        lua_createtable(L, 4 * n, 0);
        t = lua_gettop(L);
    }
    for (k = 0; k < 4 * n; k++) {
        lua_pushnumber(L, (lua_Number)buf[k]);
        lua_seti(L, t, (lua_Integer)k + 1);
    }
    clear_tail(L, t, 4 * (lua_Integer)n + 1);
    if (!has_buf) {
        lua_pushvalue(L, t);
    }
    lua_pushinteger(L, n);
    lua_pushinteger(L, nobst);
    return has_buf ? 2 : 3;
}

/* ---- registration ----------------------------------------------------- */

const luaL_Reg query_methods[] = {{"neighbors", l_neighbors},
                                  {"query_radius", l_query_radius},
                                  {"query_obstacles", l_query_obstacles},
                                  {"line_of_sight", l_line_of_sight},
                                  {"ray_cast", l_ray_cast},
                                  {"ray_casts", l_ray_casts},
                                  {"avoiding", l_avoiding},
                                  {"stalled", l_stalled},
                                  {"orca_lines", l_orca_lines}, /* debug view */
                                  {NULL, NULL}};
