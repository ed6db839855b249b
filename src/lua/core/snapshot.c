#include "core.h"

/* ---- snapshots ---------------------------------------------------------- */

/* save() -> string: the whole world (rvo_world_save). */
static int l_save(lua_State *L) {
    lworld *lw = check_world(L, "save");
    size_t n = rvo_world_save(lw->w, NULL, 0);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, n);
    rvo_world_save(lw->w, p, n);
    luaL_pushresultsize(&b, n);
    return 1;
}

/* rvo.load(s) -> world: rebuilds a saved world (rvo_world_load). */
static int l_load(lua_State *L) {
    static const char fn[] = "load";
    size_t len;
    const char *s;
    lworld *lw;
    rvo_error err;
    rvo_status st;
    if (lua_type(L, 1) != LUA_TSTRING) {
        luaL_error(L, "bad argument #1 to '%s' (string expected, got %s)", fn, type_name(L, 1));
    }
    s = lua_tolstring(L, 1, &len);
    /* The userdata first: if it cannot be made, no world is left behind. */
    lw = (lworld *)lua_newuserdatauv(L, sizeof *lw, 0);
    memset(lw, 0, sizeof *lw);
    lw->tag = WORLD_TAG;
    lua_pushvalue(L, MT);
    lua_setmetatable(L, -2);
    st = rvo_world_load(s, len, NULL, &lw->w, &err);
    if (st == RVO_ERR_OUT_OF_MEMORY) {
        luaL_error(L, "%s: not enough memory", fn);
    } else if (st != RVO_OK) {
        arg_error(L, 1, fn, err.message);
    }
    return 1;
}

/* ---- registration ----------------------------------------------------- */

const luaL_Reg snapshot_methods[] = {{"save", l_save}, /* snapshots */
                                     {NULL, NULL}};

const luaL_Reg snapshot_module_funcs[] = {{"load", l_load}, {NULL, NULL}};
