-- rvo.cdef (generated from the C headers by lua/gen_cdef.py) against the
-- headers and the FFI bindings: every function a header declares is in the
-- cdef, every C function rvo.ffi and rvo.nav use is declared there, and on
-- LuaJIT every declared function resolves in the built library.
local cdef = require("rvo.cdef")

local here = debug.getinfo(1, "S").source:match("^@(.*)[/\\]") or "."
local root = here .. "/../.."

local function read(path)
    local f = assert(io.open(root .. "/" .. path, "r"))
    local text = f:read("a")
    f:close()
    return text
end

-- Function names a header exports (RVO_API ... name(...)), comments stripped.
local function header_functions(path)
    local text = read(path):gsub("/%*.-%*/", " "):gsub("//[^\n]*", " "):gsub("\n%s*#[^\n]*", "\n")
    local names = {}
    for name in text:gmatch("RVO_API[^;(]-([%w_]+)%s*%(") do
        names[#names + 1] = name
    end
    return names
end

-- Names declared as functions (or function types) in a cdef string.
local function declared(text)
    local set = {}
    for name in text:gmatch("([%w_]+)%s*%(") do
        set[name] = true
    end
    return set
end

-- C functions a binding uses through its library handles (C.x, N.x).
local function used_by(path)
    local set, n = {}, 0
    for name in read(path):gmatch("%f[%w_][CN]%.(rvo_[%w_]+)") do
        if not set[name] then n = n + 1 end
        set[name] = true
    end
    return set, n
end

local function missing(names, set)
    local out = {}
    for _, name in ipairs(names) do
        if not set[name] then out[#out + 1] = name end
    end
    table.sort(out)
    return table.concat(out, ", ")
end

local function keys(set)
    local out = {}
    for k in pairs(set) do out[#out + 1] = k end
    table.sort(out)
    return out
end

describe("rvo.cdef", function()
    local all = {}
    for k in pairs(declared(cdef.rvo)) do all[k] = true end
    for k in pairs(declared(cdef.nav)) do all[k] = true end

    it("declares every function of src/rvo.h", function()
        local names = header_functions("src/rvo.h")
        assert.is_true(#names > 80, "found only " .. #names .. " functions in rvo.h")
        assert.are.equal("", missing(names, declared(cdef.rvo)))
    end)

    it("declares every function of src/nav/rvo_nav.h", function()
        local names = header_functions("src/nav/rvo_nav.h")
        assert.is_true(#names >= 8, "found only " .. #names .. " functions in rvo_nav.h")
        assert.are.equal("", missing(names, declared(cdef.nav)))
    end)

    it("declares every C function that rvo.ffi and rvo.nav call", function()
        local ffi_used, n = used_by("lua/rvo/ffi.lua")
        -- and those of src/lua/methods.def, which rvo.ffi calls by name
        assert.is_true(#cdef.methods >= 20, "only " .. #cdef.methods .. " listed methods")
        for _, m in ipairs(cdef.methods) do
            if not ffi_used[m[3]] then n = n + 1 end
            ffi_used[m[3]] = true
        end
        assert.is_true(n > 60, "found only " .. n .. " C calls in ffi.lua")
        assert.are.equal("", missing(keys(ffi_used), declared(cdef.rvo)))
        local nav_used = used_by("lua/rvo/nav.lua")
        assert.are.equal("", missing(keys(nav_used), all))
    end)

    it("holds only the headers' own declarations, nothing of the host", function()
        for key, text in pairs(cdef) do
            if key == "methods" then goto continue end
            assert.is_nil(text:find("#", 1, true))
            assert.is_nil(text:find("__", 1, true))
            assert.is_nil(text:find("RVO_API", 1, true))
            assert.is_nil(text:find("%f[%w_]enum%f[^%w_]"))
            assert.is_nil(text:find("/", 1, true))
            ::continue::
        end
    end)

    it("lists the methods of src/lua/methods.def with known shapes, each once", function()
        local shapes = { VEC_GET = true, VEC_SET = true, FLOAT = true, DO = true, FLAG = true, VALID = true,
            COUNT = true, VECS_GET = true, NUMS_GET = true, VECS_SET = true }
        local seen, lines = {}, 0
        for _ in read("src/lua/methods.def"):gmatch("\n(METHOD%b())") do
            lines = lines + 1
        end
        assert.are.equal(lines, #cdef.methods)
        for _, m in ipairs(cdef.methods) do
            assert.is_true(shapes[m[2]], m[1] .. ": unknown shape " .. m[2])
            assert.is_nil(seen[m[1]], m[1] .. " listed twice")
            seen[m[1]] = true
        end
    end)

    if rawget(_G, "jit") then
        it("resolves every declared function in the built libraries (LuaJIT)", function()
            local ffi = require("ffi")
            require("rvo") -- declares cdef.rvo
            local lib = ffi.load(require("rvo.libfind").candidates({ os = ffi.os, getenv = os.getenv,
                searchpath = package.searchpath, cpath = package.cpath })[1])
            local absent = {}
            for _, name in ipairs(header_functions("src/rvo.h")) do
                if not pcall(function() return lib[name] end) then absent[#absent + 1] = name end
            end
            assert.are.equal("", table.concat(absent, ", "))
            local nav_path = package.searchpath("librvo_nav", package.cpath)
            if nav_path then
                if not pcall(ffi.typeof, "rvo_nav_config") then ffi.cdef(cdef.nav) end
                local nav = ffi.load(nav_path)
                for _, name in ipairs(header_functions("src/nav/rvo_nav.h")) do
                    if not pcall(function() return nav[name] end) then absent[#absent + 1] = name end
                end
                assert.are.equal("", table.concat(absent, ", "))
            end
        end)
    end
end)
