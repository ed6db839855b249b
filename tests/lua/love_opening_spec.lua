-- The LÖVE demo's opening scene (examples/love/main.lua, love.load): two
-- crowds of 30 swap sides through a pillar, with the demo's world settings
-- and its plain steering (no jitter, no locks). Before obstacles had a way
-- round, four agents stayed pressed to the pillar for good. Both runtimes.
local rvo = require("rvo")

describe("the LÖVE demo's opening scene", function()
    it("leaves nobody at the pillar", function()
        local DT, SPEED, RADIUS = 1 / 60, 3, 0.45
        local w = rvo.new_world { time_step = DT, radius = RADIUS, max_speed = SPEED * 1.2, neighbor_dist = 6,
            max_neighbors = 12, time_horizon = 2, time_horizon_obst = 1 }
        local goal = {}
        local function crowd(x, y, gx, gy)
            for i = 0, 29 do
                local r, a = 1.05 * math.sqrt(i + 0.5), i * 2.39996323
                goal[w:add_agent(x + r * math.cos(a), y + r * math.sin(a))] = { gx, gy }
            end
        end
        crowd(25, 40, 103, 40)
        crowd(103, 40, 25, 40)
        local pts = {}
        for k = 0, 7 do
            local a = k * math.pi / 4 + math.pi / 8
            pts[2 * k + 1], pts[2 * k + 2] = 64 + 3 * math.cos(a), 40 + 3 * math.sin(a)
        end
        w:add_obstacle(pts)
        local ids = w:ids()
        for _ = 1, 60 * 40 do
            for _, id in ipairs(ids) do
                local g = goal[id]
                local x, y = w:position(id)
                local dx, dy = g[1] - x, g[2] - y
                local d = math.sqrt(dx * dx + dy * dy)
                local s = math.min(SPEED, d / DT)
                if d > 1e-9 then w:set_pref_velocity(id, dx / d * s, dy / d * s) else w:set_pref_velocity(id, 0, 0) end
            end
            w:step()
        end
        local near = 0
        for _, id in ipairs(ids) do
            local x, y = w:position(id)
            if (x - 64) ^ 2 + (y - 40) ^ 2 < 25 then near = near + 1 end
        end
        assert.are.equal(0, near) -- before: 4, for good
    end)
end)
