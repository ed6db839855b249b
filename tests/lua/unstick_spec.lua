-- Stall events (world:set_stall_threshold, world:stalled, world:stall_time)
-- and rvo.unstick, which escalates for stalled agents: symmetric scenes that
-- stay deadlocked without it finish with it.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local unstick = require("rvo.unstick")
local error_of, nan, inf = support.error_of, support.nan, support.inf

-- Head-on pair, corridor swap (2.3 m wide) and four-way cross, no jitter:
-- exactly symmetric. Returns the steps until everyone is within 0.05 of its
-- goal (nil if never), the longest stall time seen and the world. soft: the
-- soft mode (plain ORCA deadlocks as RVO2 does; the default mode's hard
-- bodies break such deadlocks themselves once the agents stall).
local function run(scene, with_unstick, max_steps, soft)
    local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 1.5, neighbor_dist = 10,
        time_horizon = 2, time_horizon_obst = 1 }
    if soft then w:set_strict_overlap(false) end
    local starts
    if scene == "corridor" then
        w:add_obstacle({ -8, 1.15, 8, 1.15 }, { closed = false })
        w:add_obstacle({ -8, -1.15, 8, -1.15 }, { closed = false })
        starts = { { -6, 0 }, { 6, 0 } }
    elseif scene == "head-on" then
        starts = { { -5, 0 }, { 5, 0 } }
    else
        starts = { { 6, 0 }, { 0, 6 }, { -6, 0 }, { 0, -6 } }
    end
    local ids = {}
    for i, p in ipairs(starts) do ids[i] = w:add_agent(p[1], p[2]) end
    local u = unstick.new { seed = 3 }
    local longest = 0
    for step = 1, max_steps do
        local done = true
        for i, id in ipairs(ids) do
            local x, y = w:position(id)
            local dx, dy = -starts[i][1] - x, -starts[i][2] - y
            local d = math.sqrt(dx * dx + dy * dy)
            if d > 0.05 then done = false end
            local s = math.min(1.5, d / 0.1)
            if d > 0 then w:set_pref_velocity(id, dx / d * s, dy / d * s) else w:set_pref_velocity(id, 0, 0) end
        end
        if done then return step, longest, w, u end
        if with_unstick then u:apply(w) end
        w:step()
        local _, times, n = w:stalled()
        for k = 1, n do longest = math.max(longest, times[k]) end
    end
    return nil, longest, w, u
end

describe("stall events", function()
    it("count the time an agent makes no progress along its preferred velocity", function()
        local w = rvo.new_world { time_step = 0.25 }
        local progress, min_time = w:stall_threshold()
        assert.are.same({ 0.1, 1 }, { math.floor(progress * 1e6 + 0.5) / 1e6, min_time })
        local a = w:add_agent(0, 0)
        local idle = w:add_agent(0, 10)
        local locked = w:add_agent(0, 20)
        w:lock(locked, 0, 0)
        w:add_obstacle({ 1, -5, 2, -5, 2, 5, 1, 5 }) -- a wall in a's way
        for _ = 1, 12 do
            w:set_pref_velocity(a, 2, 0)
            w:set_pref_velocity(locked, 2, 0)
            w:step()
        end
        assert.is_true(w:stall_time(a) >= 1.5, "against the wall: " .. w:stall_time(a))
        assert.are.equal(0, w:stall_time(idle))   -- wants nothing
        assert.are.equal(0, w:stall_time(locked)) -- locked agents do not stall
        local ids, times, n = w:stalled()
        assert.are.equal(1, n)
        assert.are.same({ a }, ids)
        assert.are.equal(w:stall_time(a), times[1])
        -- buffers are filled and their tails cleared
        local ib, tb = { 7, 7, 7 }, { 7, 7 }
        assert.are.equal(1, w:stalled(ib, tb))
        assert.are.same({ a }, ib)
        assert.are.same({ times[1] }, tb)
        -- a longer min_time hides it; progress again resets it
        w:set_stall_threshold(0.1, 100)
        assert.are.equal(0, select(3, w:stalled()))
        w:set_stall_threshold(0.5, 0)
        w:set_pref_velocity(a, 0, 2)
        w:step()
        assert.are.equal(0, w:stall_time(a))
        assert.are.equal(0, select(3, w:stalled()))
    end)

    it("follow their agent when another agent is removed", function()
        local w = rvo.new_world { time_step = 0.25 }
        local first = w:add_agent(-20, 0)
        local stuck = w:add_agent(0, 0)
        w:add_obstacle({ 1, -5, 2, -5, 2, 5, 1, 5 })
        for _ = 1, 8 do
            w:set_pref_velocity(stuck, 2, 0)
            w:step()
        end
        local t = w:stall_time(stuck)
        assert.is_true(t > 0)
        w:remove_agent(first) -- moves the last agent into the hole
        assert.are.equal(t, w:stall_time(stuck))
        assert.are.same({ stuck }, (w:stalled()))
        local fresh = w:add_agent(-20, 0)
        assert.are.equal(0, w:stall_time(fresh))
    end)

    it("reject bad input and leave the world usable", function()
        local w, a = support.scene(rvo)
        assert.are.equal("bad argument #1 to 'set_stall_threshold' (progress must be in [0, 1])",
            error_of(function() w:set_stall_threshold(1.5, 1) end))
        assert.are.equal("bad argument #1 to 'set_stall_threshold' (progress must be in [0, 1])",
            error_of(function() w:set_stall_threshold(nan, 1) end))
        assert.are.equal("bad argument #2 to 'set_stall_threshold' (min_time must be finite and >= 0)",
            error_of(function() w:set_stall_threshold(0.1, inf) end))
        assert.are.equal("bad argument #2 to 'set_stall_threshold' (min_time must be finite and >= 0)",
            error_of(function() w:set_stall_threshold(0.1, -1) end))
        assert.are.equal("bad argument #2 to 'set_stall_threshold' (number expected, got string)",
            error_of(function() w:set_stall_threshold(0.1, "1") end))
        assert.are.equal("bad argument #1 to 'stalled' (table expected, got number)",
            error_of(function() w:stalled(3) end))
        assert.are.equal("bad argument #2 to 'stalled' (table expected, got boolean)",
            error_of(function() w:stalled({}, true) end))
        assert.are.equal("bad argument #1 to 'stall_time' (number expected, got nil)",
            error_of(function() w:stall_time() end))
        w:remove_agent(a)
        assert.are.equal("bad argument #1 to 'stall_time' (unknown or removed agent id)",
            error_of(function() w:stall_time(a) end))
        assert.are.equal(0.1, math.floor(w:stall_threshold() * 1e6 + 0.5) / 1e6) -- unchanged
        support.assert_usable(w, 1)
    end)
end)

describe("rvo.unstick", function()
    for _, scene in ipairs { "head-on", "corridor", "cross" } do
        it("resolves the " .. scene .. " deadlock that stays stuck without it", function()
            -- measured (docs/quality.md): soft mode stuck (stalls of 34 s), with
            -- unstick home after 110 / 131 / 144 steps; default mode home
            -- after 112 / 138 / 142 steps without unstick (stalls of 1.6-3 s)
            local steps, longest = run(scene, false, 400, true)
            assert.is_nil(steps, scene .. " finished without unstick")
            assert.is_true(longest > 30, "stall reported for " .. longest .. " s")
            local fixed, _, w = run(scene, true, 400, true)
            assert.is_not_nil(fixed, scene .. " still stuck with unstick")
            assert.is_true(fixed < 200, scene .. " took " .. tostring(fixed) .. " steps")
            for _, id in ipairs(w:ids()) do assert.are.equal(0.5, w:weight(id)) end -- weights restored
            -- hard bodies: stalled agents that want opposite ways take turns
            local hard, hard_longest = run(scene, false, 400)
            assert.is_not_nil(hard, scene .. " stuck in the default mode")
            assert.is_true(hard < 200 and hard_longest < 5, scene .. ": " .. tostring(hard) .. " steps")
            local both, _, w2 = run(scene, true, 400)
            assert.is_not_nil(both, scene .. " stuck in the default mode with unstick")
            assert.is_true(both < 200, scene .. " took " .. tostring(both) .. " steps")
            for _, id in ipairs(w2:ids()) do assert.are.equal(0.5, w2:weight(id)) end
        end)
    end

    it("escalates to level 3 and restores weights on release", function()
        local w = rvo.new_world { time_step = 0.1 }
        local a = w:add_agent(0, 0)
        w:add_obstacle({ 1, -5, 2, -5, 2, 5, 1, 5 })
        w:set_stall_threshold(0.1, 0.2)
        local u = unstick.new { seed = 1, hold = 0.3, memory = 10, side = 0, jitter = 0 }
        local seen = {}
        for _ = 1, 60 do
            w:set_pref_velocity(a, 1, 0)
            u:apply(w)
            seen[u:level(a)] = true
            w:step()
        end
        assert.is_true(seen[1] and seen[2] and seen[3], "levels 1, 2 and 3 all used")
        u:release(w)
        assert.are.equal(0, u:level(a))
        assert.are.equal(0.5, w:weight(a))
    end)

    it("rejects bad options and arguments", function()
        assert.are.equal("bad argument #1 to 'new' (unknown option 'jiter')",
            error_of(function() unstick.new { jiter = 1 } end))
        assert.are.equal("bad argument #1 to 'new' (hold must be a number in [0, 1e+09], got -1)",
            error_of(function() unstick.new { hold = -1 } end))
        assert.are.equal("bad argument #1 to 'new' (seed must be an integer in 0..2^53-1, got 0.5)",
            error_of(function() unstick.new { seed = 0.5 } end))
        assert.are.equal("bad argument #1 to 'new' (table expected, got number)",
            error_of(function() unstick.new(3) end))
        local u = unstick.new()
        assert.are.equal("bad argument #1 to 'apply' (world expected, got number)",
            error_of(function() u:apply(3) end))
        local w = rvo.new_world()
        assert.are.equal("bad argument #2 to 'apply' (dt must be a finite number > 0, got 0)",
            error_of(function() u:apply(w, 0) end))
        assert.are.equal(0, u:apply(w))
    end)
end)

describe("rvo.unstick in a parked crowd", function()
    -- 120 units to a 12 x 10 block of slots 1.1 m apart, arriving from both
    -- sides at different times; late arrivals push parked ones off their
    -- slots. Before: unstick escalated them for good (33 of 120 home at
    -- 1500 steps, 50 weights altered, 0.41 m/s); without it 97 are home.
    -- One run decides little (which units end up home swings by 20-30 with
    -- any change), so the runs of 16 jitter seeds are summed.
    local function park(with_unstick, seed)
        local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2, neighbor_dist = 6 }
        local j = require("rvo.jitter").new { seed = seed, amount = 0.05, slow_radius = 1 }
        local u = require("rvo.unstick").new { seed = 2 }
        local ids, goal = {}, {}
        for i = 0, 119 do
            local gx, gy = (i % 12) * 1.1, math.floor(i / 12) * 1.1
            local side = i % 2 == 0 and -1 or 1
            local id = w:add_agent(side * (20 + (i % 7) * 3 + math.floor(i / 12) * 2), gy + (i % 3) * 0.3)
            ids[#ids + 1] = id
            goal[id] = { gx, gy }
        end
        for _ = 1, 1500 do
            for _, id in ipairs(ids) do
                local g = goal[id]
                local x, y = w:position(id)
                if (x - g[1]) ^ 2 + (y - g[2]) ^ 2 < 0.01 then w:set_pref_velocity(id, 0, 0)
                else j:steer(w, id, g[1], g[2]) end
            end
            if with_unstick then u:apply(w, nil, goal) end
            w:step()
        end
        local home, altered, speed = 0, 0, 0
        for _, id in ipairs(ids) do
            local g = goal[id]
            local x, y = w:position(id)
            if (x - g[1]) ^ 2 + (y - g[2]) ^ 2 < 0.25 then home = home + 1 end
            if w:weight(id) ~= 0.5 then altered = altered + 1 end
            local vx, vy = w:velocity(id)
            speed = speed + math.sqrt(vx * vx + vy * vy) / #ids
        end
        return home, altered, speed
    end

    it("does not churn it: as many home as without, weights back, at rest", function()
        local plain_home, plain_speed, home, altered, speed = 0, 0, 0, 0, 0
        for seed = 1, 16 do
            local h0, _, s0 = park(false, seed)
            local h, a, s = park(true, seed)
            plain_home, plain_speed = plain_home + h0, plain_speed + s0 / 16
            home, altered, speed = home + h, math.max(altered, a), speed + s / 16
        end
        -- measured: without unstick 1562 home of 1920 at 0.083 m/s, with it
        -- 1444 at 0.103, no weight altered at the end (before late arrivals
        -- walked round a parked line: 1518 at 0.100 and 1440 at 0.107; 8
        -- seeds swing the home ratio from 0.87 to 1.0 and the speed by
        -- 0.02, seeds 1-8 against 9-16); 643 of 960 home (seeds 1-8) when
        -- it escalated units queued behind home or stalled ones
        assert.is_true(home >= 0.9 * plain_home, home .. " home against " .. plain_home)
        assert.is_true(altered <= 3, altered .. " weights altered")
        assert.is_true(speed <= 0.12 and speed <= 1.3 * plain_speed,
            speed .. " m/s against " .. plain_speed .. " without")
    end)
end)
