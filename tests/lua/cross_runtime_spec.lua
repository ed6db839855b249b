-- Lua 5.4 (rvo.core) and LuaJIT (rvo.ffi) drive the same C core: the same
-- scene must end in bit-identical positions on both. This spec runs the
-- scene here, spawns the other interpreter on the same source, and compares
-- the "%a" hex floats it prints.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")

local OTHER = rawget(_G, "jit") and "lua5.4" or "luajit"

local shell_ok = support.shell_ok

-- Runs src in the other interpreter as run(...) with the arguments given as
-- Lua source; returns what it printed: the method names, the result, the backend.
local function run_other(src, args)
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write("local rvo = require('rvo')\n",
        "local run = assert((loadstring or load)(", string.format("%q", src), ", '=scene'))\n",
        "local names = {}\n",
        "for k in pairs(getmetatable(rvo.new_world()).__index) do names[#names + 1] = k end\n",
        "table.sort(names)\n",
        "io.write(table.concat(names, ' '), '\\n', run(rvo, ", args, "), '\\n', rvo.backend, '\\n')\n")
    f:close()
    -- LUA_PATH / LUA_CPATH are inherited: the other runtime finds the same tree.
    local p = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
    local out = p:read("*a")
    p:close()
    os.remove(script)
    return out
end

describe("the two runtimes", function()
    it("end the same scene in bit-identical positions", function()
        if not shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        local mine = support.run_scene(rvo, 1, 24, 120)
        local out = run_other(support.SCENE_SRC, "1, 24, 120")
        local their_methods, theirs, backend = out:match("^(.-)\n(.*)\n(%a+)\n$")
        assert.is_not_nil(theirs, OTHER .. " failed:\n" .. out)
        assert.are_not.equal(rvo.backend, backend) -- really the other binding
        -- the same API: the same method names
        local names = {}
        for k in pairs(getmetatable(rvo.new_world()).__index) do names[#names + 1] = k end
        table.sort(names)
        assert.are.equal(table.concat(names, " "), their_methods)
        local a, b = {}, {}
        for line in (mine .. "\n"):gmatch("(.-)\n") do a[#a + 1] = line end
        for line in (theirs .. "\n"):gmatch("(.-)\n") do b[#b + 1] = line end
        assert.are.equal(24, #a)
        assert.are.equal(#a, #b)
        for i = 1, #a do
            assert.are.equal(a[i], b[i], "agent " .. i .. " differs")
        end
    end)

    it("end a scene with weights, groups, a lock, height and each solver bit-identically", function()
        if not shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        for _, solver in ipairs { "orca", "ue", "rvo" } do
            local mine = support.run_semantics(rvo, solver, 120)
            local out = run_other(support.SEMANTICS_SRC, string.format("%q, 120", solver))
            local theirs = out:match("^.-\n(.*)\n%a+\n$")
            assert.is_not_nil(theirs, OTHER .. " failed:\n" .. out)
            local a, b = {}, {}
            for line in (mine .. "\n"):gmatch("(.-)\n") do a[#a + 1] = line end
            for line in (theirs .. "\n"):gmatch("(.-)\n") do b[#b + 1] = line end
            assert.are.equal(25 + 3, #a) -- 24 agents, the hero, the report, two rays
            assert.are.equal(#a, #b)
            for i = 1, #a do
                assert.are.equal(a[i], b[i], solver .. ": line " .. i .. " differs")
            end
            assert.is_truthy(a[26]:match("^avoiding %d"), a[26]) -- somebody avoided
            assert.is_truthy(a[27]:match("^ray 0x"), a[27])         -- the rays hit
        end
    end)
    it("record and draw a moving gate in the same bytes", function()
        if not shell_ok("command -v " .. OTHER .. " >/dev/null 2>&1") then
            pending(OTHER .. " is not installed")
            return
        end
        -- a gate sliding up and back, a wall removed, a block added; its
        -- trace file and animated SVG, hashed
        local src = [[
            local rvo = ...
            local trace, render = require("rvo.trace"), require("rvo.render")
            local w = rvo.new_world { time_step = 0.25 }
            local gate = w:add_obstacle { -0.5, -3, 0.5, -3, 0.5, 3, -0.5, 3 }
            w:set_obstacle_velocity(gate, 0, 1.3)
            local wall = w:add_obstacle { 5, -5, 6, -5, 6, 5, 5, 5 }
            for k = 1, 6 do w:add_agent(-6, k - 3.5, { pvx = 1.5 }) end
            local tr = trace.new(w)
            for s = 1, 40 do
                if s == 12 then w:set_obstacle_velocity(gate, 0, -1.3) end
                if s == 20 then w:remove_obstacle(wall) end
                if s == 30 then w:add_obstacle { 0, 8, 1, 8, 1, 9 } end
                w:step(); tr:record()
            end
            local name = os.tmpname()
            assert(render.save(tr, name, { dt = 0.25 }))
            local f = assert(io.open(name, "rb"))
            local text = f:read("*a")
            f:close()
            os.remove(name)
            text = text .. render.animated_svg(assert(render.parse(text))):tostring()
            local h = 0
            for k = 1, #text do h = (h * 31 + text:byte(k)) % 2147483647 end
            return string.format("%d %d", #text, h)
        ]]
        local mine = assert((loadstring or load)(src, "=gate"))(rvo)
        local theirs = run_other(src, "rvo"):match("^.-\n(.*)\n%a+\n$")
        assert.is_truthy(mine:match("^%d+ %d+$"))
        assert.are.equal(mine, theirs)
    end)
end)
