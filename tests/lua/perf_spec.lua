-- Performance paths (issue 5): thread counts give bit-identical results,
-- zero-copy views and FFI arrays agree with the copying bulk calls.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local jit_ffi = rawget(_G, "jit") and require("ffi") or nil

-- A crossing of n agents with a pillar on the given thread count; returns
-- every position and velocity as exact hex floats.
local function crossing(threads, n, steps, compat)
    local w = rvo.new_world { time_step = 0.25, radius = 1, neighbor_dist = 8, threads = threads,
        rvo2_compat = compat }
    w:add_obstacle({ -3, -3, 3, -3, 3, 3, -3, 3 })
    local side = math.sqrt(n) * 4
    local goal = {}
    for i = 1, n do
        local a = i * 2.399963 -- golden angle: spread without a random source
        local r = side / 2 * math.sqrt(i / n) + 5
        w:add_agent(r * math.cos(a), r * math.sin(a))
        goal[2 * i - 1], goal[2 * i] = -r * math.cos(a), -r * math.sin(a)
    end
    local pos, pref = {}, {}
    for _ = 1, steps do
        w:positions(pos)
        for i = 1, n do
            local dx, dy = goal[2 * i - 1] - pos[2 * i - 1], goal[2 * i] - pos[2 * i]
            local d = math.sqrt(dx * dx + dy * dy)
            if d > 2 then dx, dy = dx * 2 / d, dy * 2 / d end
            pref[2 * i - 1], pref[2 * i] = dx, dy
        end
        w:set_pref_velocities(pref)
        w:step()
    end
    local out = {}
    local p, v = w:positions(), w:velocities()
    for i = 1, 2 * n do out[#out + 1] = string.format("%a %a", p[i], v[i]) end
    w:destroy()
    return table.concat(out, ",")
end

describe("threads #threads", function()
    it("1 and 2 threads end in bit-identical states", function()
        for _, compat in ipairs({ false, true }) do
            local one = crossing(1, 400, 40, compat)
            local two = crossing(2, 400, 40, compat)
            assert.are.equal(#one, #two)
            assert.is_true(one == two, "1 and 2 threads differ (rvo2_compat " .. tostring(compat) .. ")")
        end
    end)
end)

describe("zero-copy views", function()
    it("read what positions() and velocities() copy", function()
        local w = rvo.new_world { time_step = 0.1 }
        for i = 1, 5 do w:add_agent(i * 3, -i, { vx = i, vy = 2 * i }) end
        w:step()
        local pv, vv = w:positions_view(), w:velocities_view()
        local p, v = w:positions(), w:velocities()
        for i = 1, 10 do
            assert.are.equal(p[i], pv[i - 1])
            assert.are.equal(v[i], vv[i - 1])
        end
        -- after a step a fresh view sees the new values
        w:step()
        pv = w:positions_view()
        p = w:positions()
        for i = 1, 10 do assert.are.equal(p[i], pv[i - 1]) end
    end)

    it("check self", function()
        local w = rvo.new_world {}
        assert.are.equal("calling 'positions_view' on bad self",
            support.error_of(function() w.positions_view({}) end))
        assert.are.equal("calling 'velocities_view' on bad self",
            support.error_of(function() w.velocities_view(42) end))
        w:destroy()
        assert.are.equal("attempt to use a destroyed rvo.world",
            support.error_of(function() w:positions_view() end))
    end)

    it("on Lua 5.4 are bounded and safe after the world changes", function()
        if jit_ffi then
            pending("LuaJIT views are raw pointers (documented)")
            return
        end
        local w = rvo.new_world {}
        w:add_agent(1, 2)
        local v = w:positions_view()
        assert.are.equal(2, #v)
        assert.is_nil(v[2])
        assert.is_nil(v[-1])
        assert.is_nil(v[0.5])
        assert.is_nil(v.x)
        w:add_agent(3, 4)
        assert.are.equal(4, #v)
        assert.are.equal(3, v[2])
        w:destroy()
        assert.are.equal("attempt to use a destroyed rvo.world", support.error_of(function() local _ = v[0] end))
    end)
end)

describe("bulk setters with FFI float arrays", function()
    it("take a float[?] of at least 2 * agent_count floats on LuaJIT", function()
        if not jit_ffi then
            pending("LuaJIT only")
            return
        end
        local w = rvo.new_world { time_step = 0.1 }
        for i = 1, 3 do w:add_agent(i * 5, 0) end
        local buf = jit_ffi.new("float[?]", 8) -- longer than needed: fine
        for i = 0, 5 do buf[i] = i * 0.25 end
        w:set_pref_velocities(buf)
        local ids = w:ids()
        for i = 1, 3 do
            local x, y = w:pref_velocity(ids[i])
            assert.are.equal((2 * i - 2) * 0.25, x)
            assert.are.equal((2 * i - 1) * 0.25, y)
        end
        assert.are.equal("bad argument #1 to 'set_pref_velocities' (expected 6 numbers (2 per agent), got 4)",
            support.error_of(function() w:set_pref_velocities(jit_ffi.new("float[?]", 4)) end))
        buf[1] = 0 / 0
        assert.has_error(function() w:set_pref_velocities(buf) end)
        local x = w:pref_velocity(ids[1])
        assert.are.equal(0, x) -- unchanged by the failed call
        assert.are.equal("bad argument #1 to 'set_pref_velocities' (table expected, got cdata)",
            support.error_of(function() w:set_pref_velocities(jit_ffi.new("double[?]", 6)) end))
    end)
end)
