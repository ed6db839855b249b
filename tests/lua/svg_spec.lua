-- rvo.svg: a pure-Lua SVG writer (no world needed).
local svg = require("rvo.svg")

local function count(s, pat)
    local n = 0
    for _ in s:gmatch(pat) do n = n + 1 end
    return n
end

-- Calls fn, expects an error whose message ends with msg (after "file:line: ").
local function raises(fn, msg)
    local ok, err = pcall(fn)
    assert.is_false(ok, "expected an error: " .. msg)
    err = tostring(err)
    assert.are.equal(msg, err:sub(-#msg))
end

describe("rvo.svg", function()
    it("writes a well-formed document with a fixed header and footer", function()
        local s = svg.new{ width = 100, height = 50 }:tostring()
        assert.truthy(s:find('^<%?xml version="1.0" encoding="UTF%-8"%?>\n<svg '))
        assert.truthy(s:find('width="100" height="50"', 1, true))
        assert.truthy(s:find("</svg>\n$"))
    end)

    it("flips y so +y is up", function()
        local doc = svg.new{ viewbox = { -10, -10, 10, 10 } }
        doc:circle(1, 2, 0.5)
        local s = doc:tostring()
        assert.truthy(s:find('<circle cx="1" cy="-2" r="0.5"/>', 1, true))
        -- the world rectangle [-10,10]x[-10,10] maps to the view box
        assert.truthy(s:find('viewBox="-10 -10 20 20"', 1, true))
    end)

    it("maps an asymmetric viewbox with the top edge at -maxy", function()
        local s = svg.new{ viewbox = { 0, 5, 4, 7 }, width = 40 }:tostring()
        assert.truthy(s:find('viewBox="0 -7 4 2"', 1, true))
        assert.truthy(s:find('width="40" height="20"', 1, true)) -- aspect kept
    end)

    it("accepts flat arrays and arrays of pairs alike", function()
        local a = svg.new{ viewbox = { 0, 0, 1, 1 } }:path({ 0, 0, 1, 2, 3, 4 }):tostring()
        local b = svg.new{ viewbox = { 0, 0, 1, 1 } }:path({ { 0, 0 }, { 1, 2 }, { 3, 4 } }):tostring()
        local c = svg.new{ viewbox = { 0, 0, 1, 1 } }:path({ { x = 0, y = 0 }, { x = 1, y = 2 }, { x = 3, y = 4 } })
        assert.are.equal(a, b)
        assert.are.equal(a, c:tostring())
        assert.truthy(a:find('d="M0 0 L1 -2 L3 -4"', 1, true))
    end)

    it("closes paths on request and defaults lines to no fill", function()
        local s = svg.new{ viewbox = { 0, 0, 1, 1 } }:path({ 0, 0, 1, 0, 1, 1 }, nil, true):tostring()
        assert.truthy(s:find('d="M0 0 L1 0 L1 -1 Z" fill="none" stroke="black"', 1, true))
    end)

    it("writes style attributes sorted, with hyphens and escaping", function()
        local s = svg.new{ viewbox = { 0, 0, 1, 1 } }
            :circle(0, 0, 1, { stroke_width = 0.25, fill = "a<b&\"c\"", stroke = "red" }):tostring()
        assert.truthy(s:find('fill="a&lt;b&amp;&quot;c&quot;" stroke="red" stroke-width="0.25"', 1, true))
    end)

    it("lets style override defaults and false remove them", function()
        local s = svg.new{ viewbox = { 0, 0, 1, 1 } }:polyline({ 0, 0, 1, 1 }, { fill = false, stroke = "blue" })
            :tostring()
        assert.truthy(s:find('<polyline points="0,0 1,-1" stroke="blue"/>', 1, true))
    end)

    it("draws polygons, polylines, lines and text", function()
        local doc = svg.new{ viewbox = { 0, 0, 10, 10 } }
        doc:polygon({ 0, 0, 4, 0, 4, 3 }, { fill = "#ccc" })
        doc:polyline({ 0, 0, 1, 1, 2, 0 })
        doc:line(0, 0, 3, 4, { stroke = "green" })
        doc:text(1, 1, "agents < 5 & more", { font_size = 2 })
        local s = doc:tostring()
        assert.truthy(s:find('<polygon points="0,0 4,0 4,-3" fill="#ccc" stroke="black"/>', 1, true))
        assert.truthy(s:find('<polyline points="0,0 1,-1 2,0" fill="none" stroke="black"/>', 1, true))
        assert.truthy(s:find('<line x1="0" y1="0" x2="3" y2="-4" stroke="green"/>', 1, true))
        assert.truthy(s:find('>agents &lt; 5 &amp; more</text>', 1, true))
    end)

    it("formats numbers with fixed decimals, no trailing zeros, no -0", function()
        assert.are.equal("1.5", svg.format_number(1.5))
        assert.are.equal("0.333", svg.format_number(1 / 3))
        assert.are.equal("0", svg.format_number(-0.0001))
        assert.are.equal("2", svg.format_number(2))
        assert.are.equal("-2.5", svg.format_number(-2.5))
        assert.are.equal("0.12346", svg.format_number(0.123456, 5))
        local s = svg.new{ viewbox = { 0, 0, 1, 1 }, decimals = 1 }:circle(0.26, -0.0001, 0.04):tostring()
        assert.truthy(s:find('<circle cx="0.3" cy="0" r="0"/>', 1, true))
    end)

    it("fits the view box to everything drawn, with a margin", function()
        local doc = svg.new{ width = 200, margin = 1 }
        doc:circle(0, 0, 1)
        doc:path({ 10, 10, 20, 5 })
        local b = doc:bounds()
        assert.are.same({ -2, -2, 21, 11 }, b)
        local s = doc:tostring()
        assert.truthy(s:find('viewBox="-2 -11 23 13"', 1, true))
        assert.truthy(s:find('width="200" height="113.04"', 1, true))
    end)

    it("has usable bounds when nothing or a single point is drawn", function()
        local s = svg.new{}:tostring()
        assert.truthy(s:find('width="800"', 1, true))
        local b = svg.new{ margin = 0 }:circle(3, 4, 0):bounds()
        assert.are.same({ 2.5, 3.5, 3.5, 4.5 }, b)
    end)

    it("draws a background rectangle first", function()
        local s = svg.new{ viewbox = { 0, 0, 2, 1 }, background = "white" }:circle(0, 0, 1):tostring()
        local rect = s:find("<rect", 1, true)
        assert.truthy(rect)
        assert.truthy(rect < s:find("<circle", 1, true))
    end)

    it("is deterministic: the same calls give the same bytes", function()
        local function draw()
            local doc = svg.new{ width = 300 }
            for i = 1, 50 do
                local a = i * 0.1
                doc:circle(math.cos(a) * 10, math.sin(a) * 10, 0.5,
                    { fill = svg.hue(i / 50), stroke = "black", stroke_width = 0.1, opacity = 0.5 })
            end
            return doc:tostring()
        end
        assert.are.equal(draw(), draw())
    end)

    it("makes hue colours", function()
        assert.are.equal("hsl(90,70%,45%)", svg.hue(0.25))
        assert.are.equal("hsl(0,50%,50%)", svg.hue(1, 50, 50))
        assert.are.equal("hsl(270,70%,45%)", svg.hue(-0.25))
    end)

    it("writes to a file and reports errors instead of raising", function()
        local name = os.tmpname()
        local doc = svg.new{ viewbox = { 0, 0, 1, 1 } }:circle(0.5, 0.5, 0.25)
        assert.is_true(doc:write(name))
        local f = assert(io.open(name, "rb"))
        local content = f:read("*a")
        f:close()
        os.remove(name)
        assert.are.equal(doc:tostring(), content)
        local ok, err = doc:write("/nonexistent-dir-rvo/x.svg")
        assert.is_nil(ok)
        assert.is_string(err)
    end)

    it("tostring() works through the metamethod too", function()
        local doc = svg.new{ viewbox = { 0, 0, 1, 1 } }
        assert.are.equal(doc:tostring(), tostring(doc))
    end)

    it("skips paths with fewer than one point", function()
        local s = svg.new{ viewbox = { 0, 0, 1, 1 } }:path({}):polyline({}):tostring()
        assert.is_nil(s:find("<path", 1, true))
        assert.is_nil(s:find("<polyline", 1, true))
    end)

    describe("rejects bad input with a message naming the argument", function()
        local doc = svg.new{ viewbox = { 0, 0, 1, 1 } }
        local nan = 0 / 0
        it("non-finite coordinates", function()
            -- "nan" on both runtimes (rvo.check.show), not tostring's "-nan"
            raises(function() doc:circle(nan, 0, 1) end,
                "bad argument #1 to 'circle' (x must be a finite number, got nan)")
            raises(function() doc:circle(0, 0, -1) end, "bad argument #3 to 'circle' (r must be >= 0)")
            raises(function() doc:path({ 0, 0, 1, math.huge }) end,
                "bad argument #1 to 'path' (coordinate 4 must be a finite number, got inf)")
            raises(function() doc:line(0, 0, 1, "x") end,
                "bad argument #4 to 'line' (y2 must be a finite number, got x)")
        end)
        it("odd flat arrays and bad pairs", function()
            raises(function() doc:polygon({ 0, 0, 1 }) end,
                "bad argument #1 to 'polygon' (flat point array needs an even length, got 3)")
            raises(function() doc:polyline({ { 0, 0 }, 5 }) end,
                "bad argument #1 to 'polyline' (point 2 is not a {x, y} pair)")
            raises(function() doc:path("0 0 1 1") end,
                "bad argument #1 to 'path' (table of points expected, got string)")
        end)
        it("bad styles and options", function()
            raises(function() doc:circle(0, 0, 1, "red") end,
                "bad argument #4 to 'circle' (style table expected, got string)")
            raises(function() doc:text(0, 0, nil) end, "bad argument #3 to 'text' (string expected, got nil)")
            raises(function() svg.new{ viewbox = { 0, 0, 0, 1 } } end,
                "bad argument #1 to 'new' (viewbox needs finite minx < maxx and miny < maxy)")
            raises(function() svg.new{ width = -1 } end,
                "bad argument #1 to 'new' (width must be a finite number >= 0)")
            raises(function() svg.new(5) end, "bad argument #1 to 'new' (options table expected, got number)")
            raises(function() doc:write(nil) end, "bad argument #1 to 'write' (string expected, got nil)")
        end)
        it("leaves the document usable after an error", function()
            local d = svg.new{ viewbox = { 0, 0, 1, 1 } }
            pcall(d.circle, d, nan, 0, 1)
            d:circle(0, 0, 1)
            assert.are.equal(1, count(d:tostring(), "<circle"))
        end)
    end)
end)
