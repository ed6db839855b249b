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
