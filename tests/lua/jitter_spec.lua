-- rvo.jitter: the reproducible generator, steering toward goals, and the
-- three symmetric scenes that deadlock without jitter and finish with it.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local jitter = require("rvo.jitter")
local error_of, nan, inf = support.error_of, support.nan, support.inf

local OTHER = rawget(_G, "jit") and "lua5.4" or "luajit"

local shell_ok = support.shell_ok

-- Runs src (a chunk returning a string) in the other interpreter.
local function run_other(src)
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write("io.write(assert((loadstring or load)(", string.format("%q", src), ", '=other'))())\n")
    f:close()
    local p = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
    local out = p:read("*a")
    p:close()
    os.remove(script)
    return out
end

-- The three symmetric scenes. Returns the steps until every agent is
-- within 0.05 of its goal, or nil; then the final positions as "%a" text
-- and as a flat array.
local SCENES_SRC = [==[
local scene, amount, seed, max_steps, soft = ...
local rvo = require("rvo")
local jitter = require("rvo.jitter")
local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 1.5, neighbor_dist = 10,
    time_horizon = 2, time_horizon_obst = 1 }
if soft then w:set_strict_overlap(false) end
local agents, goals = {}, {}
local starts
if scene == "head-on" then
    starts = { { -5, 0 }, { 5, 0 } }
elseif scene == "cross" then
    starts = { { 6, 0 }, { 0, 6 }, { -6, 0 }, { 0, -6 } }
else -- corridor: 2.3 m wide, room for the two 1 m bodies side by side
    w:add_obstacle({ -8, 1.15, 8, 1.15 }, { closed = false })
    w:add_obstacle({ -8, -1.15, 8, -1.15 }, { closed = false })
    starts = { { -6, 0 }, { 6, 0 } }
end
for i, p in ipairs(starts) do
    agents[i] = w:add_agent(p[1], p[2])
    goals[i] = { -p[1], -p[2] }
end
local j = jitter.new { seed = seed, amount = amount }
local function where()
    local out, xy = {}, {}
    for i, id in ipairs(agents) do
        local x, y = w:position(id)
        out[i] = string.format("%a %a", x, y)
        xy[2 * i - 1], xy[2 * i] = x, y
    end
    return table.concat(out, " "), xy
end
for step = 0, max_steps do
    local done = true
    for i, id in ipairs(agents) do
        if j:steer(w, id, goals[i][1], goals[i][2]) > 0.05 then done = false end
    end
    if done then return step, where() end
    w:step()
end
return nil, where()
]==]

local function run_scene(scene, amount, seed, max_steps, soft)
    return support.load(SCENES_SRC, "=scenes")(scene, amount, seed, max_steps, soft)
end

describe("rvo.jitter generator", function()
    it("repeats a sequence for a seed, and differs between seeds", function()
        local a, b, c = jitter.rng(42), jitter.rng(42), jitter.rng(43)
        local same, differ = true, false
        for _ = 1, 1000 do
            local x, y, z = a:next(), b:next(), c:next()
            same = same and x == y
            differ = differ or x ~= z
            assert.is_true(x > 0 and x < 1)
        end
        assert.is_true(same)
        assert.is_true(differ)
    end)

    it("is roughly uniform: mean and the ten deciles of 20000 draws", function()
        local r = jitter.rng(7)
        local sum, bins = 0, {}
        for i = 1, 10 do bins[i] = 0 end
        local n = 20000
        for _ = 1, n do
            local x = r:next()
            sum = sum + x
            local k = math.floor(x * 10) + 1
            bins[k] = bins[k] + 1
        end
        assert.is_true(math.abs(sum / n - 0.5) < 0.01, "mean " .. sum / n)
        for i = 1, 10 do
            assert.is_true(math.abs(bins[i] - n / 10) < 0.06 * n / 10, "decile " .. i .. ": " .. bins[i])
        end
    end)

    it("draws uniform numbers and integers in their ranges", function()
        local r = jitter.rng(3)
        local seen = {}
        for _ = 1, 2000 do
            local u = r:uniform(-2, 3)
            assert.is_true(u > -2 and u < 3)
            local k = r:integer(-1, 2)
            assert.is_true(k >= -1 and k <= 2 and k == math.floor(k))
            seen[k] = true
        end
        for k = -1, 2 do assert.is_true(seen[k], "never drew " .. k) end
        assert.are.equal(5, r:integer(5, 5))
    end)

    it("resumes from a saved state", function()
        local r = jitter.rng(11)
        for _ = 1, 10 do r:next() end
        local s1, s2 = r:state()
        local expect = { r:next(), r:next(), r:next() }
        local q = jitter.rng(0)
        q:set_state(s1, s2)
        assert.are.same(expect, { q:next(), q:next(), q:next() })
    end)

    it("gives the same numbers on the other runtime", function()
        if not shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        local src = [[
            local r = require("rvo.jitter").rng(2 ^ 52 + 12345)
            local out = {}
            for i = 1, 200 do out[i] = string.format("%a", r:next()) end
            return table.concat(out, " ")
        ]]
        assert.are.equal(support.load(src, "=mine")(), run_other(src))
    end)

    it("rejects bad seeds, states and ranges", function()
        assert.are.equal("bad argument #1 to 'rng' (seed must be an integer in 0..2^53-1, got -1)",
            error_of(function() jitter.rng(-1) end))
        assert.are.equal("bad argument #1 to 'rng' (seed must be an integer in 0..2^53-1, got 0.5)",
            error_of(function() jitter.rng(0.5) end))
        assert.are.equal("bad argument #1 to 'rng' (seed must be an integer in 0..2^53-1, got x)",
            error_of(function() jitter.rng("x") end))
        local text = error_of(function() jitter.rng(nan) end)
        assert.is_truthy(text:match("^bad argument #1 to 'rng' %(seed must be an integer"), text)
        local r = jitter.rng(1)
        assert.are.equal("bad argument #1 to 'set_state' (not a state returned by state())",
            error_of(function() r:set_state(0, 1) end))
        assert.are.equal("bad argument #1 to 'integer' (need integers lo <= hi, hi - lo < 2^31, got 3, 2)",
            error_of(function() r:integer(3, 2) end))
    end)
end)

describe("rvo.jitter steering", function()
    local w
    before_each(function()
        w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2 }
    end)
    after_each(function() w:destroy() end)

    it("heads for the goal at the agent's speed, turned by at most the amount", function()
        local id = w:add_agent(0, 0)
        local j = jitter.new { seed = 5, amount = 0.2 }
        local turned = false
        for _ = 1, 200 do
            assert.are.equal(10, j:steer(w, id, 10, 0))
            local vx, vy = w:pref_velocity(id)
            assert.is_true(math.abs(math.sqrt(vx * vx + vy * vy) - 2) < 1e-5)
            assert.is_true(vx > 0 and math.abs(vy / vx) <= 0.2 + 1e-6)
            turned = turned or math.abs(vy) > 1e-3
        end
        assert.is_true(turned)
        -- an explicit speed, and amount 0 is straight
        local straight = jitter.new { amount = 0 }
        straight:steer(w, id, 0, -10, 0.5)
        assert.are.same({ 0, -0.5 }, { w:pref_velocity(id) })
    end)

    it("stops on the goal, slowing down inside slow_radius", function()
        local id = w:add_agent(0, 0)
        local j = jitter.new { seed = 9, slow_radius = 2 }
        local left, steps = math.huge, 0
        while left > 0 and steps < 200 do
            left = j:steer(w, id, 3, 4)
            local vx, vy = w:pref_velocity(id)
            local speed = math.sqrt(vx * vx + vy * vy)
            if left < 2 then assert.is_true(speed <= 2 * left / 2 + 1e-5) end
            w:step()
            steps = steps + 1
        end
        assert.is_true(left < 1e-5, "left " .. left)
        local x, y = w:position(id)
        assert.is_true(math.abs(x - 3) < 1e-5 and math.abs(y - 4) < 1e-5)
        local vx, vy = w:pref_velocity(id)
        assert.is_true(math.sqrt(vx * vx + vy * vy) < 1e-4)
    end)

    it("shares a generator passed in, as an object or a function", function()
        local id = w:add_agent(0, 0)
        local calls = 0
        local j1 = jitter.new { rng = function() calls = calls + 1; return 0.75 end, amount = 0.5 }
        j1:steer(w, id, 10, 0)
        assert.are.equal(1, calls)
        local vx, vy = w:pref_velocity(id)
        -- 0.75 -> e = 0.5 * (2 * 0.75 - 1) = 0.25: direction (1, 0.25)
        assert.is_true(math.abs(vy / vx - 0.25) < 1e-6)
        local shared = jitter.rng(1)
        local a = jitter.new { rng = shared }
        local b = jitter.new { rng = shared }
        local ref = jitter.rng(1)
        assert.are.equal(ref:next(), a:next())
        assert.are.equal(ref:next(), b:next())
    end)

    it("rejects bad options and arguments and leaves the world as it was", function()
        local id = w:add_agent(0, 0)
        local gone = w:add_agent(5, 5)
        w:remove_agent(gone)
        local j = jitter.new()
        local cases = {
            { "bad argument #1 to 'new' (options table expected, got number)", function() jitter.new(3) end },
            { "bad argument #1 to 'new' (unknown option 'amout')", function() jitter.new { amout = 1 } end },
            { "bad argument #1 to 'new' (amount must be in 0..1, got 2)", function() jitter.new { amount = 2 } end },
            { "bad argument #1 to 'new' (slow_radius must be a finite number >= 0, got inf)",
                function() jitter.new { slow_radius = inf } end },
            { "bad argument #1 to 'new' (seed must be an integer in 0..2^53-1, got -3)",
                function() jitter.new { seed = -3 } end },
            { "bad argument #1 to 'new' (give seed or rng, not both)",
                function() jitter.new { seed = 1, rng = jitter.rng(1) } end },
            { "bad argument #1 to 'new' (rng must be a function or an object with :next(), got number)",
                function() jitter.new { rng = 4 } end },
            { "bad argument #1 to 'steer' (world expected, got nil)", function() j:steer(nil, id, 1, 1) end },
            { "bad argument #3 to 'steer' (gx must be a finite number, got nil)", function() j:steer(w, id) end },
            { "bad argument #4 to 'steer' (gy must be a finite number, got inf)",
                function() j:steer(w, id, 1, inf) end },
            { "bad argument #5 to 'steer' (speed must be a finite number >= 0, got -1)",
                function() j:steer(w, id, 1, 1, -1) end },
            { "bad argument #0 to 'steer' (jitter expected: call it as j:steer(...))",
                function() j.steer(w, id, 1, 1) end },
        }
        for _, case in ipairs(cases) do
            assert.are.equal(case[1], error_of(case[2]))
        end
        -- a stale id: steer's own argument, at the caller's line
        assert.are.equal("bad argument #2 to 'steer' (unknown or removed agent id " .. gone .. ")",
            error_of(function() j:steer(w, gone, 1, 1) end))
        assert.are.same({ 0, 0 }, { w:position(id) })
        assert.are.same({ 0, 0 }, { w:pref_velocity(id) })
        w:step()
    end)
end)

describe("rvo.jitter steering in bulk (steer_all)", function()
    -- 60 agents of three speeds on a skewed grid, goals mirrored, some
    -- exactly on their goal, slow_radius 2, arrive 0.3
    local function scene()
        local w = rvo.new_world { time_step = 0.1, radius = 0.4, max_speed = 2 }
        local ids, goals = {}, {}
        for i = 0, 59 do
            local x, y = (i % 10) * 1.7 - 8 + 0.01 * i, math.floor(i / 10) * 1.9 - 5
            ids[#ids + 1] = w:add_agent(x, y, { max_speed = 1 + i % 3 })
            if i % 17 == 0 then
                goals[#goals + 1], goals[#goals + 2] = x, y -- (already there)
            else
                goals[#goals + 1], goals[#goals + 2] = -0.8 * x + 0.123, -y + 0.3
            end
        end
        return w, ids, goals
    end

    for _, own in ipairs { true, false } do
        it("gives the bits of steer per agent (" .. (own and "its own generator: one core call"
            or "a generator given to new: agent by agent") .. ")", function()
            local wa, ids, goals = scene()
            local wb = scene()
            local ra, rb = jitter.rng(11), jitter.rng(11)
            local ja = own and jitter.new { seed = 11, slow_radius = 2 } or jitter.new { rng = ra, slow_radius = 2 }
            local jb = own and jitter.new { seed = 11, slow_radius = 2 } or jitter.new { rng = rb, slow_radius = 2 }
            local left, moving_seen = {}, {}
            for step = 1, 150 do
                local going = 0
                for k, id in ipairs(ids) do
                    local x, y = wa:position(id)
                    local gx, gy = goals[2 * k - 1], goals[2 * k]
                    local d = math.sqrt((gx - x) ^ 2 + (gy - y) ^ 2)
                    if d < 0.3 then wa:set_pref_velocity(id, 0, 0) else ja:steer(wa, id, gx, gy) end
                    if d >= 0.3 and d > 0 then going = going + 1 end
                end
                local moving = jb:steer_all(wb, ids, goals, 0.3, left)
                assert.are.equal(going, moving, "step " .. step)
                moving_seen[moving] = true
                assert.are.equal(#ids, #left)
                for k, id in ipairs(ids) do
                    assert.are.same({ wa:pref_velocity(id) }, { wb:pref_velocity(id) },
                        "step " .. step .. " agent " .. k)
                    local x, y = wb:position(id)
                    assert.is_true(math.abs(left[k] - math.sqrt((goals[2 * k - 1] - x) ^ 2
                        + (goals[2 * k] - y) ^ 2)) < 1e-12)
                end
                wa:step()
                wb:step()
            end
            assert.are.equal(wa:save(), wb:save())
            assert.are.equal(ja:next(), jb:next()) -- the generators went the same way
            assert.is_true(moving_seen[#ids - 4] or moving_seen[#ids - 3] or false) -- some stood at the start
            wa:destroy()
            wb:destroy()
        end)
    end

    it("rejects bad arguments and leaves the world and the generator as they were", function()
        local w, ids, goals = scene()
        local j = jitter.new { seed = 3 }
        local gone = w:add_agent(50, 50)
        w:remove_agent(gone)
        local before = w:save()
        local s1, s2 = j.rng:state()
        local stale = { ids[1], gone }
        local cases = {
            { "bad argument #1 to 'steer_all' (world expected, got nil)", function() j:steer_all(nil, ids, goals) end },
            { "bad argument #2 to 'steer_all' (list of agent ids expected, got number)",
                function() j:steer_all(w, 1, goals) end },
            { "bad argument #3 to 'steer_all' (list of goal coordinates expected, got nil)",
                function() j:steer_all(w, ids) end },
            { "bad argument #4 to 'steer_all' (arrive must be a finite number >= 0, got -1)",
                function() j:steer_all(w, ids, goals, -1) end },
            { "bad argument #5 to 'steer_all' (table expected, got string)",
                function() j:steer_all(w, ids, goals, 0, "x") end },
            { "bad argument #3 to 'steer_all' (expected 120 numbers (2 per id), got 119)",
                function() j:steer_all(w, ids, { (table.unpack or unpack)(goals, 1, 119) }) end },
            { "bad argument #2 to 'steer_all' (unknown or removed agent id (number 2 in ids))",
                function() j:steer_all(w, stale, { 1, 1, 2, 2 }) end },
            { "bad argument #3 to 'steer_all' (goal number 2 is not finite)",
                function() j:steer_all(w, { ids[1], ids[2] }, { 1, 1, inf, 2 }) end },
            { "bad argument #2 to 'steer_all' (number expected at index 2, got string)",
                function() j:steer_all(w, { ids[1], "x" }, { 1, 1, 2, 2 }) end },
            { "bad argument #3 to 'steer_all' (expected 2 numbers (2 per id), got 6)", -- a hole ends the list
                function() j:steer_all(w, { ids[1], nil, ids[3] }, { 1, 1, 2, 2, 3, 3 }) end },
            { "bad argument #3 to 'steer_all' (expected 4 numbers (2 per id), got 5)",
                function() j:steer_all(w, { ids[1], ids[2] }, { 1, 1, 2, 2, 3 }) end },
            { "bad argument #3 to 'steer_all' (number expected at index 3, got boolean)",
                function() j:steer_all(w, { ids[1], ids[2] }, { 1, 1, true, 2 }) end },
            { "bad argument #2 to 'steer_all' (number expected at index 1, got table)", -- ids before goals
                function() j:steer_all(w, { {}, ids[2] }, { 1, 1, true, 2 }) end },
            { "bad argument #0 to 'steer_all' (jitter expected: call it as j:steer_all(...))",
                function() j.steer_all(w, ids, goals) end },
        }
        for _, case in ipairs(cases) do
            assert.are.equal(case[1], error_of(case[2]))
        end
        assert.are.equal(before, w:save())
        assert.are.same({ s1, s2 }, { j.rng:state() })
        w:destroy()
    end)
end)

describe("rvo.jitter in symmetric scenes", function()
    for _, scene in ipairs { "head-on", "cross", "corridor" } do
        it(scene .. ": deadlocks without jitter, finishes with it", function()
            -- Straight walks take 67 (head-on, corridor) or 80 (cross) steps.
            -- Plain ORCA (the soft mode, as RVO2) stays deadlocked without
            -- jitter. Hard bodies (the default) need no jitter: the head-on
            -- pair sees the other six body widths off (the oncoming
            -- horizon) and steps aside in time (68 and 81 steps; before it,
            -- it broke the deadlock only once stalled: 111 and 137), and
            -- passes the right-angle cross at once (81 steps): orca.c's
            -- head_on() takes a leg there instead of braking.
            local steps, _, stuck = run_scene(scene, 0, 1, 600, true)
            assert.is_nil(steps, scene .. " finished without jitter")
            local steps_again, _, stuck_again = run_scene(scene, 0, 1, 1200, true)
            assert.is_nil(steps_again)
            for i = 1, #stuck, 2 do -- not slow: standing still, short of the goal
                local moved = math.sqrt((stuck[i] - stuck_again[i]) ^ 2 + (stuck[i + 1] - stuck_again[i + 1]) ^ 2)
                assert.is_true(moved < 1e-3, scene .. ": agent moved " .. moved)
                assert.is_true(math.sqrt(stuck[i] ^ 2 + stuck[i + 1] ^ 2) < 1, scene .. ": not at the meeting point")
            end
            local hard = run_scene(scene, 0, 1, 600)
            assert.is_not_nil(hard, scene .. ": the default mode did not break the deadlock")
            for _, soft in ipairs { true, false } do
                for seed = 1, 3 do
                    local n = run_scene(scene, 0.1, seed, 600, soft)
                    assert.is_not_nil(n, scene .. " seed " .. seed .. " did not finish")
                    assert.is_true(n <= 150, scene .. " seed " .. seed .. ": " .. tostring(n) .. " steps")
                    local straight = scene == "cross" and 80 or 67
                    assert.is_true(hard <= 1.25 * straight, scene .. ": " .. hard .. " steps without jitter")
                end
            end
        end)
    end

    it("runs a scene identically for a seed, here and on the other runtime", function()
        local n1, p1 = run_scene("cross", 0.1, 4, 600)
        local n2, p2 = run_scene("cross", 0.1, 4, 600)
        assert.are.equal(n1, n2)
        assert.are.equal(p1, p2)
        local n3, p3 = run_scene("cross", 0.1, 5, 600)
        assert.is_true(n3 ~= n1 or p3 ~= p1)
        if not shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        local src = "local n, p = assert((loadstring or load)(" .. string.format("%q", SCENES_SRC)
            .. "))('cross', 0.1, 4, 600) return tostring(n) .. ' ' .. p"
        assert.are.equal(tostring(n1) .. " " .. p1, run_other(src))
    end)
end)
