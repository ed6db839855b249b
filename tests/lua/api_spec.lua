-- Behaviour of every method of the world, on either backend.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")

local function f32(x) -- x rounded to float, as the core stores it
    local w = rvo.new_world { time_step = x }
    local v = w:time_step()
    w:destroy()
    return v
end

-- The method names of tests/lua/surface.lua (surface_spec holds both
-- bindings and docs/rvo.meta.lua to that list, with the arguments).
local METHODS = {}
for _, entry in ipairs(dofile(dir .. "surface.lua")) do METHODS[#METHODS + 1] = entry[1] end

describe("rvo module", function()
    it("reports its version and backend", function()
        assert.are.equal("0.1.0", rvo.version)
        assert.are.equal(rawget(_G, "jit") and "ffi" or "core", rvo.backend)
    end)

    it("gives worlds the documented methods, plus a getter and setter per core parameter", function()
        local w = rvo.new_world()
        local methods = getmetatable(w).__index
        for _, name in ipairs(METHODS) do
            assert.are.equal("function", type(methods[name]), name)
        end
        -- anything else comes from rvo_param_name: a getter/setter pair
        -- (cross_runtime_spec checks that both backends list the same)
        local base = {}
        for _, name in ipairs(METHODS) do base[name] = true end
        for name in pairs(methods) do
            if not base[name] then
                local getter = name:match("^set_(.*)$") or name
                assert.are.equal("function", type(methods[getter]), name)
                assert.are.equal("function", type(methods["set_" .. getter]), name)
            end
        end
        assert.is_true(rvo.is_world(w))
        assert.is_false(rvo.is_world({}))
        assert.is_false(rvo.is_world(nil))
    end)

    it("creates worlds with defaults, from an empty table and from nil", function()
        for _, w in ipairs { rvo.new_world(), rvo.new_world {}, rvo.new_world(nil) } do
            assert.are.equal(f32(1 / 60), w:time_step())
            local a = w:add_agent(0, 0)
            assert.are.equal(0.5, w:radius(a))
            assert.are.equal(2, w:max_speed(a))
            assert.are.equal(10, w:neighbor_dist(a))
            assert.are.equal(10, w:max_neighbors(a))
            assert.are.equal(2, w:time_horizon(a))
            assert.are.equal(2, w:time_horizon_obst(a))
        end
    end)

    it("passes world parameters on as agent defaults #threads", function()
        local w = rvo.new_world { time_step = 0.25, neighbor_dist = 15, max_neighbors = 7, time_horizon = 10,
            time_horizon_obst = 5, radius = 1.5, max_speed = 3, threads = 2, seed = 42 }
        assert.are.equal(0.25, w:time_step())
        local a = w:add_agent(1, 2)
        assert.are.equal(1.5, w:radius(a))
        assert.are.equal(3, w:max_speed(a))
        assert.are.equal(15, w:neighbor_dist(a))
        assert.are.equal(7, w:max_neighbors(a))
        assert.are.equal("7", string.format("%d", w:max_neighbors(a)))
        assert.are.equal(10, w:time_horizon(a))
        assert.are.equal(5, w:time_horizon_obst(a))
        w:step()
    end)
end)

describe("agents", function()
    local w
    before_each(function() w = rvo.new_world { time_step = 0.5 } end)
    after_each(function() w:destroy() end)

    it("hands out distinct integral ids and counts them", function()
        local seen = {}
        for i = 1, 5 do
            local id = w:add_agent(i, 0)
            assert.are.equal("number", type(id))
            assert.is_true(id > 0 and id % 1 == 0)
            assert.is_nil(seen[id])
            seen[id] = true
            assert.are.equal(i, w:agent_count())
            assert.is_true(w:is_valid(id))
            assert.is_true(w:agent_valid(id))
        end
        assert.are.equal("rvo.world (5 agents)", tostring(w))
    end)

    it("never reissues a removed id", function()
        local seen = {}
        for _ = 1, 20 do
            local id = w:add_agent(0, 0)
            assert.is_nil(seen[id])
            seen[id] = true
            w:remove_agent(id)
            assert.is_false(w:is_valid(id))
            assert.is_false(w:agent_valid(id))
        end
        assert.are.equal(0, w:agent_count())
    end)

    it("keeps the other agents when one is removed", function()
        local a, b, c = w:add_agent(1, 1), w:add_agent(2, 2), w:add_agent(3, 3)
        w:remove_agent(a)
        assert.are.equal(2, w:agent_count())
        assert.are.same({ 2, 2 }, { w:position(b) })
        assert.are.same({ 3, 3 }, { w:position(c) })
    end)

    it("says false, not an error, for numbers that are no ids", function()
        w:add_agent(0, 0)
        for _, v in ipairs { 0, -1, 1.5, support.nan, support.inf, 2 ^ 53, 2 ^ 60 } do
            assert.is_false(w:is_valid(v))
            assert.is_false(w:agent_valid(v))
        end
    end)

    it("stores initial values from the params table", function()
        local a = w:add_agent(1.5, -2.25, { radius = 0.75, max_speed = 4, neighbor_dist = 6, max_neighbors = 3,
            time_horizon = 1.5, time_horizon_obst = 0.5, vx = 1, vy = -1, pvx = 0.5, pvy = 0.25 })
        assert.are.same({ 1.5, -2.25 }, { w:position(a) })
        assert.are.same({ 1, -1 }, { w:velocity(a) })
        assert.are.same({ 0.5, 0.25 }, { w:pref_velocity(a) })
        assert.are.equal(0.75, w:radius(a))
        assert.are.equal(4, w:max_speed(a))
        assert.are.equal(6, w:neighbor_dist(a))
        assert.are.equal(3, w:max_neighbors(a))
        assert.are.equal(1.5, w:time_horizon(a))
        assert.are.equal(0.5, w:time_horizon_obst(a))
    end)

    it("sets and gets positions and velocities", function()
        local a = w:add_agent(0, 0)
        w:set_position(a, 4.5, -1)
        assert.are.same({ 4.5, -1 }, { w:position(a) })
        w:set_velocity(a, 0.25, 0.5)
        assert.are.same({ 0.25, 0.5 }, { w:velocity(a) })
        w:set_pref_velocity(a, -1, 0.125)
        assert.are.same({ -1, 0.125 }, { w:pref_velocity(a) })
    end)

    it("sets and gets every parameter", function()
        local a = w:add_agent(0, 0)
        local values = { radius = 0.25, max_speed = 1.5, neighbor_dist = 7, max_neighbors = 4,
            time_horizon = 3, time_horizon_obst = 0.75 }
        for name, v in pairs(values) do
            w["set_" .. name](w, a, v)
            assert.are.equal(v, w[name](w, a))
        end
        w:set_max_neighbors(a, 0)
        assert.are.equal(0, w:max_neighbors(a))
        w:set_max_speed(a, 0)
        assert.are.equal(0, w:max_speed(a))
    end)
end)

describe("game parameters (weight, groups, mask, z, height)", function()
    local w
    before_each(function() w = rvo.new_world() end)
    after_each(function() w:destroy() end)

    local function have(name)
        if type(getmetatable(w).__index[name]) ~= "function" then
            pending("the core has no parameter '" .. name .. "'")
            return false
        end
        return true
    end

    it("are accepted by add_agent and read back", function()
        if not (have("weight") and have("groups") and have("mask")) then return end
        local a = w:add_agent(0, 0, { weight = 0.25, groups = 2, mask = 0xffff0000, radius = 1 })
        assert.are.equal(0.25, w:weight(a))
        assert.are.equal(2, w:groups(a))
        assert.are.equal(0xffff0000, w:mask(a))
        assert.are.equal("4294901760", string.format("%d", w:mask(a)))
        assert.are.equal(1, w:radius(a))
        w:set_groups(a, 5)
        assert.are.equal(5, w:groups(a))
    end)

    it("undo the add when add_agent is given a bad one", function()
        if not have("weight") then return end
        local before = w:agent_count()
        local ok, msg = pcall(w.add_agent, w, 0, 0, { weight = "heavy" })
        assert.is_false(ok)
        assert.are.equal("bad argument #3 to 'add_agent' (field 'weight': number expected, got string)", msg)
        ok, msg = pcall(w.add_agent, w, 0, 0, { weight = -1 })
        assert.is_false(ok)
        assert.is_truthy(msg:match("^bad argument #3 to 'add_agent' %(weight "))
        assert.are.equal(before, w:agent_count())
        assert.are.same({}, (w:ids()))
    end)
end)

describe("stepping", function()
    local w
    before_each(function() w = rvo.new_world { time_step = 0.5, max_speed = 2 } end)
    after_each(function() w:destroy() end)

    it("moves a free agent by its preferred velocity", function()
        local a = w:add_agent(0, 0, { pvx = 1, pvy = -0.5 })
        w:step()
        assert.are.same({ 0.5, -0.25 }, { w:position(a) })
        assert.are.same({ 1, -0.5 }, { w:velocity(a) })
        w:step(0.25)
        assert.are.same({ 0.75, -0.375 }, { w:position(a) })
        assert.is_false(w:is_solved())
    end)

    it("limits speed to max_speed", function()
        local a = w:add_agent(0, 0, { pvx = 6, pvy = 8 })
        w:step()
        local vx, vy = w:velocity(a)
        assert.is_true(math.abs(math.sqrt(vx * vx + vy * vy) - 2) < 1e-5)
    end)

    it("solves, lets new velocities be post-processed, then integrates", function()
        local a = w:add_agent(0, 0, { pvx = 1 })
        local b = w:add_agent(10, 10, { pvy = 1 })
        assert.is_false(w:is_solved())
        w:solve()
        assert.is_true(w:is_solved())
        assert.are.same({ 1, 0 }, { w:new_velocity(a) })
        assert.are.same({ 0, 1 }, { w:new_velocity(b) })
        assert.are.same({ 0, 0 }, { w:position(a) }) -- solve does not move
        w:set_new_velocity(a, 0, 1)
        assert.are.same({ 0, 1 }, { w:new_velocity(a) })
        w:integrate()
        assert.is_false(w:is_solved())
        assert.are.same({ 0, 0.5 }, { w:position(a) })
        assert.are.same({ 0, 1 }, { w:velocity(a) })
        assert.are.same({ 10, 10.5 }, { w:position(b) })
    end)

    it("takes explicit dt in solve and integrate", function()
        local a = w:add_agent(0, 0, { pvx = 1 })
        w:solve(0.25)
        w:integrate(0.25)
        assert.are.same({ 0.25, 0 }, { w:position(a) })
    end)

    it("sets the time step", function()
        local a = w:add_agent(0, 0, { pvx = 1 })
        w:set_time_step(0.125)
        assert.are.equal(0.125, w:time_step())
        w:step()
        assert.are.same({ 0.125, 0 }, { w:position(a) })
    end)

    it("steps an empty world", function()
        w:step()
        w:solve()
        w:integrate()
        assert.are.equal(0, w:agent_count())
    end)
end)

describe("bulk access", function()
    local w, ids
    before_each(function()
        w = rvo.new_world { time_step = 0.5 }
        ids = { w:add_agent(1, 2, { vx = 0.5 }), w:add_agent(3, 4, { vy = 0.25 }), w:add_agent(5, 6) }
    end)
    after_each(function() w:destroy() end)

    it("lists ids in the world's agent order", function()
        local buf = {}
        assert.are.equal(3, w:ids(buf))
        assert.are.same(ids, buf)
        local t, n = w:ids()
        assert.are.same(ids, t)
        assert.are.equal(3, n)
    end)

    it("reads positions and velocities in that order", function()
        local buf = {}
        assert.are.equal(3, w:positions(buf))
        assert.are.same({ 1, 2, 3, 4, 5, 6 }, buf)
        assert.are.same({ 1, 2, 3, 4, 5, 6 }, (w:positions()))
        assert.are.same({ 0.5, 0, 0, 0.25, 0, 0 }, (w:velocities()))
        assert.are.equal(3, w:velocities(buf))
        assert.are.same({ 0.5, 0, 0, 0.25, 0, 0 }, buf)
    end)

    it("clears what a reused buffer held beyond the new data", function()
        local buf = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }
        assert.are.equal(3, w:positions(buf))
        assert.are.same({ 1, 2, 3, 4, 5, 6 }, buf)
        w:remove_agent(ids[2])
        local idbuf = { 7, 7, 7, 7 }
        assert.are.equal(2, w:ids(idbuf))
        assert.are.equal(2, #idbuf)
        assert.are.equal(2, w:positions(buf))
        assert.are.equal(4, #buf)
        for i = 1, 2 do
            local x, y = w:position(idbuf[i])
            assert.are.same({ x, y }, { buf[2 * i - 1], buf[2 * i] })
        end
    end)

    it("sets preferred velocities for all agents", function()
        w:set_pref_velocities { 1, 0, 0, 1, -1, -0.5 }
        assert.are.same({ 1, 0 }, { w:pref_velocity(ids[1]) })
        assert.are.same({ 0, 1 }, { w:pref_velocity(ids[2]) })
        assert.are.same({ -1, -0.5 }, { w:pref_velocity(ids[3]) })
    end)

    it("reads and overwrites new velocities between solve and integrate", function()
        w:set_pref_velocities { 1, 0, 0, 1, -1, 0 }
        w:solve()
        local nv = {}
        assert.are.equal(3, w:new_velocities(nv))
        for i = 1, 3 do
            local x, y = w:new_velocity(ids[i])
            assert.are.same({ x, y }, { nv[2 * i - 1], nv[2 * i] })
        end
        w:set_new_velocities { 0, 0, 0, 0, 0, 1 }
        w:integrate()
        assert.are.same({ 1, 2, 3, 4, 5, 6.5 }, (w:positions()))
    end)

    it("reads and sets the values of a list of ids, in its order", function()
        local squad = { ids[3], ids[1] }
        assert.are.same({ 5, 6, 1, 2 }, w:positions_of(squad))
        assert.are.same({ 0, 0, 0.5, 0 }, w:velocities_of(squad))
        local buf = { 9, 9, 9, 9, 9, 9 }
        assert.are.equal(buf, w:radii_of(squad, buf))
        assert.are.same({ 0.5, 0.5 }, buf) -- (the rest cleared)
        w:set_max_speed(ids[3], 3)
        assert.are.same({ 3, 2 }, w:max_speeds_of(squad))
        w:set_pref_velocities_of(squad, { 1, 0, 0, -1 })
        assert.are.same({ 1, 0 }, { w:pref_velocity(ids[3]) })
        assert.are.same({ 0, -1 }, { w:pref_velocity(ids[1]) })
        assert.are.same({ 0, 0 }, { w:pref_velocity(ids[2]) })
        w:solve()
        local nv = w:new_velocities_of(squad)
        assert.are.same({ w:new_velocity(ids[3]) }, { nv[1], nv[2] })
        w:set_new_velocities_of({ ids[2] }, { 0, 100 }) -- held to max_speed
        assert.are.same({ 0, 2 }, w:new_velocities_of({ ids[2] }))
        w:integrate()
        assert.are.same({}, w:positions_of({}))
    end)

    it("checks every id and value of a list before it changes anything", function()
        local squad = { ids[1], ids[2] }
        w:remove_agent(ids[3])
        local msg = select(2, pcall(w.positions_of, w, { ids[1], ids[3] }))
        assert.matches("bad argument #1 to 'positions_of' %(unknown or removed agent id %(number 2 in ids%)%)",
            msg)
        msg = select(2, pcall(w.set_pref_velocities_of, w, { ids[1], ids[3] }, { 1, 1, 1, 1 }))
        assert.matches("number 2 in ids", msg)
        assert.are.same({ 0, 0 }, { w:pref_velocity(ids[1]) })
        msg = select(2, pcall(w.set_pref_velocities_of, w, squad, { 1, 1, 1, 0 / 0 }))
        assert.matches("bad argument #2 to 'set_pref_velocities_of' %(value 4 must be finite", msg)
        assert.are.same({ 0, 0 }, { w:pref_velocity(ids[1]) })
        msg = select(2, pcall(w.set_pref_velocities_of, w, squad, { 1, 1, 1 }))
        assert.matches("expected 4 numbers %(2 per id%), got 3", msg)
        msg = select(2, pcall(w.radii_of, w, { ids[1], "x" }))
        assert.matches("bad argument #1 to 'radii_of' %(number expected at index 2, got string%)", msg)
        msg = select(2, pcall(w.new_velocities_of, w, squad))
        assert.matches("new velocities exist only between solve and integrate", msg)
        assert.are.same({ 1, 2 }, w:positions_of({ ids[1], nil, ids[2] })) -- (the list ends at a nil)
        local holed = { 1, 2, 3, 4 }
        holed[2] = nil -- (# may still answer 4)
        msg = select(2, pcall(w.set_pref_velocities_of, w, squad, holed))
        assert.matches("bad argument #2 to 'set_pref_velocities_of' %(expected 4 numbers %(2 per id%), got 1%)", msg)
    end)

    it("works on an empty world", function()
        local e = rvo.new_world()
        assert.are.equal(0, e:positions({}))
        assert.are.same({}, (e:positions()))
        assert.are.same({}, (e:ids()))
        e:set_pref_velocities {}
        e:destroy()
    end)
end)

describe("obstacles", function()
    local w
    before_each(function() w = rvo.new_world() end)
    after_each(function() w:destroy() end)

    it("adds, counts, validates and removes", function()
        local o = w:add_obstacle { -1, -1, 1, -1, 1, 1, -1, 1 }
        assert.are.equal("number", type(o))
        assert.is_true(o > 0)
        assert.are.equal(1, w:obstacle_count())
        assert.is_true(w:obstacle_valid(o))
        local line = w:add_obstacle({ 5, 0, 5, 10 }, { closed = false })
        local poly = w:add_obstacle({ 10, 0, 12, 0, 11, 2 }, { closed = true })
        assert.are.equal(3, w:obstacle_count())
        w:remove_obstacle(o)
        assert.is_false(w:obstacle_valid(o))
        assert.is_true(w:obstacle_valid(line))
        assert.is_true(w:obstacle_valid(poly))
        assert.are.equal(2, w:obstacle_count())
        for _, v in ipairs { 0, -1, 0.5, support.nan } do
            assert.is_false(w:obstacle_valid(v))
        end
    end)

    it("blocks line of sight, with and without clearance", function()
        w:add_obstacle { -1, -1, 1, -1, 1, 1, -1, 1 }
        assert.is_false(w:line_of_sight(-5, 0, 5, 0))
        assert.is_true(w:line_of_sight(-5, 2, 5, 2))
        assert.is_true(w:line_of_sight(-5, 2, 5, 2, 0.5))
        assert.is_false(w:line_of_sight(-5, 2, 5, 2, 1.5))
        local o = w:add_obstacle({ 0, 5, 0, 10 }, { closed = false })
        assert.is_false(w:line_of_sight(-1, 7, 1, 7))
        w:remove_obstacle(o)
        assert.is_true(w:line_of_sight(-1, 7, 1, 7))
    end)
end)

describe("queries", function()
    local w, a, near, mid, far
    before_each(function()
        w = rvo.new_world { neighbor_dist = 10, max_neighbors = 10 }
        a = w:add_agent(0, 0)
        far = w:add_agent(20, 0)
        mid = w:add_agent(0, 2)
        near = w:add_agent(1, 0)
    end)
    after_each(function() w:destroy() end)

    it("lists an agent's neighbours, nearest first", function()
        assert.are.same({ near, mid }, (w:neighbors(a)))
        local buf = { 0, 0, 0, 0, 0 }
        assert.are.equal(2, w:neighbors(a, buf))
        assert.are.same({ near, mid }, buf)
        w:set_max_neighbors(a, 1)
        assert.are.same({ near }, (w:neighbors(a)))
        w:set_max_neighbors(a, 0)
        assert.are.same({}, (w:neighbors(a)))
    end)

    it("finds agents within a radius, nearest first", function()
        assert.are.same({ a, near, mid }, (w:query_radius(0, 0, 5)))
        local buf = {}
        assert.are.equal(1, w:query_radius(19, 0, 2, buf))
        assert.are.same({ far }, buf)
        assert.are.same({}, (w:query_radius(100, 100, 1)))
    end)

    it("grows its buffers for many results", function()
        for i = 1, 300 do
            w:add_agent(50 + (i % 20) * 0.1, 50 + math.floor(i / 20) * 0.1)
        end
        local t, n = w:query_radius(50, 50, 10)
        assert.are.equal(300, n)
        assert.are.equal(300, #t)
    end)
end)

describe("lifetime", function()
    it("destroys once, twice, and reports it", function()
        local w = rvo.new_world()
        w:add_agent(0, 0)
        assert.is_false(w:is_destroyed())
        assert.are.equal("rvo.world (1 agents)", tostring(w))
        w:destroy()
        w:destroy()
        assert.is_true(w:is_destroyed())
        assert.are.equal("rvo.world (destroyed)", tostring(w))
    end)

    it("frees unreferenced worlds on collection #threads", function()
        for _ = 1, 50 do
            local w = rvo.new_world { threads = 2 }
            for i = 1, 100 do
                w:add_agent(i, 0)
            end
            w:step()
        end
        collectgarbage()
        collectgarbage()
    end)

    it("closes a to-be-closed world (Lua 5.4)", function()
        if rawget(_G, "jit") then
            return -- no <close> in LuaJIT
        end
        local run = support.load([[
            local rvo = ...
            local outer
            do
                local w <close> = rvo.new_world()
                outer = w
            end
            return outer:is_destroyed()
        ]], "=close")
        assert.is_true(run(rvo))
    end)
end)
