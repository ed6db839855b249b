--- rvo.state — the text form of the behaviour modules' saved state.
--
-- Encodes plain data (numbers, strings, booleans and tables of them, no
-- cycles) as a string that decodes to the same values on Lua 5.4 and
-- LuaJIT: numbers exactly (integer values in decimal, other numbers as hex
-- floats, which both runtimes read back bit for bit), table keys in a
-- fixed order, so that the same state gives the same string on both (a
-- float with an integer value comes back as an integer on Lua 5.4: the
-- same number in every operation the modules make). decode never
-- runs code: it is a small parser, safe on any input, and raises
-- "not an rvo module state" or "... is corrupted" on bad input.
--
--   local state = require("rvo.state")
--   local s = state.encode({ 1, 2.5, name = "red", on = true })
--   local t = state.decode(s)
local state = {}

local format, byte, sub, find = string.format, string.byte, string.sub, string.find
local floor, huge = math.floor, math.huge
local concat, sort = table.concat, table.sort
local mtype = math.type -- (nil on LuaJIT: every number is a double)

local MAGIC = "rvostate1:"

local function encode_number(x, out)
    if x ~= x then
        out[#out + 1] = "N"
    elseif x == huge then
        out[#out + 1] = "I"
    elseif x == -huge then
        out[#out + 1] = "J"
    elseif (mtype and mtype(x) == "integer")
        or (x == floor(x) and x >= -2 ^ 53 and x <= 2 ^ 53 and (x ~= 0 or 1 / x > 0)) then
        -- (a float with an integer value too: the same text on both runtimes)
        out[#out + 1] = format("d%d;", x)
    else
        out[#out + 1] = format("f%a;", x)
    end
end

-- Keys in a fixed order: numbers first (by value), then strings, then booleans (false first).
local function key_less(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then
        local rank = { number = 1, string = 2, boolean = 3 }
        return rank[ta] < rank[tb]
    end
    if ta == "boolean" then return (not a) and b end
    return a < b
end

local function encode_value(v, out, depth, seen)
    local t = type(v)
    if t == "number" then
        encode_number(v, out)
    elseif t == "string" then
        out[#out + 1] = format("s%d:", #v)
        out[#out + 1] = v
    elseif t == "boolean" then
        out[#out + 1] = v and "T" or "F"
    elseif t == "table" then
        if seen[v] then error("cannot encode a table that contains itself", 0) end
        if depth > 64 then error("cannot encode tables nested deeper than 64", 0) end
        seen[v] = true
        local keys = {}
        for k in pairs(v) do
            local kt = type(k)
            if kt ~= "number" and kt ~= "string" and kt ~= "boolean" then
                error(format("cannot encode a table key of type %s", kt), 0)
            end
            if kt == "number" and k ~= k then error("cannot encode a NaN table key", 0) end
            keys[#keys + 1] = k
        end
        sort(keys, key_less)
        out[#out + 1] = "{"
        for _, k in ipairs(keys) do
            encode_value(k, out, depth + 1, seen)
            encode_value(v[k], out, depth + 1, seen)
        end
        out[#out + 1] = "}"
        seen[v] = nil
    else
        error(format("cannot encode a value of type %s", t), 0)
    end
end

--- The string form of v (plain data only); raises on anything else.
function state.encode(v)
    local out = { MAGIC }
    encode_value(v, out, 0, {})
    return concat(out)
end

local function corrupted(why)
    error("module state is corrupted (" .. why .. ")", 0)
end

local function decode_value(s, i, depth)
    local c = sub(s, i, i)
    if c == "d" or c == "f" then
        local j = find(s, ";", i + 1, true)
        if not j then corrupted("unterminated number") end
        local text = sub(s, i + 1, j - 1)
        local n = tonumber(text)
        local shape = c == "d" and "^%-?%d+$" or "^%-?0x[%x.]+p[%+%-]%d+$"
        if n == nil or not find(text, shape) then
            corrupted("bad number")
        end
        return n, j + 1
    elseif c == "N" then
        return 0 / 0, i + 1
    elseif c == "I" then
        return huge, i + 1
    elseif c == "J" then
        return -huge, i + 1
    elseif c == "T" then
        return true, i + 1
    elseif c == "F" then
        return false, i + 1
    elseif c == "s" then
        local j = find(s, ":", i + 1, true)
        local len = j and tonumber(sub(s, i + 1, j - 1))
        if not len or len < 0 or len ~= floor(len) or j + len > #s then corrupted("bad string") end
        return sub(s, j + 1, j + len), j + len + 1
    elseif c == "{" then
        if depth > 64 then corrupted("nested too deep") end
        local t = {}
        i = i + 1
        while true do
            if i > #s then corrupted("unterminated table") end
            if byte(s, i) == 125 then return t, i + 1 end -- "}"
            local k, v
            k, i = decode_value(s, i, depth + 1)
            if type(k) == "table" or k ~= k then corrupted("bad key") end
            if i > #s then corrupted("key without a value") end
            v, i = decode_value(s, i, depth + 1)
            t[k] = v
        end
    end
    corrupted(format("unexpected byte at %d", i))
end

--- The value of an encoded string; raises "not an rvo module state" or
-- "module state is corrupted (...)" on bad input.
function state.decode(s)
    if type(s) ~= "string" or sub(s, 1, #MAGIC) ~= MAGIC then error("not an rvo module state", 0) end
    local v, i = decode_value(s, #MAGIC + 1, 0)
    if i ~= #s + 1 then corrupted("trailing bytes") end
    return v
end

--- A module's saved state: the fields of obj (plain data) except those in
-- skip, tagged with the module's kind.
function state.pack(kind, obj, skip)
    local fields = {}
    for k, v in pairs(obj) do
        if not skip[k] then fields[k] = v end
    end
    return state.encode({ kind = kind, fields = fields })
end

--- The fields packed by state.pack(kind, ...); raises "bad argument #argn
-- to 'fname' (...)" at the caller of the function that calls it.
function state.unpack(kind, s, fname, argn)
    if type(s) ~= "string" then
        error(format("bad argument #%d to '%s' (saved %s state expected, got %s)", argn, fname, kind, type(s)), 3)
    end
    local ok, t = pcall(state.decode, s)
    if not ok then error(format("bad argument #%d to '%s' (%s)", argn, fname, t), 3) end
    if type(t) ~= "table" or t.kind ~= kind or type(t.fields) ~= "table" then
        error(format("bad argument #%d to '%s' (not a saved %s state)", argn, fname, kind), 3)
    end
    return t.fields
end

return state
