-- Obstacles read back (points, ids, nearby ones), their solid side, and the
-- same errors on both bindings.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local nan, inf = support.nan, support.inf

local UNKNOWN_OBSTACLE = "unknown or removed obstacle id"

-- A number rounded to float32, as the core stores it.
local f32
if string.pack then
    f32 = function(x) return (string.unpack("<f", string.pack("<f", x))) end
else
    local ffi = require("ffi")
    local box = ffi.new("float[1]")
    f32 = function(x)
        box[0] = x
        return box[0]
    end
end

describe("obstacle_points", function()
    it("returns the points as stored and whether the obstacle is closed", function()
        local w = rvo.new_world {}
        local sq = w:add_obstacle { 0, 0, 1, 0, 1, 1, 0, 1 }
        local xy, closed = w:obstacle_points(sq)
        assert.are.same({ 0, 0, 1, 0, 1, 1, 0, 1 }, xy)
        assert.is_true(closed)
        -- close points merged, the closing repeat dropped
        local m = w:add_obstacle { 0, 0, 2, 0, 2, 1e-8, 2, 2, 0, 0 }
        xy, closed = w:obstacle_points(m)
        assert.are.same({ 0, 0, 2, 0, 2, 2 }, xy)
        assert.is_true(closed)
        -- an open polyline: its points once, in order
        local line = w:add_obstacle({ 0, 5, 1, 5.5, 3, 5 }, { closed = false })
        xy, closed = w:obstacle_points(line)
        assert.are.same({ 0, 5, 1, 5.5, 3, 5 }, xy)
        assert.is_false(closed)
        local seg = w:add_obstacle { 0, 9, 0.1, 9 }
        xy, closed = w:obstacle_points(seg)
        assert.are.same({ 0, 9, f32(0.1), 9 }, xy)
        assert.is_false(closed)
        -- a buffer is filled, its old tail cleared
        local buf = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }
        local got, c = w:obstacle_points(sq, buf)
        assert.are.equal(buf, got)
        assert.are.same({ 0, 0, 1, 0, 1, 1, 0, 1 }, buf)
        assert.is_true(c)
        -- many points (past the scratch buffer's first size)
        local big = {}
        for i = 0, 99 do
            local a = 2 * math.pi * i / 100
            big[#big + 1] = f32(50 + 3 * math.cos(a))
            big[#big + 1] = f32(50 + 3 * math.sin(a))
        end
        assert.are.same(big, (w:obstacle_points(w:add_obstacle(big))))
        w:destroy()
    end)
end)

describe("obstacles", function()
    it("lists the live ids in the order they were added", function()
        local w = rvo.new_world {}
        local t, n = w:obstacles()
        assert.are.same({}, t)
        assert.are.equal(0, n)
        local a = w:add_obstacle { 0, 0, 1, 0, 1, 1 }
        local b = w:add_obstacle { 5, 0, 6, 0, 6, 1 }
        local c = w:add_obstacle { 9, 0, 10, 0 }
        t, n = w:obstacles()
        assert.are.same({ a, b, c }, t)
        assert.are.equal(3, n)
        w:remove_obstacle(b)
        local d = w:add_obstacle { 20, 0, 21, 0 }
        local buf = { 7, 7, 7, 7, 7 }
        assert.are.equal(3, w:obstacles(buf))
        assert.are.same({ a, c, d }, buf)
        w:destroy()
    end)
end)

describe("query_obstacles", function()
    it("finds obstacles with an edge within r, nearest first, ties by id", function()
        local w = rvo.new_world {}
        local far = w:add_obstacle { 10, -1, 12, -1, 12, 1, 10, 1 } -- nearest edge 10 away
        local near = w:add_obstacle { 3, -1, 4, -1, 4, 1, 3, 1 }   -- 3 away
        local tie_b = w:add_obstacle({ -5, -5, -5, 5 }, { closed = false }) -- 5 away
        local tie_a = w:add_obstacle({ 5, -5, 5, 5 }, { closed = false })   -- 5 away, not nearer than tie_b
        local t, n = w:query_obstacles(0, 0, 20)
        assert.are.same({ near, tie_b, tie_a, far }, t)
        assert.are.equal(4, n)
        t = w:query_obstacles(0, 0, 5)
        assert.are.same({ near, tie_b, tie_a }, t)
        t = w:query_obstacles(0, 0, 2.9)
        assert.are.same({}, t)
        -- inside a polygon, away from its edges: not found (edges only)
        t = w:query_obstacles(11, 0, 0.5)
        assert.are.same({}, t)
        t = w:query_obstacles(11, 0, 1)
        assert.are.same({ far }, t)
        local buf = { 1, 2, 3, 4, 5, 6 }
        assert.are.equal(1, w:query_obstacles(3.5, 2, 1, buf))
        assert.are.same({ near }, buf)
        w:destroy()
    end)
end)

describe("obstacle queries", function()
    it("reject bad input and leave the world as it was", function()
        local removed
        support.run_cases(rvo, {
            { "bad argument #1 to 'obstacle_points' (number expected, got nil)",
                function(w) w:obstacle_points() end },
            { "bad argument #1 to 'obstacle_points' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:obstacle_points(12345) end },
            { "bad argument #1 to 'obstacle_points' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:obstacle_points(removed) end,
                function(w) removed = w:add_obstacle { 0, 0, 1, 0, 1, 1 }; w:remove_obstacle(removed) end },
            { "bad argument #1 to 'obstacle_points' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:obstacle_points(nan) end },
            { "bad argument #2 to 'obstacle_points' (table expected, got number)",
                function(w) w:obstacle_points(1, 2) end },
            { "bad argument #1 to 'obstacles' (table expected, got string)",
                function(w) w:obstacles("x") end },
            { "bad argument #1 to 'query_obstacles' (number expected, got nil)",
                function(w) w:query_obstacles() end },
            { "bad argument #1 to 'query_obstacles' (x must be finite)",
                function(w) w:query_obstacles(nan, 0, 1) end },
            { "bad argument #2 to 'query_obstacles' (y must be finite)",
                function(w) w:query_obstacles(0, -inf, 1) end },
            { "bad argument #3 to 'query_obstacles' (radius must be within [0, 1e9])",
                function(w) w:query_obstacles(0, 0, -1) end },
            { "bad argument #3 to 'query_obstacles' (radius must be within [0, 1e9])",
                function(w) w:query_obstacles(0, 0, nan) end },
            { "bad argument #4 to 'query_obstacles' (table expected, got boolean)",
                function(w) w:query_obstacles(0, 0, 1, true) end },
        })
    end)
end)

-- Twice the signed area of a flat point list (> 0: counter-clockwise).
local function area2(xy)
    local a, n = 0, #xy / 2
    for i = 0, n - 1 do
        local j = (i + 1) % n
        a = a + xy[2 * i + 1] * xy[2 * j + 2] - xy[2 * j + 1] * xy[2 * i + 2]
    end
    return a
end

-- The 4 m square at the origin, either winding.
local CCW = { -2, -2, 2, -2, 2, 2, -2, 2 }
local CW = { -2, -2, -2, 2, 2, 2, 2, -2 }

-- Smallest distance from (x, y) to the square's outline, and whether the
-- point lies inside it.
local function square_dist(x, y)
    local d = math.huge
    for i = 0, 3 do
        local j = (i + 1) % 4
        d = math.min(d,
            support.segment_distance(x, y, CCW[2 * i + 1], CCW[2 * i + 2], CCW[2 * j + 1], CCW[2 * j + 2]))
    end
    return d, math.abs(x) < 2 and math.abs(y) < 2
end

describe("add_obstacle's side", function()
    for _, side in ipairs { "solid", "enclosure" } do
        for _, winding in ipairs { "ccw", "cw" } do
            local pts = winding == "ccw" and CCW or CW
            local inside = side == "enclosure" -- where agents belong

            it(side .. " from " .. winding .. " points: stored wound for its side, first point kept", function()
                local w = rvo.new_world {}
                local xy, closed = w:obstacle_points(w:add_obstacle(pts, { side = side }))
                assert.is_true(closed)
                assert.are.equal(side == "solid", area2(xy) > 0)
                assert.are.same({ -2, -2 }, { xy[1], xy[2] })
                w:destroy()
            end)

            it(side .. " from " .. winding .. " points: ORCA keeps agents on its free side", function()
                local w = rvo.new_world { max_speed = 2 }
                w:add_obstacle(pts, { side = side })
                -- outside: aimed across the square; inside: aimed out of it
                local a = inside and w:add_agent(0, 0.3) or w:add_agent(-6, 1.0)
                local gx, gy = 6, 1.0
                if inside then gx, gy = 6, 0.3 end
                local worst = math.huge
                for _ = 1, 600 do
                    local x, y = w:position(a)
                    local dx, dy = gx - x, gy - y
                    local l = math.sqrt(dx * dx + dy * dy)
                    if l > 0.05 then
                        w:set_pref_velocity(a, 2 * dx / l, 2 * dy / l)
                    else
                        w:set_pref_velocity(a, 0, 0)
                    end
                    w:step()
                    x, y = w:position(a)
                    local d, ins = square_dist(x, y)
                    assert.are.equal(inside, ins)
                    worst = math.min(worst, d)
                end
                assert.is_true(worst >= 0.5 - 0.01, "clearance " .. worst)
                w:destroy()
            end)

            it(side .. " from " .. winding .. " points: the hard-body pass pushes an overlapping agent out",
                function()
                    local w = rvo.new_world {}
                    w:add_obstacle(pts, { side = side })
                    -- 0.3 from the top edge, on the free side
                    local a = w:add_agent(0, inside and 1.7 or 2.3)
                    w:step()
                    local x, y = w:position(a)
                    local d, ins = square_dist(x, y)
                    assert.are.equal(inside, ins)
                    assert.is_true(d >= 0.5 * 0.998, "distance " .. d)
                    w:destroy()
                end)

            it(side .. " from " .. winding .. " points: line_of_sight and ray_cast see the same walls", function()
                local w = rvo.new_world {}
                local o = w:add_obstacle(pts, { side = side })
                if inside then
                    assert.is_true(w:line_of_sight(-1, -1, 1, 1, 0.5))
                    assert.is_false(w:line_of_sight(0, 0, 5, 0, 0))
                    local hit = w:ray_cast(0, 0, 1, 0, 10, 0.5)
                    assert.are.equal(o, hit.obstacle)
                    assert.is_true(math.abs(hit.distance - 1.5) < 1e-5)
                    assert.are.equal(-1, hit.nx)
                else
                    assert.is_false(w:line_of_sight(-5, 0, 5, 0, 0))
                    assert.is_true(w:line_of_sight(-5, 3, 5, 3, 0.5))
                    local hit = w:ray_cast(-6, 0, 1, 0, 10, 0.5)
                    assert.are.equal(o, hit.obstacle)
                    assert.is_true(math.abs(hit.distance - 3.5) < 1e-5)
                    assert.are.equal(-1, hit.nx)
                end
                w:destroy()
            end)
        end
    end

    it("keeps the winding's meaning without a side", function()
        local w = rvo.new_world {}
        assert.is_true(area2((w:obstacle_points(w:add_obstacle(CCW)))) > 0)
        assert.is_true(area2((w:obstacle_points(w:add_obstacle(CW)))) < 0)
        assert.is_true(area2((w:obstacle_points(w:add_obstacle(CW, { side = "winding" })))) < 0)
        w:destroy()
    end)

    it("rejects a bad side and leaves the world as it was", function()
        support.run_cases(rvo, {
            { "bad argument #2 to 'add_obstacle' (field 'side' must be 'solid', 'enclosure' or 'winding')",
                function(w) w:add_obstacle(CCW, { side = "Solid" }) end },
            { "bad argument #2 to 'add_obstacle' (field 'side' must be 'solid', 'enclosure' or 'winding')",
                function(w) w:add_obstacle(CCW, { side = "solid\0" }) end },
            { "bad argument #2 to 'add_obstacle' (field 'side': string expected, got boolean)",
                function(w) w:add_obstacle(CCW, { side = true }) end },
            { "bad argument #2 to 'add_obstacle' (an open polyline blocks both sides: side needs closed = true)",
                function(w) w:add_obstacle({ 0, 0, 1, 0, 1, 1 }, { closed = false, side = "solid" }) end },
            { "bad argument #1 to 'add_obstacle' (a closed obstacle needs a non-zero area"
                .. " (use closed = false for a line))",
                function(w) w:add_obstacle({ 0, 0, 1, 0, 2, 0 }, { side = "enclosure" }) end },
        })
    end)
end)

describe("set_obstacle_points", function()
    it("reshapes an obstacle in place: same id, closed flag, side and z range", function()
        local w = rvo.new_world {}
        local a = w:add_obstacle { 0, 0, 1, 0, 1, 1 }
        local b = w:add_obstacle(CW, { side = "solid" })
        local c = w:add_obstacle({ 10, 0, 11, 0, 12, 1 }, { closed = false })
        w:set_obstacle_z_range(b, 0, 3)
        -- more points, then fewer: the obstacles after it keep theirs
        w:set_obstacle_points(b, { 5, 5, 5, 9, 7, 11, 9, 9, 9, 5 }) -- clockwise: stored counter-clockwise
        local xy, closed = w:obstacle_points(b)
        assert.is_true(closed)
        assert.is_true(area2(xy) > 0)
        assert.are.same({ 5, 5 }, { xy[1], xy[2] })
        assert.are.same({ 10, 0, 11, 0, 12, 1 }, (w:obstacle_points(c)))
        assert.are.same({ 0, 0, 1, 0, 1, 1 }, (w:obstacle_points(a)))
        w:set_obstacle_points(b, { 5, 5, 6, 5, 6, 6 })
        assert.are.same({ 5, 5, 6, 5, 6, 6 }, (w:obstacle_points(b)))
        assert.are.same({ 10, 0, 11, 0, 12, 1 }, (w:obstacle_points(c)))
        w:set_obstacle_points(c, { 20, 0, 21, 0 })
        xy, closed = w:obstacle_points(c)
        assert.are.same({ 20, 0, 21, 0 }, xy)
        assert.is_false(closed)
        assert.are.same({ a, b, c }, (w:obstacles()))
        assert.are.same({ c }, (w:query_obstacles(20.5, 0.2, 0.5)))
        -- the z range stays: an agent above it walks through
        local up = w:add_agent(3, 5.3, { z = 5, height = 1 })
        for _ = 1, 120 do
            w:set_pref_velocity(up, 2, 0)
            w:step()
        end
        local ux, uy = w:position(up)
        assert.is_true(ux > 6.5 and math.abs(uy - 5.3) < 1e-4) -- straight through, not deflected
        w:destroy()
    end)

    it("moves where agents are blocked", function()
        local w = rvo.new_world {}
        local o = w:add_obstacle { 20, -2, 24, -2, 24, 2, 20, 2 }
        local ag = w:add_agent(-6, 0)
        w:set_obstacle_points(o, { -2, -0.1, 2, -0.1, 2, 0.1, -2, 0.1 }) -- now a thin wall across its way
        local worst = math.huge
        for _ = 1, 300 do
            w:set_pref_velocity(ag, 2, 0)
            w:step()
            local x, y = w:position(ag)
            worst = math.min(worst, support.segment_distance(x, y, -2, 0, 2, 0))
        end
        assert.is_true(worst >= 0.5, "clearance " .. worst)
        w:destroy()
    end)

    it("survives a snapshot: the loaded copy reshapes as the original", function()
        local w = rvo.new_world {}
        local o = w:add_obstacle(CCW, { side = "enclosure" })
        local copy = rvo.load(w:save())
        for _, x in ipairs { w, copy } do
            x:set_obstacle_points(o, { 0, 0, 3, 0, 3, 3, 0, 3 })
        end
        assert.are.same(w:obstacle_points(o), copy:obstacle_points(o))
        assert.is_true(area2((copy:obstacle_points(o))) < 0)
        assert.are.equal(w:save(), copy:save())
        w:destroy()
        copy:destroy()
    end)

    it("rejects bad input and keeps the old points", function()
        local o
        local function prep(w) o = w:add_obstacle(CCW) end
        local cases = {
            { "bad argument #1 to 'set_obstacle_points' (number expected, got nil)",
                function(w) w:set_obstacle_points(nil, CCW) end, prep },
            { "bad argument #2 to 'set_obstacle_points' (table expected, got nil)",
                function(w) w:set_obstacle_points(o) end, prep },
            { "bad argument #1 to 'set_obstacle_points' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:set_obstacle_points(o + 1000, CCW) end, prep },
            { "bad argument #2 to 'set_obstacle_points' (even number of coordinates expected, got 3)",
                function(w) w:set_obstacle_points(o, { 0, 0, 1 }) end, prep },
            { "bad argument #2 to 'set_obstacle_points' (number expected at index 2, got string)",
                function(w) w:set_obstacle_points(o, { 0, "0", 1, 1 }) end, prep },
            { "bad argument #2 to 'set_obstacle_points' (coordinate 3 must be finite and within [-1e9, 1e9])",
                function(w) w:set_obstacle_points(o, { 0, 0, inf, 1, 2, 2 }) end, prep },
            { "bad argument #2 to 'set_obstacle_points' (an obstacle needs at least 2 distinct points)",
                function(w) w:set_obstacle_points(o, { 1, 1, 1, 1 }) end, prep },
            { "bad argument #2 to 'set_obstacle_points' (a closed obstacle needs a non-zero area"
                .. " (use closed = false for a line))",
                function(w) w:set_obstacle_points(o, { 0, 0, 1, 1, 2, 2 }) end, prep },
        }
        support.run_cases(rvo, cases)
        -- the points stay as they were
        local w = rvo.new_world {}
        prep(w)
        pcall(w.set_obstacle_points, w, o, { 0, 0, 1, 1, 2, 2 })
        assert.are.same(CCW, (w:obstacle_points(o)))
        w:destroy()
    end)
end)

describe("set_obstacle_velocity", function()
    it("moves an obstacle every step; agents in its way are pushed ahead, never left inside", function()
        local w = rvo.new_world {}
        local o = w:add_obstacle { -0.1, -5, 0.1, -5, 0.1, 5, -0.1, 5 }
        assert.are.same({ 0, 0 }, { w:obstacle_velocity(o) })
        w:set_obstacle_velocity(o, 30, 0) -- half a metre per step
        assert.are.same({ 30, 0 }, { w:obstacle_velocity(o) })
        local ids = {}
        for k = 0, 11 do ids[#ids + 1] = w:add_agent(2 + 1.1 * (k % 3), -3 + 1.5 * math.floor(k / 3)) end
        for step = 1, 20 do
            w:step()
            local xy = w:obstacle_points(o)
            local left = xy[1]
            assert.is_true(math.abs(left - (-0.1 + 0.5 * step)) < 1e-3)
            for _, a in ipairs(ids) do
                local x, y = w:position(a)
                assert.is_false(math.abs(y) < 5 and x < left + 0.2, "agent inside or behind the wall")
            end
        end
        w:set_obstacle_velocity(o, 0, 0)
        local before = w:obstacle_points(o)
        w:step()
        assert.are.same(before, (w:obstacle_points(o)))
        w:destroy()
    end)

    it("survives a snapshot", function()
        local w = rvo.new_world {}
        local o = w:add_obstacle { 0, 0, 1, 0, 1, 1 }
        w:set_obstacle_velocity(o, 1, -2)
        local copy = rvo.load(w:save())
        assert.are.same({ 1, -2 }, { copy:obstacle_velocity(o) })
        w:step()
        copy:step()
        assert.are.equal(w:save(), copy:save())
        w:destroy()
        copy:destroy()
    end)

    it("rejects bad input and leaves the world as it was", function()
        local o
        local function prep(w) o = w:add_obstacle(CCW) end
        support.run_cases(rvo, {
            { "bad argument #1 to 'set_obstacle_velocity' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:set_obstacle_velocity(o + 1000, 1, 0) end, prep },
            { "bad argument #2 to 'set_obstacle_velocity' (number expected, got nil)",
                function(w) w:set_obstacle_velocity(o) end, prep },
            { "bad argument #2 to 'set_obstacle_velocity' (vx must be finite)",
                function(w) w:set_obstacle_velocity(o, nan, 0) end, prep },
            { "bad argument #3 to 'set_obstacle_velocity' (vy must be within [-1e9, 1e9])",
                function(w) w:set_obstacle_velocity(o, 0, 2e9) end, prep },
            { "bad argument #1 to 'obstacle_velocity' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:obstacle_velocity(0) end, prep },
            { "bad argument #1 to 'obstacle_velocity' (number expected, got string)",
                function(w) w:obstacle_velocity("1") end, prep },
        })
    end)
end)
