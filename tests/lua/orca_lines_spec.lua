-- world:orca_lines(id [, dt [, buf]]): the ORCA half-planes of one agent
-- (the LÖVE demo's debug view), on either backend.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")

-- Agents converging on a wall; solved, not yet integrated.
local function solved_scene()
    local w = rvo.new_world { time_step = 0.25, radius = 0.5, max_speed = 2, neighbor_dist = 6, time_horizon = 3 }
    w:add_obstacle({ -3, 2, 3, 2 }, { closed = false })
    local ids = {}
    for i = 1, 9 do
        local x, y = (i % 3) * 2.2 - 2.2, math.floor((i - 1) / 3) * 2 - 3
        ids[i] = w:add_agent(x, y, { pvx = 0.2 * (i % 2), pvy = 1.5 })
    end
    for _ = 1, 4 do w:step() end
    w:solve()
    return w, ids
end

describe("orca_lines", function()
    it("gives lines the solved velocity satisfies, obstacle lines first", function()
        local w, ids = solved_scene()
        local saw_obstacle, saw_agent = false, false
        for _, id in ipairs(ids) do
            local lines, n, nobst = w:orca_lines(id)
            assert.are.equal(4 * n, #lines)
            assert.is_true(nobst >= 0 and nobst <= n)
            if nobst > 0 then saw_obstacle = true end
            if n > nobst then saw_agent = true end
            -- ORCA is feasible here (no overlaps): the solved velocity lies
            -- on the allowed side, det(direction, point - v) <= 0, of every line.
            local vx, vy = w:new_velocity(id)
            for k = 0, n - 1 do
                local px, py, dx, dy = lines[4 * k + 1], lines[4 * k + 2], lines[4 * k + 3], lines[4 * k + 4]
                assert.is_true(math.abs(math.sqrt(dx * dx + dy * dy) - 1) < 1e-5)
                assert.is_true(dx * (py - vy) - dy * (px - vx) <= 1e-4,
                    "velocity of agent " .. id .. " violates line " .. k)
            end
        end
        assert.is_true(saw_obstacle and saw_agent)
        w:integrate()
    end)

    it("gives one line per avoided neighbour in open space", function()
        local w = rvo.new_world { time_step = 0.1, neighbor_dist = 10 }
        local a = w:add_agent(0, 0, { pvx = 1 })
        local _, n0 = w:orca_lines(a)
        assert.are.equal(0, n0)
        w:add_agent(2, 0, { pvx = -1 })
        local idle = w:add_agent(0, 3)
        w:add_agent(0, -3, { groups = 2, pvy = 1 }) -- a's mask still covers group 2
        local _, n, nobst = w:orca_lines(a)
        assert.are.equal(#w:neighbors(a), 3)
        -- hard bodies (the default): a moving agent leaves an idle one (no
        -- preferred velocity) all the avoidance, so it has no line for it
        assert.are.equal(2, n)
        assert.are.equal(0, nobst)
        local lines, ni = w:orca_lines(idle)
        assert.are.equal(3, ni) -- while the idle one has a line for each
        assert.are.equal(12, #lines)
        w:set_pref_velocity(idle, 0, 1) -- moving too: a line for it again
        _, n = w:orca_lines(a)
        assert.are.equal(3, n)
        w:set_mask(a, 1) -- stops avoiding group 2: one line fewer
        _, n = w:orca_lines(a)
        assert.are.equal(2, n)
        w:set_pref_velocity(idle, 0, 0)
        w:set_strict_overlap(false) -- the soft mode avoids idle agents as RVO2 does
        _, n = w:orca_lines(a)
        assert.are.equal(2, n)
        w:set_mask(a, 0xffffffff)
        _, n = w:orca_lines(a)
        assert.are.equal(3, n)
    end)

    it("fills a buffer and clears its tail", function()
        local w, ids = solved_scene()
        local buf = {}
        for i = 1, 200 do buf[i] = -1 end
        local n, nobst = w:orca_lines(ids[5], nil, buf)
        local lines, n2, nobst2 = w:orca_lines(ids[5])
        assert.are.equal(n2, n)
        assert.are.equal(nobst2, nobst)
        assert.are.same(lines, buf)
    end)

    it("rejects bad input with the same message on both runtimes", function()
        support.run_cases(rvo, {
            { "bad argument #1 to 'orca_lines' (number expected, got string)",
                function(w) w:orca_lines("a") end },
            { "bad argument #1 to 'orca_lines' (unknown or removed agent id)",
                function(w, _, _, stale) w:orca_lines(stale) end },
            { "bad argument #1 to 'orca_lines' (unknown or removed agent id)",
                function(w, a) w:orca_lines(a + 0.5) end },
            { "bad argument #2 to 'orca_lines' (number expected, got boolean)",
                function(w, a) w:orca_lines(a, true) end },
            { "bad argument #2 to 'orca_lines' (dt must be > 0)", function(w, a) w:orca_lines(a, 0) end },
            { "bad argument #2 to 'orca_lines' (dt must be > 0)", function(w, a) w:orca_lines(a, -1) end },
            { "bad argument #2 to 'orca_lines' (dt must be finite)",
                function(w, a) w:orca_lines(a, support.nan) end },
            { "bad argument #2 to 'orca_lines' (dt must be finite)",
                function(w, a) w:orca_lines(a, support.inf) end },
            { "bad argument #3 to 'orca_lines' (table expected, got number)",
                function(w, a) w:orca_lines(a, 0.1, 5) end },
            { "calling 'orca_lines' on bad self", function(w, a) w.orca_lines({}, a) end },
        })
    end)
end)
