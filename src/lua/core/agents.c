#include "core.h"

/* ---- agents ----------------------------------------------------------- */

static int l_add_agent(lua_State *L) {
    static const char fn[] = "add_agent";
    lworld *lw = check_world(L, fn);
    double x = check_num(L, 1, fn);
    double y = check_num(L, 2, fn);
    rvo_agent_id id;
    if (opt_table(L, 3, fn)) {
        rvo_agent_def def = rvo_world_agent_defaults(lw->w);
        check_fields(L, 4, agent_fields, 1, 3, fn);
        agent_fields_read(L, 4, 3, fn, &def);
        float_field(L, 4, "vx", 3, fn, &def.velocity.x);
        float_field(L, 4, "vy", 3, fn, &def.velocity.y);
        float_field(L, 4, "pvx", 3, fn, &def.pref_velocity.x);
        float_field(L, 4, "pvy", 3, fn, &def.pref_velocity.y);
        param_fields_read(L, 4, 3, fn, &def);
        id = rvo_world_add_agent(lw->w, (float)x, (float)y, &def);
    } else {
        id = rvo_world_add_agent(lw->w, (float)x, (float)y, NULL);
    }
    if (id == 0) {
        core_error(L, lw->w, RVO_ERR_INVALID_ARGUMENT, fn, NULL, 0);
    }
    push_id(L, id);
    return 1;
}

/* Also agent methods: the one-call ones of src/lua/methods.def (methods.c:
 * position, set_pref_velocity, lock, ...). */

/* ---- lock timers (rvo.locks in bulk) --------------------------------- */

static int push_count(lua_State *L, lworld *lw, int32_t n, const char *fn) {
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

static int l_advance_locks(lua_State *L) {
    static const char fn[] = "advance_locks";
    lworld *lw = check_world(L, fn);
    double dt = check_num(L, 1, fn);
    return push_count(L, lw, rvo_world_advance_locks(lw->w, dt), fn);
}

static int l_lock_solved(lua_State *L) {
    static const char fn[] = "lock_solved";
    lworld *lw = check_world(L, fn);
    double tol = check_num(L, 1, fn);
    double avoid = check_num(L, 2, fn);
    double clean = check_num(L, 3, fn);
    double release = check_num(L, 4, fn);
    double groups = check_num(L, 5, fn);
    if (!(groups >= 0 && groups <= 4294967295.0 && floor(groups) == groups)) {
        arg_error(L, 5, fn, "groups must be an integer in 0..2^32-1");
    }
    if (!(tol <= 3.4e38)) { /* (a float: the core sees inf) */
        tol = INFINITY;
    }
    /* core: tolerance = 1, after_avoid = 2, after_clean = 3, release_on_change = 4, as in Lua */
    return push_count(L, lw,
                      rvo_world_lock_solved(lw->w, (float)tol, avoid, clean, release, (uint32_t)groups), fn);
}

static int l_release_pushed(lua_State *L) {
    static const char fn[] = "release_pushed";
    lworld *lw = check_world(L, fn);
    return push_count(L, lw, rvo_world_release_pushed(lw->w), fn);
}

static int l_lock_time(lua_State *L) {
    static const char fn[] = "lock_time";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    double t = 0;
    rvo_status st = rvo_agent_lock_time(lw->w, id, &t);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    lua_pushnumber(L, (lua_Number)t);
    return 1;
}

static int l_set_auto_lock(lua_State *L) {
    static const char fn[] = "set_auto_lock";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    rvo_status st;
    if (lua_type(L, 3) != LUA_TBOOLEAN) {
        type_error(L, 2, fn, "boolean", 3);
    }
    st = rvo_agent_set_auto_lock(lw->w, id, lua_toboolean(L, 3) != 0);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_auto_lock(lua_State *L) {
    static const char fn[] = "auto_lock";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    int r = rvo_agent_auto_lock(lw->w, id);
    if (r < 0) {
        core_error(L, lw->w, (rvo_status)r, fn, NULL, 0);
    }
    lua_pushboolean(L, r > 0);
    return 1;
}

/* ---- per-agent parameters: closures (mt, param, name [, is_int]) ------ */

/* Parameters whose values are integers: returned as Lua integers. */
static int is_int_param(const char *name) {
    return strcmp(name, "max_neighbors") == 0 || strcmp(name, "groups") == 0 || strcmp(name, "mask") == 0;
}

static int l_get_param(lua_State *L) {
    const char *fn = lua_tostring(L, lua_upvalueindex(3));
    rvo_param p = (rvo_param)lua_tointeger(L, lua_upvalueindex(2));
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    double v = 0;
    rvo_status st = rvo_agent_param(lw->w, id, p, &v);
    if (st != RVO_OK) {
        static const signed char map[] = {1, 0, 0};
        core_error(L, lw->w, st, fn, map, 3);
    }
    if (lua_toboolean(L, lua_upvalueindex(4))) {
        lua_pushinteger(L, (lua_Integer)v);
    } else {
        lua_pushnumber(L, (lua_Number)v);
    }
    return 1;
}

static int l_set_param(lua_State *L) {
    const char *fn = lua_tostring(L, lua_upvalueindex(3));
    rvo_param p = (rvo_param)lua_tointeger(L, lua_upvalueindex(2));
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    double v = check_num(L, 2, fn);
    /* The core checks the value (finite, range, integral max_neighbors). */
    rvo_status st = rvo_agent_set_param(lw->w, id, p, v);
    if (st != RVO_OK) {
        /* core: id = 1, param = 2, value = 3 */
        static const signed char map[] = {1, 0, 2};
        core_error(L, lw->w, st, fn, map, 3);
    }
    return 0;
}

/* ---- registration ----------------------------------------------------- */

const luaL_Reg agent_methods[] = {
    {"add_agent", l_add_agent},         {"advance_locks", l_advance_locks}, /* lock timers */
    {"lock_solved", l_lock_solved},     {"release_pushed", l_release_pushed}, {"lock_time", l_lock_time},
    {"set_auto_lock", l_set_auto_lock}, {"auto_lock", l_auto_lock},           {NULL, NULL}};

void add_param_methods(lua_State *L) {
    int p;
    /* Getter and setter per agent parameter, named by the core. */
    for (p = 0; p < RVO_PARAM_COUNT; p++) {
        const char *name = rvo_param_name((rvo_param)p);
        if (name == NULL) {
            break;
        }
        lua_pushvalue(L, -2);
        lua_pushinteger(L, p);
        lua_pushstring(L, name);
        lua_pushboolean(L, is_int_param(name));
        lua_pushcclosure(L, l_get_param, 4);
        lua_setfield(L, -2, name);
        lua_pushvalue(L, -2);
        lua_pushinteger(L, p);
        lua_pushfstring(L, "set_%s", name);
        lua_pushvalue(L, -1);
        lua_insert(L, -4); /* keep the name for setfield: name mt p name */
        lua_pushcclosure(L, l_set_param, 3);
        lua_setfield(L, -3, lua_tostring(L, -2));
        lua_pop(L, 1);
    }
}
