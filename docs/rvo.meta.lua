---@meta rvo
-- LuaLS (lua-language-server) definitions of require("rvo"): completion,
-- hover docs and type checks in editors. Add this folder to
-- `workspace.library` (e.g. in .luarc.json: {"workspace.library": ["<rvo>/docs"]}).
-- tests/lua/meta_spec.lua checks that every method a world has is declared here.
-- Units: metres, seconds, m/s. Ids are integers below 2^53.

---@alias rvo.AgentId integer
---@alias rvo.ObstacleId integer
---@alias rvo.SolverName "orca"|"ue"|"rvo"

---Per-agent parameters; every field is optional (the world's defaults fill the rest).
---@class rvo.AgentDef
---@field radius? number body radius [m] (> 0, default 0.5)
---@field max_speed? number speed limit [m/s] (>= 0, default 2)
---@field neighbor_dist? number agents farther away are ignored [m] (>= 0, default 10)
---@field max_neighbors? integer nearest agents considered (0..1024, default 10)
---@field time_horizon? number look-ahead against agents [s] (> 0, default 2)
---@field time_horizon_obst? number look-ahead against obstacles [s] (> 0, default 2)
---@field vx? number initial velocity x [m/s]
---@field vy? number initial velocity y [m/s]
---@field pvx? number initial preferred velocity x [m/s]
---@field pvy? number initial preferred velocity y [m/s]
---@field weight? number share of each avoidance it takes (0..1, default 0.5)
---@field groups? integer groups it belongs to (bits, default 1)
---@field mask? integer groups it avoids (bits, default 0xffffffff)
---@field z? number bottom of its vertical extent [m] (default 0)
---@field height? number vertical extent [m] (> 0, default math.huge: no height check)

---World parameters: the agent fields are the defaults of new agents.
---@class rvo.WorldDef: rvo.AgentDef
---@field time_step? number dt of world:step() without an argument [s] (> 0, default 1/60)
---@field threads? integer worker threads of the solve (1..64, default 1)
---@field seed? integer seed of the world's random state (0..2^53, default 1)
---@field height_margin? number extra vertical slack when comparing extents [m] (>= 0, default 0)
---@field solver? rvo.SolverName default "orca"
---@field rvo2_compat? boolean true: move exactly as RVO2 (no overlap resolution), default false

---@class rvo.ObstacleOptions
---@field closed? boolean false: an open polyline blocking from both sides (default true: a polygon)
---@field side? "solid"|"enclosure"|"winding" which side of a polygon agents keep off: solid (outside), enclosure (inside), or by the winding (default; counter-clockwise solid)

---The nearest hit of world:ray_cast.
---@class rvo.RayHit
---@field distance number along the ray [m]
---@field x number centre of the swept disc at the hit
---@field y number
---@field nx number unit normal pointing back towards the ray
---@field ny number
---@field agent? rvo.AgentId the agent hit, or nil
---@field obstacle? rvo.ObstacleId the obstacle hit, or nil

---@class rvo
---@field version string version of the C core, e.g. "0.1.0"
---@field backend "core"|"ffi" which binding is underneath: the Lua 5.4 C module or the LuaJIT FFI
local rvo = {}

---Creates a world. Raises `bad argument #1 to 'new_world' (...)` on a bad field.
---@param def? rvo.WorldDef
---@return rvo.World
function rvo.new_world(def) end

---True when v is a world of either backend.
---@param v any
---@return boolean
function rvo.is_world(v) end

---Rebuilds a world saved with world:save(); it continues bit-identically.
---@param snapshot string
---@return rvo.World
function rvo.load(snapshot) end

---A crowd simulation. Every method raises a clear error on bad input and
---leaves the world as it was.
---@class rvo.World
local World = {}

-- Lifetime --------------------------------------------------------------

---Frees the world now (also done by the garbage collector, or `<close>`).
function World:destroy() end

---@return boolean
function World:is_destroyed() end

---The whole world as a string (agents, obstacles, id pools, settings, phase).
---@return string
function World:save() end

-- Stepping ---------------------------------------------------------------

---solve(dt) then integrate(dt).
---@param dt? number [s] (> 0; default the world's time_step)
function World:step(dt) end

---Computes every agent's new velocity from a frozen snapshot of the world.
---@param dt? number [s] (> 0; default time_step)
function World:solve(dt) end

---Velocity = new velocity (clamped to max_speed), position += velocity * dt.
---An error unless a solve came before.
---@param dt? number [s] (> 0; default time_step)
function World:integrate(dt) end

---True between a solve and the next integrate.
---@return boolean
function World:is_solved() end

---@return number dt [s]
function World:time_step() end

---@param dt number [s] (> 0)
function World:set_time_step(dt) end

---@return rvo.SolverName
function World:solver() end

---Applies from the next solve.
---@param name rvo.SolverName
function World:set_solver(name) end

---Sampling RVO ("rvo" solver) knobs.
---@param samples integer candidate velocities (1..4096, default 250)
---@param penalty_weight number w of the penalty w / tc + |v_pref - v| [m] (>= 0, default 1)
function World:set_sampling(samples, penalty_weight) end

---@return boolean
function World:rvo2_compat() end

---@param on boolean true: move exactly as RVO2 (no overlap resolution)
function World:set_rvo2_compat(on) end

---@param margin number [m] (>= 0)
function World:set_height_margin(margin) end

-- Agents -----------------------------------------------------------------

---Adds an agent at (x, y); def overrides the world's defaults.
---@param x number
---@param y number
---@param def? rvo.AgentDef
---@return rvo.AgentId
function World:add_agent(x, y, def) end

---An error for an unknown or removed id.
---@param id rvo.AgentId
function World:remove_agent(id) end

---True when id is a live agent of this world.
---@param id rvo.AgentId
---@return boolean
function World:is_valid(id) end

---Same as is_valid.
---@param id rvo.AgentId
---@return boolean
function World:agent_valid(id) end

---@return integer
function World:agent_count() end

---@param id rvo.AgentId
---@return number x, number y
function World:position(id) end

---Teleports the agent.
---@param id rvo.AgentId
---@param x number
---@param y number
function World:set_position(id, x, y) end

---@param id rvo.AgentId
---@return number vx, number vy
function World:velocity(id) end

---@param id rvo.AgentId
---@param vx number
---@param vy number
function World:set_velocity(id, vx, vy) end

---Where the agent wants to go [m/s].
---@param id rvo.AgentId
---@return number vx, number vy
function World:pref_velocity(id) end

---@param id rvo.AgentId
---@param vx number
---@param vy number
function World:set_pref_velocity(id, vx, vy) end

---The velocity the last solve chose (only between solve and integrate).
---@param id rvo.AgentId
---@return number vx, number vy
function World:new_velocity(id) end

---Post-processing between solve and integrate; scaled down to max_speed.
---@param id rvo.AgentId
---@param vx number
---@param vy number
function World:set_new_velocity(id, vx, vy) end

-- Per-agent parameters (a getter and a setter each) ------------------------

---@param id rvo.AgentId
---@return number radius [m]
function World:radius(id) end
---@param id rvo.AgentId
---@param radius number [m] (> 0)
function World:set_radius(id, radius) end

---@param id rvo.AgentId
---@return number max_speed [m/s]
function World:max_speed(id) end
---@param id rvo.AgentId
---@param max_speed number [m/s] (>= 0)
function World:set_max_speed(id, max_speed) end

---@param id rvo.AgentId
---@return number neighbor_dist [m]
function World:neighbor_dist(id) end
---@param id rvo.AgentId
---@param neighbor_dist number [m] (>= 0)
function World:set_neighbor_dist(id, neighbor_dist) end

---@param id rvo.AgentId
---@return integer max_neighbors
function World:max_neighbors(id) end
---@param id rvo.AgentId
---@param max_neighbors integer (0..1024)
function World:set_max_neighbors(id, max_neighbors) end

---@param id rvo.AgentId
---@return number time_horizon [s]
function World:time_horizon(id) end
---@param id rvo.AgentId
---@param time_horizon number [s] (> 0)
function World:set_time_horizon(id, time_horizon) end

---@param id rvo.AgentId
---@return number time_horizon_obst [s]
function World:time_horizon_obst(id) end
---@param id rvo.AgentId
---@param time_horizon_obst number [s] (> 0)
function World:set_time_horizon_obst(id, time_horizon_obst) end

---@param id rvo.AgentId
---@return number weight (0..1)
function World:weight(id) end
---Share of each avoidance this agent takes: 0 never yields, 1 takes it all.
---@param id rvo.AgentId
---@param weight number (0..1)
function World:set_weight(id, weight) end

---@param id rvo.AgentId
---@return integer groups bits
function World:groups(id) end
---@param id rvo.AgentId
---@param groups integer bits it belongs to (0..2^32-1)
function World:set_groups(id, groups) end

---@param id rvo.AgentId
---@return integer mask bits
function World:mask(id) end
---A avoids B iff A.mask & B.groups ~= 0.
---@param id rvo.AgentId
---@param mask integer bits it avoids (0..2^32-1)
function World:set_mask(id, mask) end

---@param id rvo.AgentId
---@return number z [m]
function World:z(id) end
---@param id rvo.AgentId
---@param z number bottom of its vertical extent [m]
function World:set_z(id, z) end

---@param id rvo.AgentId
---@return number height [m]
function World:height(id) end
---@param id rvo.AgentId
---@param height number vertical extent [m] (> 0, math.huge = no height check)
function World:set_height(id, height) end

-- Game semantics ----------------------------------------------------------

---Moves at exactly (vx, vy); others avoid it as a moving obstacle.
---@param id rvo.AgentId
---@param vx number
---@param vy number
function World:lock(id, vx, vy) end

---@param id rvo.AgentId
function World:unlock(id) end

---@param id rvo.AgentId
---@return boolean
function World:is_locked(id) end

---Seconds left on agent id's timed lock (0: no timer). See lock_solved.
---@param id rvo.AgentId
---@return number
function World:lock_time(id) end

---Whether lock_solved may lock agent id (default true); false ends its
---timed lock (a hero, surround holders: rvo.locks' exempt).
---@param id rvo.AgentId
---@param on boolean
function World:set_auto_lock(id, on) end

---@param id rvo.AgentId
---@return boolean
function World:auto_lock(id) end

---Lock timers, before the solve (after the preferred velocities are set):
---counts every timed lock down by dt and ends those run out, and those
---whose agent's preferred velocity moved more than their release_on_change.
---@param dt number [s], finite, >= 0
---@return integer ended
function World:advance_locks(dt) end

---Lock timers, between solve and integrate: locks every unlocked agent with
---auto lock on, a group in groups and not idle to its new velocity, for after_avoid
---seconds if it diverted from its preferred velocity by more than
---tolerance, else for after_clean (none if that is <= 1e-9).
---@param tolerance number [m/s], >= 0
---@param after_avoid number [s], >= 0
---@param after_clean number [s], >= 0
---@param release_on_change number [m/s], > 0 (math.huge: never)
---@param groups integer bit mask 0..2^32-1 (4294967295: every agent)
---@return integer locked_for_avoiding
function World:lock_solved(tolerance, after_avoid, after_clean, release_on_change, groups) end

---Lock timers, after integrate (before the next solve): ends the timed locks
---of agents the overlap passes moved more than 1e-3 m (a lock ends on contact).
---@return integer ended
function World:release_pushed() end

---Agents whose last solved velocity differs from their preferred one by more
---than tolerance, in agent order, locked agents excluded. Without buf:
---the list and its count; with buf: fills it and returns the count.
---@param tolerance? number [m/s] (default 1e-4)
---@param buf? rvo.AgentId[]
---@return rvo.AgentId[]|integer list_or_count
---@return integer? count
function World:avoiding(tolerance, buf) end

-- Strict overlap ----------------------------------------------------------------

---Hard bodies: on by default; no effect with rvo2_compat. On: overlaps are
---resolved until no pair overlaps by more than 0.2% of its radius sum (at
---most 64 passes), velocities take up that correction, moving agents push
---idle ones aside (preferred speed at most 1% of max speed; a lower weight,
---weight 0, locks and groups protect), stalled agents that want opposite
---ways take turns (a long-stalled one gets way), and a stream keeps right.
---Off: the soft mode (four soft passes, ORCA as RVO2).
---@param on boolean
function World:set_strict_overlap(on) end

---@return boolean
function World:strict_overlap() end

-- Stall events (rvo.unstick escalates on them) ---------------------------------

---An agent stalls while it moves along its preferred velocity at less than
---progress x its preferred speed; it counts as stalled once that lasted
---min_time. Defaults 0.1 and 1 s.
---@param progress number in [0, 1]
---@param min_time number [s], finite, >= 0
function World:set_stall_threshold(progress, min_time) end

---@return number progress
---@return number min_time [s]
function World:stall_threshold() end

---The stalled agents in agent order and their stall times [s]. Without
---ids: ids, times (the table given, filled, or a new one) and the count;
---with ids: fills them (times only when given) and returns the count.
---@param ids? rvo.AgentId[]
---@param times? number[]
---@return rvo.AgentId[]|integer ids_or_count
---@return number[]? times
---@return integer? count
function World:stalled(ids, times) end

---How long [s] agent id has been stalling (0 while it makes progress).
---@param id rvo.AgentId
---@return number
function World:stall_time(id) end

-- Bulk access, in the world's agent order (world:ids()) ------------------------

---All agent ids. Without buf: the list and its count; with buf: the count.
---@param buf? rvo.AgentId[]
---@return rvo.AgentId[]|integer ids_or_count
---@return integer? count
function World:ids(buf) end

---Fills {x1, y1, x2, y2, ...}. Without buf: the table and the agent count; with buf: the count.
---@param buf? number[]
---@return number[]|integer xy_or_count
---@return integer? count
function World:positions(buf) end

---@param buf? number[]
---@return number[]|integer xy_or_count
---@return integer? count
function World:velocities(buf) end

---The velocities of the last solve (between solve and integrate).
---@param buf? number[]
---@return number[]|integer xy_or_count
---@return integer? count
function World:new_velocities(buf) end

---One pair per agent, in agent order. On LuaJIT xy may also be an FFI
---`float[?]` of at least 2 * agent_count floats, passed to the core uncopied.
---@param xy number[]
function World:set_pref_velocities(xy) end

---Bulk calls for a list of agent ids (a squad, a module's units), one core
---call each: the values of ids[k] at 2k-1, 2k (vectors) or k (numbers).
---The list ends at its first nil. Every id (and, for the setters, every
---value) is checked before anything is read or written: an unknown id
---raises `unknown or removed agent id (number k in ids)`.
---Fills buf (or a new table) with {x1, y1, x2, y2, ...} and returns it.
---@param ids integer[]
---@param buf? number[]
---@return number[] xy
function World:positions_of(ids, buf) end

---@param ids integer[]
---@param buf? number[]
---@return number[] xy
function World:velocities_of(ids, buf) end

---The velocities of the last solve (between solve and integrate).
---@param ids integer[]
---@param buf? number[]
---@return number[] xy
function World:new_velocities_of(ids, buf) end

---{r1, r2, ...}: one radius per id.
---@param ids integer[]
---@param buf? number[]
---@return number[] radii
function World:radii_of(ids, buf) end

---{s1, s2, ...}: one max speed per id.
---@param ids integer[]
---@param buf? number[]
---@return number[] speeds
function World:max_speeds_of(ids, buf) end

---One pair per id: {vx1, vy1, vx2, vy2, ...} (an id given twice keeps the last).
---@param ids integer[]
---@param xy number[]
function World:set_pref_velocities_of(ids, xy) end

---One pair per id (between solve and integrate), held to each max_speed.
---@param ids integer[]
---@param xy number[]
function World:set_new_velocities_of(ids, xy) end

---Zero-copy view of the positions: v[2k], v[2k + 1] (0-based, agent order)
---are the x and y of agent k. LuaJIT: a `const float *` into the world, valid
---until the next step, integrate, add_agent or remove_agent. Lua 5.4: a
---read-only userdata that always reads the current values (#v = 2 * agent_count).
---@return any view
function World:positions_view() end

---Zero-copy view of the velocities, as positions_view.
---@return any view
function World:velocities_view() end

---One pair per agent (between solve and integrate).
---@param xy number[]
function World:set_new_velocities(xy) end

---rvo.jitter's steering in bulk (Jitter:steer_all uses it): sets the
---preferred velocity of each ids[k] toward (goals[2k-1], goals[2k]) at its
---max speed, slowing within slow_radius, landing on the goal on the last
---step, turned sideways by up to amount of the speed drawn from rng (a
---jitter Rng: its fields s1, s2 advance; nil: no turn). Agents closer than
---arrive (or on their goal, or with max speed 0) stop. left: filled with
---the distances. Same bits as Jitter:steer per agent.
---@param ids rvo.AgentId[]
---@param goals number[] x1, y1, x2, y2, ...
---@param amount number 0..1
---@param slow_radius number [m], >= 0
---@param arrive number [m], >= 0
---@param rng? table
---@param left? number[]
---@return integer moving agents given a non-zero preferred velocity
function World:steer(ids, goals, amount, slow_radius, arrive, rng, left) end

---rvo.surround's frame in bulk (Surround:before_solve uses it): for the
---units, their phases (0 approach, 1 hold), stall times [s] and flip
---deadlines (clock values; below def.clock: none), updated in place, sets
---every unit's preferred velocity (the ring, the probes) and fills holders
---with the holders in ring order. def: x, y, vx, vy (the target),
---attack_radius, tolerance, probe_length, spread_speed, dt, clock (numbers)
---and spread, hold, probes (booleans), as rvo.surround's options.
---@param units rvo.AgentId[]
---@param phases integer[]
---@param stalled number[]
---@param flips number[]
---@param def table
---@param holders rvo.AgentId[]
---@return integer holders the number of holders
---@return number? gap_angle the middle of the widest gap between holders (nil: nobody holds)
function World:surround_plan(units, phases, stalled, flips, def, holders) end

---rvo.surround's projection in bulk (Surround:after_solve uses it), between
---solve and integrate: each holder keeps the tangential part of its new
---velocity relative to the target, plus the radial term that keeps it
---mid-band (def as surround_plan's).
---@param holders rvo.AgentId[]
---@param def table
function World:surround_project(holders, def) end

-- Obstacles ------------------------------------------------------------------

---A closed polygon (counter-clockwise: solid; clockwise: an enclosure; opts.side overrides) or,
---with closed = false, an open polyline.
---@param xy number[] {x1, y1, x2, y2, ...}
---@param opts? rvo.ObstacleOptions
---@return rvo.ObstacleId
function World:add_obstacle(xy, opts) end

---@param id rvo.ObstacleId
function World:remove_obstacle(id) end

---Replaces an obstacle's points, keeping its id, z range, whether it is
---closed and the side it was added with. On error it keeps its old points.
---@param id rvo.ObstacleId
---@param xy number[] {x1, y1, x2, y2, ...}
function World:set_obstacle_points(id, xy) end

---Sets an obstacle's velocity [m/s] (default 0, 0): each step moves it.
---With the orca solver agents avoid it as a moving agent; outside
---rvo2_compat an agent it sweeps over is carried along and pushed out.
---@param id rvo.ObstacleId
---@param vx number
---@param vy number
function World:set_obstacle_velocity(id, vx, vy) end

---@param id rvo.ObstacleId
---@return number vx
---@return number vy
function World:obstacle_velocity(id) end

---@param id rvo.ObstacleId
---@return boolean
function World:obstacle_valid(id) end

---@return integer
function World:obstacle_count() end

---Vertical range of an obstacle [m] (zmin <= zmax; default -inf..inf).
---@param id rvo.ObstacleId
---@param zmin number
---@param zmax number
function World:set_obstacle_z_range(id, zmin, zmax) end

---The vertical range of an obstacle as set (default -inf, inf).
---@param id rvo.ObstacleId
---@return number zmin
---@return number zmax
function World:obstacle_z_range(id) end

---The points of an obstacle as stored {x1, y1, ...} (close points merged;
---an open polyline's points once) and whether it is a closed polygon.
---@param id rvo.ObstacleId
---@param buf? number[] filled and returned instead of a new table
---@return number[] xy
---@return boolean closed
function World:obstacle_points(id, buf) end

---The live obstacle ids in the order they were added. Without buf: the
---table and the count; with buf: the count.
---@param buf? rvo.ObstacleId[]
---@return rvo.ObstacleId[]|integer ids_or_count
---@return integer? count
function World:obstacles(buf) end

-- Queries --------------------------------------------------------------------

---The agents id avoids, nearest first (ties by id).
---@param id rvo.AgentId
---@param buf? rvo.AgentId[]
---@return rvo.AgentId[]|integer list_or_count
---@return integer? count
function World:neighbors(id, buf) end

---Agents whose centres lie within r of (x, y), nearest first.
---@param x number
---@param y number
---@param r number [m] (>= 0)
---@param buf? rvo.AgentId[]
---@return rvo.AgentId[]|integer list_or_count
---@return integer? count
function World:query_radius(x, y, r, buf) end

---Obstacles with an edge within r of (x, y), nearest first (by their
---nearest edge; ties by id).
---@param x number
---@param y number
---@param r number [m] (>= 0)
---@param buf? rvo.ObstacleId[]
---@return rvo.ObstacleId[]|integer list_or_count
---@return integer? count
function World:query_obstacles(x, y, r, buf) end

---Whether a disc of radius clearance sweeps from (x1, y1) to (x2, y2)
---without touching an obstacle.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param clearance? number [m] (default 0)
---@return boolean
function World:line_of_sight(x1, y1, x2, y2, clearance) end

---Sweeps a disc from (x, y) along (dx, dy) up to max_dist; nil when nothing is hit.
---@param x number
---@param y number
---@param dx number
---@param dy number
---@param max_dist number [m]
---@param clearance? number [m] (default 0)
---@param mask? integer agents of these groups block (default 0xffffffff; 0: obstacles only)
---@param ignore? rvo.AgentId|false point-blank: skip only this agent (false: nobody) and hit at
---distance 0 any other whose disc holds the start (default: skip every disc holding the start)
---@return rvo.RayHit?
function World:ray_cast(x, y, dx, dy, max_dist, clearance, mask, ignore) end

---Many ray casts in one call (cheaper than one call a ray, on both runtimes):
---rays = {x, y, dx, dy, max_dist, clearance, ...}, 6 numbers per ray, each
---cast as world:ray_cast(x, y, dx, dy, max_dist, clearance, mask) casts it.
---out (or a new list) gets 3 numbers per ray: the distance (-1 when nothing is
---hit), the agent id and the obstacle id hit (0: none). Every ray is checked
---before any is cast (`bad argument #1 to 'ray_casts' (ray 3: ...)`).
---@param rays number[]
---@param out? number[] filled and cut to 3 numbers per ray
---@param mask? integer agents of these groups block (default 0xffffffff)
---@return number[]|integer hits out (a new list) and the number of rays that hit; with out, only the number
---@return integer? count
function World:ray_casts(rays, out, mask) end

---Debug view: the ORCA half-planes of one agent, as the solve builds them
---(between solve and integrate: the ones that solve used). Line k is
---lines[4k+1..4k+4] = point x, y, unit direction x, y in velocity space;
---allowed velocities lie left of the directed line. Obstacle lines first.
---Without buf: lines, count, obstacle_count; with buf: count, obstacle_count.
---@param id rvo.AgentId
---@param dt? number [s] (> 0; default time_step; matters only for overlapping agents)
---@param buf? number[]
---@return number[]|integer lines_or_count
---@return integer count_or_obstacle_count
---@return integer? obstacle_count
function World:orca_lines(id, dt, buf) end

-- Pure Lua modules -----------------------------------------------------------

---@class rvo.Trace
local Trace = {}

---@class rvo.trace
local trace = {}

---Starts recording a world's paths, and its obstacles (added, removed,
---reshaped, moving) unless opts.obstacles == false (records the current
---state unless opts.record_now == false).
---@param world rvo.World
---@param opts? {every?: integer, record_now?: boolean, obstacles?: boolean}
---@return rvo.Trace
function trace.new(world, opts) end

---Ramer-Douglas-Peucker simplification of a flat xy array.
---@param flat number[]
---@param tolerance? number
---@return number[]
function trace.simplify(flat, tolerance) end

---Records the current positions (one call in `every`, or when force).
---@param force? boolean
---@return integer agents recorded
function Trace:record(force) end

---Records the final state if the last record() was skipped.
---@return rvo.Trace
function Trace:finish() end

---@return integer states kept
function Trace:count() end

---@param id rvo.AgentId
---@return {id: rvo.AgentId, first: integer, points: number[]}?
function Trace:path(id) end

---@return {id: rvo.AgentId, first: integer, points: number[]}[]
function Trace:paths() end

---@return number[]? {minx, miny, maxx, maxy}
function Trace:bounds() end

---The obstacles recorded, in order of first appearance: the record each
---appeared in, the first it was missing from (nil while it lasts), each
---shape from the record it took it, each velocity change.
---@return {id: rvo.ObstacleId, first: integer, gone: integer?, closed: boolean, shapes: {record: integer, pts: number[]}[], velocities: {record: integer, vx: number, vy: number}[]}[]
function Trace:obstacles() end

---@param doc rvo.SvgDoc
---@param opts? table
---@return rvo.SvgDoc
function Trace:draw(doc, opts) end

---@param opts? table
---@return rvo.SvgDoc
function Trace:to_svg(opts) end

---@param filename string
---@param opts? table
---@return true|nil ok
---@return string? err
function Trace:write_svg(filename, opts) end

---@class rvo.SvgDoc
local SvgDoc = {}

---@class rvo.svg
local svg = {}

---@param opts? {width?: number, height?: number, viewbox?: number[], margin?: number, background?: string, decimals?: integer}
---@return rvo.SvgDoc
function svg.new(opts) end

---@param t number 0..1 around the hue wheel
---@param saturation? number percent
---@param lightness? number percent
---@return string colour
function svg.hue(t, saturation, lightness) end

---@param v number
---@param decimals? integer
---@return string
function svg.format_number(v, decimals) end

---@param s any
---@return string
function svg.escape(s) end

---@param points number[]|number[][]
---@param style? table
---@param closed? boolean
---@return rvo.SvgDoc
function SvgDoc:path(points, style, closed) end
---@param points number[]|number[][]
---@param style? table
---@return rvo.SvgDoc
function SvgDoc:polyline(points, style) end
---@param points number[]|number[][]
---@param style? table
---@return rvo.SvgDoc
function SvgDoc:polygon(points, style) end
---@return rvo.SvgDoc
function SvgDoc:line(x1, y1, x2, y2, style) end
---@return rvo.SvgDoc
function SvgDoc:circle(x, y, r, style) end
---@return rvo.SvgDoc
function SvgDoc:text(x, y, str, style) end
---@param markup string
---@return rvo.SvgDoc
function SvgDoc:raw(markup) end
---@return number[] {minx, miny, maxx, maxy}
function SvgDoc:bounds() end
---@return string
function SvgDoc:tostring() end
---@param filename string
---@return true|nil ok
---@return string? err
function SvgDoc:write(filename) end

---A run read from a trace file.
---@class rvo.Run
---@field dt number
---@field records integer
---@field obstacles {closed: boolean, pts: number[]}[] there all along, unchanged
---@field tracks {id: integer, closed: boolean, first: integer, gone: integer?, shapes: {record: integer, pts: number[]}[], velocities: {record: integer, vx: number, vy: number}[]}[] obstacles that moved, changed, came or went
---@field agents {id: integer, first: integer, radius: number, points: number[]}[]

---@class rvo.render
local render = {}

---Writes a trace to a file (with obstacles, radii and dt). The obstacles
---the trace recorded, unless opts.obstacles lists others to draw instead.
---@param tr rvo.Trace
---@param filename string
---@param opts? {dt?: number, obstacles?: {pts: number[], closed?: boolean}[], radius?: number|fun(id: integer): number}
---@return true|nil ok
---@return string? err
function render.save(tr, filename, opts) end

---@param filename string
---@return rvo.Run|nil run
---@return string? err
function render.load(filename) end

---@param text string
---@return rvo.Run|nil run
---@return string? err
function render.parse(text) end

---A still picture. colour: one colour per agent (default one hue each);
---legend and scale [m]: drawn in a strip under the run.
---@param run rvo.Run
---@param opts? {size?: number, title?: string, tolerance?: number, colour?: fun(agent: table, i: integer): string, legend?: {[1]: string, [2]: string}[], scale?: number}
---@return rvo.SvgDoc
function render.svg(run, opts) end

---@param run rvo.Run
---@param opts? {size?: number, title?: string, tolerance?: number, duration?: number, frames?: integer, colour?: fun(agent: table, i: integer): string, legend?: {[1]: string, [2]: string}[], scale?: number}
---@return rvo.SvgDoc
function render.animated_svg(run, opts) end

-- Behaviour modules ----------------------------------------------------------

---A reproducible generator (same numbers on Lua 5.4 and LuaJIT).
---@class rvo.Rng
local Rng = {}

---@class rvo.Jitter
local Jitter = {}

---@class rvo.jitter
local jitter = {}

---A generator of its own.
---@param seed integer 0..2^53-1
---@return rvo.Rng
function jitter.rng(seed) end

---A steerer: preferred velocities toward goals with a small sideways nudge.
---@param opts? {seed?: integer, rng?: rvo.Rng|fun(): number, amount?: number, slow_radius?: number}
---@return rvo.Jitter
function jitter.new(opts) end

---Sets the preferred velocity of id toward (gx, gy) at speed (default its
---max_speed), turned sideways by at most `amount`; returns the distance left.
---@param world rvo.World
---@param id rvo.AgentId
---@param gx number
---@param gy number
---@param speed? number [m/s]
---@return number distance [m]
function Jitter:steer(world, id, gx, gy, speed) end

---steer for many agents in one call: ids[k] toward (goals[2k-1], goals[2k])
---at its max_speed; agents closer than arrive stop. The same bits as steer
---per agent; with the steerer's own generator one call to the core
---(world:steer). left: filled with the distances. Returns how many still go.
---@param world rvo.World
---@param ids rvo.AgentId[]
---@param goals number[] x1, y1, x2, y2, ...
---@param arrive? number [m] (default 0)
---@param left? number[]
---@return integer moving
function Jitter:steer_all(world, ids, goals, arrive, left) end

---The next number of this steerer's generator, in (0, 1).
---@return number
function Jitter:next() end
---The steerer's options and generator state as a string (rvo.state); raises
---for a steerer given rng = ... (save that generator yourself).
---@return string
function Jitter:save() end
---A steerer from a string of Jitter:save().
---@param s string
---@return rvo.Jitter
function jitter.load(s) end

---A number in (0, 1).
---@return number
function Rng:next() end
---A number in (lo, hi).
---@param lo number
---@param hi number
---@return number
function Rng:uniform(lo, hi) end
---An integer in lo..hi.
---@param lo integer
---@param hi integer
---@return integer
function Rng:integer(lo, hi) end
---The state as two numbers.
---@return number s1, number s2
function Rng:state() end
---@param s1 number
---@param s2 number
function Rng:set_state(s1, s2) end

---Named avoidance groups over the core's groups/mask bits.
---@class rvo.Groups
local Groups = {}

---@class rvo.groups
local groups = {}

---A registry for one world; names: groups to define now (bits 1, 2, ...).
---@param world rvo.World
---@param names? string[]
---@return rvo.Groups
function groups.new(world, names) end

---Defines a group; returns its bit (1..32).
---@param name string
---@param bit? integer
---@return integer
function Groups:define(name, bit) end
---@param name string
---@return integer?
function Groups:bit(name) end
---The groups value of a set of groups.
---@param ... string
---@return integer
function Groups:value(...) end
---The mask of an agent in these groups.
---@param ... string
---@return integer
function Groups:mask_of(...) end
---Members of a avoid members of b (the default).
---@param a string
---@param b string
function Groups:avoids(a, b) end
---Members of a walk through members of b.
---@param a string
---@param b string
function Groups:ignores(a, b) end
---@param a string
---@param b string
---@return "avoids"|"ignores"
function Groups:relation(a, b) end
---Makes the agent a member of exactly these groups.
---@param id rvo.AgentId
---@param ... string
function Groups:set(id, ...) end
---@param id rvo.AgentId
---@param name string
function Groups:join(id, name) end
---@param id rvo.AgentId
---@param name string
function Groups:leave(id, name) end
---@param id rvo.AgentId
---@param name string
---@return boolean
function Groups:is_member(id, name) end
---@param id rvo.AgentId
---@return string[]
function Groups:groups_of(id) end
---@param name string
---@return rvo.AgentId[]
function Groups:members(name) end
---Stops managing an agent (its bits stay).
---@param id rvo.AgentId
function Groups:forget(id) end
---Names, bits, relations and members as a string (rvo.state).
---@return string
function Groups:save() end
---A registry for world (loaded from the same save) from a string of Groups:save().
---@param world rvo.World
---@param s string
---@return rvo.Groups
function groups.load(world, s) end

---Unreal's lock-after-avoid / lock-after-clean timers.
---@class rvo.Locks
local Locks = {}

---@class rvo.locks
local locks = {}

---@param world rvo.World
---groups: lock only agents in one of these groups (a bit mask, default all).
---@param opts? {after_avoid?: number, after_clean?: number, tolerance?: number, release_on_change?: number, groups?: integer}
---@return rvo.Locks
function locks.new(world, opts) end

---Advances the timers by dt [s] and unlocks the expired (world:advance_locks);
---returns how many locks ended.
---@param dt number
---@return integer
function Locks:update(dt) end
---Between solve and integrate: locks every unlocked agent to its new
---velocity; returns the number locked for avoiding.
---@return integer
function Locks:after_solve() end
---update(dt), world:solve(dt), after_solve(), world:integrate(dt), after_integrate(dt).
---@param dt? number
function Locks:step(dt) end
---@param id rvo.AgentId
---@return number seconds
function Locks:time_left(id) end
---@param id rvo.AgentId
function Locks:release(id) end
function Locks:release_all() end
---After world:integrate(dt): releases the locked agents the hard-body pass
---had to move (a lock ends on contact); returns how many.
---@param dt? number
---@return integer
function Locks:after_integrate(dt) end
---Keeps an agent out of the lock timers (on = true, the default) or lets it
---in again (false).
---@param id rvo.AgentId
---@param on? boolean
---@return rvo.Locks
function Locks:exempt(id, on) end
---Timers, exempted agents and options as a string (rvo.state).
---@return string
function Locks:save() end
---A Locks for world (loaded from the same save) from a string of Locks:save().
---@param world rvo.World
---@param s string
---@return rvo.Locks
function locks.load(world, s) end

---The two-phase surround attack (probe rays, then holding the ring).
---@class rvo.Surround
local Surround = {}

---@class rvo.surround
local surround = {}

---@param world rvo.World
---@param opts {target: rvo.AgentId|number[], attack_radius?: number, tolerance?: number, probe_length?: number, spread?: boolean, spread_speed?: number, hold?: boolean, probes?: boolean}
---@return rvo.Surround
function surround.new(world, opts) end

---An agent id, or a point x, y with an optional velocity.
---@param x rvo.AgentId|number
---@param y? number
---@param vx? number
---@param vy? number
function Surround:set_target(x, y, vx, vy) end
---@return number x, number y, number vx, number vy
function Surround:target() end
---@param id rvo.AgentId
function Surround:add(id) end
---@param id rvo.AgentId
function Surround:remove(id) end
---@param id rvo.AgentId
---@return "approach"|"hold"|nil
function Surround:phase(id) end
---@return rvo.AgentId[]
function Surround:unit_ids() end
---Sets every unit's preferred velocity.
---@param dt? number
function Surround:before_solve(dt) end
---Between solve and integrate: the tangential projection of the holders.
function Surround:after_solve() end
---before_solve(dt), world:solve(dt), after_solve(), world:integrate(dt).
---@param dt? number
function Surround:step(dt) end
---The attack's state as a string (rvo.state).
---@return string
function Surround:save() end
---A Surround for world (loaded from the same save) from a string of Surround:save().
---@param world rvo.World
---@param s string
---@return rvo.Surround
function surround.load(world, s) end

---Escalation for stalled agents: jitter, then a side step, then a weight change.
---@class rvo.Unstick
local Unstick = {}

---@class rvo.unstick
local unstick = {}

---@param opts? {seed?: integer, jitter?: number, side?: number, hold?: number, memory?: number, low?: number, high?: number, arrive?: number}
---@return rvo.Unstick
function unstick.new(opts) end
---Escalates the world's stalled agents and turns the preferred velocities of
---those under escalation (after setting them, each frame); returns how many.
---Never escalates an agent with a zero preferred velocity, one within
---`arrive` of its goal in goals, or one queued: touching, ahead of it, a
---parked agent (idle, or home within `arrive` of its goal) or a stalled one
---that wants the same way (only the front of a standoff is escalated).
---@param world rvo.World
---@param dt? number
---@param goals? table<rvo.AgentId, number[]> id -> {x, y}
---@return integer
function Unstick:apply(world, dt, goals) end
---Ends every escalation and restores the weights it changed.
---@param world rvo.World
function Unstick:release(world) end
---Level (1..3) of the agent's escalation, or 0.
---@param id rvo.AgentId
---@return integer
function Unstick:level(id) end
---The escalations and the generator's state as a string (rvo.state).
---@return string
function Unstick:save() end
---An Unstick from a string of Unstick:save().
---@param s string
---@return rvo.Unstick
function unstick.load(s) end

---Several behaviour modules in one step, in the right order, saved and
---loaded with the world.
---@class rvo.Frame
---@field world rvo.World
---@field locks? rvo.Locks
---@field unstick? rvo.Unstick
---@field groups? rvo.Groups
---@field jitter? rvo.Jitter
---@field surround rvo.Surround[]
local Frame = {}

---@class rvo.frame
local frame = {}

---@param world rvo.World
---@param mods? {locks?: rvo.Locks, unstick?: rvo.Unstick, groups?: rvo.Groups, jitter?: rvo.Jitter, surround?: rvo.Surround|rvo.Surround[]}
---@return rvo.Frame
function frame.new(world, mods) end
---unstick, surround before_solve, locks update, solve, surround after_solve,
---locks after_solve, integrate, locks after_integrate.
---@param dt? number
---@param goals? table<rvo.AgentId, number[]> id -> {x, y}, for unstick's arrival test
function Frame:step(dt, goals) end
---The world and every module as one string.
---@return string
function Frame:save() end
---A frame with a new world from a string of Frame:save().
---@param s string
---@return rvo.Frame
function frame.load(s) end

---Plain data as text, exact on both runtimes (the modules' saved state).
---@class rvo.state
local state = {}
---@param v any plain data: numbers, strings, booleans, tables of them
---@return string
function state.encode(v) end
---@param s string
---@return any
function state.decode(s) end
---@param kind string
---@param obj table
---@param skip table<string, boolean>
---@return string
function state.pack(kind, obj, skip) end
---@param kind string
---@param s string
---@param fname string
---@param argn integer
---@return table
function state.unpack(kind, s, fname, argn) end

-- Navmesh: rvo.nav, rvo.follow, rvo.obj -------------------------------------
-- Frames: the world is 2D (x, y); OBJ files and Recast are 3D with y up,
-- mapped as world x = x, world y = z (height = y).

---@class rvo.nav
---@field has_navmesh boolean true when navmesh building (librvo_nav, Recast/Detour) is available; the outline functions always work
---@field Mesh rvo.NavMesh the metatable of navmeshes
---@field Door rvo.Door the metatable of doors (nav.door)
local nav = {}

---A two-way door (nav.door): the opening's ends and its lane parameters,
---{ax, ay, bx, by, thickness, depth, widen, reach}.
---@class rvo.Door

---Options of rvo.nav.door.
---@class rvo.DoorOptions
---@field thickness? number of the wall [m] (>= 0, default 0)
---@field depth? number the lanes run this far beyond each face [m] (> 0, default 2)
---@field widen? number and widen this much to the walker's right there [m] (>= 0, default 1)
---@field reach? number agents this far before the wall's centre use the door [m] (> 0, default 8)

---A door for nav.door_steer and Follower:add_door: the opening from jamb
---(ax, ay) to jamb (bx, by), on the wall's centre line.
---@param ax number
---@param ay number
---@param bx number
---@param by number
---@param opts? rvo.DoorOptions
---@return rvo.Door
function nav.door(ax, ay, bx, by, opts) end

---Two-way door lanes (librvo's rvo_door_steer): for agents at xy with radii
---heading for targets (goal or next corner), the points to head for now: a
---point that differs from the target is a corner to pass at full speed.
---Each flow keeps to the right half of the door; an agent on the other
---flow's side falls in behind its own. Returns the points and how many the
---door steered.
---@param door rvo.Door
---@param xy number[] {x1, y1, ...} positions
---@param radii number[] one per agent (> 0)
---@param targets number[] {x1, y1, ...} one per agent
---@return number[] points
---@return integer steered
function nav.door_steer(door, xy, radii, targets) end

---A Wavefront OBJ file as rvo.obj reads it (coordinates as in the file, y up).
---@class rvo.ObjLevel
---@field verts number[] {x1, y1, z1, x2, ...}
---@field tris integer[] 1-based vertex indices, three per triangle (polygons become fans)
---@field groups string[] group ("g"/"o") name of each triangle, "" when none

---Options of rvo.nav.outline and nav.add_outline with a 2D mesh.
---@class rvo.OutlineOptions
---@field verts_per_poly? integer vertices per polygon in polys, 0 padding smaller ones (3..32, default 3)
---@field epsilon? number closer vertices merge, T-junctions join, straight runs drop points [m] (default 1e-4)

---The mesh and Recast's parameters for rvo.nav.build.
---@class rvo.NavBuildDef
---@field verts number[] {x1, y1, z1, ...} with y up, as an OBJ holds them
---@field tris integer[] 1-based triangle indices; upward faces are walkable
---@field cell_size? number voxel size [m] (> 0, default 0.3)
---@field cell_height? number voxel height [m] (default 0.2)
---@field agent_height? number [m] (default 2)
---@field agent_radius? number the mesh keeps this far from walls [m] (default 0.6)
---@field agent_max_climb? number highest step [m] (default 0.9)
---@field agent_max_slope? number steepest walkable slope [degrees] (default 45)
---@field region_min_size? number smaller regions are dropped [cells] (default 8)
---@field region_merge_size? number smaller regions merge [cells] (default 20)
---@field edge_max_len? number [m] (default 12)
---@field edge_max_error? number [m] (default 1.3)
---@field verts_per_poly? integer 3..6 (default 6)
---@field detail_sample_dist? number (default 6)
---@field detail_sample_max_error? number (default 1)
---@field search_radius? number how far from the mesh a query point may lie [m] (> 0, default 2)

---The outline of a 2D polygon mesh: loops ready for world:add_obstacle
---(outer boundaries clockwise, holes counter-clockwise) and, for each,
---whether it is a hole.
---@param verts number[] {x1, y1, x2, y2, ...} (world frame)
---@param polys integer[] flat 1-based vertex indices, verts_per_poly per polygon (0 pads)
---@param opts? rvo.OutlineOptions
---@return number[][] loops
---@return boolean[] holes
function nav.outline(verts, polys, opts) end

---Adds the outline of a walkable mesh to a world as obstacles:
---add_outline(world, verts, polys [, opts]) for a 2D mesh as nav.outline
---takes it, or add_outline(world, mesh [, {epsilon = 1e-3}]) for a built
---navmesh. Returns the obstacle ids (in loop order) and the holes list.
---@overload fun(world: rvo.World, mesh: rvo.NavMesh, opts?: {epsilon?: number}): rvo.ObstacleId[], boolean[]
---@param world rvo.World
---@param verts number[] {x1, y1, ...} (world frame)
---@param polys integer[]
---@param opts? rvo.OutlineOptions
---@return rvo.ObstacleId[] ids
---@return boolean[] holes
function nav.add_outline(world, verts, polys, opts) end

---Builds a navmesh. Raises when nav.has_navmesh is false.
---@param def rvo.NavBuildDef
---@return rvo.NavMesh
function nav.build(def) end

---Reads a Wavefront OBJ file (see rvo.obj).
---@param path string
---@return rvo.ObjLevel
function nav.load_obj(path) end

---A navmesh built by rvo.nav.build (Recast/Detour). Queries speak the
---world's 2D frame. Freed by the garbage collector or destroy().
---@class rvo.NavMesh
---@field search_radius number how far from the mesh a query point may lie [m]
local NavMesh = {}

---Path from (ax, ay) to (bx, by): its corners {x1, y1, ..., xn, yn} (the
---first the start on the mesh, the last the goal) and whether the goal was
---unreachable (the path then ends at the reachable point nearest to it).
---nil and a message when the start or the goal is farther than
---search_radius from the mesh.
---@param ax number
---@param ay number
---@param bx number
---@param by number
---@return number[]? corners
---@return boolean|string partial_or_message
function NavMesh:find_path(ax, ay, bx, by) end

---The point of the mesh nearest to (x, y) and its height, or nil when the
---mesh is farther than search_radius.
---@param x number
---@param y number
---@return number? x
---@return number? y
---@return number? height
function NavMesh:nearest(x, y) end

---The polygons: vertices {x1, y1, ...} (world frame), flat 1-based
---indices (verts_per_poly each, 0 pads), verts_per_poly and the vertices'
---heights.
---@return number[] verts
---@return integer[] polys
---@return integer verts_per_poly
---@return number[] heights
function NavMesh:polys() end

---The mesh's outline, as nav.outline returns it.
---@param opts? {epsilon?: number} default epsilon 1e-3
---@return number[][] loops
---@return boolean[] holes
function NavMesh:boundary(opts) end

---Bounds of the walkable polygons (world frame).
---@return number minx, number miny, number maxx, number maxy
function NavMesh:bounds() end

---Frees the mesh now (twice is fine); any other use afterwards raises.
function NavMesh:destroy() end

---@return boolean
function NavMesh:is_destroyed() end

---@class rvo.follow
---@field Follower rvo.Follower the metatable of followers
local follow = {}

---A follower for world. Options (all optional): mesh (a navmesh, for
---set_goal and repaths), corner_dist (1 m), arrive_dist (0.25 m), settle
---(50 updates without getting closer within slow_dist also counts as
---arrived; 0 = never), slow_dist (2 m), repath_dist (3 m; 0 = never),
---repath_wait (10 updates), clearance (default: the agent's radius),
---speed (default: each agent's max_speed), bias (0.1: a sideways part to
---the right, so that agents meeting head-on pass).
---@param world rvo.World
---@param opts? {mesh?: rvo.NavMesh, corner_dist?: number, arrive_dist?: number, settle?: number, slow_dist?: number, repath_dist?: number, repath_wait?: number, clearance?: number, speed?: number, bias?: number}
---@return rvo.Follower
function follow.new(world, opts) end

---Path following: turns each agent's path corners into a preferred
---velocity every frame (before world:step()). Uses the world's public
---methods only, agents in the order they got paths (deterministic).
---@class rvo.Follower
---@field repaths integer new paths asked for so far (pushed off the path, or the target went out of sight)
local Follower = {}

---Gives agent id a path of corners {x1, y1, ...} (at least one).
---@param id rvo.AgentId
---@param path number[]
function Follower:set_path(id, path) end

---Asks the mesh for a path from the agent's position to (gx, gy) and
---follows it: true and whether the goal is unreachable (walked towards as
---far as the mesh goes), or nil and the mesh's message.
---@param id rvo.AgentId
---@param gx number
---@param gy number
---@return true? ok
---@return boolean|string partial_or_message
function Follower:set_goal(id, gx, gy) end

---Stops following agent id (its preferred velocity stays as it is).
---@param id rvo.AgentId
function Follower:remove(id) end

---True once agent id reached the end of its path.
---@param id rvo.AgentId
---@return boolean
function Follower:arrived(id) end

---The corners agent id still has to walk to, or nil when it has no path.
---@param id rvo.AgentId
---@return number[]?
function Follower:remaining(id) end

---Sets the preferred velocity of every followed agent (agents removed from
---the world are dropped); returns how many are still walking.
---@return integer
function Follower:update() end

---Adds a door (nav.door): agents whose remaining path goes through it keep
---to its right half and fall in behind their own flow (nav.door_steer),
---so two crowds pass each other in it. Returns the door.
---@param door rvo.Door
---@return rvo.Door
function Follower:add_door(door) end

---Wavefront OBJ reader for level geometry, pure Lua: v and f lines (f with
---v, v/vt, v/vt/vn, v//vn and negative indices); the rest is ignored.
---Errors name the file and line.
---@class rvo.obj
local obj = {}

---Parses OBJ text.
---@param text string
---@param name? string for messages (default "obj")
---@return rvo.ObjLevel
function obj.parse(text, name) end

---Reads an OBJ file.
---@param path string
---@return rvo.ObjLevel
function obj.load(path) end

return rvo
