-- rvo.render (trace files, still and animated SVG) and scripts/render.
local rvo = require("rvo")
local trace = require("rvo.trace")
local render = require("rvo.render")

local function tmpname()
    local n = os.tmpname()
    os.remove(n)
    return n
end

local function count(s, pattern)
    local n = 0
    for _ in s:gmatch(pattern) do n = n + 1 end
    return n
end

-- Four agents crossing a block; one joins at record 6, one leaves after 10.
local function recorded()
    local w = rvo.new_world { time_step = 0.25, radius = 0.5, max_speed = 2 }
    local block = { -1, -1, 1, -1, 1, 1, -1, 1 }
    w:add_obstacle(block)
    local ids = {}
    for i, p in ipairs { { -8, 0.2 }, { 8, -0.2 }, { 0.3, 8 }, { -0.3, -8 } } do
        ids[i] = w:add_agent(p[1], p[2], { pvx = -p[1] / 4, pvy = -p[2] / 4, radius = 0.4 + 0.1 * i })
    end
    local tr = trace.new(w)
    local late, gone
    for step = 1, 20 do
        if step == 5 then late = w:add_agent(5, 5, { pvx = -1 }) end
        if step == 10 then w:remove_agent(ids[4]); gone = ids[4] end
        w:step()
        tr:record()
    end
    return w, tr, block, late, gone
end

describe("rvo.render", function()
    it("saves and loads a trace bit for bit", function()
        local w, tr, block, late, gone = recorded()
        local file = tmpname()
        local radius = { [late] = 0.5 }
        for _, p in ipairs(tr:paths()) do
            radius[p.id] = radius[p.id] or (w:is_valid(p.id) and w:radius(p.id) or 0.7)
        end
        assert.is_true(render.save(tr, file, { dt = 0.25, obstacles = { { pts = block } },
            radius = function(id) return radius[id] end }))
        local run = assert(render.load(file))
        os.remove(file)
        assert.are.equal(0.25, run.dt)
        assert.are.equal(tr:count(), run.records)
        assert.are.same({ { closed = true, pts = block } }, run.obstacles)
        local paths = tr:paths()
        assert.are.equal(#paths, #run.agents)
        for i, p in ipairs(paths) do
            local a = run.agents[i]
            assert.are.equal(p.id, a.id)
            assert.are.equal(p.first, a.first)
            assert.are.equal(radius[p.id], a.radius)
            assert.are.same(p.points, a.points) -- exact doubles
        end
        assert.is_true(run.agents[5].first > 1)                      -- the late one
        assert.is_true(#run.agents[4].points / 2 < run.records)      -- the removed one
        assert.are.equal(gone, run.agents[4].id)
    end)

    it("draws a still and an animated picture", function()
        local _, tr = recorded()
        local file = tmpname()
        assert(render.save(tr, file, { obstacles = { { pts = { 0, 3, 2, 3 }, closed = false } } }))
        local run = assert(render.load(file))
        os.remove(file)
        local still = render.svg(run, { title = "t" }):tostring()
        assert.are.equal(#run.agents, count(still, "<circle "))
        assert.are.equal(1, count(still, "<polyline "))
        local anim = render.animated_svg(run, { frames = 8, duration = 4 }):tostring()
        assert.are.equal(#run.agents, count(anim, '<animate attributeName="cx"'))
        assert.are.equal(2 * #run.agents, count(anim, 'dur="4s" repeatCount="indefinite" values=')) -- cx, cy
        -- 8 frames: 8 values per animation
        local values = anim:match('attributeName="cx"[^>]- values="([^"]*)"')
        assert.are.equal(8, count(values, "[^;]+"))
        -- the late and the removed agent blink in and out; the others do not
        assert.are.equal(2, count(anim, 'attributeName="opacity"'))
    end)

    it("colours agents by a function, with a legend and a scale bar under the run", function()
        local run = assert(render.parse("rvo-trace 1\nagent 1 1 0.5 0 0 4 0\nagent 2 1 0.5 0 2 4 2\n"))
        local opts = { colour = function(a) return a.id == 1 and "#d94" or "#39d" end,
            legend = { { "squad A", "#d94" }, { "squad B", "#39d" } }, scale = 2 }
        local still = render.svg(run, opts):tostring()
        assert.are.equal(2, count(still, 'stroke="#d94"') + count(still, 'stroke="#39d"')) -- the paths
        assert.are.equal(2, count(still, 'fill="#d94"'))  -- a final disc and a legend dot
        assert.is_truthy(still:find(">squad A</text>", 1, true))
        assert.is_truthy(still:find(">2 m</text>", 1, true))
        assert.are.equal(3, count(still, "<line "))       -- the bar and its two ends
        -- the strip under the run: the view box grew downwards only
        local plain = render.svg(run):tostring()
        local function box(t) return t:match('viewBox="([^"]+)"') end
        local px, py, pw, ph = box(plain):match("(%S+) (%S+) (%S+) (%S+)")
        local kx, ky, kw, kh = box(still):match("(%S+) (%S+) (%S+) (%S+)")
        assert.are.same({ px, py, pw }, { kx, ky, kw })
        assert.is_true(tonumber(kh) > tonumber(ph))
        local anim = render.animated_svg(run, opts):tostring()
        assert.are.equal(1, count(anim, '<circle cx="[^"]*" cy="[^"]*" r="[^"]*" fill="#d94">'))
        assert.has_error(function() render.svg(run, { scale = 0 }) end,
            "bad argument #2 to 'svg' (scale must be a finite number > 0)")
        assert.has_error(function() render.svg(run, { legend = { { "a" } } }) end,
            "bad argument #2 to 'svg' (legend must be a list of { label, colour })")
        assert.has_error(function() render.animated_svg(run, { colour = "red" }) end,
            "bad argument #2 to 'animated_svg' (colour must be a function (agent, i) -> colour)")
    end)

    it("gives the same bytes on every run (and runtime)", function()
        local _, tr = recorded()
        local f1, f2 = tmpname(), tmpname()
        assert(render.save(tr, f1, { dt = 0.25 }))
        assert(render.save(tr, f2, { dt = 0.25 }))
        local a = assert(io.open(f1, "rb")):read("*a")
        local b = assert(io.open(f2, "rb")):read("*a")
        os.remove(f1); os.remove(f2)
        assert.are.equal(a, b)
        local run = assert(render.parse(a))
        assert.are.equal(render.animated_svg(run):tostring(), render.animated_svg(run):tostring())
    end)

    -- A gate sliding up and back, a wall removed, a block added late, a
    -- standing pillar; one agent walking through.
    local function gate_run()
        local w = rvo.new_world { time_step = 0.25 }
        local gate = w:add_obstacle { -0.5, -3, 0.5, -3, 0.5, 3, -0.5, 3 }
        w:set_obstacle_velocity(gate, 0, 2)
        local wall = w:add_obstacle { 5, -5, 6, -5, 6, 5, 5, 5 }
        local pillar = { -3, 4, -2, 4, -2, 5 }
        w:add_obstacle(pillar)
        w:add_agent(-6, 0, { pvx = 1.5 })
        local tr = trace.new(w)
        for s = 1, 16 do
            if s == 6 then w:set_obstacle_velocity(gate, 0, -2) end
            if s == 9 then w:remove_obstacle(wall) end
            if s == 12 then w:add_obstacle { 0, 8, 1, 8, 1, 9 } end
            w:step(); tr:record()
        end
        return tr, gate, pillar
    end

    it("saves, loads and draws obstacles that move, come and go", function()
        local tr, gate, pillar = gate_run()
        local file = tmpname()
        assert(render.save(tr, file, { dt = 0.25 }))
        local text = assert(io.open(file, "rb")):read("*a")
        local run = assert(render.load(file))
        os.remove(file)
        assert.are.equal("rvo-trace 2\n", text:sub(1, 12))
        -- the pillar stood all along: a plain obstacle line; the rest are tracks
        assert.are.same({ { closed = true, pts = pillar } }, run.obstacles)
        local kept = tr:obstacles()
        assert.are.equal(3, #run.tracks)
        for i, t in ipairs(run.tracks) do
            local r = kept[i == 3 and 4 or i]
            assert.are.equal(r.id, t.id)
            assert.are.equal(r.first, t.first)
            assert.are.equal(r.gone, t.gone)
            assert.are.same(r.shapes, t.shapes) -- exact doubles
            assert.are.same(r.velocities, t.velocities)
        end
        assert.are.equal(gate, run.tracks[1].id)
        assert.are.equal(17, #run.tracks[1].shapes) -- it moved every step
        assert.are.equal(10, run.tracks[2].gone)
        assert.are.equal(13, run.tracks[3].first)
        -- still: 5 of the gate's outlines dashed, its last filled with its
        -- velocity arrow; the removed wall dashed
        local still = render.svg(run):tostring()
        assert.are.equal(6, count(still, "stroke%-dasharray"))
        assert.are.equal(1, count(still, "<line "))
        assert.are.equal(3, count(still, '<polygon [^>]*fill="#9aa0a8"')) -- pillar, gate, late block
        -- animated: the gate's outline changes; the wall and the late block show only while there
        local anim = render.animated_svg(run, { frames = 17, duration = 4 }):tostring()
        assert.are.equal(1, count(anim, 'attributeName="points"'))
        local values = anim:match('attributeName="points"[^>]- values="([^"]*)"')
        assert.are.equal(17, count(values, "[^;]+"))
        assert.is_truthy(values:find("-0.5,1 0.5,1 0.5,-5 -0.5,-5", 1, true)) -- 2 m up at record 6
        assert.are.equal(2, count(anim, '<polygon[^>]*><animate attributeName="opacity"'))
        -- a trace without obstacles is a version 1 file, as before
        local w = rvo.new_world()
        w:add_agent(0, 0)
        local f2 = tmpname()
        assert(render.save(trace.new(w), f2))
        assert.are.equal("rvo-trace 1\n", assert(io.open(f2, "rb")):read("*a"):sub(1, 12))
        os.remove(f2)
    end)

    it("rejects bad files with the line at fault", function()
        local cases = {
            { "", "not an rvo trace" },
            { "rvo-trace 3\n", "trace version 3 is not supported" },
            { "rvo-trace 1\ntrack 1 1 1 0\n", "line 2: track needs trace version 2" },
            { "rvo-trace 2\ntrack 1 2 1 0\n", "line 2: track needs" },
            { "rvo-trace 2\ntrack 1 1 3 2\n", "line 2: track needs" },
            { "rvo-trace 2\ntrack 1 1 1 0\ntrack 1 1 1 0\n", "line 3: track needs a new id" },
            { "rvo-trace 2\nshape 1 1 0 0 1 0 1 1\n", "line 2: shape needs the id of a track" },
            { "rvo-trace 2\ntrack 1 1 2 0\nshape 1 1 0 0 1 0 1 1\n", "line 3: shape needs" },
            { "rvo-trace 2\ntrack 1 1 1 0\nshape 1 1 0 0 1\n", "line 3: shape needs at least 2 points" },
            { "rvo-trace 2\ntrack 1 1 1 4\nshape 1 1 0 0 1 0\nshape 1 1 0 0 2 0\n", "line 4: shape needs" },
            { "rvo-trace 2\ntrack 1 1 1 4\nshape 1 1 0 0 1 0\nvelocity 1 4 0 1\n", "line 4: velocity needs" },
            { "rvo-trace 2\ntrack 1 1 1 0\nshape 1 1 0 0 1 0\nvelocity 1 2 0\n", "line 4: velocity needs vx" },
            { "rvo-trace 2\ntrack 1 1 1 0\n", "track 1 has no shape" },
            { "rvo-trace 1\nagent 1 1 0.5 0 nan\n", "line 2: 'nan' is not a finite number" },
            { "rvo-trace 1\nagent 1 1 0 0 0\n", "line 2: agent needs" },
            { "rvo-trace 1\nagent 1 0 0.5 0 0\n", "line 2: agent needs" },
            { "rvo-trace 1\nobstacle 2 0 0 1 1\n", "line 2: obstacle needs" },
            { "rvo-trace 1\nobstacle 1 0 0\n", "line 2: obstacle needs" },
            { "rvo-trace 1\nrecords 1\nagent 1 1 0.5 0 0 1 1\n", "more than the 1 the trace declares" },
            { "rvo-trace 1\nwhat 1\n", "line 2: unknown item 'what'" },
        }
        for _, c in ipairs(cases) do
            local run, err = render.parse(c[1])
            assert.is_nil(run)
            assert.is_truthy(err:find(c[2], 1, true), err)
        end
        local run, err = render.load("/nonexistent/x.trace")
        assert.is_nil(run)
        assert.is_string(err)
    end)

    it("rejects bad arguments", function()
        local _, tr = recorded()
        assert.has_error(function() render.save({}, "x") end, "bad argument #1 to 'save' (trace expected, got table)")
        assert.has_error(function() render.save(tr, 5) end, "bad argument #2 to 'save' (string expected, got number)")
        assert.has_error(function() render.save(tr, "x", { dt = -1 }) end,
            "bad argument #3 to 'save' (dt must be a finite number >= 0)")
        assert.has_error(function() render.save(tr, "x", { obstacles = { { pts = { 0, 0, 1 } } } }) end,
            "bad argument #3 to 'save' (obstacle 1 needs an even number (>= 4) of coordinates)")
        assert.has_error(function() render.svg(nil) end, "bad argument #1 to 'svg' (run expected: see render.load)")
        local run = assert(render.parse("rvo-trace 1\nagent 1 1 0.5 0 0 1 1\n"))
        assert.has_error(function() render.animated_svg(run, { duration = 0 }) end,
            "bad argument #2 to 'animated_svg' (duration must be a finite number > 0)")
        assert.has_error(function() render.animated_svg(run, { frames = 1.5 }) end,
            "bad argument #2 to 'animated_svg' (frames must be an integer >= 2)")
    end)

    it("scripts/render turns a trace file into an SVG", function()
        if package.config:sub(1, 1) == "\\" then
            pending("scripts/render is a shell script: not run on Windows")
            return
        end
        local _, tr = recorded()
        local file, out = tmpname(), tmpname()
        assert(render.save(tr, file, { dt = 0.25 }))
        local p = io.popen("scripts/render --animate --title demo " .. file .. " " .. out .. " 2>&1")
        local said = p:read("*a")
        p:close()
        assert.is_truthy(said:find("animated", 1, true), said)
        local svg = assert(io.open(out, "rb")):read("*a")
        assert.is_truthy(svg:find("<animate", 1, true))
        assert.is_truthy(svg:find(">demo</text>", 1, true))
        p = io.popen("scripts/render " .. file .. " 2>&1; echo status=$?")
        said = p:read("*a")
        p:close()
        assert.is_truthy(said:find("usage:", 1, true))
        assert.is_truthy(said:find("status=2", 1, true))
        os.remove(file); os.remove(out)
    end)
end)
