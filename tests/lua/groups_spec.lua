-- rvo.groups: names for the core's group bits, avoids/ignores relations,
-- membership and relation changes at run time, and what agents then do.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local groups = require("rvo.groups")
local error_of = support.error_of

local function new_world()
    return rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 1.5, neighbor_dist = 10, time_horizon = 2 }
end

local function distance(w, a, b)
    local ax, ay = w:position(a)
    local bx, by = w:position(b)
    return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
end

-- a and b walk at each other (b 0.2 to the side) for 100 steps; returns the
-- closest distance between centres and how far each one's solved velocity
-- strayed from its preferred one (largest |new - preferred|).
local function meet(w, a, b)
    w:set_position(a, -5, 0)
    w:set_position(b, 5, 0.2)
    local closest, side_a, side_b = math.huge, 0, 0
    for _ = 1, 100 do
        support.steer(w, a, 5, 0, 1.5)
        support.steer(w, b, -5, 0.2, 1.5)
        w:solve()
        for k, id in ipairs { a, b } do
            local nx, ny = w:new_velocity(id)
            local px, py = w:pref_velocity(id)
            local dev = math.sqrt((nx - px) ^ 2 + (ny - py) ^ 2)
            if k == 1 then side_a = math.max(side_a, dev) else side_b = math.max(side_b, dev) end
        end
        w:integrate()
        closest = math.min(closest, distance(w, a, b))
    end
    return closest, side_a, side_b
end

describe("rvo.groups", function()
    local w, g
    before_each(function()
        w = new_world()
        g = groups.new(w, { "red", "blue" })
    end)
    after_each(function() w:destroy() end)

    it("maps names to bits and sets groups and masks", function()
        assert.are.equal(1, g:bit("red"))
        assert.are.equal(2, g:bit("blue"))
        assert.are.equal(8, g:define("green", 8))
        assert.are.equal(3, g:define("grey"))      -- lowest free bit
        assert.are.equal(3, g:define("grey"))      -- idempotent
        assert.is_nil(g:bit("pink"))
        assert.are.equal(1 + 128, g:value("red", "green", "red"))
        local a = w:add_agent(0, 0)
        g:set(a, "red", "green")
        assert.are.equal(1 + 128, w:groups(a))
        assert.are.equal(1 + 2 + 4 + 128, w:mask(a)) -- avoids every defined group
        assert.are.same({ "red", "green" }, g:groups_of(a))
        g:ignores("red", "blue")
        assert.are.equal(1 + 2 + 4 + 128, w:mask(a)) -- green still avoids blue
        g:ignores("green", "blue")
        assert.are.equal(1 + 4 + 128, w:mask(a))
        assert.are.equal(1 + 4 + 128, g:mask_of("red", "green"))
        assert.are.equal("ignores", g:relation("red", "blue"))
        assert.are.equal("avoids", g:relation("blue", "red")) -- one way
        g:leave(a, "red"):leave(a, "green")
        assert.are.equal(0, w:groups(a))
        assert.are.equal(0, w:mask(a))
        assert.are.same({}, g:groups_of(a))
    end)

    it("uses all 32 bits and says so when there is no 33rd", function()
        local g2 = groups.new(w)
        for i = 1, 32 do assert.are.equal(i, g2:define("g" .. i)) end
        local a = w:add_agent(0, 0)
        g2:set(a, "g32", "g1")
        assert.are.equal(2 ^ 31 + 1, w:groups(a))
        assert.are.equal(2 ^ 32 - 1, w:mask(a))
        assert.are.equal("bad argument #1 to 'define' (no bit left for group 'g33': at most 32 groups)",
            error_of(function() g2:define("g33") end))
        assert.are.equal(2 ^ 32 - 1, w:mask(a)) -- nothing changed
    end)

    it("lets allies walk through each other while avoiding the enemy", function()
        g:ignores("red", "red")
        local r1, r2, b1 = w:add_agent(0, 0), w:add_agent(0, 0), w:add_agent(0, 0)
        g:set(r1, "red"); g:set(r2, "red"); g:set(b1, "blue")
        w:set_position(b1, 0, 50) -- out of the way for now
        local closest, side1, side2 = meet(w, r1, r2)
        assert.is_true(closest < 0.3, "allies kept apart: " .. closest)  -- walked through
        assert.are.equal(0, side1)
        assert.are.equal(0, side2)
        closest, side1, side2 = meet(w, r1, b1)
        assert.is_true(closest >= 0.98, "enemies overlapped: " .. closest)
        assert.is_true(side1 > 0.1 and side2 > 0.1)
    end)

    it("applies membership changes at run time", function()
        g:ignores("red", "red")
        local r1, r2 = w:add_agent(0, 0), w:add_agent(0, 0)
        g:set(r1, "red"); g:set(r2, "red")
        assert.is_true(meet(w, r1, r2) < 0.3)
        g:leave(r2, "red"):join(r2, "blue") -- defects
        assert.is_false(g:is_member(r2, "red"))
        assert.are.same({ r1 }, g:members("red"))
        assert.are.same({ r2 }, g:members("blue"))
        assert.is_true(meet(w, r1, r2) >= 0.98)
    end)

    it("applies relation changes at run time, one way", function()
        local r, b = w:add_agent(0, 0), w:add_agent(0, 0)
        g:set(r, "red"); g:set(b, "blue")
        local closest, side_r, side_b = meet(w, r, b)
        assert.is_true(closest >= 0.98)
        assert.is_true(side_r > 0.1 and side_b > 0.1)
        g:ignores("red", "blue") -- red no longer yields: blue takes all of it
        closest, side_r, side_b = meet(w, r, b)
        assert.is_true(closest >= 0.98, "closest " .. closest)
        assert.are.equal(0, side_r)
        assert.is_true(side_b > 0.2)
        g:ignores("blue", "red") -- now both walk through
        closest, side_r, side_b = meet(w, r, b)
        assert.is_true(closest < 0.3)
        assert.are.equal(0, side_r)
        assert.are.equal(0, side_b)
        g:avoids("blue", "red")
        assert.are.equal(1 + 2, w:mask(b))
    end)

    it("lets a team walk through its locked ram, which keeps its course", function()
        -- red walks east through the ram from behind, 0.3 m to its north: the
        -- ram (locked north) pressed into them a little and was carried east
        local world = new_world()
        local teams = groups.new(world, { "red", "ram" })
        teams:ignores("red", "ram")
        local ram = world:add_agent(0, 0)
        teams:set(ram, "ram")
        world:lock(ram, 0, 0.5)
        local reds = {}
        for k = 1, 3 do
            reds[k] = world:add_agent(-1.2 * k, 0.3)
            teams:set(reds[k], "red")
        end
        for _ = 1, 60 do
            for _, id in ipairs(reds) do world:set_pref_velocity(id, 1.5, 0) end
            world:step()
        end
        local x, y = world:position(ram)
        assert.are.equal(0, x)
        assert.is_true(math.abs(y - 60 * 0.1 * 0.5) < 1e-4)
        local rx = world:position(reds[3])
        assert.is_true(rx > 4) -- and the team went its way
    end)

    it("walks a unit out of a packed parked squad when it ignores the squad one-way", function()
        -- 5 x 5 parked agents of radius 0.5 on a 1.05 m grid (all touching): the
        -- middle one, sent 10 m east, rests against them as it is; ignoring the
        -- squad (docs/reference.md, avoidance groups) it gets out, the squad
        -- stepping aside, and arrives after it avoids them again
        -- (without the mask it stays inside: docs/quality.md, stop 32)
        local world = new_world()
        local ids, unit = {}, nil
        for y = 0, 4 do
            for x = 0, 4 do
                local id = world:add_agent(1.05 * x, 1.05 * y)
                if x == 2 and y == 2 then unit = id else ids[#ids + 1] = id end
            end
        end
        for _, id in ipairs(ids) do world:set_groups(id, 2) end
        world:set_mask(unit, 0xfffffffd)
        for step = 1, 300 do
            if step == 60 then world:set_mask(unit, 0xffffffff) end
            support.steer(world, unit, 12.1, 2.1, 1.5)
            world:step()
        end
        local x = world:position(unit)
        assert.is_true(x > 11.5, "it did not get out: x = " .. x)
    end)

    it("drops removed agents and rejects bad input, leaving the world as it was", function()
        local a = w:add_agent(0, 0)
        local gone = w:add_agent(3, 3)
        g:set(a, "red"); g:set(gone, "blue")
        w:remove_agent(gone)
        g:ignores("red", "blue")   -- re-applies: the removed agent is skipped and dropped
        assert.are.same({}, g:members("blue"))
        local cases = {
            { "bad argument #1 to 'new' (world expected, got nil)", function() groups.new() end },
            { "bad argument #2 to 'new' (list of group names expected, got string)",
                function() groups.new(w, "red") end },
            { "bad argument #2 to 'new' (group 'x' listed twice)", function() groups.new(w, { "x", "x" }) end },
            { "bad argument #1 to 'define' (group name must be a non-empty string, got number)",
                function() g:define(5) end },
            { 'bad argument #1 to \'define\' (group name must be a non-empty string, got "")',
                function() g:define("") end },
            { "bad argument #2 to 'define' (bit must be an integer in 1..32, got 33)",
                function() g:define("x", 33) end },
            { "bad argument #2 to 'define' (bit 2 is taken by group 'blue')", function() g:define("x", 2) end },
            { "bad argument #2 to 'define' (group 'red' already has bit 1)", function() g:define("red", 4) end },
            { "bad argument #2 to 'ignores' (unknown group 'grean': define it first)",
                function() g:ignores("red", "grean") end },
            { "bad argument #1 to 'set' (unknown or removed agent id " .. tostring(gone) .. ")",
                function() g:set(gone, "red") end },
            { "bad argument #1 to 'join' (agent id expected, got string)", function() g:join("a", "red") end },
            { "bad argument #2 to 'join' (unknown group 'pink': define it first)",
                function() g:join(a, "pink") end },
            { "bad argument #3 to 'set' (unknown group 'pink': define it first)",
                function() g:set(a, "red", "pink") end },
            { "bad argument #0 to 'join' (groups expected: call it as g:join(...))",
                function() g.join(a, "red") end },
        }
        for _, case in ipairs(cases) do
            assert.are.equal(case[1], error_of(case[2]))
        end
        assert.are.equal(1, w:groups(a))
        assert.are.equal(1, w:mask(a))  -- red ignores blue
        assert.are.same({ "red" }, g:groups_of(a))
        w:step()
    end)
end)
