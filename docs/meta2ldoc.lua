-- meta2ldoc.lua IN OUT — turns the LuaLS definitions (docs/rvo.meta.lua)
-- into LDoc comments, so that one file feeds both the editor completion
-- and the HTML reference (`ninja -C build docs`: LDoc, Debian's lua-ldoc,
-- does not read LuaLS annotations). Understands what rvo.meta.lua uses:
-- ---@class with ---@field (a table, or a section when methods follow),
-- and functions with ---@param / ---@return.
local input, output = arg[1], arg[2]
assert(input and output, "usage: meta2ldoc.lua rvo.meta.lua out.lua")

local lines = {}
for line in io.lines(input) do lines[#lines + 1] = line end

local out = {
    "--- rvo: crowd local avoidance (ORCA / RVO2) for Lua 5.4 and LuaJIT.",
    "-- The API of `require(\"rvo\")`, its worlds and the pure Lua modules,",
    "-- generated from docs/rvo.meta.lua (units: metres, seconds, m/s).",
    "-- @module rvo",
    "",
}
local function emit(s) out[#out + 1] = s end

-- "name?" -> "name", true
local function opt_name(s)
    if s:sub(-1) == "?" then return s:sub(1, -2), true end
    return s, false
end

local doc, params, returns, fields, class = {}, {}, {}, {}, nil
local function reset() doc, params, returns, fields, class = {}, {}, {}, {}, nil end

local function comment_block(head)
    emit("--- " .. (doc[1] or head))
    for i = 2, #doc do emit("-- " .. doc[i]) end
end

for _, line in ipairs(lines) do
    local tag, rest = line:match("^%-%-%-@(%w+)%s*(.*)$")
    local text = line:match("^%-%-%-(.*)$")
    -- (---@meta and ---@alias have nothing to say in HTML)
    if tag == "class" then
        class = rest:match("^([%w%._]+)")
    elseif tag == "field" then
        local name, ty, desc = rest:match("^(%S+)%s+(%S+)%s*(.*)$")
        local n, optional = opt_name(name)
        fields[#fields + 1] = string.format("-- @field %s (%s%s) %s", n, ty, optional and ", optional" or "", desc)
    elseif tag == "param" then
        local name, ty, desc = rest:match("^(%S+)%s+(%S+)%s*(.*)$")
        local n, optional = opt_name(name)
        params[#params + 1] = string.format("-- @param%s %s (%s) %s", optional and "[opt]" or "", n, ty, desc)
    elseif tag == "return" then
        returns[#returns + 1] = "-- @return " .. rest
    elseif text and not tag then
        doc[#doc + 1] = text:gsub("^%s", "")
    elseif line:match("^local%s+[%w_]+%s*=%s*{}") and class then
        -- A class with methods: a section of its own.
        local short = class:match("([%w_]+)$")
        comment_block(short == "rvo" and 'The module, require("rvo")' or short)
        for _, f in ipairs(fields) do emit(f) end
        emit("-- @type " .. short)
        emit("")
        reset()
    elseif line:match("^function ") then
        local name, args = line:match("^function%s+([%w_%.:]+)%s*%((.-)%)")
        -- rvo.World:method -> World:method for LDoc's @type sections
        comment_block(name)
        for _, p in ipairs(params) do emit(p) end
        for _, r in ipairs(returns) do emit(r) end
        emit(string.format("function %s(%s) end", name, args))
        emit("")
        reset()
    elseif line:match("^%s*$") then
        if class and #fields > 0 then
            -- A class of plain fields (definitions, results): a table.
            comment_block(class)
            emit("-- @table " .. class:match("([%w_]+)$"))
            for _, f in ipairs(fields) do emit(f) end
            emit("")
        end
        if class or #params > 0 then reset() end
    end
end

local f = assert(io.open(output, "wb"))
f:write(table.concat(out, "\n"), "\n")
f:close()
