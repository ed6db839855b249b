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

-- Runs misuse cases against a fresh support.scene each. A case is
-- { expected message, function(w, a, b, stale) ... end [, prep] }: prep(w, a, b)
-- runs first (legitimate calls that set the stage); then the call that
-- raises, which must sit in a spec file so that its line is the position.
-- Checks the exact message, that positions did not change, and that the
-- world goes on.
function support.run_cases(rvo, cases)
    for _, case in ipairs(cases) do
        local expected, f, prep = case[1], case[2], case[3]
        local w, a, b = support.scene(rvo)
        local stale = w:add_agent(50, 50)
        w:remove_agent(stale)
        if prep then prep(w, a, b) end
        local count = w:agent_count()
        local before = w:positions()
        local msg = support.error_of(function() f(w, a, b, stale) end)
        -- (busted's assert is not visible here: plain checks)
        if msg ~= expected then
            error(string.format("wrong message\nexpected: %s\n     got: %s", expected, msg), 2)
        end
        -- nothing changed, and the world goes on
        local after = w:positions()
        assert(#after == #before, "agent count changed by: " .. expected)
        for i = 1, #before do
            assert(rawequal(after[i], before[i]) or after[i] == before[i], "positions changed by: " .. expected)
        end
        if w:is_solved() then w:integrate() end
        support.assert_usable(w, count)
        w:destroy()
    end
end

-- Loads a chunk from a string on both runtimes.
-- os.execute's success on Lua 5.4 (true) and LuaJIT (0).
function support.shell_ok(cmd)
    local r = os.execute(cmd)
    return r == true or r == 0
end

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

-- The game semantics in one scene, for cross_runtime_spec: weights, groups
-- and masks (changed at run time), a weight-0 hero, a lock, two floors, an
-- obstacle with a z range, the height margin, post-processing, and the
-- chosen solver. Called as chunk(rvo, solver, steps); returns "%a" positions
-- in creation order, then the avoiding report and two ray casts (as indices
-- and "%a" numbers). Only + - * / and sqrt, as above.
support.SEMANTICS_SRC = [==[
local rvo, solver, steps = ...
local w = rvo.new_world { time_step = 0.25, neighbor_dist = 12, max_neighbors = 8, time_horizon = 5,
    time_horizon_obst = 5, radius = 0.75, max_speed = 2, height = 2, solver = solver }
if solver == "rvo" then w:set_sampling(64, 1.5) end
w:add_obstacle { -3, -3, 3, -3, 3, 3, -3, 3 }
local bar = w:add_obstacle({ -20, 12, 20, 12 }, { closed = false })
w:set_obstacle_z_range(bar, 2.5, 4) -- blocks floor 1 (z = 3) only
local n, agents, goals, index = 24, {}, {}, {}
local side = n / 4
for i = 1, n do
    local k = (i - 1) % side
    local t = -20 + 40 * k / side + 0.37 * (i % 3)
    local s = math.floor((i - 1) / side)
    local x, y
    if s == 0 then x, y = t, -20 elseif s == 1 then x, y = 20, t
    elseif s == 2 then x, y = -t, 20 else x, y = -20, -t end
    local odd = i % 2 == 1
    agents[i] = w:add_agent(x, y, { weight = 0.25 * (i % 4) + 0.125, groups = odd and 1 or 2,
        mask = odd and 5 or 6, z = i % 3 == 0 and 3 or 0 })
    goals[i] = { -x, -y }
    index[agents[i]] = i
end
local hero = w:add_agent(0.5, -8, { weight = 0, groups = 4, mask = 4, radius = 1 })
index[hero] = n + 1
for step = 1, steps do
    for i = 1, n do
        local x, y = w:position(agents[i])
        local dx, dy = goals[i][1] - x, goals[i][2] - y
        local d = math.sqrt(dx * dx + dy * dy)
        if d > 1.5 then dx, dy = 1.5 * dx / d, 1.5 * dy / d end
        w:set_pref_velocity(agents[i], dx, dy)
    end
    if step == 10 then w:lock(agents[3], 0.5, 1) end
    if step == 40 then w:unlock(agents[3]) end
    if step == 25 then w:set_groups(agents[5], 2); w:set_weight(agents[6], 1) end
    if step == 50 then w:set_height_margin(1.5) end
    w:solve()
    -- post-process: agent 2 walks at half speed, agent 7 is pushed sideways (clamped)
    local vx, vy = w:new_velocity(agents[2])
    w:set_new_velocity(agents[2], vx * 0.5, vy * 0.5)
    vx, vy = w:new_velocity(agents[7])
    w:set_new_velocity(agents[7], vx - vy * 3, vy + vx * 3)
    w:integrate()
end
w:solve()
local out = {}
for i = 1, n + 1 do
    local x, y = w:position(i <= n and agents[i] or hero)
    out[i] = string.format("%a %a", x, y)
end
local avoiding = {}
for k, id in ipairs((w:avoiding(1e-3))) do avoiding[k] = index[id] end
out[#out + 1] = "avoiding " .. table.concat(avoiding, " ")
for _, ray in ipairs { { -25, 0, 1, 0.01, 60, 0 }, { 0, -25, 0.02, 1, 60, 0.5, 2 } } do
    local hit = w:ray_cast(ray[1], ray[2], ray[3], ray[4], ray[5], ray[6], ray[7])
    out[#out + 1] = hit and string.format("ray %a %a %a %a %a %s %s", hit.distance, hit.x, hit.y, hit.nx, hit.ny,
        tostring(index[hit.agent]), tostring(hit.obstacle)) or "ray none"
end
w:integrate()
w:destroy()
return table.concat(out, "\n")
]==]

function support.run_scene(rvo, threads, n, steps)
    return support.load(support.SCENE_SRC, "=scene")(rvo, threads, n, steps)
end

function support.run_semantics(rvo, solver, steps)
    return support.load(support.SEMANTICS_SRC, "=semantics")(rvo, solver, steps)
end

return support
