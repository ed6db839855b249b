-- rvo.frame and the modules' saved state: every module in one step, a save
-- and load in the middle of the run that goes on bit for bit, on this
-- runtime and on the other one; locks that end on contact; clear errors
-- for bad saved state. Runs on both runtimes.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local frame = require("rvo.frame")
local state = require("rvo.state")
local error_of = support.error_of

local OTHER = rawget(_G, "jit") and "lua5.4" or "luajit"

-- A skirmish in miniature: two teams through each other, a heavy, a hero
-- ringed by monsters, every module on. Returns the frame and a driver.
local SCENE = [==[
local rvo = ...
local frame = require("rvo.frame")
local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2 }
local g = require("rvo.groups").new(w, { "red", "blue", "mob" })
local goal = {}
for i = 0, 9 do
    local y = -4 + i % 5 * 2 + math.floor(i / 5) * 0.7
    local r = w:add_agent(-12 - math.floor(i / 5) * 1.5, y, i == 3 and { weight = 0, radius = 0.7 } or nil)
    local b = w:add_agent(12 + math.floor(i / 5) * 1.5, y + 0.6)
    g:set(r, "red")
    g:set(b, "blue")
    goal[#goal + 1] = { r, 12, y }
    goal[#goal + 1] = { b, -12, y + 0.6 }
end
g:ignores("mob", "mob")
local hero = w:add_agent(0, 12, { weight = 0 })
local s = require("rvo.surround").new(w, { target = hero, attack_radius = 3 })
for k = 0, 7 do
    local m = w:add_agent(9 * math.cos(k * 0.785), 12 + 9 * math.sin(k * 0.785))
    g:set(m, "mob")
    s:add(m)
end
local f = frame.new(w, { groups = g, surround = s, jitter = require("rvo.jitter").new { seed = 2 },
    locks = require("rvo.locks").new(w), unstick = require("rvo.unstick").new { seed = 4 } })
local function drive(fr, steps)
    for _ = 1, steps do
        for _, gl in ipairs(goal) do fr.jitter:steer(fr.world, gl[1], gl[2], gl[3]) end
        fr:step()
    end
end
local function positions(fr)
    local out = {}
    for _, id in ipairs(fr.world:ids()) do
        local x, y = fr.world:position(id)
        out[#out + 1] = string.format("%d %a %a", id, x, y)
    end
    return table.concat(out, "\n")
end
return f, drive, positions
]==]

local function scene()
    return support.load(SCENE, "=frame scene")(rvo)
end

describe("rvo.frame", function()
    it("saved mid-run and loaded, goes on in the same bytes as the original", function()
        local f, drive, positions = scene()
        drive(f, 60)
        local f2 = frame.load(f:save())
        for _ = 1, 80 do
            drive(f, 1)
            drive(f2, 1)
        end
        assert.are.equal(positions(f), positions(f2))
        assert.are.equal(f.world:save(), f2.world:save())
        assert.are.equal(f.locks:save(), f2.locks:save())
        assert.are.equal(f.surround[1]:save(), f2.surround[1]:save())
        assert.are.equal(f.groups:save(), f2.groups:save())
        assert.are.equal(f.unstick:save(), f2.unstick:save())
        assert.are.equal(f.jitter:save(), f2.jitter:save())
    end)

    it("saved on one runtime goes on bit for bit on the other", function()
        if not support.shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        local f, drive, positions = scene()
        drive(f, 60)
        local saved = os.tmpname()
        local fh = assert(io.open(saved, "wb"))
        fh:write(f:save())
        fh:close()
        drive(f, 60)
        local script = os.tmpname()
        fh = assert(io.open(script, "w"))
        fh:write("local rvo = require('rvo')\n",
            "local _, drive, positions = assert((loadstring or load)(", string.format("%q", SCENE), "))(rvo)\n",
            "local h = assert(io.open(", string.format("%q", saved), ", 'rb'))\n",
            "local f = require('rvo.frame').load(h:read('*a'))\n",
            "h:close()\n",
            "drive(f, 60)\n",
            "io.write(positions(f), '\\n', rvo.backend, '\\n')\n")
        fh:close()
        local p = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
        local out = p:read("*a")
        p:close()
        os.remove(script)
        os.remove(saved)
        local theirs, backend = out:match("^(.*)\n(%a+)\n$")
        assert.is_not_nil(theirs, OTHER .. " failed:\n" .. out)
        assert.are_not.equal(rvo.backend, backend)
        assert.are.equal(positions(f), theirs)
    end)

    it("keeps the surround's units and target out of the lock timers", function()
        local f, drive = scene()
        drive(f, 30)
        for _, id in ipairs(f.surround[1].units) do
            assert.is_true(f.locks.exempted[id])
            assert.are.equal(0, f.locks:time_left(id))
        end
        assert.is_true(f.locks.exempted[f.surround[1].target_id])
    end)

    it("rejects bad modules and bad saved state with clear errors", function()
        local w = rvo.new_world()
        local other = rvo.new_world()
        assert.are.equal("bad argument #2 to 'new' (unknown module 'lock')",
            error_of(function() frame.new(w, { lock = {} }) end))
        assert.are.equal("bad argument #2 to 'new' (locks holds another world)",
            error_of(function() frame.new(w, { locks = require("rvo.locks").new(other) }) end))
        assert.are.equal("bad argument #1 to 'load' (not an rvo module state)",
            error_of(function() frame.load("hello") end))
        local saved = frame.new(w, { locks = require("rvo.locks").new(w) }):save()
        local msg = error_of(function() frame.load(saved:sub(1, #saved - 3)) end)
        assert.is_truthy(msg:find("bad argument #1 to 'load' (module state is corrupted", 1, true), msg)
        assert.are.equal("bad argument #2 to 'load' (not a saved locks state)",
            error_of(function() require("rvo.locks").load(w, require("rvo.groups").new(w):save()) end))
        assert.are.equal("bad argument #2 to 'load' (saved locks state is corrupted)",
            error_of(function()
                require("rvo.locks").load(w, state.encode({ kind = "locks", fields = { timer = { x = 1 } } }))
            end))
    end)
end)

describe("rvo.locks", function()
    it("restored from a save, release_all releases the agents it locked", function()
        local w = rvo.new_world { time_step = 0.1 }
        local a = w:add_agent(0, 0, { pvx = 1 })
        w:add_agent(3, 0.1, { pvx = -1 })
        local L = require("rvo.locks").new(w, { after_avoid = 10 })
        for _ = 1, 5 do L:step() end
        assert.is_true(w:is_locked(a))
        local w2 = rvo.load(w:save())
        local L2 = require("rvo.locks").load(w2, L:save())
        assert.is_true(w2:is_locked(a))
        assert.are.equal(L:time_left(a), L2:time_left(a))
        L2:release_all()
        assert.is_false(w2:is_locked(a))
    end)

    it("ends a lock on contact: a locked agent the hard-body pass moved is released", function()
        local w = rvo.new_world { time_step = 0.1, radius = 0.5 }
        local a = w:add_agent(0, 0, { pvx = 2 })
        local wall = w:add_agent(1.05, 0, { weight = 0, pvy = 0.5 }) -- never pushed (not idle: locked)
        local L = require("rvo.locks").new(w, { after_avoid = 10, after_clean = 10 })
        L:update(0.1)
        w:solve()
        L:after_solve()
        assert.is_true(w:is_locked(a))
        w:lock(a, 2, 0) -- (this module's timer goes on) straight into the wall
        w:integrate()
        assert.are.equal(1, L:after_integrate(0.1))
        assert.is_false(w:is_locked(a))
        assert.is_true(w:is_locked(wall)) -- it did not move: its lock goes on
    end)

    it("exempts agents on request", function()
        local w = rvo.new_world { time_step = 0.1 }
        local a = w:add_agent(0, 0, { pvx = 1 })
        local b = w:add_agent(3, 0.1, { pvx = -1 })
        local L = require("rvo.locks").new(w, { after_avoid = 10 })
        L:exempt(a)
        for _ = 1, 5 do L:step() end
        assert.is_false(w:is_locked(a))
        assert.is_true(w:is_locked(b))
        L:exempt(a, false)
        L:step()
        assert.is_true(w:is_locked(a))
        assert.are.equal("bad argument #1 to 'exempt' (agent id expected, got string)",
            error_of(function() L:exempt("a") end))
    end)
end)

describe("rvo.groups saved and loaded", function()
    it("keeps names, relations and members", function()
        local w = rvo.new_world()
        local g = require("rvo.groups").new(w, { "red", "blue" })
        local a = w:add_agent(0, 0)
        g:set(a, "red")
        g:ignores("red", "red")
        local w2 = rvo.load(w:save())
        local g2 = require("rvo.groups").load(w2, g:save())
        assert.is_true(g2:is_member(a, "red"))
        assert.are.equal("ignores", g2:relation("red", "red"))
        assert.are.same(g:members("red"), g2:members("red"))
        assert.are.equal(w:mask(a), w2:mask(a))
    end)
end)

describe("rvo.state", function()
    it("encodes plain data exactly and decodes it back", function()
        local v = { 1, 2.5, -0.0, 1 / 3, 1e-310, math.huge, -math.huge, "a\0b", true, false,
            nested = { x = { 1, 2, { 3 } } }, [20] = "twenty", [2.5] = "key" }
        local back = state.decode(state.encode(v))
        assert.are.equal(state.encode(v), state.encode(back))
        assert.are.equal(1 / 3, back[4])
        assert.are.equal(1e-310, back[5])
        assert.are.equal(-math.huge, back[7])
        assert.are.equal("a\0b", back[8])
        assert.are.equal(3, back.nested.x[3][1])
        assert.are.equal("key", back[2.5])
        local nan = state.decode(state.encode({ 0 / 0 }))[1]
        assert.is_true(nan ~= nan)
    end)

    it("rejects what it cannot encode or decode", function()
        assert.has_error(function() state.encode({ f = print }) end, "cannot encode a value of type function")
        local t = {}
        t.t = t
        assert.has_error(function() state.encode(t) end, "cannot encode a table that contains itself")
        for _, bad in ipairs { "rvostate1:", "rvostate1:{", "rvostate1:d12", "rvostate1:s5:ab", "rvostate1:fnope;",
            "rvostate1:TT", "rvostate1:{d1;}", "rvostate1:q" } do
            local ok, msg = pcall(state.decode, bad)
            assert.is_false(ok, bad)
            assert.is_truthy(tostring(msg):find("module state is corrupted", 1, true), bad .. ": " .. tostring(msg))
        end
    end)
end)
