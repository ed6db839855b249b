-- rvo.follow: path corners to preferred velocities (corners, arrival
-- slowdown, stop), misuse messages; and the example level in short: agents
-- crossing it through its doors never leave the walkable area, all arrive,
-- and both runtimes end bit-identically; two crowds through one door with
-- the follower's door lanes (nav.door_steer) on both runtimes.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local nav = require("rvo.nav")
local follow = require("rvo.follow")
local error_of = support.error_of
local root = dir .. "../../"

local OTHER = rawget(_G, "jit") and "lua5.4" or "luajit"

describe("rvo.follow", function()
    it("walks a path's corners, slows down before the end and stops there", function()
        local w = rvo.new_world { time_step = 0.1, max_speed = 2 }
        w:add_obstacle { 2, 1, 8.5, 1, 8.5, 9, 2, 9 } -- inside the L: the corner cannot be cut
        local a = w:add_agent(0, 0)
        local f = follow.new(w, { bias = 0 })
        f:set_path(a, { 0, 0, 10, 0, 10, 10 })
        local near_corner, speeds = math.huge, {}
        for step = 1, 400 do
            f:update()
            w:step()
            local x, y = w:position(a)
            near_corner = math.min(near_corner, math.sqrt((x - 10) ^ 2 + y ^ 2))
            local vx, vy = w:velocity(a)
            speeds[step] = math.sqrt(vx * vx + vy * vy)
        end
        local x, y = w:position(a)
        assert.is_true(f:arrived(a))
        assert.is_true(math.abs(x - 10) < 0.25 and math.abs(y - 10) < 0.25, "ended at " .. x .. " " .. y)
        assert.is_true(near_corner < 1.5, "cut the corner by " .. near_corner)
        assert.is_true(math.abs(speeds[20] - 2) < 1e-4)  -- full speed on the way
        local vx, vy = w:velocity(a)
        assert.are.equal(0, vx)
        assert.are.equal(0, vy)
        -- it slowed down over the last 2 m: some step had a speed between 0.2 and 1.5
        local slowing = false
        for _, s in ipairs(speeds) do
            if s > 0.2 and s < 1.5 then slowing = true end
        end
        assert.is_true(slowing)
        assert.are.same({ 10, 10 }, f:remaining(a))
        assert.are.equal(0, f:update())
    end)

    it("drops agents removed from the world and stops following on remove", function()
        local w = rvo.new_world { time_step = 0.1 }
        local a, b = w:add_agent(0, 0), w:add_agent(0, 5)
        local f = follow.new(w)
        f:set_path(a, { 10, 0 })
        f:set_path(b, { 10, 5 })
        assert.are.equal(2, f:update())
        w:remove_agent(a)
        assert.are.equal(1, f:update())
        f:remove(b)
        assert.are.equal(0, f:update())
        assert.is_false(f:arrived(b))
        assert.is_nil(f:remaining(b))
    end)

    it("rejects bad input with the same words on both runtimes", function()
        local w = rvo.new_world {}
        local a = w:add_agent(0, 0)
        local gone = w:add_agent(1, 1)
        w:remove_agent(gone)
        local f = follow.new(w)
        local cases = {
            { function() follow.new({}) end, "bad argument #1 to 'new' (rvo.world expected, got table)" },
            { function() follow.new(w, 1) end, "bad argument #2 to 'new' (table expected, got number)" },
            { function() follow.new(w, { speeed = 1 }) end, "bad argument #2 to 'new' (unknown field 'speeed')" },
            { function() follow.new(w, { slow_dist = -1 }) end,
                "bad argument #2 to 'new' (field 'slow_dist' must be a finite number >= 0)" },
            { function() follow.new(w, { mesh = {} }) end,
                "bad argument #2 to 'new' (field 'mesh' must be a navmesh)" },
            { function() f:set_path(gone, { 1, 1 }) end,
                "bad argument #1 to 'set_path' (unknown or removed agent id)" },
            { function() f:set_path(a, "x") end, "bad argument #2 to 'set_path' (table expected, got string)" },
            { function() f:set_path(a, { 1 }) end,
                "bad argument #2 to 'set_path' (a path needs an even number (>= 2) of coordinates)" },
            { function() f:set_path(a, { 1, 0 / 0 }) end,
                "bad argument #2 to 'set_path' (coordinate 2 must be a finite number)" },
            { function() f:set_goal(a, 1, 1) end,
                "set_goal: this follower has no mesh (follow.new(world, { mesh = ... }))" },
            { function() f.update({}) end, "calling 'update' on bad self" },
        }
        for _, c in ipairs(cases) do
            assert.are.equal(c[2], error_of(c[1]))
        end
    end)
end)

-- The example level, shorter: 30 agents, checked every step.
local function level_run()
    local run = assert(loadfile(root .. "examples/level.lua"))("--as-module")
    return run { agents = 30, max_steps = 900, check_every = 1, obj = root .. "examples/level/level.obj" }
end

local DIGEST_SRC = [[
local root = ...
local run = assert(loadfile(root .. "examples/level.lua"))("--as-module")
local r = run { agents = 30, max_steps = 900, check_every = 1, obj = root .. "examples/level/level.obj" }
local out = { r.steps, r.repaths }
for i, id in ipairs(r.ids) do
    local x, y = r.world:position(id)
    out[#out + 1] = string.format("%a %a", x, y)
end
return table.concat(out, "\n")
]]

describe("the example level (short)", function()
    it("is crossed through its doors without any agent leaving the walkable area", function()
        if not nav.has_navmesh then
            pending("librvo_nav not built (install librecast-dev): level test skipped")
            return
        end
        local r = level_run()
        assert.are.equal(0, r.outside, "agent-steps outside the walkable area")
        assert.is_true(r.worst_clearance >= 0.9 * r.radius, "closest to a wall: " .. r.worst_clearance)
        assert.are.equal(r.agents, r.arrived)
        -- west starters end east of the hall and the others west of it
        for i, id in ipairs(r.ids) do
            local x = r.world:position(id)
            if i <= r.agents / 2 then
                assert.is_true(x > 34, "agent " .. i .. " did not reach room C")
            else
                assert.is_true(x < 14, "agent " .. i .. " did not reach rooms A/B")
            end
        end
    end)

    it("ends bit-identically on both runtimes", function()
        if not nav.has_navmesh then
            pending("librvo_nav not built (install librecast-dev): level test skipped")
            return
        end
        if not support.shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        local here = support.load(DIGEST_SRC, "=digest")(root)
        local script = os.tmpname()
        local f = assert(io.open(script, "w"))
        f:write("io.write((loadstring or load)(", string.format("%q", DIGEST_SRC), ")(",
            string.format("%q", root), "))")
        f:close()
        local p = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
        local there = p:read("*a")
        p:close()
        os.remove(script)
        assert.are.equal(here, there)
    end)
end)

-- The quality suite's doorway (tests/bench/quality_scenes.h) with rvo.follow:
-- two crowds of 12 (radius 0.5, max speed 2, dt 0.25) swap sides through a
-- 3 m door in a 1 m wall, each agent's path its goal, the door added with
-- add_door, every preferred velocity turned by a random angle in +-0.1 rad
-- (rvo.jitter's generator). An agent arrives within its radius of its goal
-- (arrive_dist 0.5, as the suite counts it home; no settling elsewhere).
-- Returns the steps until all have arrived (-1: not within max_steps) and
-- a digest of the end.
local DOOR_SRC = [[
local strict, seed, max_steps = ...
local rvo, nav, follow = require("rvo"), require("rvo.nav"), require("rvo.follow")
local w = rvo.new_world { time_step = 0.25, radius = 0.5, max_speed = 2, neighbor_dist = 10, max_neighbors = 10,
                          time_horizon = 2, time_horizon_obst = 2 }
w:set_strict_overlap(strict)
w:add_obstacle { -0.5, 1.5, 0.5, 1.5, 0.5, 20, -0.5, 20 }
w:add_obstacle { -0.5, -20, 0.5, -20, 0.5, -1.5, -0.5, -1.5 }
local f = follow.new(w, { arrive_dist = 0.5, settle = 0 })
f:add_door(nav.door(0, -1.5, 0, 1.5, { thickness = 1 }))
local ids = {}
for m = 0, 11 do
    local col = math.floor(m / 4)
    local x, y = 4 + 1.3 * col, -2 + 1.3 * (m % 4)
    local gx, gy = 10 + 2.5 * (2 - col), 2.5 * (m % 4 - 1.5)
    for _, a in ipairs { { -x, y, gx, gy }, { x, -y, -gx, -gy } } do
        local id = w:add_agent(a[1], a[2])
        ids[#ids + 1] = id
        f:set_path(id, { a[3], a[4] })
    end
end
local rng = require("rvo.jitter").rng(seed)
local makespan = -1
for step = 0, max_steps - 1 do
    if f:update() == 0 then makespan = step break end
    for _, id in ipairs(ids) do
        local a = (2 * rng:next() - 1) * 0.1
        local vx, vy = w:pref_velocity(id)
        local c, s = math.cos(a), math.sin(a)
        w:set_pref_velocity(id, c * vx - s * vy, s * vx + c * vy)
    end
    w:step()
end
local out = { makespan }
for _, id in ipairs(ids) do
    local x, y = w:position(id)
    out[#out + 1] = string.format("%a %a", x, y)
end
return makespan, table.concat(out, "\n")
]]

describe("a two-way door", function()
    local free = 38 -- steps the farthest agent needs alone (quality_scenes.h)
    -- measured (docs/quality.md, Two-way doors): seeds 1-20 all home after 64-76
    -- steps in the default mode, 64-79 in the soft mode
    it("lets two crowds pass each other within 2x the free-walking time", function()
        for _, strict in ipairs { true, false } do -- the default mode (hard bodies), the soft mode
            for seed = 1, 3 do
                local steps = support.load(DOOR_SRC, "=door")(strict, seed, 3 * free)
                assert.is_true(steps > 0 and steps <= 2 * free,
                    ("strict %s seed %d: all arrived after %d steps (2x free: %d)"):format(tostring(strict), seed,
                        steps, 2 * free))
            end
        end
    end)

    it("ends bit-identically on both runtimes", function()
        if not support.shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        local _, here = support.load(DOOR_SRC, "=door")(true, 2, 3 * free)
        local script = os.tmpname()
        local f = assert(io.open(script, "w"))
        f:write("local _, d = (loadstring or load)(", string.format("%q", DOOR_SRC), ")(true, 2, ", 3 * free,
            ") io.write(d)")
        f:close()
        local p = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
        local there = p:read("*a")
        p:close()
        os.remove(script)
        assert.are.equal(here, there)
    end)

    it("rejects what is not a door", function()
        local f = follow.new(rvo.new_world())
        assert.are.equal("bad argument #1 to 'add_door' (door expected (rvo.nav's nav.door), got table)",
            error_of(function() f:add_door({ 0, 0, 1, 1 }) end))
    end)
end)
