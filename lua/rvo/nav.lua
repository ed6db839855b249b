-- rvo.nav — navmesh outline obstacles, navmesh building and path search.
--
--   local nav = require("rvo.nav")
--   local level = nav.load_obj("examples/level/level.obj")          -- y-up OBJ
--   local mesh = nav.build{ verts = level.verts, tris = level.tris, agent_radius = 0.4 }
--   nav.add_outline(world, mesh)                 -- walls from the mesh's outline
--   local path = mesh:find_path(ax, ay, bx, by)  -- {x1, y1, x2, y2, ...} corners
--
-- Frames: the avoidance world is 2D (x, y). Geometry (OBJ files, Recast) is
-- 3D with y up. rvo.nav maps the ground plane onto the world:
--   world x = OBJ/Recast x,  world y = OBJ/Recast z  (height = OBJ y).
-- nav.outline and nav.add_outline take 2D meshes (world x, y); nav.build
-- takes 3D triangles as an OBJ holds them; every mesh query speaks world 2D.
--
-- Backends: on Lua 5.4 the C module rvo.navcore, on LuaJIT the FFI over
-- librvo (outline) and librvo_nav (Recast/Detour). Every argument is
-- checked here, so errors read the same on both. Building needs librvo_nav
-- (Debian's librecast-dev at build time): nav.has_navmesh says whether it
-- is there; the outline functions always work.

local rvo = require("rvo")

local error, type, getmetatable, setmetatable, pairs, ipairs = error, type, getmetatable, setmetatable, pairs, ipairs
local format, floor = string.format, math.floor

---------------------------------------------------------------------------
-- The FFI backend: the same functions as rvo.navcore (src/lua/rvo_nav_core.c),
-- with the same results and failure convention (nil, message, core argument).

local function ffi_backend()
    local ffi = require("ffi")
    -- rvo.h's and rvo_nav.h's declarations, generated when rvo is built
    -- (lua/gen_cdef.py); rvo.ffi may have declared rvo.h's already.
    local cdef = require("rvo.cdef")
    if not pcall(ffi.typeof, "rvo_world_def") then ffi.cdef(cdef.rvo) end
    if not pcall(ffi.typeof, "rvo_nav_config") then ffi.cdef(cdef.nav) end
    -- Found as rvo.ffi finds librvo: $RVO_LIB (or $RVO_NAV_LIB), then
    -- package.cpath, then the installed copy named by rvo.libpath (written
    -- by `meson install`; .nav for librvo_nav), then the system.
    local found, libpath = pcall(require, "rvo.libpath")
    if not (found and type(libpath) == "table") then libpath = {} end
    local function load(env, name, installed) -- (rvo/libfind.lua: also Windows' DLL names)
        return require("rvo.libfind").load(ffi, name, env, installed)
    end
    local C = load("RVO_LIB", "rvo", libpath)
    local okn, N = pcall(load, "RVO_NAV_LIB", "rvo_nav", libpath.nav or {})
    local B = { has_navmesh = okn }
    local err = ffi.new("rvo_error")
    local n_out, n2_out, partial_out = ffi.new("int32_t[1]"), ffi.new("int32_t[1]"), ffi.new("int[1]")
    local p3, q3, h3, o3 = ffi.new("float[3]"), ffi.new("float[3]"), ffi.new("float[3]"), ffi.new("float[3]")

    local function floats_of(t, n)
        local a = ffi.new("float[?]", n > 0 and n or 1)
        for i = 1, n do
            a[i - 1] = t[i]
        end
        return a
    end
    local function indices_of(t, n)
        local a = ffi.new("int32_t[?]", n > 0 and n or 1)
        for i = 1, n do
            a[i - 1] = t[i] - 1
        end
        return a
    end
    local function flat(p, n)
        local t = {}
        for i = 1, n do
            t[i] = p[i - 1]
        end
        return t
    end

    function B.outline(xy, polys, nvp, eps)
        local nxy, nidx = #xy, #polys
        if nxy % 2 ~= 0 then return nil, "even number of coordinates expected", 1 end
        if nvp < 3 or nvp > 32 then return nil, "verts_per_poly must be in [3, 32]", 5 end
        if nidx % nvp ~= 0 then return nil, "index count must be a multiple of verts_per_poly", 3 end
        local o = C.rvo_outline_build(floats_of(xy, nxy), nxy / 2, indices_of(polys, nidx), nidx / nvp, nvp, eps, err)
        if o == nil then
            return nil, ffi.string(err.message), err.arg
        end
        local loops, holes = {}, {}
        for i = 1, C.rvo_outline_loop_count(o) do
            local p = C.rvo_outline_loop(o, i - 1, n_out)
            loops[i] = flat(p, 2 * n_out[0])
            holes[i] = C.rvo_outline_loop_is_hole(o, i - 1) == 1
        end
        C.rvo_outline_destroy(o)
        return loops, holes
    end

    local door = ffi.new("rvo_door")
    function B.door_steer(d, xy, radii, targets)
        local nxy = #xy
        if nxy % 2 ~= 0 then return nil, "even number of coordinates expected", 3 end
        local n = nxy / 2
        if #radii ~= n then return nil, "one radius per agent expected", 4 end
        if #targets ~= nxy then return nil, "one target per agent expected", 5 end
        door.a.x, door.a.y, door.b.x, door.b.y = d[1], d[2], d[3], d[4]
        door.thickness, door.depth, door.widen, door.reach = d[5], d[6], d[7], d[8]
        local out = ffi.new("float[?]", nxy > 0 and nxy or 1)
        local r = C.rvo_door_steer(door, n, floats_of(xy, nxy), floats_of(radii, n), floats_of(targets, nxy), out, err)
        if r < 0 then return nil, ffi.string(err.message), err.arg end
        return flat(out, nxy), r
    end

    if not okn then
        return B
    end

    local config_floats = { "cell_size", "cell_height", "agent_height", "agent_radius", "agent_max_climb",
        "agent_max_slope", "region_min_size", "region_merge_size", "edge_max_len", "edge_max_error",
        "detail_sample_dist", "detail_sample_max_error" }

    function B.build(verts, tris, config)
        local nv, nt = #verts, #tris
        if nv % 3 ~= 0 then return nil, "coordinate count must be a multiple of 3", 1 end
        if nt % 3 ~= 0 then return nil, "index count must be a multiple of 3", 3 end
        local cfg = N.rvo_nav_config_default()
        for _, k in ipairs(config_floats) do
            if type(config[k]) == "number" then cfg[k] = config[k] end
        end
        local vpp = config.verts_per_poly
        if type(vpp) == "number" then
            cfg.verts_per_poly = (vpp >= -1e9 and vpp <= 1e9) and vpp or -1
        end
        local m = N.rvo_nav_build(floats_of(verts, nv), nv / 3, indices_of(tris, nt), nt / 3, cfg, err)
        if m == nil then
            return nil, ffi.string(err.message), err.arg
        end
        return ffi.gc(m, N.rvo_nav_destroy)
    end

    function B.destroy(m)
        ffi.gc(m, nil)
        N.rvo_nav_destroy(m)
    end

    function B.bounds(m)
        N.rvo_nav_bounds(m, p3, q3)
        return p3[0], p3[1], p3[2], q3[0], q3[1], q3[2]
    end

    function B.polys(m)
        local v = N.rvo_nav_verts(m, n_out)
        local verts = flat(v, 3 * n_out[0])
        local p = N.rvo_nav_polys(m, n_out, n2_out)
        local polys = {}
        for i = 1, n_out[0] * n2_out[0] do
            polys[i] = p[i - 1] + 1
        end
        return verts, polys, n2_out[0]
    end

    function B.nearest(m, x, y, z, hx, hy, hz)
        p3[0], p3[1], p3[2] = x, y, z
        h3[0], h3[1], h3[2] = hx, hy, hz
        local r = N.rvo_nav_nearest(m, p3, h3, o3, err)
        if r < 0 then return nil, ffi.string(err.message), err.arg end
        if r == 0 then return false end
        return o3[0], o3[1], o3[2]
    end

    local cap, corners = 64, ffi.new("float[?]", 3 * 64)
    function B.find_path(m, sx, sy, sz, ex, ey, ez, hx, hy, hz)
        p3[0], p3[1], p3[2] = sx, sy, sz
        q3[0], q3[1], q3[2] = ex, ey, ez
        h3[0], h3[1], h3[2] = hx, hy, hz
        local n = N.rvo_nav_find_path(m, p3, q3, h3, corners, cap, partial_out, err)
        if n > cap then
            cap = n
            corners = ffi.new("float[?]", 3 * cap)
            n = N.rvo_nav_find_path(m, p3, q3, h3, corners, cap, partial_out, err)
        end
        if n == 0 then return false, ffi.string(err.message), err.arg end
        if n < 0 then return nil, ffi.string(err.message), err.arg end
        return flat(corners, 3 * n), partial_out[0] ~= 0
    end

    return B
end

local backend
if rawget(_G, "jit") then
    backend = ffi_backend()
else
    backend = require("rvo.navcore")
end

local nav = {
    -- True when navmesh building (Recast/Detour, librvo_nav) is available.
    has_navmesh = backend.has_navmesh and true or false,
}

---------------------------------------------------------------------------
-- Checks. They return an error text (nil when fine); the public functions
-- raise it so that the error points at their caller's line.

local function type_name(v)
    return type(v)
end

local is_finite = require("rvo.check").finite

-- A flat list of numbers (its length a multiple of mult).
local function check_numbers(t, name, mult)
    if type(t) ~= "table" then
        return format("%s: table expected, got %s", name, type_name(t))
    end
    local n = #t
    for i = 1, n do
        if type(t[i]) ~= "number" then
            return format("%s[%d] must be a number, got %s", name, i, type_name(t[i]))
        end
    end
    if n % mult ~= 0 then
        return format("%s: %d numbers is not a multiple of %d", name, n, mult)
    end
end

-- A flat list of 1-based vertex indices (0 pads when pad is true).
local function check_indices(t, name, mult, nverts, pad)
    if type(t) ~= "table" then
        return format("%s: table expected, got %s", name, type_name(t))
    end
    local n = #t
    local low = pad and 0 or 1
    for i = 1, n do
        local v = t[i]
        if type(v) ~= "number" or v ~= v or floor(v) ~= v then
            return format("%s[%d] must be an integer, got %s", name, i,
                type(v) == "number" and format("%.14g", v) or type_name(v))
        end
        if v < low or v > nverts then
            return format("%s[%d] = %.14g refers to no vertex (there are %d)", name, i, v, nverts)
        end
    end
    if n % mult ~= 0 then
        return format("%s: %d indices is not a multiple of %d", name, n, mult)
    end
end

-- Unknown or badly typed fields of an options table; known[name] = "number"
-- or "integer". Deterministic whatever the traversal order.
local function check_options(t, known)
    local bad
    for k in pairs(t) do
        if type(k) ~= "string" then
            return "field names must be strings, got " .. type_name(k)
        end
        if not known[k] and (bad == nil or k < bad) then bad = k end
    end
    if bad then return "unknown field '" .. bad .. "'" end
    local names = {}
    for k in pairs(known) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do
        local v = t[k]
        if v ~= nil then
            if type(v) ~= "number" then
                return format("field '%s': number expected, got %s", k, type_name(v))
            end
            if known[k] == "integer" and (v ~= v or floor(v) ~= v) then
                return format("field '%s' must be an integer", k)
            end
        end
    end
end

local function argfail(fn, arg, why, level)
    error(format("bad argument #%d to '%s' (%s)", arg, fn, why), level + 1)
end

---------------------------------------------------------------------------
-- Outline

local OUTLINE_OPTIONS = { verts_per_poly = "integer", epsilon = "number" }
-- Lua argument of each rvo_outline_build argument.
local OUTLINE_ARGS = { [1] = 1, [2] = 1, [3] = 2, [4] = 2, [5] = 3, [6] = 3 }

-- Returns loops, holes or raises (level: of the public function's caller).
local function outline_of(fn, xy, polys, opts, level, first_arg)
    first_arg = first_arg or 1
    local why = check_numbers(xy, "verts", 2)
    if why then argfail(fn, first_arg, why, level + 1) end
    if opts ~= nil and type(opts) ~= "table" then
        argfail(fn, first_arg + 2, "table expected, got " .. type_name(opts), level + 1)
    end
    opts = opts or {}
    why = check_options(opts, OUTLINE_OPTIONS)
    if why then argfail(fn, first_arg + 2, why, level + 1) end
    local nvp = opts.verts_per_poly or 3
    if nvp < 3 or nvp > 32 then argfail(fn, first_arg + 2, "verts_per_poly must be in [3, 32]", level + 1) end
    why = check_indices(polys, "polys", nvp, #xy / 2, true)
    if why then argfail(fn, first_arg + 1, why, level + 1) end
    local loops, holes, arg = backend.outline(xy, polys, nvp, opts.epsilon or 1e-4)
    if not loops then
        if arg > 0 then
            argfail(fn, first_arg - 1 + OUTLINE_ARGS[arg], holes, level + 1)
        end
        error(format("%s: %s", fn, holes), level + 1)
    end
    return loops, holes
end

--- The outline of a 2D polygon mesh: verts = {x1, y1, x2, y2, ...} (world
-- frame), polys = flat 1-based vertex indices, verts_per_poly per polygon
-- (default 3: triangles), 0 padding smaller polygons. opts.epsilon
-- (default 1e-4): vertices closer merge, T-junctions within it are joined,
-- points within it of a straight run are dropped. Returns the loops (flat
-- point lists ready for world:add_obstacle: outer boundaries clockwise,
-- holes counter-clockwise) and a parallel list of booleans, true for holes.
function nav.outline(verts, polys, opts)
    local loops, holes = outline_of("outline", verts, polys, opts, 2) -- (no tail call: error levels)
    return loops, holes
end

---------------------------------------------------------------------------
-- Two-way doors (librvo's rvo_door_steer)

local Door = {}
Door.__index = Door
nav.Door = Door

local DOOR_OPTIONS = { thickness = "number", depth = "number", widen = "number", reach = "number" }

--- A door for nav.door_steer and rvo.follow: the opening from jamb (ax, ay)
-- to jamb (bx, by), on the wall's centre line. opts: thickness of the wall
-- (0), depth (2: the lanes run this far beyond each face), widen (1: and
-- widen this much to the walker's right there), reach (8: agents this far
-- before the wall's centre use the door) [m].
function nav.door(ax, ay, bx, by, opts)
    local fn = "door"
    local c = { ax, ay, bx, by }
    for i = 1, 4 do
        if type(c[i]) ~= "number" then argfail(fn, i, "number expected, got " .. type_name(c[i]), 2) end
        if not (is_finite(c[i]) and c[i] >= -1e9 and c[i] <= 1e9) then
            argfail(fn, i, "coordinate must be finite (|c| <= 1e9)", 2)
        end
    end
    if ax == bx and ay == by then argfail(fn, 3, "the door's ends must differ", 2) end
    if opts ~= nil and type(opts) ~= "table" then argfail(fn, 5, "table expected, got " .. type_name(opts), 2) end
    opts = opts or {}
    local why = check_options(opts, DOOR_OPTIONS)
    if why then argfail(fn, 5, why, 2) end
    local d = setmetatable({ ax, ay, bx, by, opts.thickness or 0, opts.depth or 2, opts.widen or 1, opts.reach or 8 },
        Door)
    local names = { "thickness", "depth", "widen", "reach" }
    for i = 5, 8 do
        local v, positive = d[i], i == 6 or i == 8
        if not (is_finite(v) and v <= 1e9 and (positive and v > 0 or not positive and v >= 0)) then
            argfail(fn, 5, format("field '%s' must be finite and %s 0", names[i - 4], positive and ">" or ">="), 2)
        end
    end
    return d
end

--- Two-way door lanes for n agents: xy = {x1, y1, ...} their positions,
-- radii = {r1, ...}, targets = {x1, y1, ...} where each heads (its goal or
-- next path corner). Returns the points to head for now (a flat list:
-- a point that differs from the target is a corner to pass at full speed)
-- and how many the door steered. See rvo_door_steer in src/rvo.h.
function nav.door_steer(door, xy, radii, targets)
    local fn = "door_steer"
    if getmetatable(door) ~= Door then argfail(fn, 1, "door expected (nav.door), got " .. type_name(door), 2) end
    local why = check_numbers(xy, "xy", 2)
    if why then argfail(fn, 2, why, 2) end
    why = check_numbers(radii, "radii", 1)
    if why then argfail(fn, 3, why, 2) end
    why = check_numbers(targets, "targets", 2)
    if why then argfail(fn, 4, why, 2) end
    if #radii ~= #xy / 2 then argfail(fn, 3, format("%d radii for %d agents", #radii, #xy / 2), 2) end
    if #targets ~= #xy then argfail(fn, 4, format("%d target coordinates for %d agents", #targets, #xy / 2), 2) end
    local out, count, arg = backend.door_steer(door, xy, radii, targets)
    if not out then
        argfail(fn, ({ 1, 1, 2, 3, 4, 1 })[arg] or 1, count, 2)
    end
    return out, count
end

local Mesh = {}
Mesh.__index = Mesh
nav.Mesh = Mesh

--- Adds the outline of a walkable mesh to a world as obstacles: either
-- add_outline(world, verts, polys [, opts]) for a 2D mesh as nav.outline
-- takes it, or add_outline(world, mesh [, opts]) for a built navmesh.
-- Returns the list of obstacle ids (in loop order) and the holes list.
function nav.add_outline(world, a, b, c)
    local fn = "add_outline"
    if not rvo.is_world(world) then
        argfail(fn, 1, "rvo.world expected, got " .. type_name(world), 2)
    end
    local loops, holes
    if getmetatable(a) == Mesh then
        if not a.handle then error("attempt to use a destroyed navmesh", 2) end
        if b ~= nil and type(b) ~= "table" then argfail(fn, 3, "table expected, got " .. type_name(b), 2) end
        local xy, polys, nvp = a:polys()
        local opts = { verts_per_poly = nvp, epsilon = 1e-3 }
        if b then
            local why = check_options(b, { epsilon = "number" })
            if why then argfail(fn, 3, why, 2) end
            opts.epsilon = b.epsilon or opts.epsilon
        end
        loops, holes = outline_of(fn, xy, polys, opts, 2, 1) -- (opts is argument 3)
    else
        loops, holes = outline_of(fn, a, b, c, 2, 2)
    end
    local ids = {}
    for i = 1, #loops do
        ids[i] = world:add_obstacle(loops[i])
    end
    return ids, holes
end

---------------------------------------------------------------------------
-- Navmesh (Recast/Detour)

local BUILD_OPTIONS = {
    cell_size = "number", cell_height = "number", agent_height = "number", agent_radius = "number",
    agent_max_climb = "number", agent_max_slope = "number", region_min_size = "number",
    region_merge_size = "number", edge_max_len = "number", edge_max_error = "number",
    verts_per_poly = "integer", detail_sample_dist = "number", detail_sample_max_error = "number",
    search_radius = "number",
}

--- Builds a navmesh: def.verts = {x1, y1, z1, ...} (y up, as an OBJ holds
-- them), def.tris = flat 1-based triangle indices (upward faces are
-- walkable), and optionally Recast's parameters: cell_size (0.3),
-- cell_height (0.2), agent_height (2), agent_radius (0.6), agent_max_climb
-- (0.9), agent_max_slope (45 degrees), region_min_size (8), region_merge_size
-- (20), edge_max_len (12), edge_max_error (1.3), verts_per_poly (6),
-- detail_sample_dist (6), detail_sample_max_error (1); and search_radius
-- (2): how far from the mesh a query point may lie.
function nav.build(def)
    local fn = "build"
    if not nav.has_navmesh then
        error("build: navmesh building is not available "
            .. "(librvo_nav was built without Recast/Detour: install librecast-dev)", 2)
    end
    if type(def) ~= "table" then argfail(fn, 1, "table expected, got " .. type_name(def), 2) end
    local opts = {}
    for k, v in pairs(def) do
        if k ~= "verts" and k ~= "tris" then opts[k] = v end
    end
    local why = check_options(opts, BUILD_OPTIONS)
    if why then argfail(fn, 1, why, 2) end
    why = check_numbers(def.verts, "verts", 3)
    if why then argfail(fn, 1, why, 2) end
    why = check_indices(def.tris, "tris", 3, #def.verts / 3, false)
    if why then argfail(fn, 1, why, 2) end
    local r = opts.search_radius or 2
    if not (is_finite(r) and r > 0) then argfail(fn, 1, "search_radius must be finite and > 0", 2) end
    local handle, msg, arg = backend.build(def.verts, def.tris, opts)
    if not handle then
        if arg == 1 then
            argfail(fn, 1, "verts: " .. msg, 2)
        elseif arg == 3 then
            argfail(fn, 1, "tris: " .. msg, 2)
        elseif arg > 0 then
            argfail(fn, 1, msg, 2)
        end
        error(format("%s: %s", fn, msg), 2)
    end
    local minx, miny, minz, maxx, maxy, maxz = backend.bounds(handle)
    return setmetatable({
        handle = handle,
        search_radius = r,
        -- queries search every floor: the whole height plus an agent
        y_mid = (miny + maxy) / 2,
        y_half = (maxy - miny) / 2 + (opts.agent_height or 2),
        box = { minx, minz, maxx, maxz },
    }, Mesh)
end

local function check_self(self, fn)
    if getmetatable(self) ~= Mesh then
        error(format("calling '%s' on bad self", fn), 3)
    end
    if not self.handle then
        error("attempt to use a destroyed navmesh", 3)
    end
end

-- The number argument arg (named name) or an error text.
local function check_coord(v)
    if type(v) ~= "number" then
        return "number expected, got " .. type_name(v)
    end
    if not is_finite(v) then
        return "coordinate must be finite"
    end
end

--- Path from (ax, ay) to (bx, by) (world frame): its corners as a flat list
-- {x1, y1, ..., xn, yn}, the first the start (on the mesh), the last the
-- goal; and whether the goal was unreachable (then the path ends at the
-- reachable point nearest to it). nil and a message when the start or the
-- goal is farther than search_radius from the mesh.
function Mesh:find_path(ax, ay, bx, by)
    check_self(self, "find_path")
    local args = { ax, ay, bx, by }
    for i = 1, 4 do
        local why = check_coord(args[i])
        if why then argfail("find_path", i, why, 2) end
    end
    local r = self.search_radius
    local xyz, partial = backend.find_path(self.handle, ax, self.y_mid, ay, bx, self.y_mid, by, r, self.y_half, r)
    if not xyz then
        if xyz == false then return nil, partial end
        error(format("find_path: %s", partial), 2)
    end
    local out = {}
    for i = 1, #xyz / 3 do
        out[2 * i - 1] = xyz[3 * i - 2]
        out[2 * i] = xyz[3 * i]
    end
    return out, partial and true or false
end

--- The point of the mesh nearest to (x, y) (world frame) and its height, or
-- nil when the mesh is farther than search_radius.
function Mesh:nearest(x, y)
    check_self(self, "nearest")
    local why = check_coord(x)
    if why then argfail("nearest", 1, why, 2) end
    why = check_coord(y)
    if why then argfail("nearest", 2, why, 2) end
    local r = self.search_radius
    local px, py, pz = backend.nearest(self.handle, x, self.y_mid, y, r, self.y_half, r)
    if px == nil then error(format("nearest: %s", py), 2) end
    if px == false then return nil end
    return px, pz, py
end

--- The polygons: verts {x1, y1, ...} (world frame), polys (flat, 1-based,
-- verts_per_poly each, 0 pads), verts_per_poly, and the heights of the
-- vertices {h1, h2, ...}.
function Mesh:polys()
    check_self(self, "polys")
    local v3, polys, nvp = backend.polys(self.handle)
    local xy, heights = {}, {}
    for i = 1, #v3 / 3 do
        xy[2 * i - 1] = v3[3 * i - 2]
        xy[2 * i] = v3[3 * i]
        heights[i] = v3[3 * i - 1]
    end
    return xy, polys, nvp, heights
end

--- The mesh's outline: loops (world frame) and the holes list, as
-- nav.outline returns them. opts.epsilon defaults to 1e-3.
function Mesh:boundary(opts)
    check_self(self, "boundary")
    if opts ~= nil and type(opts) ~= "table" then
        argfail("boundary", 1, "table expected, got " .. type_name(opts), 2)
    end
    local why = opts and check_options(opts, { epsilon = "number" })
    if why then argfail("boundary", 1, why, 2) end
    local xy, polys, nvp = self:polys()
    -- first_arg -1: the options (third of outline_of's arguments) are argument 1 here
    local loops, holes = outline_of("boundary", xy, polys,
        { verts_per_poly = nvp, epsilon = opts and opts.epsilon or 1e-3 }, 2, -1)
    return loops, holes
end

--- minx, miny, maxx, maxy of the walkable polygons (world frame).
function Mesh:bounds()
    check_self(self, "bounds")
    local b = self.box
    return b[1], b[2], b[3], b[4]
end

function Mesh:destroy()
    if getmetatable(self) ~= Mesh then
        error("calling 'destroy' on bad self", 2)
    end
    if self.handle then
        if backend.destroy then backend.destroy(self.handle) end
        self.handle = nil
    end
end

function Mesh:is_destroyed()
    return self.handle == nil
end

--- Loads a Wavefront OBJ file (see rvo.obj).
function nav.load_obj(path)
    local level = require("rvo.obj").load(path, 2) -- (no tail call: error levels)
    return level
end

return nav
