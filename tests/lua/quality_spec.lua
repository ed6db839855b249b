-- The default mode resolves overlaps after each step (a few soft passes),
-- strict overlap to within 0.2% of the radius sum; rvo2_compat moves agents
-- exactly as RVO2 does. Same results on both runtimes.
local rvo = require("rvo")

-- Worst overlap (fraction of ri + rj) of n agents crossing a circle.
local function crossing(compat, strict)
    local world = rvo.new_world{ time_step = 0.25, radius = 1.5, max_speed = 2, neighbor_dist = 15,
                                 time_horizon = 10, time_horizon_obst = 10, rvo2_compat = compat }
    world:set_strict_overlap(strict or false)
    local n, R, goals = 60, 45, {}
    for i = 1, n do
        local a = (i - 1) * 2 * math.pi / n
        local id = world:add_agent(R * math.cos(a), R * math.sin(a))
        goals[id] = { -R * math.cos(a), -R * math.sin(a) }
    end
    local worst, buf, ids = 0, {}, {}
    for _ = 1, 300 do
        for id, g in pairs(goals) do
            local x, y = world:position(id)
            local dx, dy = g[1] - x, g[2] - y
            local d = math.sqrt(dx * dx + dy * dy)
            if d > 2 then dx, dy = dx * 2 / d, dy * 2 / d end
            world:set_pref_velocity(id, dx, dy)
        end
        world:step()
        local count = world:positions(buf)
        world:ids(ids)
        for i = 1, count do
            local near = world:query_radius(buf[2 * i - 1], buf[2 * i], 3)
            for _, other in ipairs(near) do
                if other ~= ids[i] then
                    local ox, oy = world:position(other)
                    local d = math.sqrt((ox - buf[2 * i - 1]) ^ 2 + (oy - buf[2 * i]) ^ 2)
                    worst = math.max(worst, (3 - d) / 3)
                end
            end
        end
    end
    return worst
end

describe("avoidance quality", function()
    it("is on by default and switchable", function()
        local w = rvo.new_world()
        assert.is_false(w:rvo2_compat())
        w:set_rvo2_compat(true)
        assert.is_true(w:rvo2_compat())
        assert.is_true(rvo.new_world{ rvo2_compat = true }:rvo2_compat())
    end)

    it("overlaps much less than RVO2 in a dense crossing", function()
        local plain, default = crossing(true), crossing(false)
        assert.is_true(plain > 0.05, "the RVO2 mode overlaps in this scene: " .. plain)
        assert.is_true(default < 0.6 * plain, ("default %.3f vs rvo2 %.3f"):format(default, plain))
    end)

    it("keeps overlaps within 1% of the radius sum with strict overlap", function()
        local w = rvo.new_world()
        assert.is_false(w:strict_overlap())
        w:set_strict_overlap(true)
        assert.is_true(w:strict_overlap())
        local plain, strict = crossing(true), crossing(false, true)
        assert.is_true(strict <= 0.01, ("strict %.4f vs rvo2 %.3f"):format(strict, plain))
        local ok, err = pcall(w.set_strict_overlap, w, "yes")
        assert.is_false(ok)
        assert.are.equal("bad argument #1 to 'set_strict_overlap' (boolean expected, got string)", err)
        assert.is_true(w:strict_overlap()) -- unchanged
    end)

    it("rejects bad values", function()
        local w = rvo.new_world()
        local ok, err = pcall(w.set_rvo2_compat, w, 1)
        assert.is_false(ok)
        assert.are.equal("bad argument #1 to 'set_rvo2_compat' (boolean expected, got number)", err)
        ok, err = pcall(rvo.new_world, { rvo2_compat = "yes" })
        assert.is_false(ok)
        assert.are.equal("bad argument #1 to 'new_world' (field 'rvo2_compat': boolean expected, got string)", err)
        assert.are.equal(0, w:agent_count()) -- still usable
    end)
end)
