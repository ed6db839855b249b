-- Regressions for what the differential fuzzer (tests/fuzz/lua_diff.lua)
-- found: the two bindings, or a runtime and the other, answering one call
-- differently, or a call that raised after changing the world. Runs on
-- both runtimes; each case fails on the code before its fix.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local error_of = support.error_of

local function new_world()
    return rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2 }
end

describe("the differential fuzzer's findings", function()
    it("stalled(nil, times) fills the times table given and returns ids, times, n in that order", function()
        -- C module: returned (times, ids, n); FFI: ignored the table given
        local w = new_world()
        local a = w:add_agent(0, 0, { pvx = 1 })
        w:add_obstacle { 0.6, -2, 0.6, 2, 0.7, 2, 0.7, -2 } -- a wall right in front
        w:set_stall_threshold(0.5, 0.2)
        for _ = 1, 10 do w:step() end
        local times = { 99, 99, 99 }
        local ids, t, n = w:stalled(nil, times)
        assert.are.equal(1, n)
        assert.are.same({ a }, ids)
        assert.are.equal(times, t) -- the same table, filled and cleared past n
        assert.is_nil(times[2])
        assert.is_true(times[1] > 0)
        local ids2, t2, n2 = w:stalled()
        assert.are.same(ids, ids2)
        assert.are.same(times, t2)
        assert.are.equal(n, n2)
    end)

    it("behaviour messages print integral numbers the same on both runtimes (no '.0')", function()
        local w = new_world()
        local groups = require("rvo.groups").new(w, { "red" })
        assert.are.equal("bad argument #1 to 'set' (unknown or removed agent id 4294967297)",
            error_of(function() groups:set(2 ^ 32 + 1, "red") end))
        assert.are.equal("bad argument #1 to 'new' (high must be a number in [0, 1], got 2147483648)",
            error_of(function() require("rvo.unstick").new { high = 2 ^ 31 } end))
        assert.are.equal("bad argument #1 to 'new' (amount must be in 0..1, got nan)",
            error_of(function() require("rvo.jitter").new { amount = 0 / 0 } end))
        -- a table prints as its type, not its address
        assert.are.equal("bad argument #1 to 'new' (unknown option 'table')",
            error_of(function() require("rvo.jitter").new { [{}] = 1 } end))
    end)

    it("surround and locks step() reject a time step the core refuses before changing anything", function()
        for _, make in ipairs {
            function(w) return require("rvo.surround").new(w, { target = { 0, 0 } }) end,
            function(w) return require("rvo.locks").new(w) end,
        } do
            local w = new_world()
            local ids = {}
            for i = 1, 4 do ids[i] = w:add_agent(4 * i, 0) end
            local b = make(w)
            if b.add then
                for _, id in ipairs(ids) do b:add(id) end
            end
            b:step()
            local before = w:save()
            assert.are.equal("bad argument #1 to 'step' (dt must be a number in [1e-45, 3.4e38], got 1e+300)",
                error_of(function() b:step(1e300) end))
            assert.are.equal(before, w:save())
            b:step() -- and it goes on
        end
    end)

    it("surround goes on with units at the edge of the world (where rays cannot be cast)", function()
        local w = new_world()
        local far = w:add_agent(0, 0, { pvx = 1 })
        w:step(2 ^ 31) -- positions stop at the +-1e9 limit
        assert.are.equal(1e9, (w:position(far)))
        local s = require("rvo.surround").new(w, { target = { -100, 0 } }) -- more than 1e9 m away
        s:add(far)
        s:step()
        local vx = w:pref_velocity(far)
        assert.is_true(vx < 0) -- heading back to the ring
    end)

    it("surround holders take a huge time step without a ray longer than the core casts", function()
        local w = new_world()
        local s = require("rvo.surround").new(w, { target = { 0, 0 }, attack_radius = 3, probe_length = 1e300 })
        local ids = {}
        for i = 1, 6 do
            local a = 2 * math.pi * i / 6
            ids[i] = w:add_agent(2.8 * math.cos(a), 2.8 * math.sin(a)) -- on the ring: holders
            s:add(ids[i])
        end
        s:add(w:add_agent(20, 0)) -- approaching
        s:step()
        s:step(2 ^ 53)
        assert.are.equal(7, w:agent_count())
    end)

    it("a blocked surround holder takes a huge time step without a sight line out of the world", function()
        local w = new_world()
        local s = require("rvo.surround").new(w, { target = { 0, 0 }, attack_radius = 3 })
        s:set_target(0, 0, 1, 0) -- the target walks east
        local holder = w:add_agent(2.75, 0) -- in the band
        w:add_agent(50, 0) -- in the holder's way east
        s:add(holder)
        s:step()
        assert.are.equal("hold", s:phase(holder))
        s:step(2 ^ 53)
        assert.is_true(w:is_valid(holder))
    end)

    it("locks refuse a tolerance world:avoiding would refuse, at new() instead of at every step", function()
        local w = new_world()
        w:add_agent(0, 0)
        assert.are.equal("bad argument #2 to 'new' (tolerance must be at most 3.4e38, got 1e+300)",
            error_of(function() require("rvo.locks").new(w, { tolerance = 1e300 }) end))
        require("rvo.locks").new(w, { tolerance = 1e30 }):step()
    end)

    it("surround takes a target velocity only within the core's range, and holders follow it there", function()
        local w = new_world()
        local s = require("rvo.surround").new(w, { target = { 0, 0 } })
        local holder = w:add_agent(2.75, 0)
        s:add(holder)
        assert.are.equal("bad argument #3 to 'set_target' (vx and vy must be numbers within [-1e9, 1e9])",
            error_of(function() s:set_target(0, 0, -2 ^ 53, 0) end))
        s:set_target(0, 0, -1e9, 0) -- the fastest target: its holders' sums stay within the range
        s:step()
        s:step()
        assert.is_true(w:is_valid(holder))
    end)

    it("query limits say what they accept", function()
        local w = new_world()
        assert.are.equal("bad argument #5 to 'ray_cast' (max_dist must be within [0, 1e9])",
            error_of(function() w:ray_cast(0, 0, 1, 0, 2e9) end))
        assert.are.equal("bad argument #3 to 'query_radius' (radius must be within [0, 1e9])",
            error_of(function() w:query_radius(0, 0, 2e9) end))
        assert.are.equal("bad argument #5 to 'line_of_sight' (clearance must be within [0, 1e9])",
            error_of(function() w:line_of_sight(0, 0, 1, 1, 2e9) end))
        assert.are.equal("bad argument #1 to 'set_height_margin' (height_margin must be within [0, 1e9])",
            error_of(function() w:set_height_margin(2e9) end))
    end)

    it("a list ends at its first nil, whatever # answers for a table with holes", function()
        local w = new_world()
        -- # may answer 3 or 6 here, and Lua 5.4 and LuaJIT differ
        local holed = { 1, 2, 3 }
        holed[5], holed[6] = 5, 6
        assert.are.equal("bad argument #1 to 'add_obstacle' (even number of coordinates expected, got 3)",
            error_of(function() w:add_obstacle(holed) end))
        local square = { 0, 0, 1, 0, 1, 1, 0, 1 }
        square[10] = 7 -- past a hole: not part of the list
        assert.is_true(w:obstacle_valid(w:add_obstacle(square)))
        local a = w:add_agent(5, 5)
        local b = w:add_agent(7, 7)
        local pv = { 1, 0, 1 }
        pv[5] = 1
        assert.are.equal("bad argument #1 to 'set_pref_velocities' (expected 4 numbers (2 per agent), got 3)",
            error_of(function() w:set_pref_velocities(pv) end))
        local ok = { 1, 0, 0, 1 }
        ok[6] = 9 -- past a hole
        w:set_pref_velocities(ok)
        local ax, ay = w:pref_velocity(a)
        local bx, by = w:pref_velocity(b)
        assert.are.same({ 1, 0, 0, 1 }, { ax, ay, bx, by })
    end)
    it("groups:forget takes only a number, and a stale or unknown id is fine", function()
        -- was: forget(nil) and forget(0/0) raised "table index is nil/NaN" from inside groups.lua
        local groups = require("rvo.groups")
        local w = new_world()
        local g = groups.new(w, { "red" })
        local a = w:add_agent(0, 0)
        g:join(a, "red")
        for _, bad in ipairs({ "nil", "nan", "string" }) do
            local v = bad == "nan" and 0 / 0 or bad == "string" and "x" or nil
            local msg = error_of(function() g:forget(v) end)
            assert.is_truthy(msg:find("bad argument #1 to 'forget' (agent id expected", 1, true), msg)
        end
        assert.are.equal(g, g:forget(12345)) -- never handed out: no error
        w:remove_agent(a)
        assert.are.equal(g, g:forget(a)) -- stale: no error
    end)
    it("saved module state reads the same on both runtimes, integral numbers up to 2^53 included", function()
        -- seed 1215: locks:exempt(-2^53), then save: "d..." on Lua 5.4, a hex float on LuaJIT
        local state = require("rvo.state")
        assert.are.equal("rvostate1:{d1;d-9007199254740992;d2;d9007199254740992;d3;d3;d4;f0x1.8p+0;}",
            state.encode({ -2 ^ 53, 2 ^ 53, 3.0, 1.5 }))
    end)
end)
