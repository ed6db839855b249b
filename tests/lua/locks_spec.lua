-- rvo.locks: Unreal's lock-after-avoid / lock-after-clean timers, and the
-- oscillation they save in a standard crossing.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local locks = require("rvo.locks")
local jitter = require("rvo.jitter")
local error_of, nan = support.error_of, support.nan

-- The standard crossing: two 3x3 squads (1.5 m spacing, tiny irregular
-- offsets) cross at right angles, 32 m each, at 30 Hz, radius 0.5, speed
-- 1.5, preferred velocities from rvo.jitter (seed 1, amount `amount`).
-- Oscillation: the sum over steps of |v(t) - v(t - dt)|, per agent, while
-- the agent is more than 2 m from its goal ("en route"), and over the
-- whole run. Returns en route, whole, steps (nil: not all home within
-- 1500) and the worst overlap as a fraction of ri + rj.
local function crossing(solver, amount, lock_opts)
    local w = rvo.new_world { time_step = 1 / 30, radius = 0.5, max_speed = 1.5, neighbor_dist = 10,
        time_horizon = 2, solver = solver }
    local agents, goals = {}, {}
    for i = 0, 2 do
        for k = 0, 2 do
            local ox, oy = 1.5 * i + 0.013 * ((i * 7 + k * 3) % 5), 1.5 * k + 0.011 * ((i * 3 + k * 5) % 7)
            agents[#agents + 1] = w:add_agent(-14 - ox, oy - 1.5)
            goals[#goals + 1] = { 18.5 - ox, oy - 1.5 }
            agents[#agents + 1] = w:add_agent(oy - 1.5, -14 - ox)
            goals[#goals + 1] = { oy - 1.5, 18.5 - ox }
        end
    end
    local n = #agents
    local L = lock_opts and locks.new(w, lock_opts)
    local j = jitter.new { seed = 1, amount = amount }
    local prev = {}
    for i = 1, n do prev[i] = { 0, 0 } end
    local en_route, whole, worst, steps = 0, 0, -math.huge, nil
    for step = 1, 1500 do
        local done = true
        for i, id in ipairs(agents) do
            if j:steer(w, id, goals[i][1], goals[i][2]) > 0.05 then done = false end
        end
        if done then steps = step break end
        if L then L:step() else w:step() end
        for i, id in ipairs(agents) do
            local vx, vy = w:velocity(id)
            local x, y = w:position(id)
            local dv = math.sqrt((vx - prev[i][1]) ^ 2 + (vy - prev[i][2]) ^ 2)
            whole = whole + dv
            if (x - goals[i][1]) ^ 2 + (y - goals[i][2]) ^ 2 > 4 then en_route = en_route + dv end
            prev[i][1], prev[i][2] = vx, vy
            for k = i + 1, n do
                local x2, y2 = w:position(agents[k])
                worst = math.max(worst, 1 - math.sqrt((x - x2) ^ 2 + (y - y2) ^ 2))
            end
        end
    end
    w:destroy()
    return en_route / n, whole / n, steps, worst
end

describe("rvo.locks timers", function()
    local w, L
    before_each(function()
        w = rvo.new_world { time_step = 0.05, radius = 0.5, max_speed = 2 }
        L = locks.new(w)
    end)
    after_each(function() w:destroy() end)

    it("locks an agent that diverted for after_avoid, one that did not for after_clean", function()
        local free = w:add_agent(0, 10, { pvx = 1 })              -- alone: keeps its course
        local a = w:add_agent(-2, 0, { pvx = 1 })
        local b = w:add_agent(2, 0.1, { pvx = -1 })               -- a and b must avoid
        L:update(0.05)
        w:solve()
        assert.are.equal(2, L:after_solve())
        local avx, avy = w:new_velocity(a)
        assert.is_true(w:is_locked(a) and w:is_locked(b) and w:is_locked(free))
        assert.are.equal(0.2, L:time_left(a))
        assert.are.equal(0.001, L:time_left(free))
        w:integrate()
        assert.are.same({ avx, avy }, { w:velocity(a) })
        -- the clean lock is over at the next update; the avoid lock holds for
        -- 0.2 s: three more solves at 0.05 s, each keeping the velocity
        L:update(0.05)
        assert.is_false(w:is_locked(free))
        for k = 1, 3 do
            assert.is_true(w:is_locked(a), "step " .. k)
            w:set_pref_velocity(a, 1.2, 0) -- a small change of mind does not release it
            w:solve()
            L:after_solve()
            assert.are.same({ avx, avy }, { w:new_velocity(a) })
            w:integrate()
            L:update(0.05)
        end
        assert.is_false(w:is_locked(a))
        assert.are.equal(0, L:time_left(a))
    end)

    it("ends a lock early when the preferred velocity changes by more than release_on_change", function()
        local a = w:add_agent(-2, 0, { pvx = 1 })
        w:add_agent(2, 0.1, { pvx = -1 })
        L:step()
        assert.is_true(w:is_locked(a))
        w:set_pref_velocity(a, 0, 0) -- arrived: stop
        L:update(0.05)
        assert.is_false(w:is_locked(a))
        -- Unreal's behaviour: never released early
        local U = locks.new(w, { release_on_change = math.huge })
        w:set_pref_velocity(a, 1, 0)
        U:step()
        assert.is_true(w:is_locked(a))
        w:set_pref_velocity(a, 0, 0)
        U:update(0.05)
        assert.is_true(w:is_locked(a))
    end)

    it("leaves agents locked by someone else alone, releases its own, forgets removed ones", function()
        local mine = w:add_agent(-2, 0, { pvx = 1 })
        local other = w:add_agent(2, 0.1, { pvx = -1 })
        w:lock(other, -1, 0)
        L:step()
        assert.are.equal(0, L:time_left(other))
        assert.is_true(L:time_left(mine) > 0)
        L:update(1)
        assert.is_true(w:is_locked(other))  -- not ours to unlock
        assert.is_false(w:is_locked(mine))
        L:step()
        L:release(mine)
        assert.is_false(w:is_locked(mine))
        L:step()
        L:release_all()
        assert.is_false(w:is_locked(mine))
        L:step()
        w:remove_agent(mine)
        L:update(0.01)                      -- no error: dropped
        assert.are.equal(0, L:time_left(mine))
    end)

    it("locks only the agents of opts.groups and never an exempted one (per group and per agent)", function()
        local groups = require("rvo.groups")
        local g = groups.new(w, { "red", "blue", "hero" })
        local red = w:add_agent(-2, 0, { pvx = 1 })
        local blue = w:add_agent(2, 0.1, { pvx = -1 })
        local hero = w:add_agent(0, 5, { pvx = 1 })
        local red2 = w:add_agent(0, -5, { pvx = 1 })
        g:set(red, "red"); g:set(red2, "red"); g:set(blue, "blue"); g:set(hero, "hero", "red")
        local R = locks.new(w, { groups = g:value("red"), after_clean = 1 })
        R:exempt(hero)
        assert.is_false(w:auto_lock(hero))
        R:step()
        assert.is_true(w:is_locked(red) and w:is_locked(red2))
        assert.is_false(w:is_locked(blue)) -- not in the module's groups
        assert.is_false(w:is_locked(hero)) -- exempted (though red)
        assert.are.equal(0, R:time_left(hero))
        -- let the hero in again: locked from the next solve
        R:exempt(hero, false)
        assert.is_true(w:auto_lock(hero))
        R:step()
        assert.is_true(w:is_locked(hero) and R:time_left(hero) > 0)
        -- exempting a locked agent ends its lock
        R:exempt(red2)
        assert.is_false(w:is_locked(red2))
        for _, bad in ipairs { -1, 0.5, 2 ^ 32, nan } do
            local msg = error_of(function() locks.new(w, { groups = bad }) end)
            assert.is_truthy(msg:match("^bad argument #2 to 'new' %(groups must be an integer in 0..2%^32%-1, got "),
                msg)
        end
    end)

    it("keeps the timers in the world: a save of the world carries them, removed agents take theirs", function()
        local a = w:add_agent(-2, 0, { pvx = 1 })
        w:add_agent(2, 0.1, { pvx = -1 })
        L:step()
        local left = L:time_left(a)
        assert.is_true(left > 0.1)
        assert.are.equal(left, w:lock_time(a))
        local w2 = rvo.load(w:save())
        assert.are.equal(left, w2:lock_time(a))
        local L2 = locks.load(w2, L:save())
        L2:update(0.05)
        L:update(0.05)
        assert.are.equal(L:time_left(a), L2:time_left(a))
        w2:remove_agent(a)
        assert.are.equal(0, L2:time_left(a))
        w2:destroy()
    end)

    it("loads a save from before the timers moved into the world: its locks end", function()
        local state = require("rvo.state")
        local a = w:add_agent(-2, 0, { pvx = 1 })
        local b = w:add_agent(2, 0.1, { pvx = -1 })
        w:lock(a, 1, 0)
        local old = state.encode({ kind = "locks", fields = { after_avoid = 0.2, after_clean = 0.001,
            tolerance = 1e-4, release_on_change = 0.5, timer = { [a] = 0.15 }, pref = { [a] = { 1, 0 } },
            exempted = { [b] = true } } })
        local O = locks.load(w, old)
        assert.is_false(w:is_locked(a))
        assert.is_false(w:auto_lock(b))
        assert.is_true(O.exempted[b])
        local bad = state.encode({ kind = "locks", fields = { after_avoid = 0.2, after_clean = 0.001,
            tolerance = 1e-4, release_on_change = 0.5, timer = { [a] = "x" }, pref = {}, exempted = {} } })
        assert.are.equal("bad argument #2 to 'load' (saved locks state is corrupted)",
            error_of(function() locks.load(w, bad) end))
    end)

    it("with after_avoid = 0 and after_clean = 0 locks nobody", function()
        local Z = locks.new(w, { after_avoid = 0, after_clean = 0 })
        local a = w:add_agent(-2, 0, { pvx = 1 })
        w:add_agent(2, 0.1, { pvx = -1 })
        w:solve()
        Z:after_solve()
        assert.is_false(w:is_locked(a))
        w:integrate()
    end)

    it("rejects bad input and calls in the wrong phase, leaving the world as it was", function()
        local a = w:add_agent(0, 0, { pvx = 1 })
        local cases = {
            { "bad argument #1 to 'new' (world expected, got nil)", function() locks.new() end },
            { "bad argument #2 to 'new' (options table expected, got number)", function() locks.new(w, 1) end },
            { "bad argument #2 to 'new' (unknown option 'after_avod')",
                function() locks.new(w, { after_avod = 1 }) end },
            { "bad argument #2 to 'new' (after_avoid must be a finite number >= 0, got -1)",
                function() locks.new(w, { after_avoid = -1 }) end },
            { "bad argument #2 to 'new' (tolerance must be a finite number >= 0, got nan)",
                function() locks.new(w, { tolerance = nan }) end },
            { "bad argument #2 to 'new' (release_on_change must be a number > 0, got 0)",
                function() locks.new(w, { release_on_change = 0 }) end },
            { "bad argument #1 to 'update' (dt must be a finite number >= 0, got -0.1)",
                function() L:update(-0.1) end },
            { "bad argument #0 to 'after_solve' (call it between world:solve and world:integrate)",
                function() L:after_solve() end },
            { "bad argument #0 to 'update' (locks expected: call it as L:update(...))",
                function() L.update(0.1) end },
        }
        for _, case in ipairs(cases) do
            local text = error_of(case[2])
            if case[1]:find("got nan") then
                assert.is_truthy(text:match("^bad argument #2 to 'new' %(tolerance must be a finite number >= 0"),
                    text)
            else
                assert.are.equal(case[1], text)
            end
        end
        assert.is_false(w:is_locked(a))
        L:step()
        assert.is_false(w:is_locked(a) and L:time_left(a) > 0.01) -- clean: a short lock at most
    end)
end)

describe("rvo.locks in the standard crossing", function()
    it("lowers the oscillation of jittered ORCA agents, and everybody still gets home", function()
        local plain_route, plain_whole, plain_steps = crossing("orca", 0.1, nil)
        local lock_route, lock_whole, lock_steps, lock_worst = crossing("orca", 0.1, {})
        -- measured (docs/quality.md): en route 46.2 -> 32.3, whole run 65.6 -> 59.2 m/s per
        -- agent (the whole run counts the squads parking: squad-mates pushed
        -- aside by late arrivals walk back, and a lock keeps a pushed agent
        -- going for 0.2 s); worst overlap 0.0% (a locked agent yields to
        -- the hard-body pass where it presses into another: 19.9% before)
        assert.is_not_nil(plain_steps)
        assert.is_not_nil(lock_steps, "not everybody arrived with locks")
        assert.is_true(lock_route < 0.8 * plain_route, lock_route .. " vs " .. plain_route)
        assert.is_true(lock_whole < plain_whole, lock_whole .. " vs " .. plain_whole)
        assert.is_true(lock_worst < 0.01, "overlap " .. lock_worst)
    end)

    it("lowers the oscillation of Unreal's own sampling solver", function()
        local plain_route = crossing("ue", 0.1, nil)
        local lock_route = crossing("ue", 0.1, {})
        -- measured (docs/quality.md): 107.7 -> 62.7
        assert.is_true(lock_route < 0.7 * plain_route, lock_route .. " vs " .. plain_route)
    end)
end)
