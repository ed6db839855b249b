-- Snapshots: world:save() and rvo.load(s). A loaded world continues
-- bit-identically to the original, on this runtime and on the other one
-- (the other interpreter loads this one's bytes and the reverse), and bad
-- input gives the same clear error on both.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local error_of = support.error_of

local OTHER = rawget(_G, "jit") and "lua5.4" or "luajit"

-- The scene as source, so that the other interpreter runs the very same
-- code. chunk(rvo) returns build(threads, solver) and drive(w, from, to).
-- Goals come from the ids; only + - * / and sqrt, so both runtimes agree.
local SCENE_SRC = [==[
local rvo = ...
local function build(threads, solver)
    local w = rvo.new_world { time_step = 0.1, neighbor_dist = 6, max_neighbors = 7, threads = threads,
        seed = 977, height_margin = 0.25, solver = solver }
    if solver == "rvo" then w:set_sampling(40, 2.5) end
    local gone = w:add_obstacle { 0, 12, 2, 12, 1, 14 }
    w:add_obstacle { -1, -1, 1, -1, 1, 1, -1, 1 }
    w:add_obstacle { -30, -30, -30, 30, 30, 30, 30, -30 } -- clockwise: an enclosure
    local wall = w:add_obstacle({ 8, -6, 8, 0, 10, 4 }, { closed = false })
    w:set_obstacle_z_range(wall, -1, 1.5)
    w:remove_obstacle(gone)
    local ids = {}
    for i = 1, 40 do
        local k = i % 8
        local x, y = -12 + 3 * k, -12 + 3 * ((i - k) / 8)
        ids[i] = w:add_agent(x, y, { radius = 0.3 + 0.05 * (i % 4), weight = (i % 5) * 0.25,
            groups = i % 3 + 1, mask = i % 7 == 0 and 5 or 0xffffffff, z = i % 11 == 0 and 3 or 0,
            height = i % 2 == 1 and 2 or math.huge, max_speed = 1 + 0.125 * (i % 3) })
    end
    for i = 3, 40, 9 do w:remove_agent(ids[i]) end -- churn the id pool
    w:add_agent(0, 20)
    w:lock(ids[2], 0.5, -0.25)
    return w
end
local function steer(w)
    local ids = w:ids()
    local xy = w:positions()
    local pv = {}
    for i = 1, #ids do
        local gx, gy = (ids[i] % 7 - 3) * 6, (ids[i] % 5 - 2) * 6
        local dx, dy = gx - xy[2 * i - 1], gy - xy[2 * i]
        local d = math.sqrt(dx * dx + dy * dy)
        if d > 1.5 then dx, dy = dx * 1.5 / d, dy * 1.5 / d end
        pv[2 * i - 1], pv[2 * i] = dx, dy
    end
    w:set_pref_velocities(pv)
end
-- Steps from..to, with churn on fixed steps; returns the ids issued.
local function drive(w, from, to)
    local issued = {}
    for s = from, to do
        if s % 37 == 5 then
            issued[#issued + 1] = w:add_agent(s % 9 - 4, -15)
            w:remove_agent(w:ids()[1])
        end
        if s == 150 then issued[#issued + 1] = w:add_obstacle { -14, -2, -12, -2, -13, 0 } end
        steer(w)
        w:solve()
        local first = w:ids()[1]
        local vx, vy = w:new_velocity(first)
        w:set_new_velocity(first, vx * 0.5, vy * 0.5)
        w:integrate()
    end
    return issued
end
return build, drive
]==]

local build, drive = support.load(SCENE_SRC, "=snapshot_scene")(rvo)

local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local function read_file(path)
    local f = assert(io.open(path, "rb"))
    local s = f:read("*a")
    f:close()
    return s
end

local function write_file(path, s)
    local f = assert(io.open(path, "wb"))
    f:write(s)
    f:close()
end

describe("snapshots", function()
    it("continue bit-identically after 100 + 200 steps (every solver, 1 and 2 threads)", function()
        for _, case in ipairs { { 1, "orca" }, { 2, "orca" }, { 1, "ue" }, { 2, "rvo" } } do
            local w = build(case[1], case[2])
            drive(w, 1, 100)
            local s = w:save()
            local l = rvo.load(s)
            assert.are.equal(s, l:save()) -- the loaded world saves the same bytes
            local issued_w = drive(w, 101, 300)
            local issued_l = drive(l, 101, 300)
            assert.are.same(issued_w, issued_l) -- the same ids issued after the load
            assert.is_true(#issued_w >= 5)
            local a, b = w:positions(), l:positions()
            assert.are.equal(#a, #b)
            for i = 1, #a do
                assert.are.equal(string.format("%a", a[i]), string.format("%a", b[i]))
            end
            assert.are.equal(w:save(), l:save(), case[2] .. " on " .. case[1] .. " thread(s)")
            w:destroy()
            l:destroy()
        end
    end)

    it("keep the phase: a world saved between solve and integrate loads solved", function()
        local w = build(1, "orca")
        drive(w, 1, 20)
        w:solve()
        local id = w:ids()[4]
        w:set_new_velocity(id, 0.25, 0.5)
        local l = rvo.load(w:save())
        assert.is_true(l:is_solved())
        assert.are.same({ w:new_velocity(id) }, { l:new_velocity(id) })
        assert.are.same(w:avoiding(), l:avoiding())
        w:integrate()
        l:integrate()
        assert.are.equal(w:save(), l:save())
        -- and settings: time step, solver, rvo2_compat, locks, parameters
        w:set_rvo2_compat(true)
        w:set_solver("ue")
        w:set_time_step(0.05)
        local l2 = rvo.load(w:save())
        assert.is_true(l2:rvo2_compat())
        assert.are.equal("ue", l2:solver())
        assert.are.equal(w:time_step(), l2:time_step())
        assert.is_false(l2:is_solved())
        local ids = w:ids()
        for _, i in ipairs(ids) do
            assert.are.equal(w:is_locked(i), l2:is_locked(i))
            assert.are.equal(w:weight(i), l2:weight(i))
            assert.are.equal(w:mask(i), l2:mask(i))
            assert.are.equal(w:height(i), l2:height(i))
        end
        assert.are.equal(w:obstacle_count(), l2:obstacle_count())
        w:destroy()
        l:destroy()
        l2:destroy()
    end)

    it("leave the original untouched and live on after it is destroyed", function()
        local w = build(1, "orca")
        drive(w, 1, 10)
        local before = w:save()
        local l = rvo.load(before)
        assert.are.equal(before, w:save())
        w:destroy()
        drive(l, 11, 20)
        assert.is_true(l:agent_count() > 0)
        l:destroy()
    end)

    it("reject bad input with the same words on both runtimes, and no world", function()
        local w = build(1, "orca")
        local s = w:save()
        assert.are.equal("bad argument #1 to 'load' (string expected, got nil)", error_of(function() rvo.load() end))
        assert.are.equal("bad argument #1 to 'load' (string expected, got table)", error_of(function() rvo.load {} end))
        assert.are.equal("bad argument #1 to 'load' (string expected, got rvo.world)",
            error_of(function() rvo.load(w) end))
        assert.are.equal("bad argument #1 to 'load' (not an rvo snapshot)", error_of(function() rvo.load("") end))
        assert.are.equal("bad argument #1 to 'load' (not an rvo snapshot)",
            error_of(function() rvo.load("return {}") end))
        assert.are.equal("bad argument #1 to 'load' (snapshot is truncated)",
            error_of(function() rvo.load(s:sub(1, 40)) end))
        assert.are.equal("bad argument #1 to 'load' (snapshot has trailing bytes)",
            error_of(function() rvo.load(s .. "\0") end))
        local flipped = s:sub(1, 99) .. string.char((s:byte(100) + 1) % 256) .. s:sub(101)
        assert.are.equal("bad argument #1 to 'load' (snapshot is corrupted (checksum mismatch))",
            error_of(function() rvo.load(flipped) end))
        local future = s:sub(1, 8) .. "\7" .. s:sub(10)
        assert.are.equal("bad argument #1 to 'load' (snapshot version 7 is not supported (this build reads 1..5))",
            error_of(function() rvo.load(future) end))
        -- every prefix fails, none crashes
        for n = 0, #s - 1, 7 do
            assert.is_false(pcall(rvo.load, s:sub(1, n)))
        end
        -- save on a destroyed world and on a non-world
        w:destroy()
        assert.are.equal("attempt to use a destroyed rvo.world", error_of(function() w:save() end))
        assert.are.equal("calling 'save' on bad self", error_of(function() w.save({}) end))
    end)

    it("cross runtimes: the other interpreter continues this one's save bit-identically, and back", function()
        local r = os.execute("command -v " .. OTHER .. " >/dev/null 2>&1")
        if not (r == true or r == 0) then
            pending(OTHER .. " is not installed")
            return
        end
        local here_at_100 = os.tmpname()
        local there_at_100, there_at_300, there_from_mine = os.tmpname(), os.tmpname(), os.tmpname()
        local w = build(2, "orca")
        drive(w, 1, 100)
        local mine = w:save()
        write_file(here_at_100, mine)
        -- The other runtime: (1) builds the scene and saves at step 100;
        -- (2) loads our bytes, runs 200 steps, saves.
        local script = os.tmpname()
        write_file(script, table.concat({
            "local rvo = require('rvo')",
            "local build, drive = assert((loadstring or load)(" .. string.format("%q", SCENE_SRC)
                .. ", '=snapshot_scene'))(rvo)",
            "local w = build(2, 'orca'); drive(w, 1, 100)",
            "local f = assert(io.open(" .. string.format("%q", there_at_100) .. ", 'wb'))",
            "f:write(w:save()); f:close()",
            "f = assert(io.open(" .. string.format("%q", here_at_100) .. ", 'rb')); local s = f:read('*a'); f:close()",
            "local l = rvo.load(s); drive(l, 101, 300)",
            "f = assert(io.open(" .. string.format("%q", there_from_mine) .. ", 'wb'))",
            "f:write(l:save()); f:close()",
            "drive(w, 101, 300)",
            "f = assert(io.open(" .. string.format("%q", there_at_300) .. ", 'wb')); f:write(w:save()); f:close()",
            "io.write(rvo.backend, '\\n')",
        }, "\n"))
        local p = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
        local out = p:read("*a")
        p:close()
        os.remove(script)
        assert.are_not.equal(rvo.backend, out:match("^(%a+)\n$") or out)
        local theirs_at_100 = read_file(there_at_100)
        -- the same scene gives the same bytes on both runtimes
        assert.are.equal(hex(mine), hex(theirs_at_100))
        -- our continuation of our save, their continuation of our save, their
        -- continuation of their own world, and ours of their save: all equal
        drive(w, 101, 300)
        local ours = w:save()
        local theirs_loaded = read_file(there_from_mine)
        local theirs_own = read_file(there_at_300)
        local l = rvo.load(theirs_at_100)
        drive(l, 101, 300)
        assert.are.equal(#ours, #theirs_loaded)
        assert.is_true(ours == theirs_loaded, "the other runtime's continuation of our save differs")
        assert.is_true(ours == theirs_own, "the other runtime's own run differs")
        assert.is_true(ours == l:save(), "our continuation of their save differs")
        for _, f in ipairs { here_at_100, there_at_100, there_at_300, there_from_mine } do os.remove(f) end
        w:destroy()
        l:destroy()
    end)
end)
