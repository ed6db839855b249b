#include "core.h"

/* ---- parameter tables ------------------------------------------------- */

/* new_world also takes every rvo_param (weight, groups, ...) as an agent
 * default: check_fields is called with params_too. */
static const char *const world_fields[] = {
    "time_step", "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst", "radius", "max_speed",
    "threads",   "seed",          "height_margin", "solver",       "rvo2_compat",       NULL};

/* ---- solvers ---------------------------------------------------------- */

/* The solver named by the string at stack index idx, or raises
 * "unknown solver 'x' (expected orca, ue or rvo)" (names from the core). */
static rvo_solver solver_of(lua_State *L, int idx, int arg, const char *fn) {
    size_t len;
    const char *name = lua_tolstring(L, idx, &len);
    /* a name with an embedded zero is no name (the FFI binding agrees) */
    int s = strlen(name) == len ? rvo_solver_from_name(name) : -1;
    if (s < 0) {
        luaL_Buffer b;
        int k, n = 0;
        while (rvo_solver_name((rvo_solver)n) != NULL) {
            n++;
        }
        luaL_buffinit(L, &b);
        lua_pushfstring(L, "unknown solver '%s' (expected ", name);
        luaL_addvalue(&b);
        for (k = 0; k < n; k++) {
            if (k > 0) {
                luaL_addstring(&b, k == n - 1 ? " or " : ", ");
            }
            luaL_addstring(&b, rvo_solver_name((rvo_solver)k));
        }
        luaL_addchar(&b, ')');
        luaL_pushresult(&b);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    return (rvo_solver)s;
}

/* ---- module functions ------------------------------------------------- */

static int l_new_world(lua_State *L) {
    static const char fn[] = "new_world";
    rvo_world_def def = rvo_world_def_default();
    rvo_solver solver = RVO_SOLVER_ORCA;
    int compat = 0;
    rvo_error err;
    lworld *lw;
    /* new_world is not a method: its table is argument #1 at index 1. */
    int t = lua_type(L, 1);
    if (t != LUA_TNIL && t != LUA_TNONE) {
        double v;
        if (t != LUA_TTABLE) {
            luaL_error(L, "bad argument #1 to '%s' (table expected, got %s)", fn, type_name(L, 1));
        }
        check_fields(L, 1, world_fields, 1, 1, fn);
        float_field(L, 1, "time_step", 1, fn, &def.time_step);
        agent_fields_read(L, 1, 1, fn, &def.agent);
        field_int(L, 1, "threads", 1, fn, &def.threads);
        if (field_num(L, 1, "seed", 1, fn, &v)) {
            if (!(v >= 0 && v <= ID_LIMIT && floor(v) == v)) {
                arg_error(L, 1, fn, "seed must be an integer in 0..2^53");
            }
            def.seed = (uint64_t)v;
        }
        param_fields_read(L, 1, 1, fn, &def.agent);
        float_field(L, 1, "height_margin", 1, fn, &def.height_margin);
        t = lua_getfield(L, 1, "solver");
        if (t == LUA_TSTRING) {
            solver = solver_of(L, -1, 1, fn);
        } else if (t != LUA_TNIL) {
            lua_pushfstring(L, "field 'solver': string expected, got %s", type_name(L, -1));
            arg_error(L, 1, fn, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
        t = lua_getfield(L, 1, "rvo2_compat");
        if (t == LUA_TBOOLEAN) {
            compat = lua_toboolean(L, -1);
        } else if (t != LUA_TNIL) {
            lua_pushfstring(L, "field 'rvo2_compat': boolean expected, got %s", type_name(L, -1));
            arg_error(L, 1, fn, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
    }
    if (rvo_world_def_check(&def, &err) != RVO_OK) {
        arg_error(L, 1, fn, err.message);
    }
    lw = (lworld *)lua_newuserdatauv(L, sizeof *lw, 0);
    memset(lw, 0, sizeof *lw);
    lw->tag = WORLD_TAG;
    lua_pushvalue(L, MT);
    lua_setmetatable(L, -2);
    lw->w = rvo_world_create(&def, NULL);
    if (lw->w == NULL) {
        luaL_error(L, "%s: not enough memory", fn);
    }
    if (solver != RVO_SOLVER_ORCA && rvo_world_set_solver(lw->w, solver) != RVO_OK) {
        core_error(L, lw->w, RVO_ERR_INVALID_ARGUMENT, fn, NULL, 0);
    }
    rvo_world_set_rvo2_compat(lw->w, compat != 0);
    return 1;
}

/* ---- lifetime --------------------------------------------------------- */

static void world_free(lworld *lw) {
    rvo_world_destroy(lw->w);
    lw->w = NULL;
    free(lw->fbuf);
    lw->fbuf = NULL;
    lw->fcap = 0;
    free(lw->ibuf);
    lw->ibuf = NULL;
    lw->icap = 0;
}

static int l_destroy(lua_State *L) {
    world_free(check_self(L, "destroy"));
    return 0;
}

static int l_is_destroyed(lua_State *L) {
    lua_pushboolean(L, check_self(L, "is_destroyed")->w == NULL);
    return 1;
}

static int l_gc(lua_State *L) {
    lworld *lw = (lworld *)lua_touserdata(L, 1);
    if (lw != NULL) {
        world_free(lw);
    }
    return 0;
}

static int l_tostring(lua_State *L) {
    lworld *lw = check_self(L, "__tostring");
    if (lw->w == NULL) {
        lua_pushliteral(L, WORLD_NAME " (destroyed)");
    } else {
        lua_pushfstring(L, WORLD_NAME " (%d agents)", (int)rvo_world_agent_count(lw->w));
    }
    return 1;
}

/* ---- world ------------------------------------------------------------ */

static int l_time_step(lua_State *L) {
    lworld *lw = check_world(L, "time_step");
    lua_pushnumber(L, (lua_Number)rvo_world_time_step(lw->w));
    return 1;
}

static int l_set_time_step(lua_State *L) {
    static const char fn[] = "set_time_step";
    lworld *lw = check_world(L, fn);
    double dt = check_num(L, 1, fn);
    rvo_status st = rvo_world_set_time_step(lw->w, (float)dt);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_step(lua_State *L) {
    static const char fn[] = "step";
    lworld *lw = check_world(L, fn);
    rvo_status st;
    if (lua_isnoneornil(L, 2)) {
        st = rvo_world_step(lw->w, 0.0f);
    } else {
        double dt = check_num(L, 1, fn);
        /* In C, dt == 0 means "the world's time_step"; from Lua an explicit
         * 0 is a mistake (a paused game must not move), so let the core
         * reject it as solve would. */
        st = dt == 0 ? rvo_world_solve(lw->w, 0.0f) : rvo_world_step(lw->w, (float)dt);
    }
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* solve and integrate: dt defaults to the world's time_step. */
static int run_phase(lua_State *L, const char *fn, rvo_status (*run)(rvo_world *, float)) {
    lworld *lw = check_world(L, fn);
    double dt = opt_num(L, 1, fn, (double)rvo_world_time_step(lw->w));
    rvo_status st = run(lw->w, (float)dt);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_solve(lua_State *L) { return run_phase(L, "solve", rvo_world_solve); }

static int l_integrate(lua_State *L) { return run_phase(L, "integrate", rvo_world_integrate); }

static int l_is_solved(lua_State *L) {
    lworld *lw = check_world(L, "is_solved");
    lua_pushboolean(L, rvo_world_is_solved(lw->w));
    return 1;
}

static int l_solver(lua_State *L) {
    lworld *lw = check_world(L, "solver");
    lua_pushstring(L, rvo_solver_name(rvo_world_solver(lw->w)));
    return 1;
}

static int l_set_solver(lua_State *L) {
    static const char fn[] = "set_solver";
    lworld *lw = check_world(L, fn);
    rvo_solver solver;
    rvo_status st;
    if (lua_type(L, 2) != LUA_TSTRING) {
        type_error(L, 1, fn, "string", 2);
    }
    solver = solver_of(L, 2, 1, fn);
    st = rvo_world_set_solver(lw->w, solver);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* set_sampling(samples, penalty_weight): the sampling RVO solver's knobs. */
static int l_set_sampling(lua_State *L) {
    static const char fn[] = "set_sampling";
    lworld *lw = check_world(L, fn);
    double n = check_num(L, 1, fn);
    double pw = check_num(L, 2, fn);
    rvo_status st;
    /* An integral number, clamped to int32 so that the core judges the range
     * (the words of field_int). */
    if (!isfinite(n)) {
        arg_error(L, 1, fn, "samples must be finite");
    }
    if (floor(n) != n) {
        arg_error(L, 1, fn, "samples must be an integer");
    }
    if (n > 2147483647.0) {
        n = 2147483647.0;
    } else if (n < -2147483648.0) {
        n = -2147483648.0;
    }
    /* core: samples = 1, penalty_weight = 2, as in Lua */
    st = rvo_world_set_sampling(lw->w, (int32_t)n, (float)pw);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* ---- game semantics: locks, the avoiding report, height --------------- */

static int l_set_rvo2_compat(lua_State *L) {
    static const char fn[] = "set_rvo2_compat";
    lworld *lw = check_world(L, fn);
    if (lua_type(L, 2) != LUA_TBOOLEAN) {
        luaL_error(L, "bad argument #1 to '%s' (boolean expected, got %s)", fn, type_name(L, 2));
    }
    rvo_world_set_rvo2_compat(lw->w, lua_toboolean(L, 2));
    return 0;
}

static int l_rvo2_compat(lua_State *L) {
    lworld *lw = check_world(L, "rvo2_compat");
    lua_pushboolean(L, rvo_world_rvo2_compat(lw->w));
    return 1;
}

static int l_set_height_margin(lua_State *L) {
    static const char fn[] = "set_height_margin";
    lworld *lw = check_world(L, fn);
    double m = check_num(L, 1, fn);
    rvo_status st = rvo_world_set_height_margin(lw->w, (float)m);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* ---- strict overlap ------------------------------------------------------ */

static int l_set_strict_overlap(lua_State *L) {
    static const char fn[] = "set_strict_overlap";
    lworld *lw = check_world(L, fn);
    if (lua_type(L, 2) != LUA_TBOOLEAN) {
        luaL_error(L, "bad argument #1 to '%s' (boolean expected, got %s)", fn, type_name(L, 2));
    }
    rvo_world_set_strict_overlap(lw->w, lua_toboolean(L, 2));
    return 0;
}

static int l_strict_overlap(lua_State *L) {
    lworld *lw = check_world(L, "strict_overlap");
    lua_pushboolean(L, rvo_world_strict_overlap(lw->w));
    return 1;
}

/* ---- stall events: threshold, bulk query, per-agent time ------------- */

static int l_set_stall_threshold(lua_State *L) {
    static const char fn[] = "set_stall_threshold";
    lworld *lw = check_world(L, fn);
    double progress = check_num(L, 1, fn);
    double min_time = check_num(L, 2, fn);
    rvo_status st = rvo_world_set_stall_threshold(lw->w, (float)progress, (float)min_time);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_stall_threshold(lua_State *L) {
    lworld *lw = check_world(L, "stall_threshold");
    float progress, min_time;
    rvo_world_stall_threshold(lw->w, &progress, &min_time);
    lua_pushnumber(L, (lua_Number)progress);
    lua_pushnumber(L, (lua_Number)min_time);
    return 2;
}

/* ---- registration ----------------------------------------------------- */

const luaL_Reg world_methods[] = {{"destroy", l_destroy},
                                  {"is_destroyed", l_is_destroyed},
                                  {"time_step", l_time_step},
                                  {"set_time_step", l_set_time_step},
                                  {"step", l_step},
                                  {"solve", l_solve},
                                  {"integrate", l_integrate},
                                  {"is_solved", l_is_solved},
                                  {"set_strict_overlap", l_set_strict_overlap},
                                  {"strict_overlap", l_strict_overlap},
                                  {"set_stall_threshold", l_set_stall_threshold}, /* stall events */
                                  {"stall_threshold", l_stall_threshold},
                                  {"set_height_margin", l_set_height_margin},
                                  {"set_rvo2_compat", l_set_rvo2_compat},
                                  {"rvo2_compat", l_rvo2_compat},
                                  {"solver", l_solver},
                                  {"set_solver", l_set_solver},
                                  {"set_sampling", l_set_sampling},
                                  {NULL, NULL}};

const luaL_Reg world_meta[] = {
    {"__gc", l_gc}, {"__close", l_destroy}, {"__tostring", l_tostring}, {NULL, NULL}};

const luaL_Reg world_module_funcs[] = {{"new_world", l_new_world}, {NULL, NULL}};
