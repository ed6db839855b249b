-- Shared helpers for the busted specs (loaded with dofile, not a spec).
-- Everything here runs unchanged on Lua 5.4 (rvo.core) and LuaJIT (rvo.ffi).
local support = {}

local loadstr = rawget(_G, "loadstring") or load

support.nan = 0 / 0
support.inf = 1 / 0

-- Runs f (which must raise) and returns the message without its
-- "file:line: " prefix, after checking that the prefix names a spec file:
-- errors must point at the caller's line, not into the binding.
function support.error_of(f)
    local ok, msg = pcall(f)
    assert(not ok, "expected an error, got none")
    assert(type(msg) == "string", "error is not a string: " .. tostring(msg))
    local where, text = msg:match("^(.-):%d+: (.*)$")
    assert(where, "error has no position: " .. msg)
    assert(where:match("_spec%.lua$"), "error points at '" .. where .. "', not at the caller: " .. msg)
    return text
end

-- A world with two agents that is expected to survive every misuse.
function support.scene(rvo)
    local w = rvo.new_world { time_step = 0.1 }
    local a = w:add_agent(0, 0, { pvx = 1 })
    local b = w:add_agent(3, 0, { pvx = -1 })
    return w, a, b
end

-- The world still works: state intact, it steps, agents can be added and
-- removed, and every error slot was left clean enough for the next call.
function support.assert_usable(w, count)
    assert(not w:is_destroyed(), "world was destroyed")
    assert(w:agent_count() == count, "agent count changed: " .. w:agent_count() .. " ~= " .. count)
    local id = w:add_agent(100, 100)
    assert(w:is_valid(id))
    w:step()
    w:solve()
    w:integrate()
    local x, y = w:position(id)
    assert(x == x and y == y)
    w:remove_agent(id)
    assert(w:agent_count() == count)
end

-- Loads a chunk from a string on both runtimes.
function support.load(src, name)
    return assert(loadstr(src, name))
end

-- Distance from (px, py) to the segment a-b.
function support.segment_distance(px, py, ax, ay, bx, by)
    local dx, dy = bx - ax, by - ay
    local t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
    if t < 0 then t = 0 elseif t > 1 then t = 1 end
    local qx, qy = ax + t * dx - px, ay + t * dy - py
    return math.sqrt(qx * qx + qy * qy)
end

-- Sets every agent's preferred velocity towards (gx, gy) at speed s.
function support.steer(w, id, gx, gy, s)
    local x, y = w:position(id)
    local dx, dy = gx - x, gy - y
    local d = math.sqrt(dx * dx + dy * dy)
    if d > s then
        dx, dy = s * dx / d, s * dy / d
    end
    w:set_pref_velocity(id, dx, dy)
end

-- A fixed scene, as source so that another interpreter can run the very
-- same code (cross_runtime_spec). Called as chunk(rvo, threads, n, steps);
-- returns the final positions, "%a"-formatted, one "x y" per agent, in
-- creation order. No trigonometry: only + - * / and sqrt, which IEEE
-- fixes, so both runtimes compute the same preferred velocities.
support.SCENE_SRC = [==[
local rvo, threads, n, steps = ...
local w = rvo.new_world { time_step = 0.25, neighbor_dist = 15, max_neighbors = 10, time_horizon = 10,
    time_horizon_obst = 10, radius = 1.5, max_speed = 2, threads = threads }
w:add_obstacle { -4, -4, 4, -4, 4, 4, -4, 4 }
w:add_obstacle({ 20, -30, 20, -20, 25, -15 }, { closed = false })
local agents, goals = {}, {}
local side = math.ceil(n / 4)
for i = 1, n do
    local k = (i - 1) % side
    local t = -40 + 80 * k / side + 0.37 * (i % 3)
    local s = math.floor((i - 1) / side)
    local x, y
    if s == 0 then x, y = t, -40 elseif s == 1 then x, y = 40, t
    elseif s == 2 then x, y = -t, 40 else x, y = -40, -t end
    agents[i] = w:add_agent(x, y, { radius = 1 + 0.25 * (i % 3) })
    goals[i] = { -x, -y }
end
local extra
for step = 1, steps do
    for i = 1, n do
        local x, y = w:position(agents[i])
        local dx, dy = goals[i][1] - x, goals[i][2] - y
        local d = math.sqrt(dx * dx + dy * dy)
        if d > 2 then dx, dy = 2 * dx / d, 2 * dy / d end
        w:set_pref_velocity(agents[i], dx, dy)
    end
    if step == 10 then extra = w:add_agent(0, 30, { pvy = -1 }) end
    if step == 60 then w:remove_agent(extra) end
    w:solve()
    -- post-process between the phases: agent 1 walks at half speed
    local vx, vy = w:new_velocity(agents[1])
    w:set_new_velocity(agents[1], vx * 0.5, vy * 0.5)
    w:integrate()
end
local out = {}
for i = 1, n do
    local x, y = w:position(agents[i])
    out[i] = string.format("%a %a", x, y)
end
w:destroy()
return table.concat(out, "\n")
]==]

function support.run_scene(rvo, threads, n, steps)
    return support.load(support.SCENE_SRC, "=scene")(rvo, threads, n, steps)
end

return support
