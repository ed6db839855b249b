-- docs/rvo.meta.lua (LuaLS definitions) declares every method a world has
-- and every function the modules export (rvo, trace, svg, render, jitter,
-- groups, locks, surround), on whichever runtime runs this.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local rvo = require("rvo")

local function read(path)
    local f = assert(io.open(path, "rb"))
    local s = f:read("*a")
    f:close()
    return s
end

local meta_path = dir .. "../../docs/rvo.meta.lua"
local meta = read(meta_path)

-- Names declared as `function <prefix><name>(`.
local function declared(prefix)
    local set = {}
    for name in meta:gmatch("\nfunction " .. prefix:gsub("%p", "%%%0") .. "([%w_]+)%(") do
        set[name] = true
    end
    return set
end

local function missing(exported, set)
    local out = {}
    for _, name in ipairs(exported) do
        if not set[name] then out[#out + 1] = name end
    end
    return table.concat(out, ", ")
end

local function function_keys(t)
    local names = {}
    for k, v in pairs(t) do
        if type(k) == "string" and type(v) == "function" and k:sub(1, 1) ~= "_" then names[#names + 1] = k end
    end
    table.sort(names)
    return names
end

-- Public keys whose values are not functions (module fields such as nav.has_navmesh).
local function data_keys(t)
    local names = {}
    for k, v in pairs(t) do
        if type(k) == "string" and type(v) ~= "function" and k:sub(1, 1) ~= "_" then names[#names + 1] = k end
    end
    table.sort(names)
    return names
end

describe("docs/rvo.meta.lua", function()
    it("is valid Lua", function()
        local load_ = rawget(_G, "loadstring") or load
        assert(load_(meta, "@" .. meta_path))
    end)

    it("declares every world method", function()
        local w = rvo.new_world()
        local methods = getmetatable(w).__index
        assert.are.equal("table", type(methods))
        local names = function_keys(methods)
        assert.is_true(#names > 50)
        assert.are.equal("", missing(names, declared("World:")))
        w:destroy()
    end)

    it("declares every function of rvo, rvo.trace, rvo.svg and rvo.render", function()
        assert.are.equal("", missing(function_keys(rvo), declared("rvo.")))
        assert.are.equal("", missing(function_keys(require("rvo.trace")), declared("trace.")))
        assert.are.equal("", missing(function_keys(require("rvo.trace").Trace), declared("Trace:")))
        assert.are.equal("", missing(function_keys(require("rvo.svg")), declared("svg.")))
        assert.are.equal("", missing(function_keys(require("rvo.svg").Doc), declared("SvgDoc:")))
        assert.are.equal("", missing(function_keys(require("rvo.render")), declared("render.")))
    end)

    it("declares every function of the behaviour modules", function()
        for _, m in ipairs { { "jitter", "Jitter" }, { "groups", "Groups" }, { "locks", "Locks" },
            { "surround", "Surround" }, { "frame", "Frame" } } do
            local mod = require("rvo." .. m[1])
            assert.are.equal("", missing(function_keys(mod), declared(m[1] .. ".")))
            assert.are.equal("", missing(function_keys(mod[m[2]]), declared(m[2] .. ":")))
        end
        local unstick = require("rvo.unstick")
        assert.are.equal("", missing(function_keys(unstick), declared("unstick.")))
        assert.are.equal("", missing(function_keys(getmetatable(unstick.new()).__index), declared("Unstick:")))
        assert.are.equal("", missing(function_keys(require("rvo.state")), declared("state.")))
        local rng = require("rvo.jitter").rng(1)
        assert.are.equal("", missing(function_keys(getmetatable(rng).__index), declared("Rng:")))
    end)

    -- navmesh (issue 7): functions, and the other public fields (has_navmesh, Mesh, Follower)
    it("declares every function and field of rvo.nav, rvo.follow and rvo.obj", function()
        local nav, follow, obj = require("rvo.nav"), require("rvo.follow"), require("rvo.obj")
        assert.are.equal("", missing(function_keys(nav), declared("nav.")))
        assert.are.equal("", missing(function_keys(nav.Mesh), declared("NavMesh:")))
        assert.are.equal("", missing(function_keys(follow), declared("follow.")))
        assert.are.equal("", missing(function_keys(follow.Follower), declared("Follower:")))
        assert.are.equal("", missing(function_keys(obj), declared("obj.")))
        for _, m in ipairs { nav, follow, obj } do
            local absent = {}
            for _, k in ipairs(data_keys(m)) do
                if not meta:find("\n---@field " .. k .. "[?%s]") then absent[#absent + 1] = k end
            end
            assert.are.equal("", table.concat(absent, ", "))
        end
        assert.is_true(#function_keys(nav) >= 4 and #function_keys(nav.Mesh) >= 7)
    end)
end)
