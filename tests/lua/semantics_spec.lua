-- Game semantics on either backend: responsibility weights, avoidance
-- groups, locks and the avoiding report, height, post-processing between
-- solve and integrate, ray casts, solvers; and their misuse (exact
-- messages, and the world stays usable).
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local error_of, nan, inf = support.error_of, support.nan, support.inf

local function distance(w, a, b)
    local ax, ay = w:position(a)
    local bx, by = w:position(b)
    return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
end

local function near(expected, actual, tol)
    assert(math.abs(expected - actual) <= tol,
        string.format("expected %.9g within %g, got %.9g", expected, tol, actual))
end

local function sorted(t)
    local c = {}
    for i = 1, #t do c[i] = t[i] end
    table.sort(c)
    return c
end

local function contains(t, v)
    for i = 1, #t do
        if t[i] == v then return true end
    end
    return false
end

-- Two agents walking at each other (b offset sideways by 0.3), already at
-- their preferred speed. Returns the sideways effort of each (sum of |vy|
-- of the solved velocities) and the smallest gap between their discs.
local function head_on(a_params, b_params)
    local w = rvo.new_world { time_step = 0.1 }
    a_params.vx, a_params.pvx = 1, 1
    b_params.vx, b_params.pvx = -1, -1
    local a = w:add_agent(-3, 0, a_params)
    local b = w:add_agent(3, 0.3, b_params)
    local dev_a, dev_b, gap = 0, 0, math.huge
    local b_exact = true
    for _ = 1, 80 do
        w:solve()
        local _, ay = w:new_velocity(a)
        local bx, by = w:new_velocity(b)
        dev_a, dev_b = dev_a + math.abs(ay), dev_b + math.abs(by)
        b_exact = b_exact and bx == -1 and by == 0
        w:integrate()
        gap = math.min(gap, distance(w, a, b) - 1)
    end
    w:destroy()
    return dev_a, dev_b, gap, b_exact
end

describe("weights", function()
    it("let a weight-0 hero stand while 30 agents flow around it", function()
        local w = rvo.new_world { time_step = 0.1 }
        -- (off the middle row: an exactly symmetric head-on can stall)
        local hero = w:add_agent(0, 0.1, { weight = 0 })
        assert.are.equal(0, w:weight(hero))
        local crowd = {}
        for i = 0, 29 do
            -- a column walking right through the hero's spot
            crowd[i + 1] = w:add_agent(-8 - 1.2 * math.floor(i / 3), i % 3 - 1)
        end
        local gap = math.huge
        for _ = 1, 500 do
            for i = 1, 30 do
                support.steer(w, crowd[i], 30, (i - 1) % 3 - 1, 1.5)
            end
            w:step()
            for i = 1, 30 do
                gap = math.min(gap, distance(w, hero, crowd[i]) - 1)
            end
        end
        local hx, hy = w:position(hero)
        assert.is_true(math.abs(hx) <= 1e-6 and math.abs(hy - 0.1) <= 1e-6, "hero moved to " .. hx .. ", " .. hy)
        for i = 1, 30 do
            assert.is_true((w:position(crowd[i])) > 5, "agent " .. i .. " did not get past")
        end
        assert.is_true(gap > -0.05, "overlap " .. gap)
        w:destroy()
    end)

    it("split a head-on avoidance evenly when equal, 1:3 for 0.25/0.75", function()
        local a, b, gap = head_on({}, {})
        assert.is_true(a > 0.5, "no avoidance at all")
        near(a, b, 1e-3 * (a + b))
        assert.is_true(gap > -0.01)
        -- (each step's correction splits 1:3; the room to close in, while
        -- they are not yet on a collision course, 3:1, so not exactly 3)
        a, b, gap = head_on({ weight = 0.25 }, { weight = 0.75 })
        near(3, b / a, 0.3)
        assert.is_true(gap > -0.01)
        -- 0 and 1: the weight-1 agent takes it all
        a, b = head_on({ weight = 0 }, { weight = 1 })
        assert.are.equal(0, a)
        assert.is_true(b > 1)
    end)

    it("are world-wide agent defaults when given to new_world", function()
        local w = rvo.new_world { weight = 0.25, groups = 6, mask = 0xf0, z = -2, height = 1.75, radius = 0.375 }
        local a = w:add_agent(0, 0)
        local b = w:add_agent(5, 0, { weight = 1, mask = 0 })
        assert.are.equal(0.25, w:weight(a))
        assert.are.equal(6, w:groups(a))
        assert.are.equal(0xf0, w:mask(a))
        assert.are.equal(-2, w:z(a))
        assert.are.equal(1.75, w:height(a))
        assert.are.equal(0.375, w:radius(a))
        assert.are.equal(1, w:weight(b))
        assert.are.equal(6, w:groups(b))
        assert.are.equal(0, w:mask(b))
        if not rawget(_G, "jit") then
            -- groups and mask are integers on Lua 5.4
            assert.are.equal("integer", math.type(w:groups(a)))
            assert.are.equal("integer", math.type(w:mask(a)))
            assert.are.equal("integer", math.type(w:mask(b)))
        end
        assert.are.equal("240", string.format("%d", w:mask(a)))
        w:destroy()
        w = rvo.new_world { mask = 0xffffffff, groups = 0, height = inf, height_margin = 0.5 }
        a = w:add_agent(0, 0)
        assert.are.equal(0xffffffff, w:mask(a))
        assert.are.equal(0, w:groups(a))
        assert.are.equal(inf, w:height(a))
        w:destroy()
    end)
end)

describe("groups and masks", function()
    it("let two squads pass through each other while both avoid a third group", function()
        local w = rvo.new_world { time_step = 0.1 }
        local s1, s2 = {}, {}
        for i = 1, 4 do
            local y = (i - 1) * 1.5
            s1[i] = w:add_agent(-6, y, { groups = 1, mask = 1 + 4 })
            s2[i] = w:add_agent(6, y, { groups = 2, mask = 2 + 4 })
        end
        local g4 = w:add_agent(0, -3, { groups = 4, mask = 4 })
        local cross, third = math.huge, math.huge
        for _ = 1, 120 do
            for i = 1, 4 do
                support.steer(w, s1[i], 6, (i - 1) * 1.5, 1.5)
                support.steer(w, s2[i], -6, (i - 1) * 1.5, 1.5)
            end
            w:set_pref_velocity(g4, 0, 1) -- walks up through the crossing
            w:step()
            for i = 1, 4 do
                for j = 1, 4 do
                    cross = math.min(cross, distance(w, s1[i], s2[j]))
                end
                third = math.min(third, distance(w, s1[i], g4), distance(w, s2[i], g4))
            end
        end
        assert.is_true(cross < 0.5, "squads kept apart: " .. cross)  -- walked through each other
        assert.is_true(third > 1 - 0.05, "squads hit group 4: " .. third) -- but not through group 4
        -- ignored agents are no neighbours
        for _, id in ipairs((w:neighbors(s1[1]))) do
            assert.is_false(contains(s2, id))
        end
        w:destroy()
    end)

    it("take effect at the next solve when changed at run time", function()
        local w = rvo.new_world { time_step = 0.1 }
        local a = w:add_agent(-2, 0, { vx = 1, pvx = 1 })
        local b = w:add_agent(2, 0.2, { vx = -1, pvx = -1 })
        w:solve()
        assert.are.same(sorted { a, b }, sorted((w:avoiding())))
        local ax, ay = w:new_velocity(a)
        -- changed while solved: the solved velocities stay as they are
        w:set_groups(b, 2)
        w:set_mask(a, 1)
        assert.are.same({ ax, ay }, { w:new_velocity(a) })
        assert.are.same({}, (w:neighbors(a))) -- queries see it at once
        w:integrate()
        w:set_pref_velocity(a, 1, 0)
        w:set_pref_velocity(b, -1, 0)
        w:solve()
        -- a ignores b now; b still avoids a and takes it all
        assert.are.same({ 1, 0 }, { w:new_velocity(a) })
        assert.are.same({ b }, (w:avoiding()))
        w:integrate()
        w:set_mask(a, 0xffffffff)
        w:set_groups(b, 1)
        w:solve()
        assert.are.same(sorted { a, b }, sorted((w:avoiding())))
        w:integrate()
        w:destroy()
    end)

    it("let an agent that ignores its neighbour keep its preferred velocity exactly", function()
        -- b ignores a: a takes the whole correction, b never deviates
        local dev_a, dev_b, gap, b_exact = head_on({}, { mask = 0 })
        assert.is_true(b_exact)
        assert.are.equal(0, dev_b)
        assert.is_true(dev_a > 0.5)
        assert.is_true(gap > -0.01, "overlap " .. gap)
    end)
end)

describe("locks", function()
    it("move the locked agent at exactly its lock velocity, and others avoid it", function()
        local w = rvo.new_world { time_step = 0.1 }
        local a = w:add_agent(-3, 0.2)
        local b = w:add_agent(3, 0)
        assert.is_false(w:is_locked(b))
        w:lock(b, -1, 0)
        assert.is_true(w:is_locked(b))
        assert.is_false(w:is_locked(a))
        assert.are.same({ -1, 0 }, { w:velocity(b) })
        local gap, a_avoided = math.huge, false
        for _ = 1, 80 do
            w:set_pref_velocity(a, 1, 0)
            w:set_pref_velocity(b, 0, 1) -- ignored while locked
            local bx0, by0 = w:position(b)
            w:solve()
            assert.are.same({ -1, 0 }, { w:new_velocity(b) })
            local avoiding = w:avoiding()
            assert.is_false(contains(avoiding, b))
            a_avoided = a_avoided or contains(avoiding, a)
            w:integrate()
            assert.are.same({ -1, 0 }, { w:velocity(b) })
            local bx, by = w:position(b)
            near(-0.1, bx - bx0, 1e-6)
            assert.are.equal(by0, by)
            gap = math.min(gap, distance(w, a, b) - 1)
        end
        assert.is_true(a_avoided)
        assert.is_true(gap > -0.01, "overlap " .. gap)
        w:unlock(b)
        assert.is_false(w:is_locked(b))
        w:step()
        local _, vy = w:velocity(b)
        assert.is_true(vy > 0) -- follows its preferred velocity again
        w:destroy()
    end)

    it("apply to the solved velocity when set between solve and integrate", function()
        local w = rvo.new_world { time_step = 0.5 }
        local a = w:add_agent(0, 0, { pvx = 1 })
        w:solve()
        w:lock(a, 0, 1)
        assert.are.same({ 0, 1 }, { w:new_velocity(a) })
        w:integrate()
        assert.are.same({ 0, 0.5 }, { w:position(a) })
        w:destroy()
    end)

    it("keep hard bodies: a locked agent pressing into another is moved out, keeping its velocity", function()
        -- (before: locked agents were never moved by the overlap passes, and
        -- two locked head-on walked through each other)
        local w = rvo.new_world { time_step = 0.1, radius = 0.5 }
        local a = w:add_agent(-2, 0)
        local b = w:add_agent(2, 0.1)
        local post = w:add_agent(0, 3) -- locked standing still: never pushed
        local c = w:add_agent(0, 5, { pvy = -1 })
        w:lock(a, 1, 0)
        w:lock(b, -1, 0)
        w:lock(post, 0, 0)
        for _ = 1, 60 do
            w:step()
            assert.is_true(distance(w, a, b) > 1 - 0.003, "overlap " .. distance(w, a, b))
            assert.is_true(distance(w, post, c) > 1 - 0.003)
            assert.are.same({ 1, 0 }, { w:velocity(a) })
            assert.are.same({ 0, 3 }, { w:position(post) })
        end
        -- the soft mode keeps the old rule: locked agents are never moved
        w:set_strict_overlap(false)
        for _ = 1, 40 do w:step() end
        assert.is_true(w:position(a) > w:position(b)) -- walked through each other
        w:destroy()
    end)
end)

describe("the avoiding report", function()
    it("lists the agents that deviated, in agent order, never locked ones", function()
        local w = rvo.new_world { time_step = 0.1 }
        local c = w:add_agent(-1, 0, { pvx = 1 })
        local d = w:add_agent(1, 0, { pvx = -1 })
        local e = w:add_agent(50, 50, { pvx = 1 })
        w:solve()
        local t, n = w:avoiding(1e-3)
        assert.are.same({ c, d }, t)
        assert.are.equal(2, n)
        assert.are.same({ c, d }, (w:avoiding())) -- default tolerance 1e-4
        local buf = { 9, 9, 9, 9, 9 }
        assert.are.equal(2, w:avoiding(nil, buf))
        assert.are.same({ c, d }, buf)
        assert.are.equal(0, w:avoiding(100, buf)) -- a huge tolerance: nobody
        assert.are.same({}, buf)
        w:integrate()
        -- still the last solve's report after integrate
        assert.are.same({ c, d }, (w:avoiding()))
        w:lock(c, 1, 0)
        w:solve()
        assert.is_false(contains((w:avoiding()), c))
        assert.is_false(contains((w:avoiding()), e))
        w:integrate()
        w:destroy()
    end)
end)

describe("height", function()
    -- Floor 0 walks right, floor 1 (z = 4) walks left over the same line.
    local function floors(world_params)
        local w = rvo.new_world(world_params)
        local f0, f1 = {}, {}
        for i = 1, 6 do
            local y = (i - 1) * 1.2
            f0[i] = w:add_agent(-5, y, { height = 2 })
            f1[i] = w:add_agent(5, y, { height = 2, z = 4 })
        end
        -- a wall on floor 0 only, away from the walkers
        local wall = w:add_obstacle({ 0, 10, 0, 20 }, { closed = false })
        assert.are.same({ -math.huge, math.huge }, { w:obstacle_z_range(wall) })
        w:set_obstacle_z_range(wall, -1, 3)
        assert.are.same({ -1, 3 }, { w:obstacle_z_range(wall) })
        local cross = math.huge
        for _ = 1, 100 do
            for i = 1, 6 do
                support.steer(w, f0[i], 5, (i - 1) * 1.2, 1.5)
                support.steer(w, f1[i], -5, (i - 1) * 1.2, 1.5)
            end
            w:step()
            for i = 1, 6 do
                cross = math.min(cross, distance(w, f0[i], f1[i]))
            end
        end
        w:destroy()
        return cross
    end

    it("keeps two floors crossing at the same x, y apart from each other", function()
        assert.is_true(floors { time_step = 0.1 } < 0.3) -- straight through: no interaction
        -- within the height margin (4 - 2 = 2 < 3) they do interact
        assert.is_true(floors { time_step = 0.1, height_margin = 3 } > 0.9)
    end)

    it("lets the height margin be changed on a live world", function()
        local w = rvo.new_world { time_step = 0.1, height = 1 }
        local a = w:add_agent(-2, 0, { vx = 1, pvx = 1 })
        local b = w:add_agent(2, 0.2, { vx = -1, pvx = -1, z = 1.5 })
        w:solve()
        assert.are.same({}, (w:avoiding()))
        w:integrate()
        w:set_height_margin(0.75)
        w:solve()
        assert.are.same({ a, b }, (w:avoiding()))
        w:integrate()
        w:set_height_margin(0)
        w:solve()
        assert.are.same({}, (w:avoiding()))
        w:integrate()
        w:destroy()
    end)

    it("lets agents walk under an obstacle whose z range is above their heads", function()
        local function walk(zmin, zmax)
            local w = rvo.new_world { time_step = 0.1 }
            local a = w:add_agent(0, -3, { height = 2 })
            local bar = w:add_obstacle({ -5, 0, 5, 0 }, { closed = false })
            if zmin then w:set_obstacle_z_range(bar, zmin, zmax) end
            for _ = 1, 100 do
                w:set_pref_velocity(a, 0, 1)
                w:step()
            end
            local _, y = w:position(a)
            w:destroy()
            return y
        end
        assert.is_true(walk(2.5, 3) > 5)               -- above the head: walks under
        assert.is_true(walk(nil) < 0)                  -- default: blocks
        assert.is_true(walk(-math.huge, math.huge) < 0) -- the same, explicitly
        assert.is_true(walk(1.5, math.huge) < 0)       -- overlaps the agent's extent
        assert.is_true(walk(-math.huge, -0.5) > 5)     -- below the feet
    end)
end)

describe("post-processing", function()
    it("changes what integrate moves, clamped to max_speed", function()
        local w = rvo.new_world { time_step = 0.5, max_speed = 2 }
        local a = w:add_agent(0, 0, { pvx = 1 })
        local b = w:add_agent(20, 0, { pvx = 1 })
        w:solve()
        assert.are.same({ 1, 0 }, { w:new_velocity(a) })
        w:set_new_velocity(a, 0, 1)
        w:set_new_velocity(b, 0, 5) -- longer than max_speed: scaled down
        assert.are.same({ 0, 2 }, { w:new_velocity(b) })
        w:integrate()
        assert.are.same({ 0, 0.5 }, { w:position(a) })
        assert.are.same({ 20, 1 }, { w:position(b) })
        assert.are.same({ 0, 2 }, { w:velocity(b) })
    end)

    it("works in bulk with set_new_velocities", function()
        local w = rvo.new_world { time_step = 0.5, max_speed = 2 }
        local a = w:add_agent(0, 0, { pvx = 1 })
        local b = w:add_agent(20, 0, { pvx = 1, max_speed = 1 })
        w:solve()
        w:set_new_velocities { 3, 4, 0, -1.5 } -- a: |(3, 4)| = 5 > 2; b: 1.5 > 1
        local nv = w:new_velocities()
        near(1.2, nv[1], 1e-6)
        near(1.6, nv[2], 1e-6)
        near(0, nv[3], 1e-6)
        near(-1, nv[4], 1e-6)
        w:integrate()
        local ax, ay = w:position(a)
        local bx, by = w:position(b)
        near(0.6, ax, 1e-6)
        near(0.8, ay, 1e-6)
        near(20, bx, 1e-6)
        near(-0.5, by, 1e-6)
        w:destroy()
    end)
end)

describe("ray_cast", function()
    local w, o, caster, other
    before_each(function()
        w = rvo.new_world { time_step = 0.1 }
        o = w:add_obstacle { 4, -1, 6, -1, 6, 1, 4, 1 }
        caster = w:add_agent(0, 0)
        other = w:add_agent(2, 3, { groups = 2 })
    end)
    after_each(function() w:destroy() end)

    it("hits an obstacle face at the right distance and normal, skipping the caster", function()
        local hit = w:ray_cast(0, 0, 1, 0, 20)
        near(4, hit.distance, 1e-5)
        near(4, hit.x, 1e-5)
        near(0, hit.y, 1e-5)
        near(-1, hit.nx, 1e-6)
        near(0, hit.ny, 1e-6)
        assert.are.equal(o, hit.obstacle)
        assert.is_nil(hit.agent)
        -- behind the caster there is nothing: its own disc does not count
        local cx, cy = w:position(caster)
        assert.is_nil(w:ray_cast(cx, cy, -1, 0, 20))
        -- cast from outside it, it is hit like any agent
        assert.are.equal(caster, w:ray_cast(-5, 0, 1, 0, 20).agent)
        -- any non-zero direction length
        near(4, w:ray_cast(0, 0, 0.001, 0, 20).distance, 1e-5)
        -- too short
        assert.is_nil(w:ray_cast(0, 0, 1, 0, 3))
        assert.is_nil(w:ray_cast(0, 0, 1, 0, 0))
    end)

    it("sweeps a disc of the given clearance", function()
        local hit = w:ray_cast(0, 0, 2, 0, 20, 0.5)
        near(3.5, hit.distance, 1e-5)
        near(3.5, hit.x, 1e-5)
        assert.are.equal(o, hit.obstacle)
        -- past the box's corner: the round end of the swept disc
        hit = w:ray_cast(0, 1.3, 1, 0, 20, 0.5)
        assert.is_true(hit.distance > 3.5 and hit.distance < 4)
        assert.is_nil(w:ray_cast(0, 1.3, 1, 0, 20, 0))
        -- against an agent (radius 0.5 at (2, 3)) from (2, 0)
        near(2, w:ray_cast(2, 0, 0, 1, 20, 0.5).distance, 1e-5)
    end)

    it("hits agents whose groups meet the mask", function()
        local hit = w:ray_cast(2, 0, 0, 1, 20) -- default mask: every agent
        assert.are.equal(other, hit.agent)
        assert.is_nil(hit.obstacle)
        near(2.5, hit.distance, 1e-5)
        near(2, hit.x, 1e-5)
        near(2.5, hit.y, 1e-5)
        near(0, hit.nx, 1e-5)
        near(-1, hit.ny, 1e-5)
        assert.are.equal(other, w:ray_cast(2, 0, 0, 1, 20, 0, 2).agent)
        assert.are.equal(other, w:ray_cast(2, 0, 0, 1, 20, 0, 0xffffffff).agent)
        assert.is_nil(w:ray_cast(2, 0, 0, 1, 20, 0, 1)) -- other is in group 2 only
        assert.is_nil(w:ray_cast(2, 0, 0, 1, 20, 0, 0)) -- 0 ignores agents
        -- obstacles always block, whatever the mask
        assert.are.equal(o, w:ray_cast(0, 0, 1, 0, 20, 0, 0).obstacle)
        -- the nearest wins: the agent in front of the box
        local front = w:add_agent(3, 0)
        assert.are.equal(front, w:ray_cast(0, 0, 1, 0, 20).agent)
        assert.are.equal(o, w:ray_cast(0, 0, 1, 0, 20, 0, 2).obstacle)
    end)

    it("point-blank: names the caster and hits the neighbour it touches at distance 0", function()
        local touching = w:add_agent(0.4, 0) -- its disc holds the caster's centre
        -- without the caster named, every disc holding the start is skipped: the box
        assert.are.equal(o, w:ray_cast(0, 0, 1, 0, 20).obstacle)
        for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 } } do
            local hit = w:ray_cast(0, 0, d[1], d[2], 20, 0, nil, caster)
            assert.are.equal(touching, hit.agent)
            assert.are.equal(0, hit.distance)
            assert.are.equal(-1, hit.nx) -- from its centre to the start
        end
        -- false: nobody is skipped, the lower id of the two at 0 wins
        local hit = w:ray_cast(0, 0, 1, 0, 20, 0, nil, false)
        assert.are.equal(caster, hit.agent)
        -- the mask still filters (touching is in group 1, other in group 2)
        assert.are.equal(o, w:ray_cast(0, 0, 1, 0, 20, 0, 2, caster).obstacle)
        -- a stale or non-id caster is an error
        w:remove_agent(touching)
        assert.are.equal("bad argument #8 to 'ray_cast' (unknown or removed agent id)",
            support.error_of(function() w:ray_cast(0, 0, 1, 0, 20, 0, nil, touching) end))
        assert.are.equal("bad argument #8 to 'ray_cast' (unknown or removed agent id)",
            support.error_of(function() w:ray_cast(0, 0, 1, 0, 20, 0, nil, 1.5) end))
        assert.are.equal("bad argument #8 to 'ray_cast' (number or false expected, got boolean)",
            support.error_of(function() w:ray_cast(0, 0, 1, 0, 20, 0, nil, true) end))
    end)

    it("ray_casts: many rays in one call, each hit as ray_cast finds it", function()
        for k = 1, 40 do w:add_agent(7 * math.sin(k), 7 * math.cos(1.3 * k), { groups = k % 3 + 1 }) end
        w:add_obstacle({ 9, -10, 9, 10 }, { closed = false })
        local rays = {}
        for k = 1, 60 do
            local a = 2.1 * k
            for _, v in ipairs { 8 * math.sin(0.7 * k), 8 * math.cos(k), math.cos(a), math.sin(a), 2 + k % 9,
                (k % 3) * 0.3 } do
                rays[#rays + 1] = v
            end
        end
        for _, mask in ipairs { false, 2, 0 } do
            local hits, n
            if mask then hits, n = w:ray_casts(rays, nil, mask) else hits, n = w:ray_casts(rays) end
            assert.are.equal(180, #hits)
            local found, agents, obstacles = 0, 0, 0
            for k = 0, 59 do
                local r = { rays[6 * k + 1], rays[6 * k + 2], rays[6 * k + 3], rays[6 * k + 4], rays[6 * k + 5],
                    rays[6 * k + 6] }
                local hit = w:ray_cast(r[1], r[2], r[3], r[4], r[5], r[6], mask or nil)
                if hit then found = found + 1 end
                if hit and hit.agent then agents = agents + 1 end
                if hit and hit.obstacle then obstacles = obstacles + 1 end
                assert.are.equal(hit and hit.distance or -1, hits[3 * k + 1])
                assert.are.equal(hit and hit.agent or 0, hits[3 * k + 2])
                assert.are.equal(hit and hit.obstacle or 0, hits[3 * k + 3])
            end
            assert.are.equal(found, n)
            assert.is_true(n < 60 and obstacles > 0 and (agents > 0) == (mask ~= 0),
                "hits " .. n .. ": agents " .. agents .. ", obstacles " .. obstacles) -- some of each
        end
        -- into out: filled, cut to 3 per ray; no rays: empty
        local out = { 9, 9, 9, 9, 9, 9, 9 }
        assert.are.equal(1, w:ray_casts({ 0, 0, 1, 0, 20, 0 }, out))
        assert.are.same({ 4, 0, o }, { out[1], out[2], out[3] })
        assert.are.equal(3, #out)
        assert.are.equal(0, w:ray_casts({}, out))
        assert.are.equal(0, #out)
    end)

    it("ray_casts: rejects bad rays, naming the ray, before casting any", function()
        local function err(...)
            local n, args = select("#", ...), { ... }
            return support.error_of(function() w:ray_casts((table.unpack or unpack)(args, 1, n)) end)
        end
        assert.are.equal("bad argument #1 to 'ray_casts' (table expected, got nil)", err())
        assert.are.equal("bad argument #1 to 'ray_casts' (expected 6 numbers per ray (x, y, dx, dy, max_dist, "
            .. "clearance), got 4)", err({ 0, 0, 1, 0 }))
        assert.are.equal("bad argument #1 to 'ray_casts' (number expected at index 6, got string)",
            err({ 0, 0, 1, 0, 1, "0" }))
        assert.are.equal("bad argument #1 to 'ray_casts' (ray 2: direction must not be zero)",
            err({ 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0 }))
        assert.are.equal("bad argument #1 to 'ray_casts' (ray 1: x must be finite)", err({ nan, 0, 1, 0, 1, 0 }))
        assert.are.equal("bad argument #1 to 'ray_casts' (ray 1: max_dist must be within [0, 1e9])",
            err({ 0, 0, 1, 0, -1, 0 }))
        assert.are.equal("bad argument #1 to 'ray_casts' (ray 1: clearance must be within [0, 1e9])",
            err({ 0, 0, 1, 0, 1, inf }))
        assert.are.equal("bad argument #2 to 'ray_casts' (table expected, got number)", err({}, 5))
        assert.are.equal("bad argument #3 to 'ray_casts' (number expected, got string)", err({}, nil, "x"))
        assert.are.equal("bad argument #3 to 'ray_casts' (mask must be an integer in [0, 2^32 - 1])",
            err({}, nil, -1))
        -- out is untouched by a failed call
        local out = { 1, 2, 3 }
        assert.is_not_nil(support.error_of(function() w:ray_casts({ 0, 0, 0, 0, 1, 0 }, out) end))
        assert.are.same({ 1, 2, 3 }, out)
    end)
end)

describe("solvers", function()
    local SOLVERS = { "orca", "ue", "rvo" }

    it("are chosen by name in new_world and set_solver", function()
        local w = rvo.new_world()
        assert.are.equal("orca", w:solver())
        for _, name in ipairs(SOLVERS) do
            w:set_solver(name)
            assert.are.equal(name, w:solver())
            local v = rvo.new_world { solver = name }
            assert.are.equal(name, v:solver())
            v:destroy()
        end
        w:set_sampling(1, 0)
        w:set_sampling(4096, 2.5)
        w:destroy()
    end)

    it("each get a head-on pair past each other, honouring locks and masks", function()
        for _, name in ipairs(SOLVERS) do
            local w = rvo.new_world { time_step = 0.1, solver = name }
            if name == "rvo" then w:set_sampling(200, 1) end
            local a = w:add_agent(-4, 0, { vx = 1, pvx = 1 })
            local b = w:add_agent(4, 0.3, { vx = -1, pvx = -1 })
            local c = w:add_agent(0, 2.5) -- locked, walking down across their meeting point
            local d = w:add_agent(30, 0, { vx = 1, pvx = 1, mask = 0 }) -- ignores everybody
            w:lock(c, 0, -0.5)
            local e = w:add_agent(31.5, 0, { vx = -1, pvx = -1 })
            local gap = math.huge
            for _ = 1, 150 do
                w:set_pref_velocity(a, 1, 0)
                w:set_pref_velocity(b, -1, 0)
                w:solve()
                assert.are.same({ 0, -0.5 }, { w:new_velocity(c) }, name)
                assert.are.same({ 1, 0 }, { w:new_velocity(d) }, name)
                w:integrate()
                gap = math.min(gap, distance(w, a, b) - 1, distance(w, a, c) - 1, distance(w, b, c) - 1)
            end
            local ax = w:position(a)
            local bx = w:position(b)
            assert.is_true(ax > 2 and bx < -2, name .. ": did not pass")
            assert.is_true(gap > -0.05, name .. ": overlap " .. gap)
            local _, ey = w:position(e)
            assert.is_true(math.abs(ey) > 0.2, name .. ": e did not make way for d")
            w:destroy()
        end
    end)
end)

describe("misuse", function()
    local run_cases = function(cases) return support.run_cases(rvo, cases) end
    local UNKNOWN_AGENT = "unknown or removed agent id"
    local GROUPS_RANGE = "groups must be an integer in [0, 2^32 - 1]"
    local MASK_RANGE = "mask must be an integer in [0, 2^32 - 1]"

    it("rejects bad weights, groups and masks", function()
        run_cases {
            { "bad argument #2 to 'set_weight' (weight must be in [0, 1])", function(w, a) w:set_weight(a, 1.5) end },
            { "bad argument #2 to 'set_weight' (weight must be in [0, 1])", function(w, a) w:set_weight(a, -0.1) end },
            { "bad argument #2 to 'set_weight' (weight must be finite)", function(w, a) w:set_weight(a, nan) end },
            { "bad argument #2 to 'set_weight' (number expected, got string)",
                function(w, a) w:set_weight(a, "1") end },
            { "bad argument #1 to 'set_weight' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w:set_weight(stale, 0.5) end },
            { "bad argument #2 to 'set_groups' (" .. GROUPS_RANGE .. ")", function(w, a) w:set_groups(a, 1.5) end },
            { "bad argument #2 to 'set_groups' (" .. GROUPS_RANGE .. ")", function(w, a) w:set_groups(a, -1) end },
            { "bad argument #2 to 'set_groups' (" .. GROUPS_RANGE .. ")", function(w, a) w:set_groups(a, 2 ^ 32) end },
            { "bad argument #2 to 'set_groups' (groups must be finite)", function(w, a) w:set_groups(a, inf) end },
            { "bad argument #2 to 'set_mask' (" .. MASK_RANGE .. ")", function(w, a) w:set_mask(a, -1) end },
            { "bad argument #2 to 'set_z' (z must be finite)", function(w, a) w:set_z(a, nan) end },
            { "bad argument #2 to 'set_height' (height must be > 0)", function(w, a) w:set_height(a, 0) end },
            { "bad argument #3 to 'add_agent' (weight must be in [0, 1])",
                function(w) w:add_agent(0, 0, { weight = 1.5 }) end },
            { "bad argument #3 to 'add_agent' (" .. GROUPS_RANGE .. ")",
                function(w) w:add_agent(0, 0, { groups = 2 ^ 32 }) end },
            { "bad argument #3 to 'add_agent' (field 'mask': number expected, got string)",
                function(w) w:add_agent(0, 0, { mask = "all" }) end },
        }
        -- nothing was stored
        local w, a = support.scene(rvo)
        pcall(w.set_weight, w, a, 1.5)
        pcall(w.set_groups, w, a, -1)
        assert.are.equal(0.5, w:weight(a))
        assert.are.equal(1, w:groups(a))
        w:destroy()
    end)

    it("rejects bad world-wide defaults in new_world", function()
        local function new_world_error(params)
            return error_of(function() rvo.new_world(params) end)
        end
        local cases = {
            { { weight = 1.5 }, "weight must be in [0, 1]" },
            { { weight = -0.1 }, "weight must be in [0, 1]" },
            { { weight = nan }, "weight must be finite" },
            { { groups = 1.5 }, GROUPS_RANGE },
            { { groups = -1 }, GROUPS_RANGE },
            { { groups = 2 ^ 32 }, GROUPS_RANGE },
            { { mask = -1 }, MASK_RANGE },
            { { z = inf }, "z must be finite" },
            { { height = 0 }, "height must be > 0" },
            { { height = -inf }, "height must be finite" },
            { { height_margin = -1 }, "height_margin must be within [0, 1e9]" },
            { { height_margin = nan }, "height_margin must be within [0, 1e9]" },
            { { weight = "x" }, "field 'weight': number expected, got string" },
            { { height_margin = {} }, "field 'height_margin': number expected, got table" },
            -- in a fixed order: the agent parameters in rvo_param order, then the margin
            { { height_margin = -1, mask = -1, weight = 2 }, "weight must be in [0, 1]" },
            { { height_margin = -1, height = -1 }, "height must be > 0" },
            { { height_margin = -1, seed = -1 }, "seed must be an integer in 0..2^53" },
        }
        for _, c in ipairs(cases) do
            assert.are.equal("bad argument #1 to 'new_world' (" .. c[2] .. ")", new_world_error(c[1]))
        end
    end)

    it("rejects bad locks", function()
        run_cases {
            { "bad argument #1 to 'lock' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w:lock(stale, 1, 0) end },
            { "bad argument #1 to 'lock' (" .. UNKNOWN_AGENT .. ")", function(w) w:lock(0, 1, 0) end },
            { "bad argument #2 to 'lock' (vx must be finite)", function(w, a) w:lock(a, nan, 0) end },
            { "bad argument #3 to 'lock' (vy must be finite)", function(w, a) w:lock(a, 0, -inf) end },
            { "bad argument #3 to 'lock' (vy must be within [-1e9, 1e9])", function(w, a) w:lock(a, 0, 2e9) end },
            { "bad argument #1 to 'lock' (number expected, got nil)", function(w) w:lock() end },
            { "bad argument #3 to 'lock' (number expected, got nil)", function(w, a) w:lock(a, 1) end },
            { "bad argument #2 to 'lock' (number expected, got string)", function(w, a) w:lock(a, "1", 0) end },
            { "bad argument #1 to 'unlock' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w:unlock(stale) end },
            { "bad argument #1 to 'unlock' (number expected, got boolean)", function(w) w:unlock(true) end },
            { "bad argument #1 to 'is_locked' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w:is_locked(stale) end },
            { "bad argument #1 to 'is_locked' (" .. UNKNOWN_AGENT .. ")", function(w) w:is_locked(1.5) end },
        }
        -- a rejected lock locks nothing
        local w, a = support.scene(rvo)
        pcall(w.lock, w, a, nan, 0)
        assert.is_false(w:is_locked(a))
        assert.are.same({ 0, 0 }, { w:velocity(a) })
        w:destroy()
    end)

    it("rejects the avoiding report before any solve and bad tolerances", function()
        run_cases {
            { "avoiding: no solve has run yet", function(w) w:avoiding() end },
            { "avoiding: no solve has run yet", function(w) w:avoiding(1) end },
            { "bad argument #1 to 'avoiding' (tolerance must be finite and >= 0)", function(w) w:avoiding(-1) end,
                function(w) w:step() end },
            { "bad argument #1 to 'avoiding' (tolerance must be finite and >= 0)", function(w) w:avoiding(nan) end,
                function(w) w:step() end },
            { "bad argument #1 to 'avoiding' (number expected, got string)", function(w) w:avoiding("0") end },
            { "bad argument #2 to 'avoiding' (table expected, got number)", function(w) w:avoiding(0, 1) end,
                function(w) w:step() end },
        }
    end)

    it("rejects bad ray casts", function()
        run_cases {
            { "bad argument #3 to 'ray_cast' (direction must not be zero)",
                function(w) w:ray_cast(0, 0, 0, 0, 10) end },
            { "bad argument #5 to 'ray_cast' (max_dist must be within [0, 1e9])",
                function(w) w:ray_cast(0, 0, 1, 0, -1) end },
            { "bad argument #5 to 'ray_cast' (max_dist must be within [0, 1e9])",
                function(w) w:ray_cast(0, 0, 1, 0, inf) end },
            { "bad argument #6 to 'ray_cast' (clearance must be within [0, 1e9])",
                function(w) w:ray_cast(0, 0, 1, 0, 10, -1) end },
            { "bad argument #1 to 'ray_cast' (x must be finite)", function(w) w:ray_cast(nan, 0, 1, 0, 10) end },
            { "bad argument #2 to 'ray_cast' (y must be within [-1e9, 1e9])",
                function(w) w:ray_cast(0, -2e9, 1, 0, 10) end },
            { "bad argument #4 to 'ray_cast' (dy must be finite)", function(w) w:ray_cast(0, 0, 1, nan, 10) end },
            { "bad argument #1 to 'ray_cast' (number expected, got string)",
                function(w) w:ray_cast("0", 0, 1, 0, 10) end },
            { "bad argument #5 to 'ray_cast' (number expected, got nil)", function(w) w:ray_cast(0, 0, 1, 0) end },
            { "bad argument #6 to 'ray_cast' (number expected, got boolean)",
                function(w) w:ray_cast(0, 0, 1, 0, 10, true) end },
            { "bad argument #7 to 'ray_cast' (number expected, got string)",
                function(w) w:ray_cast(0, 0, 1, 0, 10, 0, "all") end },
            { "bad argument #7 to 'ray_cast' (" .. MASK_RANGE .. ")",
                function(w) w:ray_cast(0, 0, 1, 0, 10, 0, -1) end },
            { "bad argument #7 to 'ray_cast' (" .. MASK_RANGE .. ")",
                function(w) w:ray_cast(0, 0, 1, 0, 10, 0, 2 ^ 32) end },
            { "bad argument #7 to 'ray_cast' (" .. MASK_RANGE .. ")",
                function(w) w:ray_cast(0, 0, 1, 0, 10, 0, 0.5) end },
            { "bad argument #7 to 'ray_cast' (mask must be finite)",
                function(w) w:ray_cast(0, 0, 1, 0, 10, 0, nan) end },
        }
    end)

    it("rejects unknown solvers and bad sampling parameters", function()
        local EXPECTED = " (expected orca, ue or rvo))"
        local function new_world_error(params)
            return error_of(function() rvo.new_world(params) end)
        end
        assert.are.equal("bad argument #1 to 'new_world' (unknown solver 'x'" .. EXPECTED,
            new_world_error { solver = "x" })
        assert.are.equal("bad argument #1 to 'new_world' (unknown solver 'ORCA'" .. EXPECTED,
            new_world_error { solver = "ORCA" })
        assert.are.equal("bad argument #1 to 'new_world' (unknown solver ''" .. EXPECTED,
            new_world_error { solver = "" })
        assert.are.equal("bad argument #1 to 'new_world' (field 'solver': string expected, got number)",
            new_world_error { solver = 0 })
        assert.are.equal("bad argument #1 to 'new_world' (unknown field 'solvers')",
            new_world_error { solvers = "ue" })
        run_cases {
            { "bad argument #1 to 'set_solver' (unknown solver 'sampling'" .. EXPECTED,
                function(w) w:set_solver("sampling") end },
            { "bad argument #1 to 'set_solver' (unknown solver 'orca '" .. EXPECTED,
                function(w) w:set_solver("orca ") end },
            { "bad argument #1 to 'set_solver' (string expected, got nil)", function(w) w:set_solver() end },
            { "bad argument #1 to 'set_solver' (string expected, got number)", function(w) w:set_solver(1) end },
            { "bad argument #1 to 'set_sampling' (samples must be in [1, 4096])",
                function(w) w:set_sampling(0, 1) end },
            { "bad argument #1 to 'set_sampling' (samples must be in [1, 4096])",
                function(w) w:set_sampling(1e12, 1) end },
            { "bad argument #1 to 'set_sampling' (samples must be an integer)",
                function(w) w:set_sampling(2.5, 1) end },
            { "bad argument #1 to 'set_sampling' (samples must be finite)", function(w) w:set_sampling(nan, 1) end },
            { "bad argument #2 to 'set_sampling' (penalty weight must be finite and >= 0)",
                function(w) w:set_sampling(10, -1) end },
            { "bad argument #2 to 'set_sampling' (penalty weight must be finite and >= 0)",
                function(w) w:set_sampling(10, inf) end },
            { "bad argument #2 to 'set_sampling' (number expected, got nil)", function(w) w:set_sampling(10) end },
        }
        -- a rejected name changes nothing
        local w = rvo.new_world { solver = "ue" }
        pcall(w.set_solver, w, "x")
        assert.are.equal("ue", w:solver())
        w:destroy()
    end)

    it("rejects bad heights and z ranges", function()
        local o, removed
        local function prep(w)
            o = w:add_obstacle { 10, 10, 12, 10, 12, 12 }
            removed = w:add_obstacle { 20, 10, 22, 10, 22, 12 }
            w:remove_obstacle(removed)
        end
        run_cases {
            { "bad argument #3 to 'set_obstacle_z_range' (zmax must be >= zmin)",
                function(w) w:set_obstacle_z_range(o, 2, 1) end, prep },
            { "bad argument #2 to 'set_obstacle_z_range' (zmin must be a number < inf)",
                function(w) w:set_obstacle_z_range(o, nan, 1) end, prep },
            { "bad argument #2 to 'set_obstacle_z_range' (zmin must be a number < inf)",
                function(w) w:set_obstacle_z_range(o, math.huge, math.huge) end, prep },
            { "bad argument #3 to 'set_obstacle_z_range' (zmax must be a number > -inf)",
                function(w) w:set_obstacle_z_range(o, -math.huge, -math.huge) end, prep },
            { "bad argument #1 to 'set_obstacle_z_range' (unknown or removed obstacle id)",
                function(w) w:set_obstacle_z_range(removed, 0, 1) end, prep },
            { "bad argument #1 to 'obstacle_z_range' (unknown or removed obstacle id)",
                function(w) w:obstacle_z_range(removed) end, prep },
            { "bad argument #1 to 'obstacle_z_range' (number expected, got string)",
                function(w) w:obstacle_z_range("x") end, prep },
            { "bad argument #1 to 'set_obstacle_z_range' (unknown or removed obstacle id)",
                function(w) w:set_obstacle_z_range(-1, 0, 1) end, prep },
            { "bad argument #3 to 'set_obstacle_z_range' (number expected, got nil)",
                function(w) w:set_obstacle_z_range(o, 0) end, prep },
            { "bad argument #1 to 'set_height_margin' (height_margin must be within [0, 1e9])",
                function(w) w:set_height_margin(-1) end },
            { "bad argument #1 to 'set_height_margin' (height_margin must be within [0, 1e9])",
                function(w) w:set_height_margin(nan) end },
            { "bad argument #1 to 'set_height_margin' (number expected, got nil)",
                function(w) w:set_height_margin() end },
        }
    end)
end)
