-- What ORCA promises in small scenes: no overlap, walls respected,
-- bit-identical reruns.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")

local function distance(w, a, b)
    local ax, ay = w:position(a)
    local bx, by = w:position(b)
    return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
end

-- Two agents of radius 0.5 walking at each other from 10 m apart; b is
-- offset sideways by `offset`. Returns the closest distance, the step at
-- which they passed (a left of b → a right of b) or nil, and the world.
local function head_on(offset, soft)
    local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 1, time_horizon = 2 }
    if soft then w:set_strict_overlap(false) end
    local a = w:add_agent(-5, 0)
    local b = w:add_agent(5, offset)
    local closest, passed = math.huge, nil
    for s = 1, 300 do
        support.steer(w, a, 5, 0, 1)
        support.steer(w, b, -5, offset, 1)
        w:step()
        closest = math.min(closest, distance(w, a, b))
        local ax = w:position(a)
        local bx = w:position(b)
        if not passed and ax > bx then passed = s end
    end
    return closest, passed, w, a, b
end

describe("two agents head-on", function()
    it("exactly symmetric, soft mode: ORCA stops them face to face, without overlap", function()
        -- Nothing breaks the symmetry (no jitter in the core), so every
        -- half-plane is perpendicular to the line of travel: both brake and
        -- stand still at contact distance. This is ORCA's known deadlock;
        -- scripts add jitter to the preferred velocity (see the seeds).
        local closest, passed, w, a, b = head_on(0, true)
        assert.is_nil(passed)
        assert.is_true(closest >= 1 * 0.99, "overlap: " .. closest)
        assert.is_true(distance(w, a, b) < 1.01, "they should stand at contact distance")
        local vx, vy = w:velocity(a)
        assert.is_true(math.abs(vx) < 1e-3 and math.abs(vy) < 1e-3)
        w:destroy()
    end)

    it("exactly symmetric, default: once stalled, one gives way and they pass", function()
        -- Hard bodies: two stalled agents that want opposite ways take
        -- turns (the world's stall threshold, 1 s by default).
        local closest, passed, w, a, b = head_on(0)
        assert.is_not_nil(passed)
        assert.is_true(passed > 10 / 0.1 / 2, "passed at step " .. passed) -- after standing a while
        assert.is_true(closest >= 1 * 0.99, "overlap: " .. closest)
        local ax, ay = w:position(a)
        local bx, by = w:position(b)
        assert.is_true(math.abs(ax - 5) < 0.01 and math.abs(ay) < 0.01)
        assert.is_true(math.abs(bx + 5) < 0.01 and math.abs(by) < 0.01)
        w:destroy()
    end)

    for _, offset in ipairs { 0.01, 0.1, 0.5 } do
        it("offset by " .. offset .. " m: they pass each other without overlap and arrive", function()
            local closest, passed, w, a, b = head_on(offset)
            assert.is_not_nil(passed)
            assert.is_true(closest >= 1 * 0.99, "overlap: " .. closest)
            local ax, ay = w:position(a)
            local bx, by = w:position(b)
            assert.is_true(math.abs(ax - 5) < 0.01 and math.abs(ay) < 0.01)
            assert.is_true(math.abs(bx + 5) < 0.01 and math.abs(by - offset) < 0.01)
            w:destroy()
        end)
    end
end)

describe("a corridor between two walls", function()
    it("lets a crowd through, never closer to a wall than its radius (-1%)", function()
        local R = 0.4
        local w = rvo.new_world { time_step = 0.1, radius = R, max_speed = 1.5, time_horizon = 2,
            time_horizon_obst = 1, neighbor_dist = 4 }
        -- a 2.4 m wide, 10 m long corridor; the walls are CCW rectangles
        local walls = {
            { -5, 1.2, 5, 1.2, 5, 8, -5, 8 },
            { -5, -8, 5, -8, 5, -1.2, -5, -1.2 },
        }
        for _, p in ipairs(walls) do
            w:add_obstacle(p)
        end
        local agents = {}
        for i = 0, 9 do
            local y = -2.7 + 0.6 * i
            agents[#agents + 1] = { id = w:add_agent(-10 - (i % 3), y),
                route = { { -6, 0 }, { 6, 0 }, { 12, -4.5 + i } }, k = 1 }
        end
        local closest_wall, closest_agents = math.huge, math.huge
        local arrived
        for s = 1, 1000 do
            for _, a in ipairs(agents) do
                local x, y = w:position(a.id)
                local wp = a.route[a.k]
                if a.k < #a.route and (wp[1] - x) ^ 2 + (wp[2] - y) ^ 2 < 1 then
                    a.k = a.k + 1
                    wp = a.route[a.k]
                end
                support.steer(w, a.id, wp[1], wp[2], 1.5)
            end
            w:step()
            local all_home = true
            for i, a in ipairs(agents) do
                local x, y = w:position(a.id)
                for _, p in ipairs(walls) do
                    local m = #p / 2
                    for k = 0, m - 1 do
                        local k2 = (k + 1) % m
                        closest_wall = math.min(closest_wall, support.segment_distance(x, y,
                            p[2 * k + 1], p[2 * k + 2], p[2 * k2 + 1], p[2 * k2 + 2]))
                    end
                end
                for j = i + 1, #agents do
                    closest_agents = math.min(closest_agents, distance(w, a.id, agents[j].id))
                end
                local g = a.route[#a.route]
                if (x - g[1]) ^ 2 + (y - g[2]) ^ 2 > 0.01 then all_home = false end
            end
            if all_home then
                arrived = s
                break
            end
        end
        assert.is_true(closest_wall >= R * 0.99, "too close to a wall: " .. closest_wall)
        assert.is_true(closest_agents >= 2 * R * 0.99, "agents overlap: " .. closest_agents)
        assert.is_not_nil(arrived, "not everybody got through")
        w:destroy()
    end)
end)

describe("determinism", function()
    it("gives bit-identical positions when a scene runs twice", function()
        local first = support.run_scene(rvo, 1, 24, 120)
        local second = support.run_scene(rvo, 1, 24, 120)
        assert.are.equal(first, second)
        -- and the scene did something: agents left their starts
        assert.are_not.equal(support.run_scene(rvo, 1, 24, 1), first)
    end)

    it("gives the same positions on 1, 2 and 4 threads #threads", function()
        -- 200 agents: enough work items for the pool to be used.
        local one = support.run_scene(rvo, 1, 200, 40)
        assert.are.equal(one, support.run_scene(rvo, 2, 200, 40))
        assert.are.equal(one, support.run_scene(rvo, 4, 200, 40))
    end)
end)
