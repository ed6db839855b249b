--- examples/skirmish.lua — every behaviour module at once, in one frame,
-- with a save and load in the middle of the run.
--
-- Two teams of 30 (3 heavies each that never yield) walk through each other
-- with jittered steering; a red ram (a locked agent) drives across the
-- field and the red team walks through it (rvo.groups); 16 monsters ring a
-- hero (rvo.surround); lock timers (rvo.locks) and stall escalation
-- (rvo.unstick) run on everyone else. rvo.frame runs the modules in order.
-- At step 150 the frame is saved to one string and loaded again: the copy
-- runs beside the original, and the two must end in the same bytes.
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/skirmish.lua [--quick] [--no-locks] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/skirmish.lua [--quick] [--no-locks] [out.svg]
--
-- Prints the steps until every unit was home, the worst overlap (pairs that
-- avoid each other), the monsters in the band and whether the loaded copy
-- ended identical. Exits with status 1 if a unit is not home, the overlap
-- exceeds 1% of the radius sum, fewer than 14 monsters hold the ring or the
-- copy differs. --quick: the same scene, checks every 5 steps only.

local rvo = require("rvo")
local frame = require("rvo.frame")
local groups = require("rvo.groups")
local jitter = require("rvo.jitter")
local locks = require("rvo.locks")
local surround = require("rvo.surround")
local unstick = require("rvo.unstick")
local trace = require("rvo.trace")

local quick, use_locks, out_path = false, true, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "--no-locks" then
        use_locks = false
    elseif a == "-h" or a == "--help" then
        print("usage: skirmish.lua [--quick] [--no-locks] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("skirmish.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end
if not out_path then
    local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
    local root = dir:match("^(.*)[/\\]examples$") or (dir == "examples" and ".") or (dir .. "/..")
    out_path = root .. "/out/skirmish.svg"
end

local DT, STEPS, SAVE_AT = 0.1, 900, 150
local ATTACK, TOL = 3.5, 0.5

local world = rvo.new_world { time_step = DT, radius = 0.5, max_speed = 2, neighbor_dist = 8, time_horizon = 2 }
local g = groups.new(world, { "red", "blue", "ram", "hero", "monsters" })
g:ignores("red", "ram") -- the red team walks through its own ram (the ram is locked: it ignores nobody's way)

local team, goal, home = {}, {}, {}
local units = {}
for i = 0, 29 do
    local row, col = i % 6, math.floor(i / 6)
    local y = -7 + 2.6 * row + 0.01 * col
    local heavy = row == 2 and col % 2 == 0 -- 3 per team
    local def = heavy and { radius = 0.8, weight = 0 } or nil
    local r = world:add_agent(-22 - 1.4 * col, y, def)
    local b = world:add_agent(22 + 1.4 * col, y + 1.3, def)
    g:set(r, "red")
    g:set(b, "blue")
    team[r], team[b] = "red", "blue"
    goal[r], goal[b] = { 22 + 1.4 * col, y }, { -22 - 1.4 * col, y + 1.3 }
    units[#units + 1] = r
    units[#units + 1] = b
end
local ram = world:add_agent(0, -20, { radius = 1 })
g:set(ram, "ram")
team[ram] = "ram"
world:lock(ram, 0, 1.2) -- drives north across the field

local hero = world:add_agent(0, 18, { weight = 0 })
g:set(hero, "hero")
team[hero] = "hero"
local s = surround.new(world, { target = hero, attack_radius = ATTACK, tolerance = TOL })
local monsters = {}
for k = 0, 15 do
    local a = 2 * math.pi * k / 16
    local m = world:add_agent(12 * math.cos(a) + 0.3, 18 + 12 * math.sin(a))
    g:set(m, "monsters")
    team[m] = "monsters"
    s:add(m)
    monsters[#monsters + 1] = m
end

local j = jitter.new { seed = 7, amount = 0.1, slow_radius = 1 }
local L = use_locks and locks.new(world, { after_avoid = 0.2 }) or nil
local u = unstick.new { seed = 3 }
local f = frame.new(world, { groups = g, jitter = j, locks = L, unstick = u, surround = s })

-- Pairs that avoid each other (the red team and its ram do not).
local function counts(a, b)
    return not ((team[a] == "red" and team[b] == "ram") or (team[a] == "ram" and team[b] == "red"))
end
local all = {}
for id in pairs(team) do all[#all + 1] = id end
table.sort(all)

-- every unit's goal, flat, in the order of units (for steer_all)
local goals_xy = {}
for k, id in ipairs(units) do
    goals_xy[2 * k - 1], goals_xy[2 * k] = goal[id][1], goal[id][2]
end

local function drive(fr)
    fr.jitter:steer_all(fr.world, units, goals_xy, 0.3) -- (within 0.3 m of its goal a unit has arrived: it stops)
    fr:step()
end

local tr = trace.new(world)
local copy
local worst, all_home = 0, nil
for step = 1, STEPS do
    drive(f)
    if copy then drive(copy) end
    if step == SAVE_AT then copy = frame.load(f:save()) end
    tr:record()
    if not quick or step % 5 == 0 then
        for ia = 1, #all do
            local a = all[ia]
            local xa, ya = world:position(a)
            local ra = world:radius(a)
            for ib = ia + 1, #all do
                local b = all[ib]
                if counts(a, b) then
                    local xb, yb = world:position(b)
                    local sum = ra + world:radius(b)
                    local d = math.sqrt((xa - xb) ^ 2 + (ya - yb) ^ 2)
                    if 1 - d / sum > worst then worst = 1 - d / sum end
                end
            end
        end
    end
    if not all_home then
        local home_now = 0
        for _, id in ipairs(units) do
            local gl = goal[id]
            local x, y = world:position(id)
            if (gl[1] - x) ^ 2 + (gl[2] - y) ^ 2 < 1 then home_now = home_now + 1 end
        end
        home.n = home_now
        if home_now == #units then all_home = step end
    end
end

local hx, hy = world:position(hero)
local in_band = 0
for _, m in ipairs(monsters) do
    local x, y = world:position(m)
    local d = math.sqrt((x - hx) ^ 2 + (y - hy) ^ 2)
    if d >= ATTACK - TOL - 0.05 and d <= ATTACK + 0.05 then in_band = in_band + 1 end
end
local identical = copy.world:save() == world:save()

print(string.format("skirmish (%s%s): %d units, a ram, a hero ringed by %d monsters, %d steps of %.1f s",
    rvo.backend, use_locks and ", locks" or ", no locks", #units, #monsters, STEPS, DT))
print(string.format("all units home at step %s (%d of %d at the end)", all_home or "never", home.n, #units))
print(string.format("worst overlap %.2f%% of the radius sum", 100 * math.max(0, worst)))
print(string.format("monsters in the band [%.1f, %.1f] at the end: %d of %d", ATTACK - TOL, ATTACK, in_band,
    #monsters))
print(string.format("saved at step %d and loaded: the copy ends %s", SAVE_AT,
    identical and "in the same bytes" or "DIFFERENT"))

local ok, why = tr:write_svg(out_path, { tolerance = 0.05, title = "skirmish", size = 800, point_radius = 0.5 })
if not ok then
    local dir = out_path:match("^(.*)[/\\]")
    if dir then
        os.execute('mkdir -p "' .. dir:gsub('"', '\\"') .. '"')
        ok, why = tr:write_svg(out_path, { tolerance = 0.05, title = "skirmish", size = 800, point_radius = 0.5 })
    end
end
if not ok then
    io.stderr:write("skirmish.lua: cannot write " .. out_path .. ": " .. tostring(why) .. "\n")
    os.exit(1)
end
print("svg: " .. out_path)
if not all_home or worst > 0.01 or in_band < 14 or not identical then os.exit(1) end
