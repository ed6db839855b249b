/* rvo.core: luaopen_rvo_core, which puts the files' functions together
 * into the "rvo.world" metatable, its methods table and the module. */
#include "core.h"

LUAMOD_API int luaopen_rvo_core(lua_State *L) {
    static const luaL_Reg *const method_sets[] = {world_methods,    agent_methods, bulk_methods,
                                                  obstacle_methods, query_methods, snapshot_methods,
                                                  listed_methods};
    static const luaL_Reg *const module_sets[] = {world_module_funcs, snapshot_module_funcs};
    size_t k;
    /* Every w:method() looks "__index" up in the metatable and the name in
     * the methods table. A key that collides with another in the hash part
     * costs a step down a chain, and which keys collide depends on the
     * string hash seed, which Lua 5.4 draws per state: with the tables
     * Lua sizes itself (8 slots for the 5 metamethods, 128 for the 92
     * methods) position + set_pref_velocity cost from 0 to 4 such steps
     * (9 instructions each, callgrind) from one run to the next. Sparse
     * tables make a collision rare (24 KB, once per Lua state). The
     * metatable is what luaL_newmetatable makes (registry entry, __name),
     * made by hand for its size. */
    if (lua_getfield(L, LUA_REGISTRYINDEX, WORLD_NAME) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 32);
        lua_pushliteral(L, WORLD_NAME);
        lua_setfield(L, -2, "__name");
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, WORLD_NAME);
    }
    lua_pushvalue(L, -1);
    luaL_setfuncs(L, world_meta, 1);
    lua_createtable(L, 0, 1024); /* methods */
    for (k = 0; k < sizeof method_sets / sizeof method_sets[0]; k++) {
        lua_pushvalue(L, -2);
        luaL_setfuncs(L, method_sets[k], 1);
    }
    add_param_methods(L);
    lua_setfield(L, -2, "__index");

    lua_createtable(L, 0, 4); /* module */
    for (k = 0; k < sizeof module_sets / sizeof module_sets[0]; k++) {
        lua_pushvalue(L, -2);
        luaL_setfuncs(L, module_sets[k], 1);
    }
    lua_pushstring(L, rvo_version());
    lua_setfield(L, -2, "version");
    return 1;
}
