-- The LÖVE demo's logic without LÖVE (examples/love/demo.lua, which
-- examples/love/main.lua loads): the fixed-step clock, the preset scenes
-- with the demo's world settings and steering, agent states, the worst
-- overlap and the links between ORCA lines and neighbours. Both runtimes.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = dir .. "../../examples/love/?.lua;" .. package.path
local rvo = require("rvo")
local demo = require("demo")

-- Runs frames of the given lengths through a clock; returns the steps.
local function run_clock(clock, frames)
    local steps = 0
    for _, f in ipairs(frames) do steps = steps + clock:advance(f) end
    return steps
end

local function frames_of(dt, n)
    local t = {}
    for i = 1, n do t[i] = dt end
    return t
end

describe("the LÖVE demo's clock", function()
    it("steps by the elapsed time, whatever the frame rate", function()
        -- 10 s cut into frames of 1/30, 1/60, 1/144 and an uneven mix
        local mix = {}
        for i = 1, 600 do mix[i] = (i % 3 == 0) and 0.031 or (i % 3 == 1) and 0.017 or 0.002 end
        local total = 0
        for i = 1, 599 do total = total + mix[i] end
        mix[600] = 10 - total -- (10 s up to rounding)
        for _, frames in ipairs { frames_of(1 / 30, 300), frames_of(1 / 60, 600), frames_of(1 / 144, 1440), mix } do
            assert.are.equal(600, run_clock(demo.new_clock(1 / 60, 8), frames))
        end
    end)

    it("scales the simulated time by the speed, 0.25x to 4x", function()
        for _, case in ipairs { { 0.25, 150 }, { 0.5, 300 }, { 1, 600 }, { 2, 1200 }, { 4, 2400 } } do
            for _, fps in ipairs { 20, 60, 144 } do
                local clock = demo.new_clock(1 / 60, 8)
                clock.speed = case[1]
                assert.are.equal(case[2], run_clock(clock, frames_of(1 / fps, 10 * fps)),
                    case[1] .. "x at " .. fps .. " fps")
            end
        end
    end)

    it("drops what a too slow frame would owe, and changes speed through SPEEDS", function()
        local clock = demo.new_clock(1 / 60, 8)
        assert.are.equal(8, clock:advance(1))        -- a 1 s hitch: 8 steps, not 60
        assert.are.equal(1, clock:advance(1 / 60))    -- and no debt after it
        assert.are.equal(2, clock:change_speed(1))
        assert.are.equal(4, clock:change_speed(1))
        assert.are.equal(4, clock:change_speed(1))    -- the top
        assert.are.equal(32, clock:advance(1))        -- the cap grows with the speed
        for _ = 1, 6 do clock:change_speed(-1) end
        assert.are.equal(0.25, clock.speed)
    end)
end)

-- Builds scene `sc` in a world with the demo's settings.
local function build(sc)
    local w = rvo.new_world(demo.world_def())
    local goal, cgoal, colour, edges = {}, {}, {}, {}
    sc.build {
        agent = function(x, y, c, gx, gy)
            local id = w:add_agent(x, y)
            colour[id] = c
            if gx then goal[id] = { gx, gy } end
        end,
        obstacle = function(pts, closed)
            w:add_obstacle(pts, { closed = closed })
            local n = #pts / 2
            for i = 1, closed and n or n - 1 do
                local j = i % n + 1
                edges[#edges + 1] = { pts[2 * i - 1], pts[2 * i], pts[2 * j - 1], pts[2 * j] }
            end
        end,
        goal = function(c, x, y) cgoal[c] = { x, y } end,
    }
    local count = {}
    for _, c in pairs(colour) do count[c] = (count[c] or 0) + 1 end
    local function goal_of(id)
        local g = goal[id] or cgoal[colour[id]]
        return g[1], g[2], demo.reach(not goal[id] and count[colour[id]] or nil)
    end
    return w, goal_of, edges
end

local function steer_all(w, ids, goal_of)
    for _, id in ipairs(ids) do
        local gx, gy = goal_of(id)
        local x, y = w:position(id)
        w:set_pref_velocity(id, demo.pref_velocity(x, y, gx, gy))
    end
end

describe("the LÖVE demo's scenes", function()
    for _, sc in ipairs(demo.scenes) do
        it(sc.name .. ": everybody arrives within 60 s and stays", function()
            local w, goal_of = build(sc)
            local ids = w:ids()
            assert.is_true(#ids >= 60)
            local states
            for _ = 1, 60 * 60 do
                steer_all(w, ids, goal_of)
                w:step()
            end
            states = {}
            for _, id in ipairs(ids) do
                local s = demo.state(w, id, goal_of(id))
                states[s] = (states[s] or 0) + 1
            end
            assert.are.same({ arrived = #ids }, states)
            assert.is_true(demo.worst_overlap(w, ids) < 0.05)
        end)
    end
end)

describe("the LÖVE demo's agent states and overlap", function()
    it("tells locked, arrived, stalled and walking apart", function()
        local w = rvo.new_world(demo.world_def())
        local a = w:add_agent(0, 0)
        local wall = w:add_agent(1, 0, { weight = 1 })
        w:lock(wall, 0, 0)
        assert.are.equal("locked", demo.state(w, wall, 1, 0, 1))
        assert.are.equal("walking", demo.state(w, a, 10, 0, 1))
        assert.are.equal("arrived", demo.state(w, a, 0.5, 0, 1))
        for _ = 1, 120 do -- 2 s pressed against the locked one
            w:set_pref_velocity(a, 3, 0)
            w:step()
        end
        assert.are.equal("stalled", demo.state(w, a, 10, 0, 1))
    end)

    it("measures the worst overlap as a fraction of ri + rj", function()
        local w = rvo.new_world(demo.world_def())
        local a = w:add_agent(0, 0, { radius = 0.5 })
        local b = w:add_agent(0.9, 0, { radius = 0.5 })
        w:add_agent(5, 0)
        local f, p, q = demo.worst_overlap(w, w:ids())
        assert.is_true(math.abs(f - 0.1) < 1e-5, tostring(f))
        assert.are.same({ a, b }, { math.min(p, q), math.max(p, q) })
    end)
end)

describe("the LÖVE demo's panel links", function()
    it("links each agent line to its neighbour, each obstacle line to the edge it touches", function()
        local w = rvo.new_world(demo.world_def())
        local me = w:add_agent(0, 0, { pvx = 0, pvy = 3 })
        w:add_agent(1.5, 1, { pvx = -1 })
        w:add_agent(-2, 1.5, { pvx = 1 })
        w:add_agent(0.5, 3, { pvy = -2 })
        local edges = { { -6, 2.5, -3, 2.5 }, { 3, 1.4, 3, -4 } } -- a wall ahead-left, one at the right
        for _, e in ipairs(edges) do w:add_obstacle(e, { closed = false }) end
        w:step()
        local lines, n, nobst = w:orca_lines(me)
        local nbs = w:neighbors(me)
        assert.are.equal(3, #nbs)
        assert.are.equal(n - nobst, 3)
        assert.is_true(nobst >= 1)
        local src, line_of = demo.link_lines(w, me, lines, n, nobst, nbs, edges)
        for k, nb in ipairs(nbs) do
            assert.are.equal(nobst + k, line_of[nb])
            assert.are.equal(nb, src[nobst + k].agent)
        end
        -- the right wall is 3 m away, the left one's end 3.9 m: each obstacle
        -- line goes to an edge it does not cross into
        local seen = {}
        for i = 1, nobst do
            assert.is_truthy(src[i] and src[i].edge, "obstacle line " .. i)
            seen[src[i].edge] = true
        end
        assert.is_true(seen[2])
    end)

    it("links each line to the neighbour that made it (agents at rest: the line is square to the pair)", function()
        -- at rest, a neighbour's ORCA line runs at right angles to the
        -- direction of that neighbour; added far first, so that the nearest-
        -- first order of neighbors() is not the order of the ids
        local w = rvo.new_world(demo.world_def())
        local me = w:add_agent(0, 0)
        local dirs = {}
        for _, p in ipairs { { 300, 3 }, { 200, 2.5 }, { 100, 2 }, { 10, 1.5 } } do
            local a = math.rad(p[1])
            local id = w:add_agent(p[2] * math.cos(a), p[2] * math.sin(a))
            dirs[id] = { math.cos(a), math.sin(a) }
        end
        local lines, n, nobst = w:orca_lines(me)
        local nbs = w:neighbors(me)
        assert.are.equal(4, n)
        assert.are.equal(0, nobst)
        local src, line_of = demo.link_lines(w, me, lines, n, nobst, nbs, {})
        for id, d in pairs(dirs) do
            local i = line_of[id]
            assert.are.equal(id, src[i].agent)
            local dx, dy = lines[4 * i - 1], lines[4 * i]
            assert.is_true(math.abs(dx * d[1] + dy * d[2]) < 1e-4, "line " .. i .. " is not neighbour " .. id .. "'s")
        end
    end)

    it("links no neighbour when one gave no line (share 0)", function()
        local w = rvo.new_world(demo.world_def())
        local me = w:add_agent(0, 0, { pvx = 1, weight = 0 }) -- never yields to a movable agent
        w:add_agent(2, 0.3, { pvx = -1 })
        w:step()
        local lines, n, nobst = w:orca_lines(me)
        assert.are.equal(0, n - nobst)
        local src, line_of = demo.link_lines(w, me, lines, n, nobst, w:neighbors(me), {})
        assert.are.same({}, src)
        assert.are.same({}, line_of)
    end)
end)
