-- Loaded through LUA_INIT by tests/examples/run ... frozen: every world's
-- step and integrate do nothing, so no agent ever moves and an example's
-- scenario must fail; the example must then exit with status 1.
local rvo = require("rvo")
local w = rvo.new_world {}
local methods = getmetatable(w).__index
w:destroy()
methods.step = function() end
methods.integrate = function() end
