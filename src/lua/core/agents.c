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

const luaL_Reg agent_methods[] = {{"add_agent", l_add_agent}, {NULL, NULL}};

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
