#include "core.h"

/* ---- obstacles -------------------------------------------------------- */

static const char *const obstacle_fields[] = {"closed", "side", NULL};

/* The flat list of coordinates at argument arg (stack index arg + 1) into
 * the world's float scratch; *len gets the number of floats. */
static float *read_points(lua_State *L, lworld *lw, int arg, const char *fn, lua_Integer *len) {
    lua_Integer i, n = list_len(L, arg + 1, (lua_Integer)lua_rawlen(L, arg + 1));
    float *buf;
    if (n % 2 != 0) {
        lua_pushfstring(L, "even number of coordinates expected, got %I", n);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    if (n > 2 * (lua_Integer)RVO_MAX_SLOTS) {
        arg_error(L, arg, fn, "too many points");
    }
    buf = floats(L, lw, (size_t)n);
    for (i = 0; i < n; i++) {
        if (lua_geti(L, arg + 1, i + 1) != LUA_TNUMBER) {
            lua_pushfstring(L, "number expected at index %I, got %s", i + 1, type_name(L, -1));
            arg_error(L, arg, fn, lua_tostring(L, -1));
        }
        buf[i] = (float)lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    *len = n;
    return buf;
}

static int l_add_obstacle(lua_State *L) {
    static const char fn[] = "add_obstacle";
    lworld *lw = check_world(L, fn);
    lua_Integer len;
    float *buf;
    int closed = 1;
    int side = RVO_SIDE_WINDING;
    rvo_obstacle_id id;
    check_table(L, 1, fn);
    if (opt_table(L, 2, fn)) {
        int t;
        check_fields(L, 3, obstacle_fields, 0, 2, fn);
        t = lua_getfield(L, 3, "closed");
        if (t == LUA_TBOOLEAN) {
            closed = lua_toboolean(L, -1);
        } else if (t != LUA_TNIL) {
            lua_pushfstring(L, "field 'closed': boolean expected, got %s", type_name(L, -1));
            arg_error(L, 2, fn, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
        t = lua_getfield(L, 3, "side");
        if (t == LUA_TSTRING) {
            static const char *const sides[] = {"winding", "solid", "enclosure"};
            const char *v = lua_tostring(L, -1);
            int k;
            side = -1;
            for (k = 0; k < 3; k++) {
                if (strcmp(v, sides[k]) == 0) {
                    side = k;
                }
            }
            if (side < 0 || lua_rawlen(L, -1) != strlen(v)) {
                arg_error(L, 2, fn, "field 'side' must be 'solid', 'enclosure' or 'winding'");
            }
        } else if (t != LUA_TNIL) {
            lua_pushfstring(L, "field 'side': string expected, got %s", type_name(L, -1));
            arg_error(L, 2, fn, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
    }
    buf = read_points(L, lw, 1, fn, &len);
    id = rvo_world_add_obstacle_side(lw->w, buf, (int32_t)(len / 2), closed != 0, (rvo_obstacle_side)side);
    if (id == 0) {
        /* core: xy = 1, n = 2, closed = 3, side = 4 */
        static const signed char map[] = {1, 1, 2, 2};
        core_error(L, lw->w, RVO_ERR_INVALID_ARGUMENT, fn, map, 4);
    }
    push_id(L, id);
    return 1;
}

static int l_set_obstacle_points(lua_State *L) {
    static const char fn[] = "set_obstacle_points";
    lworld *lw = check_world(L, fn);
    rvo_obstacle_id id = check_id(L, 1, fn);
    lua_Integer len;
    float *buf;
    rvo_status st;
    check_table(L, 2, fn);
    buf = read_points(L, lw, 2, fn, &len);
    st = rvo_obstacle_set_points(lw->w, id, buf, (int32_t)(len / 2));
    if (st != RVO_OK) {
        /* core: id = 1, xy = 2, n = 3 */
        static const signed char map[] = {1, 2, 2};
        core_error(L, lw->w, st, fn, map, 3);
    }
    return 0;
}

/* world:obstacle_points(id [, buf]) -> xy, closed (xy: buf when given) */
static int l_obstacle_points(lua_State *L) {
    static const char fn[] = "obstacle_points";
    lworld *lw = check_world(L, fn);
    rvo_obstacle_id id = check_id(L, 1, fn);
    int has_buf = opt_table(L, 2, fn);
    float *buf = floats(L, lw, 64);
    bool closed = false;
    int32_t n = rvo_obstacle_points(lw->w, id, buf, (int32_t)(lw->fcap / 2), &closed), i;
    if (n > (int32_t)(lw->fcap / 2)) {
        buf = floats(L, lw, 2 * (size_t)n);
        n = rvo_obstacle_points(lw->w, id, buf, (int32_t)(lw->fcap / 2), &closed);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    lua_settop(L, 3);
    if (!has_buf) {
        lua_createtable(L, 2 * n, 0);
        lua_replace(L, 3);
    }
    for (i = 0; i < 2 * n; i++) {
        lua_pushnumber(L, (lua_Number)buf[i]);
        lua_seti(L, 3, (lua_Integer)i + 1);
    }
    clear_tail(L, 3, 2 * (lua_Integer)n + 1);
    lua_pushboolean(L, closed);
    return 2;
}

/* world:obstacles([buf]) -> ids, n (with buf: n) */
static int l_obstacles(lua_State *L) {
    static const char fn[] = "obstacles";
    lworld *lw = check_world(L, fn);
    int has_buf = opt_table(L, 1, fn);
    const int32_t n = rvo_world_obstacle_count(lw->w);
    rvo_obstacle_id *buf = ids(L, lw, (size_t)n);
    return return_ids(L, buf, n, rvo_world_obstacle_ids(lw->w, buf, n), has_buf);
}

/* ---- registration ----------------------------------------------------- */

const luaL_Reg obstacle_methods[] = {{"add_obstacle", l_add_obstacle},
                                     {"set_obstacle_points", l_set_obstacle_points},
                                     {"obstacle_points", l_obstacle_points},
                                     {"obstacles", l_obstacles},
                                     {NULL, NULL}};
