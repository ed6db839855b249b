-- Misuse, everywhere: every world method and every function of
-- require("rvo"), with every argument in turn replaced by a wrong value
-- (missing, wrong type, NaN, +-inf, huge, negative, fractional, stale,
-- made-up and removed ids), with too few and too many arguments, in the
-- wrong phase, and on a destroyed world. The signatures come from
-- docs/rvo.meta.lua, so a method added there is covered without touching
-- this file. For every call:
--   - an error is a string pointing at the caller's line, shaped
--     "bad argument #n to 'name' (why)", "name: why", or one of the self
--     messages; and the world is exactly as before (world:save() is the
--     same bytes) and still steps;
--   - a call that succeeds leaves a world that steps with finite positions;
--   - the whole log of outcomes is the same on Lua 5.4 and LuaJIT.
-- tests/lua/errors_spec.lua checks the exact words of each message.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")

local OTHER = rawget(_G, "jit") and "lua5.4" or "luajit"
local ROOT = dir .. "../../"

local function read_file(path)
    local f = assert(io.open(path, "rb"))
    local s = f:read("*a")
    f:close()
    return s
end

-- The driver, as source: this spec runs it, and the other runtime runs the
-- very same code. chunk(rvo, meta) returns the log (one line per call) and
-- a list of violations (empty when every call behaved).
local DRIVER_SRC = [==[
local rvo, meta = ...
local nan, inf = 0 / 0, 1 / 0
local log, bad = {}, {}

-- Signatures from the meta file: name -> list of { name, kind, optional }.
local function kind_of(t)
    if t:find("AgentId", 1, true) and not t:find("[]", 1, true) then return "id" end
    if t:find("ObstacleId", 1, true) then return "oid" end
    if t:find("[]", 1, true) or t:find("table", 1, true) or t:find("Options", 1, true) or t:find("Def", 1, true) then
        return "table"
    end
    if t:find("boolean", 1, true) then return "bool" end
    if t:find("number", 1, true) or t:find("integer", 1, true) then return "num" end
    return "str"
end
local function signatures(prefix)
    local sigs, pending = {}, {}
    for line in meta:gmatch("[^\n]+") do
        local pname, ptype = line:match("^%-%-%-@param%s+([%w_]+%??)%s+(%S+)")
        if pname then
            local opt = pname:sub(-1) == "?"
            pending[#pending + 1] = { name = opt and pname:sub(1, -2) or pname, kind = kind_of(ptype), optional = opt }
        else
            local fname, args = line:match("^function " .. prefix .. "([%w_]+)%(([^)]*)%)")
            if fname then
                local params = {}
                for a in args:gmatch("[%w_]+") do
                    local p = { name = a, kind = "num", optional = true }
                    for _, q in ipairs(pending) do
                        if q.name == a then p = q end
                    end
                    params[#params + 1] = p
                end
                sigs[fname] = params
            end
            if not line:match("^%-%-%-") then pending = {} end
        end
    end
    return sigs
end
local world_sigs, module_sigs = signatures("World:"), signatures("rvo%.")

-- A scene that every call starts from: two agents, an obstacle, a removed
-- agent and a removed obstacle.
local function scene()
    local w = rvo.new_world { time_step = 0.1 }
    local a = w:add_agent(0, 0, { pvx = 1 })
    local b = w:add_agent(3, 0, { pvx = -1 })
    local o = w:add_obstacle { 10, 10, 12, 10, 12, 12, 10, 12 }
    local stale = w:add_agent(50, 50)
    w:remove_agent(stale)
    local stale_o = w:add_obstacle { 20, 20, 22, 20, 21, 22 }
    w:remove_obstacle(stale_o)
    w:step()
    return w, { a = a, b = b, o = o, stale = stale, stale_o = stale_o }
end

-- A plausible value of each kind (it need not make the call succeed).
local function good(kind, name, ids, w)
    if kind == "id" then return ids.a end
    if kind == "oid" then return ids.o end
    if kind == "bool" then return true end
    if kind == "str" then return "orca" end
    if kind == "table" then
        if name == "xy" then
            local t = {}
            for i = 1, 2 * w:agent_count() do t[i] = 0.25 end
            return t
        end
        return {}
    end
    if name == "samples" or name == "max_neighbors" then return 4 end
    return 0.5
end

-- The wrong values for a kind, labelled for the log.
local function wrongs(kind, ids)
    local list = {
        { "nil", nil }, { "string", "x" }, { "table", {} }, { "boolean", false },
        { "function", print },
    }
    if kind == "num" or kind == "id" or kind == "oid" then
        for _, v in ipairs { { "nan", nan }, { "inf", inf }, { "-inf", -inf }, { "1e300", 1e300 },
            { "-1", -1 }, { "1.5", 1.5 }, { "2^53", 2 ^ 53 }, { "0", 0 } } do
            list[#list + 1] = v
        end
    end
    if kind == "id" then
        list[#list + 1] = { "stale", ids.stale }
        list[#list + 1] = { "obstacle-id", ids.o }
    elseif kind == "oid" then
        list[#list + 1] = { "stale", ids.stale_o }
        list[#list + 1] = { "agent-id", ids.a }
    elseif kind == "table" then
        list[#list + 1] = { "{nan}", { nan, nan, nan, nan } }
        list[#list + 1] = { "{odd}", { 1, 2, 3 } }
        list[#list + 1] = { "{strings}", { "a", "b", "c", "d" } }
        list[#list + 1] = { "{huge}", { 1e300, 1, 1, 1e300 } }
        list[#list + 1] = { "{holes}", { 1, nil, 3, 4 } }
    elseif kind == "str" then
        list[#list + 1] = { "unknown", "nope" }
        list[#list + 1] = { "embedded-zero", "orca\0x" }
        list[#list + 1] = { "number", 1 }
    end
    return list
end

local function shape_ok(msg, name)
    return msg:match("^bad argument #%d+ to '" .. name .. "' %(.+%)$") or msg:match("^" .. name .. ": .+$")
        or msg == "attempt to use a destroyed rvo.world" or msg == "calling '" .. name .. "' on bad self"
end

local function finite_world(w)
    local xy = w:positions()
    for i = 1, #xy do
        if xy[i] ~= xy[i] or xy[i] == inf or xy[i] == -inf then return false end
    end
    return true
end

-- One call: f(args) on world w (or a module function when w is nil).
local function try(label, name, w, f, args, n)
    local before = w and not w:is_destroyed() and w:save()
    -- not a tail call: the error must name this line
    local ok, msg = pcall(function()
        local r = f((table.unpack or unpack)(args, 1, n))
        return r
    end)
    if ok then
        log[#log + 1] = label .. " -> ok"
        if w and not w:is_destroyed() then
            if w:is_solved() then w:integrate() end
            local stepped = pcall(w.step, w)
            if not stepped or not finite_world(w) then bad[#bad + 1] = label .. ": world broken after success" end
        end
        return
    end
    if type(msg) ~= "string" then
        bad[#bad + 1] = label .. ": error is a " .. type(msg)
        log[#log + 1] = label .. " -> non-string error"
        return
    end
    local text = msg:match("^misuse:%d+: (.*)$")
    if not text then
        bad[#bad + 1] = label .. ": error does not point at the caller: " .. msg
        text = msg
    elseif not shape_ok(text, name) then
        bad[#bad + 1] = label .. ": unclear error: " .. text
    end
    log[#log + 1] = label .. " -> " .. text
    if before then
        if w:save() ~= before then bad[#bad + 1] = label .. ": failed call changed the world" end
        if w:is_solved() then w:integrate() end
        local stepped, why = pcall(w.step, w)
        if not stepped then bad[#bad + 1] = label .. ": world unusable after the error: " .. tostring(why) end
    end
end

local names = {}
for k in pairs(world_sigs) do names[#names + 1] = k end
table.sort(names)
local methods = getmetatable(rvo.new_world()).__index
for _, name in ipairs(names) do
    local params = world_sigs[name]
    local f = methods[name]
    if not f then
        bad[#bad + 1] = name .. ": declared in the meta file but not a method"
    elseif name ~= "destroy" then
        -- every argument in turn replaced by each wrong value
        for i, p in ipairs(params) do
            local w, ids = scene()
            for _, wv in ipairs(wrongs(p.kind, ids)) do
                local args = { w }
                for j, q in ipairs(params) do args[j + 1] = good(q.kind, q.name, ids, w) end
                args[i + 1] = wv[2]
                try(name .. " #" .. i .. " " .. wv[1], name, w, f, args, #params + 1)
            end
            w:destroy()
        end
        local w, ids = scene()
        local args = { w }
        for j, q in ipairs(params) do args[j + 1] = good(q.kind, q.name, ids, w) end
        -- too few (nothing at all) and too many arguments
        try(name .. " no arguments", name, w, f, { w }, 1)
        local more = { w }
        for j = 2, #params + 1 do more[j] = args[j] end
        more[#params + 2], more[#params + 3] = 1, "extra"
        try(name .. " extra arguments", name, w, f, more, #params + 3)
        -- wrong phase: called while solved (and integrate/new velocities while not)
        w:solve()
        try(name .. " while solved", name, w, f, args, #params + 1)
        if w:is_solved() then w:integrate() end
        try(name .. " while not solved", name, w, f, args, #params + 1)
        -- bad self and a destroyed world
        try(name .. " on a table", name, nil, f, { {}, args[2], args[3] }, 3)
        w:destroy()
        try(name .. " destroyed", name, nil, f, args, #params + 1)
    end
end
-- destroy: with extra arguments, twice, then everything else refuses
do
    local w = scene()
    try("destroy extra arguments", "destroy", nil, methods.destroy, { w, 1, "x" }, 3)
    try("destroy again", "destroy", nil, methods.destroy, { w }, 1)
    if not w:is_destroyed() then bad[#bad + 1] = "destroy did not destroy" end
end

-- Module functions: every argument replaced by each wrong value.
local mnames = {}
for k in pairs(module_sigs) do mnames[#mnames + 1] = k end
table.sort(mnames)
for _, name in ipairs(mnames) do
    local f = rvo[name]
    if type(f) ~= "function" then
        bad[#bad + 1] = "rvo." .. name .. ": declared but not a function"
    else
        local w, ids = scene()
        local params = module_sigs[name]
        for i, p in ipairs(params) do
            for _, wv in ipairs(wrongs(p.kind, ids)) do
                local args = {}
                for j, q in ipairs(params) do args[j] = q.kind == "str" and w:save() or good(q.kind, q.name, ids, w) end
                args[i] = wv[2]
                try("rvo." .. name .. " #" .. i .. " " .. wv[1], name, nil, f, args, #params)
            end
        end
        try("rvo." .. name .. " no arguments", name, nil, f, {}, 0)
        w:destroy()
    end
end
-- rvo.load on byte strings that are nearly snapshots
do
    local w = scene()
    local s = w:save()
    for _, cut in ipairs { 0, 1, 8, 23, 24, 25, math.floor(#s / 2), #s - 1 } do
        try("rvo.load cut " .. cut, "load", nil, rvo.load, { s:sub(1, cut) }, 1)
    end
    w:destroy()
end
return table.concat(log, "\n"), bad
]==]

describe("misuse of every public function", function()
    local meta = read_file(ROOT .. "docs/rvo.meta.lua")
    local run = support.load(DRIVER_SRC, "=misuse")

    it("gives clear errors, changes nothing when it fails and leaves a working world", function()
        local log, bad = run(rvo, meta)
        local lines = select(2, log:gsub("\n", "\n")) + 1
        assert.is_true(lines > 1000, "only " .. lines .. " calls were made")
        -- every method of a world was exercised
        local names = {}
        for k in pairs(getmetatable(rvo.new_world()).__index) do names[#names + 1] = k end
        table.sort(names)
        for _, k in ipairs(names) do
            assert.is_truthy(log:find("\n" .. k .. " ", 1, true) or log:find("^" .. k .. " ") or k == "destroy",
                "method " .. k .. " was not exercised (is it in docs/rvo.meta.lua?)")
        end
        assert.are.same({}, bad)
    end)

    it("says the same, call for call, on Lua 5.4 and LuaJIT", function()
        local r = os.execute("command -v " .. OTHER .. " >/dev/null 2>&1")
        if not (r == true or r == 0) then
            pending(OTHER .. " is not installed")
            return
        end
        local mine = run(rvo, meta)
        local script, out = os.tmpname(), os.tmpname()
        local f = assert(io.open(script, "w"))
        f:write("local rvo = require('rvo')\n",
            "local f = assert(io.open(", string.format("%q", ROOT .. "docs/rvo.meta.lua"), ", 'rb'))\n",
            "local meta = f:read('*a'); f:close()\n",
            "local run = assert((loadstring or load)(", string.format("%q", DRIVER_SRC), ", '=misuse'))\n",
            "local log = run(rvo, meta)\n",
            "f = assert(io.open(", string.format("%q", out), ", 'wb')); f:write(log); f:close()\n")
        f:close()
        local p = assert(io.popen(OTHER .. " " .. script .. " 2>&1"))
        local msg = p:read("*a")
        p:close()
        os.remove(script)
        local theirs = read_file(out)
        os.remove(out)
        assert.is_true(#theirs > 0, OTHER .. " failed: " .. msg)
        local a, b = {}, {}
        for line in (mine .. "\n"):gmatch("(.-)\n") do a[#a + 1] = line end
        for line in (theirs .. "\n"):gmatch("(.-)\n") do b[#b + 1] = line end
        for i = 1, math.max(#a, #b) do
            assert.are.equal(a[i], b[i], "call " .. i .. " differs between the runtimes")
        end
    end)
end)
