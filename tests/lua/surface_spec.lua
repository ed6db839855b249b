-- One surface for both bindings (tests/lua/surface.lua lists it): on
-- whichever runtime runs this, a world has exactly those methods, takes
-- those arguments and answers a wrong type in any argument, or a bad self,
-- with the same words; docs/rvo.meta.lua declares the same methods with the
-- same arguments. Run on Lua 5.4 and LuaJIT, it holds rvo.core and rvo.ffi
-- to one list.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local SURFACE = dofile(dir .. "surface.lua")
local rvo = require("rvo")
local unpack = rawget(table, "unpack") or rawget(_G, "unpack")

-- { name = ..., args = { { name =, type =, optional = } ... } } per method
local methods, by_name = {}, {}
for _, entry in ipairs(SURFACE) do
    local m = { name = entry[1], args = {} }
    for i = 2, #entry do
        local arg, optional, ty = entry[i]:match("^([%w_]+)(%??):(.+)$")
        assert(arg, "bad surface entry " .. entry[i])
        m.args[#m.args + 1] = { name = arg, type = ty, optional = optional == "?" }
    end
    methods[#methods + 1] = m
    assert(not by_name[m.name], "listed twice: " .. m.name)
    by_name[m.name] = m
end

local function sorted_keys(t, filter)
    local out = {}
    for k, v in pairs(t) do
        if filter(k, v) then out[#out + 1] = k end
    end
    table.sort(out)
    return out
end

local function difference(a, b) -- names in a, not in b
    local out = {}
    for _, k in ipairs(a) do
        if not b[k] then out[#out + 1] = k end
    end
    return table.concat(out, ", ")
end

-- A valid value of each type, for the arguments before the one under test.
local function good_value(ty, a, o)
    if ty == "id" or ty == "id|false" then return a end
    if ty == "oid" then return o end
    if ty == "number" or ty == "integer" then return 1 end
    if ty == "string" then return "orca" end
    if ty == "boolean" then return true end
    if ty == "table" then return {} end
    error("no good value for type " .. ty)
end

-- A value of the wrong type, and the type word the message expects.
local function bad_value(ty)
    if ty == "number" or ty == "integer" or ty == "id" or ty == "oid" then return "x", "number" end
    if ty == "table" then return "x", "table" end
    if ty == "string" then return {}, "string" end
    if ty == "boolean" then return "x", "boolean" end
    return nil -- a union type (id|false): its messages are tested elsewhere
end

describe("the world's method surface (tests/lua/surface.lua)", function()
    it("is exactly the methods of a world on this runtime", function()
        local w = rvo.new_world()
        local have = sorted_keys(getmetatable(w).__index, function(k, v)
            return type(k) == "string" and type(v) == "function"
        end)
        local have_set = {}
        for _, k in ipairs(have) do have_set[k] = true end
        assert.are.equal("", difference(have, by_name)) -- a method the list lacks
        local listed = {}
        for _, m in ipairs(methods) do listed[#listed + 1] = m.name end
        assert.are.equal("", difference(listed, have_set)) -- a listed method missing
        w:destroy()
    end)

    it("is what docs/rvo.meta.lua declares: the same methods, arguments and optional ones", function()
        local f = assert(io.open(dir .. "../../docs/rvo.meta.lua", "rb"))
        local meta = f:read("*a")
        f:close()
        local declared, problems = {}, {}
        local optional = {}
        for line in (meta .. "\n"):gmatch("([^\n]*)\n") do
            local p, q = line:match("^%-%-%-@param ([%w_]+)(%??)")
            if p then optional[p] = q == "?" end
            local name, args = line:match("^function World:([%w_]+)%((.-)%)")
            if name then
                declared[name] = true
                local m = by_name[name]
                local list = {}
                for a in args:gmatch("[%w_]+") do list[#list + 1] = a end
                if not m then
                    problems[#problems + 1] = name .. ": not in surface.lua"
                else
                    local want = {}
                    for i, a in ipairs(m.args) do
                        want[i] = a.name
                        if optional[a.name] ~= nil and optional[a.name] ~= a.optional then
                            problems[#problems + 1] = name .. ": " .. a.name .. " optional differs"
                        end
                    end
                    if table.concat(list, ",") ~= table.concat(want, ",") then
                        problems[#problems + 1] = name .. "(" .. table.concat(list, ", ") .. ") vs ("
                            .. table.concat(want, ", ") .. ")"
                    end
                end
            end
            if not p and not line:match("^%-%-%-") then optional = {} end
        end
        for _, m in ipairs(methods) do
            if not declared[m.name] then problems[#problems + 1] = m.name .. ": not in rvo.meta.lua" end
        end
        assert.are.equal("", table.concat(problems, "; "))
    end)

    it("answers a wrong type in any argument with the same words", function()
        local problems = {}
        for _, m in ipairs(methods) do
            for k, arg in ipairs(m.args) do
                local bad, expect = bad_value(arg.type)
                if bad ~= nil then
                    local w, a = support.scene(rvo)
                    local o = w:add_obstacle { 10, 10, 11, 10, 11, 11 }
                    local args = {}
                    for i = 1, k - 1 do args[i] = good_value(m.args[i].type, a, o) end
                    args[k] = bad
                    local want = string.format("bad argument #%d to '%s' (%s expected, got %s)", k, m.name, expect,
                        type(bad))
                    local ok, msg = pcall(function() return w[m.name](w, unpack(args, 1, k)) end)
                    msg = not ok and tostring(msg):gsub("^[^:]*:%d+: ", "") or "no error"
                    if msg ~= want then problems[#problems + 1] = m.name .. " #" .. k .. ": " .. msg end
                    w:destroy()
                end
            end
        end
        assert.are.equal("", table.concat(problems, "\n"))
    end)

    it("answers a bad self with the same words", function()
        local w = rvo.new_world()
        local problems = {}
        for _, m in ipairs(methods) do
            local ok, msg = pcall(w[m.name], {})
            msg = not ok and tostring(msg):gsub("^[^:]*:%d+: ", "") or "no error"
            local want = "calling '" .. m.name .. "' on bad self"
            if msg ~= want then problems[#problems + 1] = m.name .. ": " .. msg end
        end
        w:destroy()
        assert.are.equal("", table.concat(problems, "\n"))
    end)

    -- Lists whose content matters (two agents in support.scene).
    local GOOD = { set_pref_velocities = { 0, 0, 0, 0 }, set_new_velocities = { 0, 0, 0, 0 },
        add_obstacle = { 0, 0, 1, 0, 1, 1 }, set_obstacle_points = { 10, 10, 12, 10, 12, 12 } }
    local GOOD_ARG = { set_obstacle_points = 2 } -- the list's place, when not first
    local SURROUND_DEF = { x = 0, y = 0, vx = 0, vy = 0, attack_radius = 3, tolerance = 0.5, probe_length = 3,
        spread_speed = 0.5, dt = 0.1, clock = 0, spread = true, hold = true, probes = true }
    local GOOD_MORE = { steer = { [6] = { s1 = 1, s2 = 1 } }, -- other arguments whose content matters
        surround_plan = { [5] = SURROUND_DEF }, surround_project = { [2] = SURROUND_DEF } }
    local BEFORE = { release_pushed = function(w) w:integrate() end } -- methods of another phase

    for _, all in ipairs { false, true } do
        it("takes every method's " .. (all and "arguments, optional ones too" or "required arguments"), function()
            local problems = {}
            for _, m in ipairs(methods) do
                local w, a = support.scene(rvo)
                local o = w:add_obstacle { 10, 10, 11, 10, 11, 11 }
                w:solve() -- a solved world: the phase that every method accepts
                local args = {}
                for i, arg in ipairs(m.args) do
                    if all or not arg.optional then
                        args[i] = i == (GOOD_ARG[m.name] or 1) and GOOD[m.name] or good_value(arg.type, a, o)
                        if GOOD_MORE[m.name] and GOOD_MORE[m.name][i] then args[i] = GOOD_MORE[m.name][i] end
                    end
                end
                if BEFORE[m.name] then BEFORE[m.name](w) end
                local ok, msg = pcall(function() return w[m.name](w, unpack(args, 1, #m.args)) end)
                if not ok then problems[#problems + 1] = m.name .. ": " .. tostring(msg) end
                w:destroy()
            end
            assert.are.equal("", table.concat(problems, "\n"))
        end)
    end
end)
