-- LuaRocks package of rvo: `luarocks make` in a checkout (or `luarocks
-- install rvo-0.1.0-1.rockspec`). Builds with Meson and Ninja (both must be
-- installed, plus a C compiler); works on Lua 5.4 (C module rvo.core) and
-- on LuaJIT (FFI binding over librvo, installed beside the C modules where
-- the binding finds it along package.cpath). Plain Lua 5.1-5.3 are not
-- supported.
rockspec_format = "3.0"
package = "rvo"
version = "0.1.0-1"
source = {
    url = "git+file:///work/main", -- replace with the published repository
    tag = "v0.1.0",
}
description = {
    summary = "Crowd local collision avoidance (ORCA / RVO2) with game extensions",
    detailed = [[
A C11 implementation of ORCA (the algorithm of the RVO2 library) with
responsibility weights, avoidance groups, locks, height, obstacles added and
removed at run time, UE-style and sampling solvers, and Lua modules for
jitter, groups, locks, the surround attack, traces and SVG pictures; with
Recast/Detour at build time (Debian: librecast-dev) also navmesh building,
path search and path following (rvo.nav, rvo.follow).]],
    license = "MIT",
}
dependencies = { "lua >= 5.1, < 5.5" }
build = {
    type = "command",
    -- librvo (and rvo.h, rvo.pc) go to clib/ and include/ in the rock's own
    -- folder; the copy LuaJIT loads is put beside the C modules below.
    build_command = [[
rm -rf _rockbuild &&
meson setup _rockbuild --prefix="$(PREFIX)" --libdir=clib --buildtype=release -Dlua_tests=disabled \
    -Dlua_dir="$(LUADIR)" -Dlua_cdir="$(LIBDIR)" &&
ninja -C _rockbuild]],
    -- librvo_nav (navmesh, built when Recast/Detour are there) likewise.
    install_command = [[
meson install -C _rockbuild --no-rebuild --quiet &&
cp -L _rockbuild/src/librvo.so "$(LIBDIR)/librvo.so" &&
if [ -e _rockbuild/src/nav/librvo_nav.so ]; then
    cp -L _rockbuild/src/nav/librvo_nav.so "$(LIBDIR)/librvo_nav.so"
fi]],
}
