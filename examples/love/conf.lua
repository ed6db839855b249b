-- LÖVE 11 configuration of the rvo demo (see main.lua).
function love.conf(t)
    t.identity = "rvo-demo"
    t.version = "11.4"
    t.window.title = "rvo — crowd avoidance demo"
    t.window.width = 1280
    t.window.height = 800
    t.window.vsync = 1
    t.window.resizable = true
    t.window.minwidth = 800
    t.window.minheight = 500
    -- Smooth circles, except in the scripted smoke run (software GL under Xvfb).
    local smoke = os.getenv("RVO_DEMO_SMOKE")
    t.window.msaa = (smoke and smoke ~= "") and 0 or 4
    t.modules.audio = false -- no sound; also avoids ALSA/OpenAL noise under Xvfb
    t.modules.sound = false
    t.modules.joystick = false
    t.modules.physics = false
    t.modules.video = false
end
