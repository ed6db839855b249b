-- rvo.trace: records paths through a world's public methods and draws them.
local trace = require("rvo.trace")
local svg = require("rvo.svg")

-- A stand-in world with the two public methods trace uses.
local function fake_world()
    local w = { list = {} }
    function w:add(id, x, y) self.list[#self.list + 1] = { id = id, x = x, y = y } end
    function w:remove(id)
        for i, a in ipairs(self.list) do
            if a.id == id then table.remove(self.list, i) return end
        end
    end
    function w:move(dx, dy)
        for _, a in ipairs(self.list) do a.x, a.y = a.x + dx, a.y + dy end
    end
    function w:ids(buf)
        buf = buf or {}
        for i, a in ipairs(self.list) do buf[i] = a.id end
        for i = #self.list + 1, #buf do buf[i] = nil end
        return buf
    end
    function w:positions(buf)
        for i, a in ipairs(self.list) do buf[2 * i - 1], buf[2 * i] = a.x, a.y end
        return #self.list
    end
    return w
end

local function raises(fn, msg)
    local ok, err = pcall(fn)
    assert.is_false(ok, "expected an error: " .. msg)
    err = tostring(err)
    assert.are.equal(msg, err:sub(-#msg))
end

describe("rvo.trace", function()
    it("records the starting state and every record() after it", function()
        local w = fake_world()
        w:add(7, 0, 0); w:add(9, 10, 0)
        local tr = trace.new(w)
        for _ = 1, 3 do w:move(1, 2); tr:record() end
        assert.are.equal(4, tr:count())
        assert.are.same({ 0, 0, 1, 2, 2, 4, 3, 6 }, tr:path(7).points)
        assert.are.same({ 10, 0, 11, 2, 12, 4, 13, 6 }, tr:path(9).points)
        local paths = tr:paths()
        assert.are.equal(7, paths[1].id)
        assert.are.equal(9, paths[2].id)
        assert.are.same({ 0, 0, 13, 6 }, tr:bounds())
    end)

    it("starts paths of late agents where they appear and keeps removed ones", function()
        local w = fake_world()
        w:add(1, 0, 0)
        local tr = trace.new(w)
        w:add(2, 5, 5); w:move(1, 0); tr:record()
        w:remove(1); w:move(1, 0); tr:record()
        assert.are.same({ 0, 0, 1, 0 }, tr:path(1).points)
        assert.are.equal(1, tr:path(1).first)
        assert.are.same({ 6, 5, 7, 5 }, tr:path(2).points)
        assert.are.equal(2, tr:path(2).first)
        assert.is_nil(tr:path(3))
    end)

    it("keeps one state in `every` and the last one on finish()", function()
        local w = fake_world()
        w:add(1, 0, 0)
        local tr = trace.new(w, { every = 3 })
        for _ = 1, 4 do w:move(1, 0); tr:record() end
        -- calls 1 (start), 2, 3, 4, 5: kept 1 and 4
        assert.are.same({ 0, 0, 3, 0 }, tr:path(1).points)
        tr:finish()
        assert.are.same({ 0, 0, 3, 0, 4, 0 }, tr:path(1).points)
        tr:finish() -- nothing new
        assert.are.equal(3, tr:count())
    end)

    it("can start empty with record_now = false", function()
        local w = fake_world()
        w:add(1, 0, 0)
        local tr = trace.new(w, { record_now = false })
        assert.are.equal(0, tr:count())
        assert.is_nil(tr:bounds())
    end)

    it("accepts ids() that fills a buffer and returns a count", function()
        local w = fake_world()
        w:add(4, 1, 1)
        local table_ids = w.ids
        function w:ids(buf)
            local t = table_ids(self, buf)
            return #t
        end
        local tr = trace.new(w)
        assert.are.same({ 1, 1 }, tr:path(4).points)
    end)

    it("complains when ids and positions disagree", function()
        local w = fake_world()
        w:add(1, 0, 0)
        function w.positions() return 2 end
        raises(function() trace.new(w) end, "trace: world:ids() gave 1 agents but world:positions() gave 2")
    end)

    it("rejects bad arguments", function()
        raises(function() trace.new(nil) end, "bad argument #1 to 'new' (world expected, got nil)")
        raises(function() trace.new(fake_world(), { every = 0 }) end,
            "bad argument #2 to 'new' (every must be an integer >= 1)")
        raises(function() trace.new(fake_world(), 3) end,
            "bad argument #2 to 'new' (options table expected, got number)")
    end)

    describe("simplify", function()
        it("drops points on a straight line and keeps corners and endpoints", function()
            local flat = { 0, 0, 1, 0, 2, 0, 3, 0, 3, 1, 3, 2 }
            assert.are.same({ 0, 0, 3, 0, 3, 2 }, trace.simplify(flat, 0.01))
        end)
        it("keeps points farther than the tolerance", function()
            local flat = { 0, 0, 1, 0.5, 2, 0 }
            assert.are.same(flat, trace.simplify(flat, 0.4))
            assert.are.same({ 0, 0, 2, 0 }, trace.simplify(flat, 0.6))
        end)
        it("copies unchanged without a tolerance and handles tiny paths", function()
            local flat = { 0, 0, 1, 0, 2, 0 }
            local out = trace.simplify(flat, 0)
            assert.are.same(flat, out)
            assert.are_not.equal(flat, out)
            assert.are.same({ 5, 5 }, trace.simplify({ 5, 5 }, 1))
            assert.are.same({}, trace.simplify({}, 1))
            -- a path that returns to its start
            assert.are.same({ 0, 0, 2, 0, 0, 0 }, trace.simplify({ 0, 0, 1, 0, 2, 0, 1, 0, 0, 0 }, 0.1))
        end)
    end)

    it("draws paths, start and end markers into an svg document", function()
        local w = fake_world()
        w:add(1, 0, 0); w:add(2, 0, 10)
        local tr = trace.new(w)
        for _ = 1, 5 do w:move(1, 0); tr:record() end
        local s = tr:draw(svg.new{ width = 100 }, { tolerance = 0.01 }):tostring()
        local paths, circles = 0, 0
        for _ in s:gmatch("<path ") do paths = paths + 1 end
        for _ in s:gmatch("<circle ") do circles = circles + 1 end
        assert.are.equal(2, paths)
        assert.are.equal(4, circles)
        assert.truthy(s:find('d="M0 0 L5 0"', 1, true))  -- simplified to its endpoints
        assert.truthy(s:find('d="M0 -10 L5 -10"', 1, true))
        local s2 = tr:to_svg{ start_style = false, end_style = false, title = "run" }:tostring()
        assert.is_nil(s2:find("<circle", 1, true))
        assert.truthy(s2:find(">run</text>", 1, true))
        -- styles may be functions of (index, count, id)
        local s3 = tr:to_svg{ path_style = function(i, n, id)
            return { stroke = ("c%d_%d_%d"):format(i, n, id) }
        end }:tostring()
        assert.truthy(s3:find('stroke="c2_2_2"', 1, true))
        assert.are.equal(tr:to_svg():tostring(), tr:to_svg():tostring())
    end)

    it("writes an svg file", function()
        local w = fake_world()
        w:add(1, 0, 0)
        local tr = trace.new(w)
        w:move(1, 1); tr:record()
        local name = os.tmpname()
        assert.is_true(tr:write_svg(name))
        local f = assert(io.open(name, "rb"))
        local content = f:read("*a")
        f:close()
        os.remove(name)
        assert.truthy(content:find("<svg ", 1, true))
    end)

    describe("with a real world", function()
        it("follows agents through steps and removals", function()
            local rvo = require("rvo")
            local world = rvo.new_world{ time_step = 0.25, radius = 0.5, max_speed = 2 }
            local a = world:add_agent(0, 0)
            local b = world:add_agent(10, 0)
            world:set_pref_velocity(a, 1, 0)
            world:set_pref_velocity(b, 0, 1)
            local tr = trace.new(world)
            for _ = 1, 8 do world:step(); tr:record() end
            world:remove_agent(a)
            world:step(); tr:record()
            assert.are.equal(10, tr:count())
            local pa, pb = tr:path(a), tr:path(b)
            assert.are.equal(18, #pa.points)   -- start + 8 steps, then removed
            assert.are.equal(20, #pb.points)
            local ax, ay = pa.points[17], pa.points[18]
            assert.is_true(math.abs(ax - 2) < 0.1 and math.abs(ay) < 0.1)
            local bx, by = world:position(b)
            assert.are.equal(bx, pb.points[19])
            assert.are.equal(by, pb.points[20])
            local s = tr:to_svg():tostring()
            assert.truthy(s:find("<path ", 1, true))
        end)

        it("records obstacles added, removed, reshaped and moving", function()
            local rvo = require("rvo")
            local world = rvo.new_world{ time_step = 0.25 }
            local still = world:add_obstacle({ 5, 0, 6, 0, 6, 1 })
            local gate = world:add_obstacle({ 0, 0, 1, 0, 1, 2, 0, 2 })
            local gone = world:add_obstacle({ -5, 0, -4, 0, -4, 1 })
            world:set_obstacle_velocity(gate, 0, 2)
            local tr = trace.new(world)
            local late, reshaped
            for s = 1, 6 do
                if s == 2 then world:remove_obstacle(gone) end
                if s == 3 then late = world:add_obstacle({ 0, 9, 1, 9 }, { closed = false }) end
                if s == 4 then world:set_obstacle_velocity(gate, 0, 0) end
                if s == 5 then
                    world:set_obstacle_points(still, { 5, 0, 7, 0, 7, 1 })
                    reshaped = 6 -- recorded after the next step
                end
                world:step(); tr:record()
            end
            local obs = tr:obstacles()
            assert.are.same({ still, gate, gone, late }, { obs[1].id, obs[2].id, obs[3].id, obs[4].id })
            -- the standing one: two shapes, the second from the record after the reshape
            assert.are.same({ 1, reshaped }, { obs[1].shapes[1].record, obs[1].shapes[2].record })
            assert.are.same({ 5, 0, 7, 0, 7, 1 }, obs[1].shapes[2].pts)
            assert.are.same({}, obs[1].velocities)
            -- the gate: a shape per record while it moved (records 1..4: steps 1-3 move it), then none
            assert.are.equal(4, #obs[2].shapes)
            assert.are.equal(1.5, obs[2].shapes[4].pts[2]) -- 3 steps of 0.25 s at 2 m/s
            assert.are.same({ { record = 1, vx = 0, vy = 2 }, { record = 5, vx = 0, vy = 0 } }, obs[2].velocities)
            assert.is_nil(obs[2].gone)
            assert.are.equal(3, obs[3].gone) -- removed before the second step: missing from record 3
            assert.are.equal(4, obs[4].first)
            assert.is_false(obs[4].closed)
            assert.is_true(obs[2].closed)
            -- obstacles = false records none
            local none = trace.new(world, { obstacles = false })
            none:record()
            assert.are.same({}, none:obstacles())
            assert.has_error(function() trace.new(world, { obstacles = 1 }) end,
                "bad argument #2 to 'new' (obstacles must be a boolean)")
        end)
    end)
end)
