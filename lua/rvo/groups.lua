--- rvo.groups — named avoidance groups on top of the core's groups/mask bits.
--
-- The core makes agent A avoid agent B iff A.mask & B.groups ~= 0. This
-- module gives the bits names and keeps every managed agent's groups and
-- mask in step with relations between groups, as Unreal's avoidance group
-- masks do (ShouldIgnoreGroup).
--
--   local groups = require("rvo.groups")
--   local g = groups.new(world, { "red", "blue" })  -- bits 1 and 2 (define more later)
--   g:ignores("red", "red")        -- red walks through red ...
--   g:avoids("red", "blue")        -- ... but avoids blue (every pair avoids by default)
--   g:set(id, "red")               -- membership: sets the agent's groups and mask
--   g:join(id, "blue"); g:leave(id, "red")   -- at run time, any time
--
-- An agent avoids another when any group of the first avoids any group of
-- the second. An agent in no group (after leaving its last one) has groups
-- = 0 and mask = 0: nobody avoids it and it avoids nobody. Agents the module
-- does not manage keep their own bits (the core's default is groups = 1,
-- bit 1, and mask = every bit). Relations are one-way: g:ignores("a", "b")
-- says nothing about what b does about a.
--
-- Talks to the world only through set_groups, set_mask and is_valid, so it
-- works the same on Lua 5.4 and LuaJIT.

local check = require("rvo.check")
local state = require("rvo.state")
local show = check.show
local groups = {}

local MAX_GROUPS = 32
local format = string.format

local Groups = {}
Groups.__index = Groups


local check_self = check.self_checker(Groups, "groups", "g")

local function check_name(name, fname, argn)
    if type(name) ~= "string" or name == "" then
        error(format("bad argument #%d to '%s' (group name must be a non-empty string, got %s)",
            argn, fname, type(name) == "string" and '""' or type(name)), 3)
    end
end

local function known(self, name, fname, argn)
    check_name(name, fname, argn)
    local bit = self.bit_of[name]
    if not bit then
        error(format("bad argument #%d to '%s' (unknown group '%s': define it first)", argn, fname, name), 3)
    end
    return bit
end

local function check_id(self, id, fname)
    if type(id) ~= "number" then
        error(format("bad argument #1 to '%s' (agent id expected, got %s)", fname, type(id)), 3)
    end
    if not self.world:is_valid(id) then
        error(format("bad argument #1 to '%s' (unknown or removed agent id %s)", fname, show(id)), 3)
    end
end

--- A registry for one world. names: optional list of groups to define in
-- order (bits 1, 2, ...).
function groups.new(world, names)
    check.world(world, "new", 1)
    if names ~= nil and type(names) ~= "table" then
        error(format("bad argument #2 to 'new' (list of group names expected, got %s)", type(names)), 2)
    end
    local self = setmetatable({
        world = world,
        bit_of = {},    -- name -> bit 1..32
        name_of = {},   -- bit -> name
        ignore = {},    -- bit -> { [bit] = true }: pairs that ignore each other (one way)
        member = {},    -- agent id -> { [bit] = true }
    }, Groups)
    for i, name in ipairs(names or {}) do
        if type(name) ~= "string" or name == "" then
            error(format("bad argument #2 to 'new' (name %d must be a non-empty string)", i), 2)
        end
        if self.bit_of[name] then
            error(format("bad argument #2 to 'new' (group '%s' listed twice)", name), 2)
        end
        if i > MAX_GROUPS then
            error(format("bad argument #2 to 'new' (%d names: at most %d groups)", #names, MAX_GROUPS), 2)
        end
        self.bit_of[name], self.name_of[i] = i, name
        self.ignore[i] = {}
    end
    return self
end

--- Defines a group and returns its bit (1..32): the given one, else the
-- lowest free one. Defining an existing name returns its bit. A new group
-- is avoided by every group and avoids every group.
function Groups:define(name, bit)
    check_self(self, "define")
    check_name(name, "define", 1)
    local have = self.bit_of[name]
    if have then
        if bit ~= nil and bit ~= have then
            error(format("bad argument #2 to 'define' (group '%s' already has bit %d)", name, have), 2)
        end
        return have
    end
    if bit ~= nil then
        if type(bit) ~= "number" or bit < 1 or bit > MAX_GROUPS or bit ~= math.floor(bit) then
            error(format("bad argument #2 to 'define' (bit must be an integer in 1..%d, got %s)",
                MAX_GROUPS, show(bit)), 2)
        end
        if self.name_of[bit] then
            error(format("bad argument #2 to 'define' (bit %d is taken by group '%s')", bit, self.name_of[bit]), 2)
        end
    else
        for b = 1, MAX_GROUPS do
            if not self.name_of[b] then bit = b break end
        end
        if not bit then
            error(format("bad argument #1 to 'define' (no bit left for group '%s': at most %d groups)",
                name, MAX_GROUPS), 2)
        end
    end
    self.bit_of[name], self.name_of[bit] = bit, name
    self.ignore[bit] = {}
    self:_apply_all()
    return bit
end

--- The bit (1..32) of a group, or nil.
function Groups:bit(name)
    check_self(self, "bit")
    check_name(name, "bit", 1)
    return self.bit_of[name]
end

--- The groups value of a set of groups (for add_agent definitions).
function Groups:value(...)
    check_self(self, "value")
    local v, seen = 0, {}
    for i = 1, select("#", ...) do
        local b = known(self, (select(i, ...)), "value", i)
        if not seen[b] then v, seen[b] = v + 2 ^ (b - 1), true end
    end
    return v
end

--- The mask of an agent in these groups: every group any of them avoids.
function Groups:mask_of(...)
    check_self(self, "mask_of")
    local set = {}
    for i = 1, select("#", ...) do
        set[known(self, (select(i, ...)), "mask_of", i)] = true
    end
    return self:_mask(set)
end

function Groups:_mask(set)
    local m = 0
    for b = 1, MAX_GROUPS do
        if self.name_of[b] then
            for a = 1, MAX_GROUPS do
                if set[a] and not self.ignore[a][b] then
                    m = m + 2 ^ (b - 1)
                    break
                end
            end
        end
    end
    return m
end

function Groups:_apply(id)
    local set = self.member[id]
    local v = 0
    for b = 1, MAX_GROUPS do
        if set[b] then v = v + 2 ^ (b - 1) end
    end
    self.world:set_groups(id, v)
    self.world:set_mask(id, self:_mask(set))
end

-- Re-applies every managed agent (ids in order); drops removed agents.
function Groups:_apply_all()
    local ids = {}
    for id in pairs(self.member) do ids[#ids + 1] = id end
    table.sort(ids)
    for _, id in ipairs(ids) do
        if self.world:is_valid(id) then
            self:_apply(id)
        else
            self.member[id] = nil
        end
    end
end

local function relate(self, fname, a, b, ignores)
    check_self(self, fname)
    local ba, bb = known(self, a, fname, 1), known(self, b, fname, 2)
    local was = self.ignore[ba][bb] == true
    if was ~= ignores then
        self.ignore[ba][bb] = ignores or nil
        self:_apply_all()
    end
    return self
end

--- Members of group a avoid members of group b (the default).
function Groups:avoids(a, b)
    return relate(self, "avoids", a, b, false)
end

--- Members of group a walk through members of group b (unless another of
-- their groups avoids one of b's members' groups).
function Groups:ignores(a, b)
    return relate(self, "ignores", a, b, true)
end

--- "avoids" or "ignores": what group a does about group b.
function Groups:relation(a, b)
    check_self(self, "relation")
    local ba, bb = known(self, a, "relation", 1), known(self, b, "relation", 2)
    return self.ignore[ba][bb] and "ignores" or "avoids"
end

--- Makes the agent a member of exactly these groups (none: a ghost nobody
-- avoids and that avoids nobody) and manages it from now on.
function Groups:set(id, ...)
    check_self(self, "set")
    check_id(self, id, "set")
    local set = {}
    for i = 1, select("#", ...) do
        set[known(self, (select(i, ...)), "set", i + 1)] = true
    end
    self.member[id] = set
    self:_apply(id)
    return self
end

--- Adds the agent to a group (managing it from now on).
function Groups:join(id, name)
    check_self(self, "join")
    check_id(self, id, "join")
    local b = known(self, name, "join", 2)
    local set = self.member[id] or {}
    set[b] = true
    self.member[id] = set
    self:_apply(id)
    return self
end

--- Removes the agent from a group (a no-op when it was not a member).
function Groups:leave(id, name)
    check_self(self, "leave")
    check_id(self, id, "leave")
    local b = known(self, name, "leave", 2)
    local set = self.member[id] or {}
    set[b] = nil
    self.member[id] = set
    self:_apply(id)
    return self
end

--- Whether the agent is a member of the group.
function Groups:is_member(id, name)
    check_self(self, "is_member")
    local b = known(self, name, "is_member", 2)
    local set = self.member[id]
    return set ~= nil and set[b] == true
end

--- The names of the agent's groups, by bit.
function Groups:groups_of(id)
    check_self(self, "groups_of")
    local out, set = {}, self.member[id] or {}
    for b = 1, MAX_GROUPS do
        if set[b] then out[#out + 1] = self.name_of[b] end
    end
    return out
end

--- The managed agents in a group, in id order (removed agents dropped).
function Groups:members(name)
    check_self(self, "members")
    local b = known(self, name, "members", 1)
    local out = {}
    for id, set in pairs(self.member) do
        if set[b] and self.world:is_valid(id) then out[#out + 1] = id end
    end
    table.sort(out)
    return out
end

--- Stops managing an agent (its bits stay as they are). Removed agents are
-- also dropped by the next relation change.
function Groups:forget(id)
    check_self(self, "forget")
    if type(id) ~= "number" or id ~= id then -- (stale ids are fine: the agent is gone)
        error(format("bad argument #1 to 'forget' (agent id expected, got %s)", id ~= id and "nan" or type(id)), 2)
    end
    self.member[id] = nil
    return self
end

--- The registry as a string (rvo.state): names, bits, relations and
-- members. Save it with world:save(); groups.load(loaded_world, s) goes on.
function Groups:save()
    check_self(self, "save")
    return state.pack("groups", self, { world = true })
end

local function bit_ok(b)
    return type(b) == "number" and b >= 1 and b <= MAX_GROUPS and b == math.floor(b)
end

local function valid_state(f)
    for _, k in ipairs { "bit_of", "name_of", "ignore", "member" } do
        if type(f[k]) ~= "table" then return false end
    end
    for name, b in pairs(f.bit_of) do
        if type(name) ~= "string" or name == "" or not bit_ok(b) or f.name_of[b] ~= name then return false end
        if type(f.ignore[b]) ~= "table" then return false end
        for other, on in pairs(f.ignore[b]) do
            if not bit_ok(other) or on ~= true then return false end
        end
    end
    for b in pairs(f.name_of) do
        if not bit_ok(b) then return false end
    end
    for id, set in pairs(f.member) do
        if type(id) ~= "number" or type(set) ~= "table" then return false end
        for b, on in pairs(set) do
            if not bit_ok(b) or on ~= true or f.name_of[b] == nil then return false end
        end
    end
    return true
end

--- A registry for world (the world loaded from the same save) from s, a
-- string of Groups:save(). The agents' groups and masks come with the
-- world's own snapshot; this brings back the names, relations and members.
function groups.load(world, s)
    check.world(world, "load", 1)
    check.alive(world, "load", 1)
    local f = state.unpack("groups", s, "load", 2)
    if not valid_state(f) then error("bad argument #2 to 'load' (saved groups state is corrupted)", 2) end
    local self = groups.new(world)
    self.bit_of, self.name_of, self.ignore, self.member = f.bit_of, f.name_of, f.ignore, f.member
    return self
end

groups.Groups = Groups
groups.MAX_GROUPS = MAX_GROUPS
return groups
