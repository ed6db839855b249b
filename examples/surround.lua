--- examples/surround.lua — the two-phase surround attack (rvo.surround):
-- units come from one side and take places on a ring around a target,
-- against plain ORCA toward the same ring. Three scenes: a still target
-- (24 units), a moving target (24 units, target walking at 0.41 m/s) and a
-- target beside a wall (16 units). Prints, for each scene and method: when
-- every unit was in the band, how many are in it at the end, how many left
-- it after entering, the largest radial drift after entering, the worst
-- overlap and the largest angular gap between neighbours (as a multiple of
-- the even share). Draws every run: the band in grey, the target's path in
-- black, the units' paths.
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/surround.lua [--quick] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/surround.lua [--quick] [out.svg]
--
-- --quick: the still scene only. Exits with status 1 if the surround does
-- not bring every unit of the still scene into the band.

local rvo = require("rvo")
local surround = require("rvo.surround")
local trace = require("rvo.trace")
local svg = require("rvo.svg")

local quick, out_path = false, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "-h" or a == "--help" then
        print("usage: surround.lua [--quick] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("surround.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end
if not out_path then
    local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
    local root = dir:match("^(.*)[/\\]examples$") or (dir == "examples" and ".") or (dir .. "/..")
    out_path = root .. "/out/surround.svg"
end

local atan2 = math.atan2 or math.atan
local R, TOL = 5, 0.5
local STEPS = 600 -- 60 s at dt 0.1

-- The scene of tests/lua/surround_spec.lua.
local function run(scene, opts)
    local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2, neighbor_dist = 6, max_neighbors = 10,
        time_horizon = 1.5, time_horizon_obst = 1 }
    local target = w:add_agent(0, 0, { weight = 0 })
    local wall
    if scene == "wall" then
        wall = { 3.5, -20, 3.5, 20 }
        w:add_obstacle(wall, { closed = false })
    end
    local n = scene == "wall" and 16 or 24
    local units = {}
    for i = 0, n - 1 do
        local col, row = i % 4, math.floor(i / 4)
        units[#units + 1] = w:add_agent(-14 - 1.3 * col - 0.05 * (row % 2), -3.25 + 1.3 * row)
    end
    local s = surround.new(w, { target = target, attack_radius = R, tolerance = TOL, hold = opts.hold,
        probes = opts.probes })
    for _, id in ipairs(units) do s:add(id) end
    local tr = trace.new(w)
    local entered, lo, hi = {}, {}, {}
    local worst, all_in = -math.huge, nil
    local all = { target }
    for _, id in ipairs(units) do all[#all + 1] = id end
    for step = 1, STEPS do
        if scene == "moving" then w:set_pref_velocity(target, 0.4, 0.1) end
        s:step()
        tr:record()
        local tx, ty = w:position(target)
        local in_band = 0
        for _, id in ipairs(units) do
            local x, y = w:position(id)
            local d = math.sqrt((x - tx) ^ 2 + (y - ty) ^ 2)
            if d >= R - TOL and d <= R then
                in_band = in_band + 1
                entered[id] = entered[id] or step
            end
            if entered[id] then
                lo[id] = math.min(lo[id] or math.huge, d)
                hi[id] = math.max(hi[id] or -math.huge, d)
            end
        end
        for i = 1, #all do
            local x, y = w:position(all[i])
            for k = i + 1, #all do
                local x2, y2 = w:position(all[k])
                worst = math.max(worst, 1 - math.sqrt((x - x2) ^ 2 + (y - y2) ^ 2))
            end
        end
        if in_band == n and not all_in then all_in = step end
    end
    local tx, ty = w:position(target)
    local angles, in_band, left, drift = {}, 0, 0, 0
    for _, id in ipairs(units) do
        local x, y = w:position(id)
        local d = math.sqrt((x - tx) ^ 2 + (y - ty) ^ 2)
        if d >= R - TOL and d <= R then in_band = in_band + 1 end
        local a = atan2(y - ty, x - tx)
        angles[#angles + 1] = a < 0 and a + 2 * math.pi or a
        if entered[id] then
            drift = math.max(drift, hi[id] - lo[id])
            if lo[id] < R - TOL or hi[id] > R then left = left + 1 end
        end
    end
    table.sort(angles)
    local gap = 0
    for i = 1, #angles do
        gap = math.max(gap, (i < #angles and angles[i + 1] or angles[1] + 2 * math.pi) - angles[i])
    end
    w:destroy()
    return { n = n, all_in = all_in, in_band = in_band, left = left, drift = drift, worst = worst,
        gap = gap / (2 * math.pi / n), trace = tr, target = target, target_at = { tx, ty }, wall = wall }
end

local doc = svg.new { width = 1000, background = "white" }
print(string.format("surround attack, attack radius %g, band [%g, %g], dt 0.1, %d steps (%s)", R, R - TOL, R,
    STEPS, rawget(_G, "jit") and "LuaJIT" or _VERSION))
print("| scene | method | all in band at step | in band at the end | left the band | radial drift | "
    .. "worst overlap | largest gap / even share |")
print("|---|---|---|---|---|---|---|---|")
local ok_still = false
local scenes = quick and { "still" } or { "still", "moving", "wall" }
for k, scene in ipairs(scenes) do
    for m, method in ipairs { { "surround", {} }, { "plain ORCA", { hold = false, probes = false } } } do
        local r = run(scene, method[2])
        print(string.format("| %s | %s | %s | %d/%d | %d | %.3f m | %.1f%% | %.2f |", scene, method[1],
            r.all_in and tostring(r.all_in) or "never", r.in_band, r.n, r.left, r.drift,
            math.max(0, 100 * r.worst / 1), r.gap))
        if scene == "still" and m == 1 then ok_still = r.all_in ~= nil and r.left == 0 end
        -- draw: panel k, row m
        local ox, oy = (k - 1) * 40, (m - 1) * -40
        local paths = r.trace:paths()
        local tp = r.trace:path(r.target).points
        local band = {}
        for i = 0, 72 do
            local a = i * 2 * math.pi / 72
            band[#band + 1] = { ox + tp[#tp - 1] + (R - TOL / 2) * math.cos(a), oy + tp[#tp] + (R - TOL / 2) *
                math.sin(a) }
        end
        doc:polyline(band, { stroke = "#ddd", stroke_width = TOL })
        if r.wall then
            doc:line(ox + r.wall[1], oy - 12, ox + r.wall[3], oy + 12, { stroke = "#444", stroke_width = 0.2 })
        end
        for i, p in ipairs(paths) do
            local pts = trace.simplify(p.points, 0.02)
            for q = 1, #pts, 2 do pts[q], pts[q + 1] = pts[q] + ox, pts[q + 1] + oy end
            local c = p.id == r.target and "black" or svg.hue((i - 1) / #paths)
            doc:path(pts, { stroke = c, stroke_width = 0.06, stroke_opacity = 0.6 })
            doc:circle(pts[#pts - 1], pts[#pts], 0.5, { fill = c, fill_opacity = 0.8 })
        end
        doc:text(ox - 20, oy + 12, string.format("%s, %s: %d/%d in band", scene, method[1], r.in_band, r.n),
            { font_size = 1.4 })
    end
end
local ok, err = doc:write(out_path)
if not ok then
    local dir = out_path:match("^(.*)[/\\]")
    if dir then
        os.execute('mkdir -p "' .. dir:gsub('"', '\\"') .. '"')
        ok, err = doc:write(out_path)
    end
end
if not ok then
    io.stderr:write("surround.lua: cannot write " .. out_path .. ": " .. tostring(err) .. "\n")
    os.exit(1)
end
print("svg: " .. out_path)
if not ok_still then os.exit(1) end
