-- Run by tests/install/run against an installed copy (navmesh, issue 7):
-- rvo.nav loads from the install root arg[1] alone and outlines a square
-- with a hole; with arg[2] == "navmesh" (librvo_nav was built) it also
-- builds a navmesh and finds a path around the hole.
local root = assert(arg[1], "usage: nav.lua INSTALL_ROOT [navmesh]")
local want_navmesh = arg[2] == "navmesh"
local rvo = require("rvo")
local nav = require("rvo.nav")

local function under_root(path, what)
    assert(path and path:sub(1, #root) == root, what .. " not loaded from " .. root .. ": " .. tostring(path))
end

local function mapped(name)
    local maps = assert(io.open("/proc/self/maps"), "no /proc/self/maps"):read("*a")
    return maps:match("%s(/%S*" .. name .. "%.so%S*)\n")
end

under_root(package.searchpath("rvo.nav", package.path), "rvo/nav.lua")
if rvo.backend == "core" then
    under_root(package.searchpath("rvo.navcore", package.cpath), "rvo/navcore.so")
end

local function signed_area(p)
    local a = 0
    for i = 1, #p / 2 do
        local j = i % (#p / 2) + 1
        a = a + p[2 * i - 1] * p[2 * j] - p[2 * j - 1] * p[2 * i]
    end
    return a / 2
end

-- 20 x 20 square with a 8 x 8 hole in the middle: 8 vertices, 8 triangles.
local XY = { 0, 0, 20, 0, 20, 20, 0, 20, 6, 6, 14, 6, 14, 14, 6, 14 }
local TRIS = { 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 4, 8, 3, 8, 7, 4, 1, 5, 4, 5, 8 }

local loops, holes = nav.outline(XY, TRIS)
assert(#loops == 2, "outline: 2 loops expected, got " .. #loops)
local outer = holes[1] and 2 or 1
assert(holes[3 - outer] and not holes[outer], "outline: one outer loop and one hole expected")
assert(signed_area(loops[outer]) == -400, "outline: outer loop not clockwise 20 x 20")
assert(signed_area(loops[3 - outer]) == 64, "outline: hole not counter-clockwise 8 x 8")
local w = rvo.new_world {}
assert(#nav.add_outline(w, XY, TRIS) == 2 and w:obstacle_count() == 2, "add_outline: 2 obstacles expected")
w:destroy()
local report = "outline"

if want_navmesh then
    assert(nav.has_navmesh, "librvo_nav was built and installed, but rvo.nav did not find it")
    if rvo.backend == "ffi" then
        under_root(mapped("librvo_nav"), "librvo_nav")
    end
    -- The same floor in 3D (y up); upward faces are walkable, so each
    -- triangle turns the other way round in the x-z plane.
    local verts, tris = {}, {}
    for i = 1, #XY / 2 do
        verts[#verts + 1], verts[#verts + 2], verts[#verts + 3] = XY[2 * i - 1], 0, XY[2 * i]
    end
    for i = 1, #TRIS, 3 do
        tris[#tris + 1], tris[#tris + 2], tris[#tris + 3] = TRIS[i], TRIS[i + 2], TRIS[i + 1]
    end
    local mesh = nav.build { verts = verts, tris = tris, cell_size = 0.2, agent_radius = 0.4 }
    local path, partial = mesh:find_path(3, 10, 17, 10)
    assert(path, "find_path: " .. tostring(partial))
    assert(partial == false, "find_path: the goal is reachable")
    local n = #path / 2
    assert(math.abs(path[1] - 3) < 0.3 and math.abs(path[2] - 10) < 0.3, "find_path: wrong start")
    assert(math.abs(path[2 * n - 1] - 17) < 0.3 and math.abs(path[2 * n] - 10) < 0.3, "find_path: wrong end")
    local len = 0
    for i = 1, n - 1 do
        local x, y = path[2 * i + 1], path[2 * i + 2]
        assert(not (x > 6.1 and x < 13.9 and y > 6.1 and y < 13.9), "find_path: a corner inside the hole")
        len = len + math.sqrt((x - path[2 * i - 1]) ^ 2 + (y - path[2 * i]) ^ 2)
    end
    assert(len > 15, "find_path: the path crosses the hole (length " .. len .. ")")
    mesh:destroy()
    report = string.format("outline, build and find_path (%d corners, %.2f m)", n, len)
end
print(string.format("installed rvo.nav (%s) works on %s: %s", rvo.backend, _VERSION, report))
