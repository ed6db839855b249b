-- rvo.surround: the two-phase surround attack with 24 units (band reached
-- and kept, no overlap, even spacing), a moving target, a wall, against
-- plain ORCA; the tangential projection itself; misuse.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local surround = require("rvo.surround")
local error_of = support.error_of

local OTHER = rawget(_G, "jit") and "lua5.4" or "luajit"

-- Units of radius 0.5 start in a 4-wide column 14 m left of a target of
-- radius 0.5 (weight 0: it does not yield); attack radius 5, band
-- [4.5, 5], dt 0.1, 600 steps. scene: "still", "moving" (the target walks
-- at (0.4, 0.1) m/s) or "wall" (16 units, a wall at x = 3.5 cuts the ring).
-- Returns the measurements (see the end) and the final positions as "%a".
local SCENE_SRC = [==[
local scene, hold, steps = ...
local rvo = require("rvo")
local surround = require("rvo.surround")
local atan2 = math.atan2 or math.atan
local R, TOL = 5, 0.5
local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2, neighbor_dist = 6, max_neighbors = 10,
    time_horizon = 1.5, time_horizon_obst = 1 }
local target = w:add_agent(0, 0, { weight = 0 })
if scene == "wall" then w:add_obstacle({ 3.5, -20, 3.5, 20 }, { closed = false }) end
local n = scene == "wall" and 16 or 24
local units = {}
for i = 0, n - 1 do
    local col, row = i % 4, math.floor(i / 4)
    units[#units + 1] = w:add_agent(-14 - 1.3 * col - 0.05 * (row % 2), -3.25 + 1.3 * row)
end
local s = surround.new(w, { target = target, attack_radius = R, tolerance = TOL, hold = hold, probes = hold })
for _, id in ipairs(units) do s:add(id) end
local entered, lo, hi = {}, {}, {}
local worst, all_in, max_x = -math.huge, nil, -math.huge
local all = { target }
for _, id in ipairs(units) do all[#all + 1] = id end
for step = 1, steps do
    if scene == "moving" then w:set_pref_velocity(target, 0.4, 0.1) end
    s:step()
    local tx, ty = w:position(target)
    local in_band = 0
    for _, id in ipairs(units) do
        local x, y = w:position(id)
        max_x = math.max(max_x, x)
        local d = math.sqrt((x - tx) ^ 2 + (y - ty) ^ 2)
        if d >= R - TOL and d <= R then
            in_band = in_band + 1
            entered[id] = entered[id] or step
        end
        if entered[id] then
            lo[id] = math.min(lo[id] or math.huge, d)
            hi[id] = math.max(hi[id] or -math.huge, d)
        end
    end
    for i = 1, #all do
        local x, y = w:position(all[i])
        for k = i + 1, #all do
            local x2, y2 = w:position(all[k])
            worst = math.max(worst, 1 - math.sqrt((x - x2) ^ 2 + (y - y2) ^ 2))
        end
    end
    if in_band == n and not all_in then all_in = step end
end
local tx, ty = w:position(target)
local angles, in_band, left, drift, holders = {}, 0, 0, 0, 0
local where = {}
for _, id in ipairs(units) do
    local x, y = w:position(id)
    where[#where + 1] = string.format("%a %a", x, y)
    local d = math.sqrt((x - tx) ^ 2 + (y - ty) ^ 2)
    if d >= R - TOL and d <= R then in_band = in_band + 1 end
    if s:phase(id) == "hold" then holders = holders + 1 end
    local a = atan2(y - ty, x - tx)
    angles[#angles + 1] = a < 0 and a + 2 * math.pi or a
    if entered[id] then
        drift = math.max(drift, hi[id] - lo[id])
        if lo[id] < R - TOL or hi[id] > R then left = left + 1 end
    end
end
table.sort(angles)
local gap = 0
for i = 1, #angles do
    gap = math.max(gap, (i < #angles and angles[i + 1] or angles[1] + 2 * math.pi) - angles[i])
end
return { n = n, all_in = all_in, in_band = in_band, left = left, drift = drift, worst = worst / 1,
    gap = gap / (2 * math.pi / n), holders = holders, max_x = max_x }, table.concat(where, "\n")
]==]

local function run(scene, hold, steps)
    return support.load(SCENE_SRC, "=surround")(scene, hold, steps or 600)
end

local shell_ok = support.shell_ok

describe("rvo.surround", function()
    it("brings 24 units onto the ring and keeps them there, evenly and without overlap", function()
        local r = run("still", true)
        -- measured (docs/quality.md): every unit in the band from step 201; drift 0.297 m,
        -- worst overlap 0.08%, largest gap 1.07x the even share
        assert.is_not_nil(r.all_in, "not every unit reached the band")
        assert.are.equal(24, r.in_band)
        assert.are.equal(24, r.holders)
        assert.are.equal(0, r.left)          -- none left the band once in it
        assert.is_true(r.drift <= 0.5, "radial drift " .. r.drift)
        assert.is_true(r.worst <= 0.02, "overlap " .. r.worst) -- the issue's bound: 2% of ri + rj
        assert.is_true(r.gap <= 2, "largest gap " .. r.gap .. "x the mean")
    end)

    it("does much better than plain ORCA toward the ring", function()
        local s = run("still", true)
        local p = run("still", false)
        -- measured (docs/quality.md): plain ORCA gets every unit to the band once
        -- (step 252), but every one is pushed out of it again (drift 4.2 m
        -- against 0.30), gap 4.0x against 1.1x
        assert.are.equal(0, s.left)
        assert.is_true(p.left > 12 and p.drift > 1, "plain drift " .. p.drift)
        assert.is_true(p.drift > 5 * s.drift)
        assert.is_true(p.gap > 2 * s.gap, p.gap .. " vs " .. s.gap)
    end)

    it("follows a moving target", function()
        local r = run("moving", true)
        -- measured (docs/quality.md): all in the band from step 240, drift 0.323 m, 0.10%
        assert.is_not_nil(r.all_in)
        assert.are.equal(24, r.in_band)
        assert.are.equal(0, r.left)
        assert.is_true(r.worst <= 0.02, "overlap " .. r.worst)
        assert.is_true(r.gap <= 2, "largest gap " .. r.gap)
    end)

    it("holds the reachable part of the ring beside a wall", function()
        local r = run("wall", true)
        -- measured (docs/quality.md): 16/16 in the band from step 180, none left it, 0.06% overlap
        assert.is_true(r.in_band >= 15, "in band " .. r.in_band)
        assert.are.equal(0, r.left)
        assert.is_true(r.worst <= 0.02, "overlap " .. r.worst)
        assert.is_true(r.max_x <= 3.5 - 0.5 + 0.02, "crossed the wall: " .. r.max_x)
    end)

    it("runs bit-identically on the other runtime", function()
        if not shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        local _, mine = run("moving", true, 150)
        local script = os.tmpname()
        local f = assert(io.open(script, "w"))
        f:write("local _, p = assert((loadstring or load)(", string.format("%q", SCENE_SRC),
            "))('moving', true, 150) io.write(p)\n")
        f:close()
        local pipe = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
        local theirs = pipe:read("*a")
        pipe:close()
        os.remove(script)
        assert.are.equal(mine, theirs)
    end)

    it("projects a holder's avoidance onto the ring's tangent", function()
        local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2, time_horizon = 2 }
        local s = surround.new(w, { target = { 0, 0 }, attack_radius = 3, tolerance = 0.5, spread = false })
        local holder = w:add_agent(-2.75, 0)
        s:add(holder)
        -- a newcomer runs at the holder from outside, slightly off-centre
        local newcomer = w:add_agent(-6, 0.3, { vx = 2, pvx = 2 })
        s:before_solve()
        assert.are.equal("hold", s:phase(holder))
        w:set_pref_velocity(newcomer, 2, 0) -- not a unit: straight at the holder
        w:solve()
        local ox, oy = w:new_velocity(holder)
        -- ORCA's push V has a radial part (toward the target) and a tangential one
        assert.is_true(ox > 0.01 and math.abs(oy) > 0.1, "push " .. ox .. ", " .. oy)
        s:after_solve()
        local vx, vy = w:new_velocity(holder)
        -- V1: the radial part is gone (the mid-band term is 0 here), the tangential part kept
        assert.is_true(math.abs(vx) < 1e-6, "radial " .. vx)
        assert.is_true(math.abs(vy - oy) < 1e-6)
        w:integrate()
    end)

    it("manages units, phases and targets", function()
        local w = rvo.new_world { time_step = 0.1 }
        local boss = w:add_agent(0, 0)
        local a, b = w:add_agent(-10, 0), w:add_agent(10, 0)
        local s = surround.new(w, { target = boss })
        s:add(a); s:add(b); s:add(a)
        assert.are.same({ a, b }, s:unit_ids())
        assert.are.equal("approach", s:phase(a))
        assert.is_nil(s:phase(boss))
        s:remove(b)
        assert.are.same({ a }, s:unit_ids())
        s:set_target(5, 5, 1, 0)
        assert.are.same({ 5, 5, 1, 0 }, { s:target() })
        s:set_target(boss)
        s:step()
        local vx = w:velocity(a)
        assert.is_true(vx > 0)                 -- heading for the ring
        w:remove_agent(a)
        s:step()                               -- removed units are dropped
        assert.are.same({}, s:unit_ids())
    end)

    it("rejects bad input and calls in the wrong phase, leaving the world as it was", function()
        local w = rvo.new_world { time_step = 0.1 }
        local boss = w:add_agent(0, 0)
        local a = w:add_agent(-10, 0)
        local gone = w:add_agent(3, 3)
        w:remove_agent(gone)
        local s = surround.new(w, { target = boss })
        local cases = {
            { "bad argument #1 to 'new' (world expected, got nil)", function() surround.new() end },
            { "bad argument #2 to 'new' (options table expected, got nil)", function() surround.new(w) end },
            { "bad argument #2 to 'new' (target is required: an agent id or a point {x, y})",
                function() surround.new(w, {}) end },
            { "bad argument #2 to 'new' (target agent " .. tostring(gone) .. " is unknown or removed)",
                function() surround.new(w, { target = gone }) end },
            { "bad argument #2 to 'new' (target must be an agent id or a point {x, y} within [-1e9, 1e9])",
                function() surround.new(w, { target = { 1 } }) end },
            { "bad argument #2 to 'new' (unknown option 'radius')",
                function() surround.new(w, { target = boss, radius = 2 }) end },
            { "bad argument #2 to 'new' (attack_radius must be a finite number > 0, got 0)",
                function() surround.new(w, { target = boss, attack_radius = 0 }) end },
            { "bad argument #2 to 'new' (tolerance must be > 0 and < attack_radius, got 3)",
                function() surround.new(w, { target = boss, tolerance = 3 }) end },
            { "bad argument #2 to 'new' (hold must be a boolean, got number)",
                function() surround.new(w, { target = boss, hold = 1 }) end },
            { "bad argument #1 to 'add' (unknown or removed agent id " .. tostring(gone) .. ")",
                function() s:add(gone) end },
            { "bad argument #1 to 'add' (the target cannot surround itself)", function() s:add(boss) end },
            { "bad argument #1 to 'set_target' (need an agent id, or x and y within [-1e9, 1e9])",
                function() s:set_target(1 / 0, 0) end },
            { "bad argument #1 to 'before_solve' (dt must be a number in [1e-45, 3.4e38], got 0)",
                function() s:before_solve(0) end },
            { "bad argument #0 to 'after_solve' (call it between world:solve and world:integrate)",
                function() s:after_solve() end },
            { "bad argument #0 to 'step' (surround expected: call it as s:step(...))", function() s.step() end },
        }
        for _, case in ipairs(cases) do
            assert.are.equal(case[1], error_of(case[2]))
        end
        s:add(a)
        w:solve()
        assert.are.equal("bad argument #0 to 'after_solve' (call before_solve first)",
            error_of(function() s:after_solve() end))
        w:integrate()
        w:remove_agent(boss)
        assert.are.equal("bad argument #0 to 'before_solve' (the target agent was removed: set_target first)",
            error_of(function() s:before_solve() end))
        assert.are.same({ -10, 0 }, { w:position(a) })
        s:set_target(0, 0)
        s:step()
    end)

    it("saves and loads between before_solve and after_solve, and goes on bit for bit", function()
        local function scene()
            local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2 }
            local boss = w:add_agent(0, 0, { weight = 0 })
            local s = surround.new(w, { target = boss, attack_radius = 3 })
            for k = 0, 11 do s:add(w:add_agent(8 * math.cos(k * 0.52), 8 * math.sin(k * 0.52))) end
            for _ = 1, 30 do s:step() end
            s:before_solve()
            w:solve()
            return w, s
        end
        local w, s = scene()
        local w2 = rvo.load(w:save())
        local s2 = surround.load(w2, s:save())
        for _, pair in ipairs { { w, s }, { w2, s2 } } do
            pair[2]:after_solve()
            pair[1]:integrate()
            for _ = 1, 40 do pair[2]:step() end
        end
        assert.are.same(w:positions(), w2:positions())
        assert.are.equal(s:save(), s2:save())
        w:destroy()
        w2:destroy()
    end)
end)
