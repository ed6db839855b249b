-- Errors raised inside the behaviour modules name the method the user
-- called and its argument, at the user's line (support.error_of checks the
-- position), not a world method inside the module. Both runtimes.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local error_of = support.error_of

local function scene()
    local w = rvo.new_world { time_step = 0.1 }
    local a = w:add_agent(0, 0)
    local b = w:add_agent(3, 0)
    local dead = w:add_agent(9, 9)
    w:remove_agent(dead)
    return w, a, b, dead
end

local function destroyed()
    local w = scene()
    w:destroy()
    return w
end

describe("module errors", function()
    it("jitter:steer names steer and the id or world argument", function()
        local j = require("rvo.jitter").new {}
        local w, _, _, dead = scene()
        assert.are.equal("bad argument #2 to 'steer' (unknown or removed agent id " .. dead .. ")",
            error_of(function() j:steer(w, dead, 1, 1) end))
        assert.are.equal("bad argument #2 to 'steer' (agent id expected, got string)",
            error_of(function() j:steer(w, "x", 1, 1) end))
        assert.are.equal("bad argument #1 to 'steer' (the world was destroyed)",
            error_of(function() j:steer(destroyed(), 1, 1, 1) end))
    end)

    it("surround:step names step when the target died or the world was destroyed", function()
        local surround = require("rvo.surround")
        local w, a, b = scene()
        local s = surround.new(w, { target = a, attack_radius = 3 })
        s:add(b)
        w:remove_agent(a)
        assert.are.equal("bad argument #0 to 'step' (the target agent was removed: set_target first)",
            error_of(function() s:step() end))
        assert.are.equal("bad argument #0 to 'before_solve' (the target agent was removed: set_target first)",
            error_of(function() s:before_solve() end))
        local w2, a2, b2 = scene()
        local s2 = surround.new(w2, { target = a2, attack_radius = 3 })
        s2:add(b2)
        w2:destroy()
        assert.are.equal("bad argument #0 to 'step' (the world was destroyed)", error_of(function() s2:step() end))
        assert.are.equal("bad argument #1 to 'new' (the world was destroyed)",
            error_of(function() surround.new(destroyed(), { target = 1 }) end))
    end)

    it("locks, follow, groups and unstick name their method on a destroyed world", function()
        local w, _, b = scene()
        local L = require("rvo.locks").new(w, {})
        local f = require("rvo.follow").new(w, {})
        f:set_path(b, { 5, 5 })
        local g = require("rvo.groups").new(w, { "r" })
        g:set(b, "r")
        w:destroy()
        assert.are.equal("bad argument #0 to 'step' (the world was destroyed)", error_of(function() L:step() end))
        assert.are.equal("bad argument #0 to 'update' (the world was destroyed)", error_of(function() f:update() end))
        assert.are.equal("bad argument #0 to 'join' (the world was destroyed)", error_of(function() g:join(b, "r") end))
        assert.are.equal("bad argument #0 to 'ignores' (the world was destroyed)",
            error_of(function() g:ignores("r", "r") end))
        local u = require("rvo.unstick").new {}
        assert.are.equal("bad argument #1 to 'apply' (the world was destroyed)",
            error_of(function() u:apply(destroyed()) end))
    end)
end)
