#include "core.h"

/* ---- bulk ------------------------------------------------------------- */

static int l_ids(lua_State *L) {
    static const char fn[] = "ids";
    lworld *lw = check_world(L, fn);
    int has_buf = opt_table(L, 1, fn);
    const int32_t n = rvo_world_agent_count(lw->w);
    rvo_agent_id *buf = ids(L, lw, (size_t)n);
    return return_ids(L, buf, n, rvo_world_agent_ids(lw->w, buf, n), has_buf);
}

typedef int32_t bulk_get_fn(const rvo_world *w, float *xy, int32_t n);

typedef rvo_status bulk_set_fn(rvo_world *w, const float *xy, int32_t n);

static int bulk_get(lua_State *L, const char *fn, bulk_get_fn *get) {
    lworld *lw = check_world(L, fn);
    int has_buf = opt_table(L, 1, fn);
    int32_t n = rvo_world_agent_count(lw->w), got;
    lua_Integer i, m;
    float *buf = floats(L, lw, 2 * (size_t)n);
    got = get(lw->w, buf, n);
    if (got < 0) {
        static const signed char map[] = {1, 1};
        core_error(L, lw->w, (rvo_status)got, fn, map, 2);
    }
    if (got < n) {
        n = got;
    }
    m = 2 * (lua_Integer)n;
    if (!has_buf) {
        lua_settop(L, 1);
        lua_createtable(L, (int)m, 0);
    }
    for (i = 0; i < m; i++) {
        lua_pushnumber(L, (lua_Number)buf[i]);
        lua_seti(L, 2, i + 1);
    }
    clear_tail(L, 2, m + 1);
    lua_pushinteger(L, n);
    return has_buf ? 1 : 2;
}

static int bulk_set(lua_State *L, const char *fn, bulk_set_fn *set) {
    lworld *lw = check_world(L, fn);
    int32_t n;
    rvo_status st;
    check_table(L, 1, fn);
    n = rvo_world_agent_count(lw->w);
    st = set(lw->w, read_pairs(L, lw, 1, fn, n, "agent"), n);
    if (st != RVO_OK) {
        static const signed char map[] = {1, 1};
        core_error(L, lw->w, st, fn, map, 2);
    }
    return 0;
}

static int l_positions(lua_State *L) { return bulk_get(L, "positions", rvo_world_positions); }

static int l_velocities(lua_State *L) { return bulk_get(L, "velocities", rvo_world_velocities); }

static int l_new_velocities(lua_State *L) { return bulk_get(L, "new_velocities", rvo_world_new_velocities); }

static int l_set_pref_velocities(lua_State *L) {
    return bulk_set(L, "set_pref_velocities", rvo_world_set_pref_velocities);
}

static int l_set_new_velocities(lua_State *L) {
    return bulk_set(L, "set_new_velocities", rvo_world_set_new_velocities);
}

/* ---- rvo.jitter's steering in bulk -------------------------------------
 * world:steer(ids, goals, amount, slow_radius, arrive [, rng [, left]]):
 * goals holds x1, y1, x2, y2, ... (2 per id); rng a table with fields s1
 * and s2 (a jitter Rng), advanced in place; left a table filled with the
 * distances. Returns the number of agents given a non-zero velocity. */

static int l_steer(lua_State *L) {
    static const char fn[] = "steer";
    lworld *lw = check_world(L, fn);
    lua_Integer n, k, len, raw, bad_id = 0, bad_goal = 0;
    rvo_agent_id *ib;
    double *goals, *left, rng[2], amount, slow, arrive;
    int has_rng, has_left, int1 = 0, int2 = 0;
    int32_t moving;
    check_table(L, 1, fn);
    check_table(L, 2, fn);
    amount = check_num(L, 3, fn);
    slow = check_num(L, 4, fn);
    arrive = check_num(L, 5, fn);
    has_rng = opt_table(L, 6, fn);
    has_left = opt_table(L, 7, fn);
    /* One pass over each list (a script calls this every frame): the ids up
     * to the first hole (list_len's length, as the FFI binding), then the
     * goals; the errors in the order of the checks (lengths, then types). */
    raw = (lua_Integer)lua_rawlen(L, 2);
    if (raw > INT32_MAX / 4) {
        arg_error(L, 1, fn, "too many ids");
    }
    ib = ids(L, lw, (size_t)raw);
    for (n = 0; n < raw; n++) {
        int t = lua_rawgeti(L, 2, n + 1), isint = 0;
        if (t == LUA_TNUMBER) {
            lua_Integer i = lua_tointegerx(L, -1, &isint);
            ib[n] = isint ? int_to_id(i) : num_to_id((double)lua_tonumberx(L, -1, NULL));
        } else if (t == LUA_TNIL) {
            lua_pop(L, 1);
            break;
        } else if (bad_id == 0) {
            bad_id = n + 1;
        }
        lua_pop(L, 1);
    }
    raw = (lua_Integer)lua_rawlen(L, 3);
    goals = (double *)(void *)floats(L, lw, 6 * (size_t)n); /* goals (2n doubles), then left (n) */
    left = goals + 2 * n;
    for (len = 0; len < 2 * n && len < raw; len++) {
        int t = lua_rawgeti(L, 3, len + 1);
        if (t == LUA_TNUMBER) {
            goals[len] = (double)lua_tonumberx(L, -1, NULL);
        } else if (t == LUA_TNIL) {
            lua_pop(L, 1);
            break;
        } else if (bad_goal == 0) {
            bad_goal = len + 1;
        }
        lua_pop(L, 1);
    }
    if (len == 2 * n && raw > len) {
        len = list_len(L, 3, raw); /* longer than 2n: how long, for the message */
    }
    if (len != 2 * n) {
        lua_pushfstring(L, "expected %I numbers (2 per id), got %I", 2 * n, len);
        arg_error(L, 2, fn, lua_tostring(L, -1));
    }
    if (bad_id != 0 || bad_goal != 0) {
        int arg = bad_id != 0 ? 1 : 2;
        lua_Integer at = bad_id != 0 ? bad_id : bad_goal;
        lua_rawgeti(L, arg + 1, at);
        lua_pushfstring(L, "number expected at index %I, got %s", at, type_name(L, -1));
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    if (has_rng) {
        if (lua_getfield(L, 7, "s1") != LUA_TNUMBER || lua_getfield(L, 7, "s2") != LUA_TNUMBER) {
            arg_error(L, 6, fn, "rng must be a generator (fields s1 and s2)");
        }
        rng[0] = (double)lua_tonumberx(L, -2, NULL);
        rng[1] = (double)lua_tonumberx(L, -1, NULL);
        int1 = lua_isinteger(L, -2); /* (written back as they came: integers stay integers) */
        int2 = lua_isinteger(L, -1);
        lua_pop(L, 2);
    }
    moving = rvo_world_steer(lw->w, ib, goals, (int32_t)n, amount, slow, arrive, has_rng ? rng : NULL,
                             has_left ? left : NULL);
    if (moving < 0) {
        /* core: ids = 1, goals = 2, n = 3, amount = 4, slow_radius = 5, arrive = 6, rng = 7, left = 8 */
        static const signed char map[] = {1, 2, 2, 3, 4, 5, 6, 7};
        core_error(L, lw->w, (rvo_status)moving, fn, map, 8);
    }
    if (has_rng) {
        if (int1) {
            lua_pushinteger(L, (lua_Integer)rng[0]);
        } else {
            lua_pushnumber(L, (lua_Number)rng[0]);
        }
        lua_setfield(L, 7, "s1");
        if (int2) {
            lua_pushinteger(L, (lua_Integer)rng[1]);
        } else {
            lua_pushnumber(L, (lua_Number)rng[1]);
        }
        lua_setfield(L, 7, "s2");
    }
    if (has_left) {
        for (k = 0; k < n; k++) {
            lua_pushnumber(L, (lua_Number)left[k]);
            lua_rawseti(L, 8, k + 1);
        }
        clear_tail(L, 8, n + 1);
    }
    lua_pushinteger(L, (lua_Integer)moving);
    return 1;
}

/* ---- rvo.surround's frame in bulk --------------------------------------
 * world:surround_plan(units, phases, stalled, flips, def, holders) ->
 * holder count, gap angle (nil: nobody holds): phases (0/1), stalled and
 * flips (1 per unit) are updated in place, holders filled (ring order).
 * world:surround_project(holders, def). def: the fields of
 * rvo_surround_def (x, y, vx, vy for the target). */

static const char *const surround_nums[] = {
    "x", "y", "vx", "vy", "attack_radius", "tolerance", "probe_length", "spread_speed", "dt", "clock"};
static const char *const surround_flags[] = {"spread", "hold", "probes"};

static void surround_def(lua_State *L, int arg, const char *fn, rvo_surround_def *d) {
    double *num[] = {&d->target_x,  &d->target_y,     &d->target_vx,    &d->target_vy, &d->attack_radius,
                     &d->tolerance, &d->probe_length, &d->spread_speed, &d->dt,        &d->clock};
    int32_t *flag[] = {&d->spread, &d->hold, &d->probes};
    size_t k;
    check_table(L, arg, fn);
    for (k = 0; k < sizeof num / sizeof num[0]; k++) {
        if (lua_getfield(L, arg + 1, surround_nums[k]) != LUA_TNUMBER) {
            lua_pushfstring(L, "field '%s': number expected, got %s", surround_nums[k], type_name(L, -1));
            arg_error(L, arg, fn, lua_tostring(L, -1));
        }
        *num[k] = (double)lua_tonumberx(L, -1, NULL);
        lua_pop(L, 1);
    }
    for (k = 0; k < sizeof flag / sizeof flag[0]; k++) {
        if (lua_getfield(L, arg + 1, surround_flags[k]) != LUA_TBOOLEAN) {
            lua_pushfstring(L, "field '%s': boolean expected, got %s", surround_flags[k], type_name(L, -1));
            arg_error(L, arg, fn, lua_tostring(L, -1));
        }
        *flag[k] = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
}

/* n numbers of list argument arg into out. */
static void unit_numbers(lua_State *L, int arg, const char *fn, lua_Integer n, double *out) {
    lua_Integer k;
    for (k = 0; k < n; k++) {
        if (lua_rawgeti(L, arg + 1, k + 1) != LUA_TNUMBER) {
            lua_pushfstring(L, "number expected at index %I, got %s", k + 1, type_name(L, -1));
            arg_error(L, arg, fn, lua_tostring(L, -1));
        }
        out[k] = (double)lua_tonumberx(L, -1, NULL);
        lua_pop(L, 1);
    }
}

static int l_surround_plan(lua_State *L) {
    static const char fn[] = "surround_plan";
    lworld *lw = check_world(L, fn);
    rvo_surround_def def;
    lua_Integer n, k;
    rvo_agent_id *units, *holders;
    double *stalled, *flips, *phase_in, gap = -1.0;
    uint8_t *phase;
    int32_t nh;
    int arg;
    for (arg = 1; arg <= 6; arg++) {
        check_table(L, arg, fn);
    }
    surround_def(L, 5, fn, &def);
    units = read_id_list(L, lw, 1, fn, &n);
    /* doubles: stalled, flips, phases as read, then holders (8 bytes each), then phases (bytes) */
    stalled = (double *)(void *)floats(L, lw, 2 * (5 * (size_t)n + 1));
    flips = stalled + n;
    phase_in = flips + n;
    holders = (rvo_agent_id *)(void *)(phase_in + n);
    phase = (uint8_t *)(void *)(holders + n);
    unit_numbers(L, 2, fn, n, phase_in);
    unit_numbers(L, 3, fn, n, stalled);
    unit_numbers(L, 4, fn, n, flips);
    for (k = 0; k < n; k++) {
        if (phase_in[k] != 0.0 && phase_in[k] != 1.0) {
            lua_pushfstring(L, "phase %I must be 0 or 1", k + 1);
            arg_error(L, 2, fn, lua_tostring(L, -1));
        }
        phase[k] = (uint8_t)phase_in[k];
    }
    nh = rvo_world_surround_plan(lw->w, &def, units, (int32_t)n, phase, stalled, flips, holders, &gap);
    if (nh < 0) {
        /* core: def 1, units 2, n 3, phase 4, stalled 5, flip_until 6, holders 7 */
        static const signed char map[] = {5, 1, 1, 2, 3, 4, 6};
        core_error(L, lw->w, (rvo_status)nh, fn, map, 7);
    }
    for (k = 0; k < n; k++) {
        lua_pushinteger(L, (lua_Integer)phase[k]);
        lua_rawseti(L, 3, k + 1);
        lua_pushnumber(L, (lua_Number)stalled[k]);
        lua_rawseti(L, 4, k + 1);
        lua_pushnumber(L, (lua_Number)flips[k]);
        lua_rawseti(L, 5, k + 1);
    }
    for (k = 0; k < nh; k++) {
        push_id(L, holders[k]);
        lua_rawseti(L, 7, k + 1);
    }
    clear_tail(L, 7, (lua_Integer)nh + 1);
    lua_pushinteger(L, (lua_Integer)nh);
    if (gap < 0.0) {
        lua_pushnil(L);
    } else {
        lua_pushnumber(L, (lua_Number)gap);
    }
    return 2;
}

static int l_surround_project(lua_State *L) {
    static const char fn[] = "surround_project";
    lworld *lw = check_world(L, fn);
    rvo_surround_def def;
    lua_Integer n;
    rvo_agent_id *holders;
    rvo_status st;
    check_table(L, 1, fn);
    surround_def(L, 2, fn, &def);
    holders = read_id_list(L, lw, 1, fn, &n);
    st = rvo_world_surround_project(lw->w, &def, holders, (int32_t)n);
    if (st != RVO_OK) {
        static const signed char map[] = {2, 1, 1}; /* core: def 1, holders 2, n 3 */
        core_error(L, lw->w, st, fn, map, 3);
    }
    return 0;
}

/* ---- performance: zero-copy views --------------------------------------
 * world:positions_view() / velocities_view(): a read-only view v of the
 * world's array, v[2k] and v[2k + 1] (0-based, world order) the x and y of
 * agent k, #v = 2 * agent_count. Each read goes to the world's current
 * array (nothing is copied), so the view is always safe; LuaJIT's views are
 * raw pointers, valid until the next step, add_agent or remove_agent. */

#define VIEW_NAME "rvo.view"

typedef struct lview {
    int velocities; /* 0: positions, 1: velocities */
} lview;

static const float *view_data(lua_State *L, int32_t *count) {
    lview *v = (lview *)luaL_checkudata(L, 1, VIEW_NAME);
    lworld *lw;
    lua_getiuservalue(L, 1, 1);
    lw = (lworld *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (lw == NULL || lw->w == NULL) {
        luaL_error(L, "attempt to use a destroyed " WORLD_NAME);
    }
    *count = rvo_world_agent_count(lw->w);
    return v->velocities ? rvo_world_velocities_view(lw->w) : rvo_world_positions_view(lw->w);
}

static int l_view_index(lua_State *L) {
    int32_t count;
    const float *data = view_data(L, &count);
    int isnum;
    lua_Integer k = lua_tointegerx(L, 2, &isnum);
    if (!isnum || lua_type(L, 2) != LUA_TNUMBER || k < 0 || k >= 2 * (lua_Integer)count || data == NULL) {
        lua_pushnil(L);
    } else {
        lua_pushnumber(L, (lua_Number)data[k]);
    }
    return 1;
}

static int l_view_len(lua_State *L) {
    int32_t count;
    view_data(L, &count);
    lua_pushinteger(L, 2 * (lua_Integer)count);
    return 1;
}

static int make_view(lua_State *L, const char *fn, int velocities) {
    lview *v;
    check_world(L, fn);
    v = (lview *)lua_newuserdatauv(L, sizeof *v, 1);
    v->velocities = velocities;
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1); /* the view keeps its world alive */
    if (luaL_newmetatable(L, VIEW_NAME)) {
        lua_pushcfunction(L, l_view_index);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_view_len);
        lua_setfield(L, -2, "__len");
    }
    lua_setmetatable(L, -2);
    return 1;
}

static int l_positions_view(lua_State *L) { return make_view(L, "positions_view", 0); }

static int l_velocities_view(lua_State *L) { return make_view(L, "velocities_view", 1); }

/* ---- registration ----------------------------------------------------- */

const luaL_Reg bulk_methods[] = {{"ids", l_ids},
                                 {"positions", l_positions},
                                 {"velocities", l_velocities},
                                 {"new_velocities", l_new_velocities},
                                 {"set_pref_velocities", l_set_pref_velocities},
                                 {"set_new_velocities", l_set_new_velocities},
                                 {"steer", l_steer},                 /* rvo.jitter's steering in bulk */
                                 {"surround_plan", l_surround_plan}, /* rvo.surround's frame in bulk */
                                 {"surround_project", l_surround_project},
                                 {"positions_view", l_positions_view}, /* performance: zero-copy views */
                                 {"velocities_view", l_velocities_view},
                                 {NULL, NULL}};
