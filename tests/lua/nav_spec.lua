-- rvo.nav: navmesh outlines as obstacles (both runtimes, no Recast needed),
-- two-way doors (nav.door_steer), navmesh building and queries (when
-- librvo_nav was built), the OBJ loader, and every misuse with the exact
-- message (identical on both runtimes).
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local nav = require("rvo.nav")
local obj = require("rvo.obj")
local error_of, nan, inf = support.error_of, support.nan, support.inf
local root = dir .. "../../"

local function signed_area(p)
    local a = 0
    local n = #p / 2
    for i = 1, n do
        local j = i % n + 1
        a = a + p[2 * i - 1] * p[2 * j] - p[2 * j - 1] * p[2 * i]
    end
    return a / 2
end

-- Whether loop p is exactly the points of exp (any starting point).
local function same_loop(p, exp)
    if #p ~= #exp then return false end
    local n = #p / 2
    for s = 0, n - 1 do
        local ok = true
        for k = 0, n - 1 do
            local j = (s + k) % n
            if math.abs(p[2 * j + 1] - exp[2 * k + 1]) > 1e-5 or math.abs(p[2 * j + 2] - exp[2 * k + 2]) > 1e-5 then
                ok = false
                break
            end
        end
        if ok then return true end
    end
    return false
end

local function find_loop(loops, exp)
    for i, p in ipairs(loops) do
        if same_loop(p, exp) then return i end
    end
end

-- 10 x 10 square with a 4 x 4 hole: 8 vertices, 8 triangles (1-based).
local SQ_VERTS = { 0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 7, 3, 7, 7, 3, 7 }
local SQ_TRIS = { 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 4, 8, 3, 8, 7, 4, 1, 5, 4, 5, 8 }

describe("rvo.nav.outline", function()
    it("gives a square with a hole as a clockwise boundary and a counter-clockwise hole", function()
        local loops, holes = nav.outline(SQ_VERTS, SQ_TRIS)
        assert.are.equal(2, #loops)
        local outer = find_loop(loops, { 0, 0, 0, 10, 10, 10, 10, 0 })
        local hole = find_loop(loops, { 3, 3, 7, 3, 7, 7, 3, 7 })
        assert.is_truthy(outer and hole)
        assert.is_false(holes[outer])
        assert.is_true(holes[hole])
        assert.are.equal(-100, signed_area(loops[outer]))
        assert.are.equal(16, signed_area(loops[hole]))
    end)

    it("merges an L corridor's straight runs and accepts either winding", function()
        local v = { 0, 0, 4, 0, 8, 0, 0, 4, 4, 4, 8, 4, 0, 8, 4, 8 }
        local t = { 1, 2, 5, 1, 5, 4, 2, 6, 3, 2, 5, 6, 4, 5, 8, 4, 8, 7 }
        local loops, holes = nav.outline(v, t)
        assert.are.equal(1, #loops)
        assert.is_false(holes[1])
        assert.is_true(same_loop(loops[1], { 0, 0, 0, 8, 4, 8, 4, 4, 8, 4, 8, 0 }))
    end)

    it("joins T-junctions and duplicated vertices (quads padded with 0)", function()
        local v = { 0, 0, 2, 0, 2, 2, 0, 2, 2.00003, 0, 3, 0, 3, 1, 2, 1.00002, 2, 0.99998, 3, 1.00001, 3, 2,
            1.99997, 2.00003 }
        local quads = { 1, 2, 3, 4, 0, 5, 6, 7, 8, 0, 9, 10, 11, 12, 0 }
        local loops = nav.outline(v, quads, { verts_per_poly = 5 })
        assert.are.equal(1, #loops)
        assert.is_true(same_loop(loops[1], { 0, 0, 0, 2, 3, 2, 3, 0 }))
        -- with epsilon 0 the copies stay apart: three loops
        assert.are.equal(3, #nav.outline(v, quads, { verts_per_poly = 5, epsilon = 0 }))
    end)

    it("gives each island its own boundary", function()
        local v = { 0, 0, 1, 0, 1, 1, 0, 1, 5, 5, 7, 5, 7, 7, 5, 7 }
        local loops, holes = nav.outline(v, { 1, 2, 3, 4, 5, 6, 7, 8 }, { verts_per_poly = 4 })
        assert.are.equal(2, #loops)
        for i = 1, 2 do
            assert.is_false(holes[i])
            assert.is_true(signed_area(loops[i]) < 0)
        end
    end)

    it("adds the loops to a world as obstacles that keep agents on the mesh", function()
        -- a corridor 3 m wide and 30 m long, as 20 triangles with a pillar
        local v, t = {}, {}
        for i = 0, 10 do
            v[#v + 1], v[#v + 2] = 3 * i, 0
            v[#v + 1], v[#v + 2] = 3 * i, 3
        end
        for i = 0, 9 do
            local a, b, c, d = 2 * i + 1, 2 * i + 3, 2 * i + 4, 2 * i + 2
            t[#t + 1], t[#t + 2], t[#t + 3] = a, b, c
            t[#t + 1], t[#t + 2], t[#t + 3] = a, c, d
        end
        local w = rvo.new_world { time_step = 0.1, radius = 0.4, max_speed = 1.5, neighbor_dist = 5,
            time_horizon = 2, time_horizon_obst = 1 }
        local ids, holes = nav.add_outline(w, v, t)
        assert.are.equal(1, #ids)
        assert.are.equal(1, w:obstacle_count())
        assert.is_false(holes[1])
        local agents, goals = {}, {}
        for i = 1, 12 do
            local east = i <= 6
            local y = 0.6 + 0.35 * (i % 6)
            agents[i] = w:add_agent(east and 1 + 0.9 * (i % 3) or 29 - 0.9 * (i % 3), y)
            goals[i] = { east and 29 or 1, 3 - y }
        end
        local worst = math.huge
        for _ = 1, 400 do
            for i = 1, 12 do support.steer(w, agents[i], goals[i][1], goals[i][2], 1.5) end
            w:step()
            for i = 1, 12 do
                local x, y = w:position(agents[i])
                assert.is_true(x > 0 and x < 30 and y > 0 and y < 3, "agent left the corridor")
                worst = math.min(worst, y, 3 - y)
            end
        end
        assert.is_true(worst >= 0.4 * 0.9, "agents too close to the walls: " .. worst)
    end)

    it("rejects bad input with the same words on both runtimes", function()
        local cases = {
            { function() nav.outline(nil, SQ_TRIS) end,
                "bad argument #1 to 'outline' (verts: table expected, got nil)" },
            { function() nav.outline({ 0, 0, "1", 0 }, SQ_TRIS) end,
                "bad argument #1 to 'outline' (verts[3] must be a number, got string)" },
            { function() nav.outline({ 0, 0, 1 }, { 1, 1, 1 }) end,
                "bad argument #1 to 'outline' (verts: 3 numbers is not a multiple of 2)" },
            { function() nav.outline({ 0, 0, 1, 0, 1, nan }, { 1, 2, 3 }) end,
                "bad argument #1 to 'outline' (coordinate 6 must be finite and within [-1e9, 1e9])" },
            { function() nav.outline({ 0, 0, 1, 0, 1, inf }, { 1, 2, 3 }) end,
                "bad argument #1 to 'outline' (coordinate 6 must be finite and within [-1e9, 1e9])" },
            { function() nav.outline(SQ_VERTS, "x") end,
                "bad argument #2 to 'outline' (polys: table expected, got string)" },
            { function() nav.outline(SQ_VERTS, { 1, 2, 9 }) end,
                "bad argument #2 to 'outline' (polys[3] = 9 refers to no vertex (there are 8))" },
            { function() nav.outline(SQ_VERTS, { 1, 2, 0 }) end,
                "bad argument #2 to 'outline' (polygon 1 has fewer than 3 vertices)" },
            { function() nav.outline(SQ_VERTS, { 1, 2.5, 3 }) end,
                "bad argument #2 to 'outline' (polys[2] must be an integer, got 2.5)" },
            { function() nav.outline(SQ_VERTS, { 1, 2, 3, 4 }) end,
                "bad argument #2 to 'outline' (polys: 4 indices is not a multiple of 3)" },
            { function() nav.outline(SQ_VERTS, SQ_TRIS, 5) end,
                "bad argument #3 to 'outline' (table expected, got number)" },
            { function() nav.outline(SQ_VERTS, SQ_TRIS, { eps = 1 }) end,
                "bad argument #3 to 'outline' (unknown field 'eps')" },
            { function() nav.outline(SQ_VERTS, SQ_TRIS, { epsilon = "1" }) end,
                "bad argument #3 to 'outline' (field 'epsilon': number expected, got string)" },
            { function() nav.outline(SQ_VERTS, SQ_TRIS, { epsilon = -1 }) end,
                "bad argument #3 to 'outline' (epsilon must be finite and >= 0)" },
            { function() nav.outline(SQ_VERTS, SQ_TRIS, { verts_per_poly = 2 }) end,
                "bad argument #3 to 'outline' (verts_per_poly must be in [3, 32])" },
            { function() nav.outline(SQ_VERTS, SQ_TRIS, { verts_per_poly = 3.5 }) end,
                "bad argument #3 to 'outline' (field 'verts_per_poly' must be an integer)" },
            { function() nav.outline({}, {}) end, "outline: the mesh is empty" },
            { function() nav.outline({ 0, 0, 1, 1, 2, 2 }, { 1, 2, 3 }) end, "outline: no polygon has an area" },
            { function() nav.outline({ 0, 0, 1, 0, 0, 1 }, { 1, 2, 3, 1, 2, 3 }) end,
                "outline: polygons overlap (an edge is covered twice from the same side)" },
            { function() nav.add_outline({}, SQ_VERTS, SQ_TRIS) end,
                "bad argument #1 to 'add_outline' (rvo.world expected, got table)" },
            { function() nav.add_outline(rvo.new_world {}, SQ_VERTS, { 1, 2, 99 }) end,
                "bad argument #3 to 'add_outline' (polys[3] = 99 refers to no vertex (there are 8))" },
        }
        for _, c in ipairs(cases) do
            assert.are.equal(c[2], error_of(c[1]))
        end
    end)
end)

describe("rvo.nav doors", function()
    -- a door from (0, -1.5) to (0, 1.5) in a wall 1 m thick, agents of
    -- radius 0.5 heading for x = +-10 (as tests/c/test_quality.c)
    local d = nav.door(0, -1.5, 0, 1.5, { thickness = 1 })
    local R = { 0.5, 0.5, 0.5, 0.5 }

    it("keeps each flow right and makes the other side fall in behind", function()
        assert.are.same({ 0, -1.5, 0, 1.5, 1, 2, 1, 8 }, { d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8] })
        local out, n = nav.door_steer(d, { -4, -1, -3, 2, 4, 0, 4, 1 }, R, { 10, 0, 10, 0, 10, 0, -10, 0 })
        assert.are.equal(3, n)
        -- a: its lane's corner; b: behind a on its lane's outer edge; c: past
        -- the lanes, its target as given; d: the mirror image of a
        local exp = { 2.5, -0.75, -4 - 1.2, -1, 10, 0, -2.5, 0.75 }
        for i = 1, 8 do
            assert.is_true(math.abs(out[i] - exp[i]) < 1e-5, i .. ": " .. out[i])
        end
        assert.are.equal(10, out[5])
        assert.are.equal(0, out[6])
        -- one flow alone has the whole opening: a's straight way fits it
        out, n = nav.door_steer(d, { -4, -1 }, { 0.5 }, { 10, 0 })
        assert.are.same({ 10, 0 }, out)
        assert.are.equal(0, n)
        -- out of reach, or the target in the doorway: untouched
        out, n = nav.door_steer(d, { -20, 0, -4, 0 }, { 0.5, 0.5 }, { 10, 0, 0.25, 0 })
        assert.are.same({ 10, 0, 0.25, 0 }, out)
        assert.are.equal(0, n)
        out, n = nav.door_steer(d, {}, {}, {})
        assert.are.same({}, out)
        assert.are.equal(0, n)
    end)

    it("rejects bad input with the same words on both runtimes", function()
        local cases = {
            { function() nav.door("0", 0, 1, 1) end, "bad argument #1 to 'door' (number expected, got string)" },
            { function() nav.door(0, nan, 1, 1) end,
                "bad argument #2 to 'door' (coordinate must be finite (|c| <= 1e9))" },
            { function() nav.door(1, 1, 1, 1) end, "bad argument #3 to 'door' (the door's ends must differ)" },
            { function() nav.door(0, 0, 1, 1, 5) end, "bad argument #5 to 'door' (table expected, got number)" },
            { function() nav.door(0, 0, 1, 1, { width = 1 }) end, "bad argument #5 to 'door' (unknown field 'width')" },
            { function() nav.door(0, 0, 1, 1, { depth = 0 }) end,
                "bad argument #5 to 'door' (field 'depth' must be finite and > 0)" },
            { function() nav.door(0, 0, 1, 1, { thickness = -1 }) end,
                "bad argument #5 to 'door' (field 'thickness' must be finite and >= 0)" },
            { function() nav.door_steer({}, {}, {}, {}) end,
                "bad argument #1 to 'door_steer' (door expected (nav.door), got table)" },
            { function() nav.door_steer(d, { 0, 0, 1 }, { 0.5 }, { 1, 1 }) end,
                "bad argument #2 to 'door_steer' (xy: 3 numbers is not a multiple of 2)" },
            { function() nav.door_steer(d, { 0, 0 }, { 0.5, 0.5 }, { 1, 1 }) end,
                "bad argument #3 to 'door_steer' (2 radii for 1 agents)" },
            { function() nav.door_steer(d, { 0, 0 }, { 0.5 }, { 1, 1, 2, 2 }) end,
                "bad argument #4 to 'door_steer' (4 target coordinates for 1 agents)" },
            { function() nav.door_steer(d, { inf, 0 }, { 0.5 }, { 1, 1 }) end,
                "bad argument #2 to 'door_steer' (position 1 must be finite (|c| <= 1e9))" },
            { function() nav.door_steer(d, { 0, 0 }, { 0 }, { 1, 1 }) end,
                "bad argument #3 to 'door_steer' (radius 1 must be finite and > 0)" },
            { function() nav.door_steer(d, { 0, 0 }, { 0.5 }, { 1, nan }) end,
                "bad argument #4 to 'door_steer' (target 1 must be finite (|c| <= 1e9))" },
        }
        for _, c in ipairs(cases) do
            assert.are.equal(c[2], error_of(c[1]))
        end
    end)
end)

describe("rvo.obj", function()
    it("reads vertices and faces in every index form, fans polygons, keeps groups", function()
        local m = obj.parse(table.concat({
            "# comment", "o thing", "v 0 0 0", "v 1 0 0", "v 1 0 1", "v 0 0 1", "vt 0 0", "vn 0 1 0",
            "g floor", "f 1/1/1 4/1/1 3/1/1 2/1/1", "g ramp", "f -4//1 -2//1 -3//1", "s off", "usemtl x",
        }, "\n"))
        assert.are.same({ 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1 }, m.verts)
        assert.are.same({ 1, 4, 3, 1, 3, 2, 1, 3, 2 }, m.tris)
        assert.are.same({ "floor", "floor", "ramp" }, m.groups)
    end)

    it("names the file and line of a bad line", function()
        local function parse_error(text, name)
            return error_of(function() obj.parse(text, name) end)
        end
        assert.are.equal("load_obj: obj:2: a vertex needs three numbers", parse_error("v 1 2 3\nv 1 x 3"))
        assert.are.equal("load_obj: obj:1: a vertex needs three numbers", parse_error("v 1 nan 3"))
        assert.are.equal("load_obj: obj:1: vertex coordinates must be finite", parse_error("v 1 1e999 3"))
        assert.are.equal("load_obj: m.obj:2: vertex 2 is not defined (1 so far)",
            error_of(function() obj.parse("v 0 0 0\nf 1 2 3\nv 1 1 1", "m.obj") end))
        assert.are.equal("load_obj: obj:1: bad vertex reference 'a'", error_of(function() obj.parse("f a 1 2") end))
        assert.are.equal("load_obj: obj:2: a face needs three vertices", parse_error("v 0 0 0\nf 1 1"))
        assert.are.equal("bad argument #1 to 'load_obj' (no/such.obj: No such file or directory)",
            error_of(function() nav.load_obj("no/such.obj") end))
        assert.are.equal("bad argument #1 to 'load_obj' (string expected, got number)",
            error_of(function() nav.load_obj(1) end))
    end)

    it("loads the example level", function()
        local level = nav.load_obj(root .. "examples/level/level.obj")
        assert.are.equal(0, #level.verts % 3)
        assert.is_true(#level.tris / 3 > 100)
        assert.are.equal(#level.tris / 3, #level.groups)
        assert.are.equal("floor", level.groups[1])
    end)
end)

describe("rvo.nav navmesh", function()
    local function need_navmesh()
        if not nav.has_navmesh then
            pending("librvo_nav not built (install librecast-dev): navmesh tests skipped")
            return false
        end
        return true
    end

    -- A 20 x 20 floor with a hole under a 4 x 8 box (open-top walls).
    local function box_level()
        local v, t = {}, {}
        local function vert(x, y, z)
            v[#v + 1], v[#v + 2], v[#v + 3] = x, y, z
            return #v / 3
        end
        local function floor(x0, z0, x1, z1)
            local a, b, c, d = vert(x0, 0, z0), vert(x1, 0, z0), vert(x1, 0, z1), vert(x0, 0, z1)
            for _, i in ipairs { a, d, b, b, d, c } do t[#t + 1] = i end
        end
        floor(0, 0, 20, 6)
        floor(0, 14, 20, 20)
        floor(0, 6, 8, 14)
        floor(12, 6, 20, 14)
        local xs, zs = { 8, 12, 12, 8, 8 }, { 6, 6, 14, 14, 6 }
        for k = 1, 4 do
            local a, b = vert(xs[k], 0, zs[k]), vert(xs[k + 1], 0, zs[k + 1])
            local c, d = vert(xs[k + 1], 3, zs[k + 1]), vert(xs[k], 3, zs[k])
            for _, i in ipairs { a, b, c, a, c, d } do t[#t + 1] = i end
        end
        return v, t
    end

    it("builds a mesh and finds a path around an obstacle", function()
        if not need_navmesh() then return end
        local v, t = box_level()
        local mesh = nav.build { verts = v, tris = t, cell_size = 0.2, agent_radius = 0.4 }
        local minx, miny, maxx, maxy = mesh:bounds()
        assert.is_true(minx < 1 and miny < 1 and maxx > 19 and maxy > 19)
        local path, partial = mesh:find_path(2, 10, 18, 10)
        assert.is_false(partial)
        assert.is_true(#path >= 6)
        assert.is_true(math.abs(path[1] - 2) < 0.3 and math.abs(path[#path - 1] - 18) < 0.3)
        local len = 0
        for i = 1, #path / 2 - 1 do
            local dx, dy = path[2 * i + 1] - path[2 * i - 1], path[2 * i + 2] - path[2 * i]
            len = len + math.sqrt(dx * dx + dy * dy)
            -- no corner inside the box
            local x, y = path[2 * i + 1], path[2 * i + 2]
            assert.is_false(x > 8 and x < 12 and y > 6 and y < 14)
        end
        assert.is_true(len > 16.5, "path goes through the box: " .. len)
        -- nearest: on the mesh it is the point itself; far away there is none
        local x, y = mesh:nearest(5, 5)
        assert.is_true(math.abs(x - 5) < 1e-3 and math.abs(y - 5) < 1e-3)
        assert.is_nil(mesh:nearest(60, 60))
        -- off the mesh: nil and why
        local none, why = mesh:find_path(2, 10, 60, 60)
        assert.is_nil(none)
        assert.are.equal("end is not on the navmesh", why)
        none, why = mesh:find_path(-30, 10, 2, 2)
        assert.is_nil(none)
        assert.are.equal("start is not on the navmesh", why)
        -- the outline of the mesh: the floor's edge and the box
        local loops, holes = mesh:boundary()
        assert.are.equal(2, #loops)
        assert.is_true(holes[1] ~= holes[2])
        local w = rvo.new_world {}
        assert.are.equal(2, #nav.add_outline(w, mesh))
        assert.are.equal(2, w:obstacle_count())
        local xy, polys, nvp, heights = mesh:polys()
        assert.are.equal(6, nvp)
        assert.are.equal(#xy / 2, #heights)
        assert.are.equal(0, #polys % nvp)
        mesh:destroy()
        assert.is_true(mesh:is_destroyed())
        mesh:destroy() -- twice is fine
    end)

    it("walks towards an unreachable goal as far as the mesh goes", function()
        if not need_navmesh() then return end
        local v = { 0, 0, 0, 8, 0, 0, 8, 0, 8, 0, 0, 8, 12, 0, 0, 20, 0, 0, 20, 0, 8, 12, 0, 8 }
        local t = { 1, 4, 2, 2, 4, 3, 5, 8, 6, 6, 8, 7 }
        local mesh = nav.build { verts = v, tris = t, cell_size = 0.2, agent_radius = 0.4 }
        local path, partial = mesh:find_path(2, 4, 18, 4)
        assert.is_true(partial)
        assert.is_true(path[#path - 1] > 7 and path[#path - 1] < 8.01)
    end)

    it("rejects bad input with the same words on both runtimes", function()
        if not need_navmesh() then return end
        local v, t = box_level()
        local mesh = nav.build { verts = v, tris = t, cell_size = 0.25 }
        local bad = {}
        for i, x in ipairs(v) do bad[i] = x end
        bad[5] = nan
        local cases = {
            { function() nav.build(nil) end, "bad argument #1 to 'build' (table expected, got nil)" },
            { function() nav.build { verts = v, tris = t, cel_size = 1 } end,
                "bad argument #1 to 'build' (unknown field 'cel_size')" },
            { function() nav.build { verts = v, tris = t, cell_size = "1" } end,
                "bad argument #1 to 'build' (field 'cell_size': number expected, got string)" },
            { function() nav.build { tris = t } end, "bad argument #1 to 'build' (verts: table expected, got nil)" },
            { function() nav.build { verts = bad, tris = t } end,
                "bad argument #1 to 'build' (verts: coordinate 5 must be finite and within [-1e9, 1e9])" },
            { function() nav.build { verts = v, tris = { 1, 2, 1000 } } end,
                "bad argument #1 to 'build' (tris[3] = 1000 refers to no vertex (there are 32))" },
            { function() nav.build { verts = v, tris = { 1, 2, 0 } } end,
                "bad argument #1 to 'build' (tris[3] = 0 refers to no vertex (there are 32))" },
            { function() nav.build { verts = v, tris = t, cell_size = 0 } end,
                "bad argument #1 to 'build' (cell_size must be finite and > 0)" },
            { function() nav.build { verts = v, tris = t, agent_max_slope = nan } end,
                "bad argument #1 to 'build' (agent_max_slope must be in [0, 90])" },
            { function() nav.build { verts = v, tris = t, verts_per_poly = 9 } end,
                "bad argument #1 to 'build' (verts_per_poly must be in [3, 6])" },
            { function() nav.build { verts = v, tris = t, search_radius = -1 } end,
                "bad argument #1 to 'build' (search_radius must be finite and > 0)" },
            { function() nav.build { verts = {}, tris = {} } end, "build: the mesh is empty" },
            { function() nav.build { verts = { 0, 0, 0, 0, 0, 1, 1, 0, 0 }, tris = { 1, 3, 2 } } end,
                "build: nothing is walkable (no upward face wide and tall enough for the agent)" },
            { function() mesh:find_path(1, 2, 3) end, "bad argument #4 to 'find_path' (number expected, got nil)" },
            { function() mesh:find_path(1, nan, 3, 4) end,
                "bad argument #2 to 'find_path' (coordinate must be finite)" },
            { function() mesh:nearest("1", 2) end, "bad argument #1 to 'nearest' (number expected, got string)" },
            { function() mesh:boundary(1) end, "bad argument #1 to 'boundary' (table expected, got number)" },
            { function() mesh:boundary { epsilon = -1 } end,
                "bad argument #1 to 'boundary' (epsilon must be finite and >= 0)" },
            { function() mesh.find_path({}, 1, 2, 3, 4) end, "calling 'find_path' on bad self" },
            { function() nav.add_outline(rvo.new_world {}, mesh, { eps = 1 }) end,
                "bad argument #3 to 'add_outline' (unknown field 'eps')" },
        }
        for _, c in ipairs(cases) do
            assert.are.equal(c[2], error_of(c[1]))
        end
        -- the mesh still works, then is destroyed
        assert.is_truthy(mesh:find_path(2, 2, 18, 18))
        mesh:destroy()
        assert.are.equal("attempt to use a destroyed navmesh", error_of(function() mesh:find_path(1, 2, 3, 4) end))
        assert.are.equal("attempt to use a destroyed navmesh",
            error_of(function() nav.add_outline(rvo.new_world {}, mesh) end))
    end)
end)
