#include "report_player.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "xml_escape.h"

namespace footfix::cli {
using nlohmann::json;

namespace {

constexpr int k_view_width = 640, k_view_height = 300, k_timeline_height = 34;
/// Series and counts beyond these are not a footfix report's: the player is left out.
constexpr double k_max_count = 1e7;

bool base64_text(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
  });
}

bool count_in(long long v, double low, double high) {
  return static_cast<double>(v) >= low && static_cast<double>(v) <= high;
}

/// Integers, each in [low, high].
bool counts_in(const std::vector<long long>& v, double low, double high) {
  return std::all_of(v.begin(), v.end(), [&](long long x) { return count_in(x, low, high); });
}

/// The player's data: plot.motion's fields, checked, with the contacts and planted points of
/// each foot; null when something is missing or out of range.
json player_data(const ClipPlot& plot) {
  if (!plot.motion) return nullptr;
  const MotionPlot& motion = *plot.motion;
  if (motion.parents.empty() || !count_in(motion.samples, 1, k_max_count) || !count_in(motion.step, 1, k_max_count) ||
      !count_in(plot.frames, 1, k_max_count))
    return nullptr;
  const double joints = static_cast<double>(motion.parents.size());
  if (!counts_in(motion.parents, -1, joints - 1) || !counts_in(motion.feet, -1, joints - 1) ||
      !counts_in(motion.moved, 0, joints - 1))
    return nullptr;
  // Every coded value takes a byte at least: data shorter than their counts say are not read (nor
  // would a browser allocate for counts a hostile report inflated).
  const double samples = static_cast<double>(motion.samples);
  const double coded[2] = {joints * 3 * samples, static_cast<double>(motion.moved.size()) * 3 * samples};
  for (int k = 0; k < 2; ++k) {
    const std::string& text = k == 0 ? motion.source : motion.cleaned;
    if (!base64_text(text) || static_cast<double>(text.size()) * 3 / 4 < coded[k]) return nullptr;
  }
  if (!(motion.mm > 0 && motion.mm < 1000) || !(motion.fps > 0 && motion.fps < 1e4) || motion.feet.size() != 2)
    return nullptr;

  json contacts = json::array(), planted = json::array();
  for (std::size_t side = 0; side < 2; ++side) {
    json spans = json::array();
    if (side < plot.feet.size())
      for (const auto& span : plot.feet[side].contacts)
        if (count_in(span[0], 0, k_max_count) && count_in(span[1], 0, k_max_count)) spans.push_back(span);
    contacts.push_back(std::move(spans));
    planted.push_back(side < plot.feet.size() ? plot.feet[side].planted_xz : std::vector<double>{});
  }
  return {{"fps", motion.fps},         {"step", motion.step},       {"samples", motion.samples},
          {"mm", motion.mm},           {"frames", plot.frames},     {"parents", motion.parents},
          {"feet", motion.feet},       {"moved", motion.moved},     {"source", motion.source},
          {"cleaned", motion.cleaned}, {"contacts", contacts},      {"planted", planted}};
}

}  // namespace

bool write_player(std::ostream& out, const ClipPlot& plot) {
  const json data = player_data(plot);
  if (data.is_null()) return false;
  const long long step = data["step"].get<long long>();
  const long long last = (data["samples"].get<long long>() - 1) * step;
  out << "<div class=\"player\" data-motion=\"" << xml_escape(data.dump()) << "\"><canvas class=\"view\" width=\""
      << k_view_width << "\" height=\"" << k_view_height << "\"></canvas><canvas class=\"timeline\" width=\""
      << k_view_width << "\" height=\"" << k_timeline_height
      << "\"></canvas><div class=\"controls\"><button type=\"button\" data-act=\"back\" title=\"step back\">&#9664;</button>"
         "<button type=\"button\" data-act=\"play\">play</button><button type=\"button\" data-act=\"forward\" "
         "title=\"step forward\">&#9654;</button><input type=\"range\" class=\"scrubber\" aria-label=\"frame\" min=\"0\" max=\""
      << last << "\" step=\"" << step << "\" value=\"0\"><span class=\"frame\">frame 0 / " << last
      << "</span><label><input type=\"checkbox\" class=\"overlay\"> overlaid</label></div><p class=\"hint\">skeleton: "
         "<b>source</b> (grey) and <b>cleaned</b> (black); discs and crosses: planted feet; drag to orbit</p></div>";
  return true;
}

const char* player_style() {
  return ".player{margin:6px 0}.player canvas{display:block;border:1px solid #ccc;touch-action:none}"
         ".player canvas.view{cursor:grab}.player .controls{display:flex;gap:6px;align-items:center;margin:4px 0}"
         ".player .scrubber{width:360px}.player .hint{margin:0;color:#666;font-size:12px}";
}

const char* player_script() {
  return R"JS(
(function () {
  'use strict';
  var FEET = ['left', 'right'], COLORS = ['#1f77b4', '#d62728'];

  // The encoding of report_motion.h: zigzag varints, each series predicted from its two
  // previous values.
  function decodeSeries(text, count, length) {
    var raw = atob(text), at = 0, out = new Float64Array(count * length);
    for (var k = 0; k < count; ++k) {
      var a = 0, b = 0;
      for (var i = 0; i < length; ++i) {
        var v = 0, scale = 1, byte;
        do {
          if (at >= raw.length) throw new Error('motion data truncated');
          byte = raw.charCodeAt(at++);
          v += (byte & 127) * scale;
          scale *= 128;
        } while (byte & 128);
        var r = v % 2 ? -(v + 1) / 2 : v / 2;
        var x = (i === 0 ? 0 : i === 1 ? a : 2 * a - b) + r;
        out[k * length + i] = x;
        b = a; a = x;
      }
    }
    return out;
  }

  // Positions [sample][joint][axis] in meters, source and cleaned, and the framing.
  function decode(d) {
    var n = d.parents.length, s = d.samples, q = d.mm / 1000;
    var src = decodeSeries(d.source, n * 3, s), off = decodeSeries(d.cleaned, d.moved.length * 3, s);
    var before = new Float32Array(s * n * 3), after = new Float32Array(s * n * 3);
    var lo = Infinity, hi = -Infinity;
    for (var j = 0; j < n; ++j)
      for (var axis = 0; axis < 3; ++axis)
        for (var t = 0; t < s; ++t) {
          var v = src[(j * 3 + axis) * s + t] * q;
          before[(t * n + j) * 3 + axis] = after[(t * n + j) * 3 + axis] = v;
          if (axis === 1) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
        }
    // A joint not in "moved" is offset as its parent (which comes before it) is.
    var offset = new Float64Array(n * 3 * s), own = 0;
    for (var k = 0; k < n; ++k) {
      var from = d.moved[own] === k ? off.subarray(own++ * 3 * s, own * 3 * s)
               : d.parents[k] >= 0 ? offset.subarray(d.parents[k] * 3 * s, (d.parents[k] + 1) * 3 * s) : null;
      if (from) offset.set(from, k * 3 * s);
      for (var ax = 0; ax < 3; ++ax)
        for (var u = 0; u < s; ++u) after[(u * n + k) * 3 + ax] += offset[(k * 3 + ax) * s + u] * q;
    }
    var last = (s - 1) * n * 3, dx = before[last] - before[0], dz = before[last + 2] - before[2];
    return {n: n, before: before, after: after, ground: lo, height: Math.max(hi - lo, 0.2),
            yaw: Math.hypot(dx, dz) > 0.3 ? Math.atan2(-dz, dx) + 0.5 : 0.5};
  }

  function plantedAt(d, side, frame) {
    var spans = d.contacts[side];
    for (var k = 0; k < spans.length; ++k)
      if (frame >= spans[k][0] && frame <= spans[k][1]) return k;
    return -1;
  }

  function drawPose(ctx, p, pose, t, box, color) {
    var m = p.model, d = p.data, n = m.n, base = t * n * 3;
    var tx = pose[base], tz = pose[base + 2], ty = m.ground + m.height / 2;
    var cy = Math.cos(p.yaw), sy = Math.sin(p.yaw), cp = Math.cos(p.pitch), sp = Math.sin(p.pitch);
    var dist = 2.5 * m.height, scale = 0.8 * box.h / m.height;
    function project(x, y, z) {
      var dx = x - tx, dy = y - ty, dz = z - tz;
      var rx = cy * dx - sy * dz, rz = sy * dx + cy * dz;
      var ry = cp * dy - sp * rz, depth = sp * dy + cp * rz;
      var w = dist / Math.max(dist + depth, 0.1 * dist);
      return [box.x + box.w / 2 + scale * rx * w, box.y + box.h / 2 - scale * ry * w];
    }
    function line(a, b) { ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke(); }
    // The ground: a 0.5 m grid fixed in the world, so a sliding foot moves over it.
    ctx.strokeStyle = '#e4e4e4'; ctx.lineWidth = 1;
    var g0x = Math.round(tx * 2) / 2, g0z = Math.round(tz * 2) / 2;
    for (var k = -4; k <= 4; ++k) {
      line(project(g0x + k / 2, m.ground, g0z - 2), project(g0x + k / 2, m.ground, g0z + 2));
      line(project(g0x - 2, m.ground, g0z + k / 2), project(g0x + 2, m.ground, g0z + k / 2));
    }
    var at = [];
    for (var j = 0; j < n; ++j) at.push(project(pose[base + 3 * j], pose[base + 3 * j + 1], pose[base + 3 * j + 2]));
    ctx.strokeStyle = color; ctx.lineWidth = 2;
    for (var c = 0; c < n; ++c) if (d.parents[c] >= 0) line(at[d.parents[c]], at[c]);
    var frame = t * d.step;
    for (var side = 0; side < 2; ++side) {
      var contact = plantedAt(d, side, frame), joint = d.feet[side];
      if (contact < 0 || joint < 0) continue;
      ctx.fillStyle = ctx.strokeStyle = COLORS[side];
      ctx.beginPath(); ctx.arc(at[joint][0], at[joint][1], 6, 0, 2 * Math.PI); ctx.fill();
      var xz = d.planted[side];
      if (xz.length >= 2 * contact + 2) {
        var x = xz[2 * contact], z = xz[2 * contact + 1];
        line(project(x - 0.06, m.ground, z), project(x + 0.06, m.ground, z));
        line(project(x, m.ground, z - 0.06), project(x, m.ground, z + 0.06));
      }
    }
  }

  function drawTimeline(p, frame) {
    var c = p.timeline, ctx = c.getContext('2d'), d = p.data, last = Math.max(d.frames - 1, 1);
    ctx.clearRect(0, 0, c.width, c.height);
    for (var side = 0; side < 2; ++side) {
      var y = 2 + side * 15;
      ctx.fillStyle = '#eee'; ctx.fillRect(0, y, c.width, 13);
      ctx.fillStyle = COLORS[side];
      d.contacts[side].forEach(function (s) {
        var x0 = s[0] / last * c.width, x1 = s[1] / last * c.width;
        ctx.fillRect(x0, y, Math.max(1, x1 - x0), 13);
      });
    }
    ctx.fillStyle = '#000'; ctx.fillRect(frame / last * c.width - 1, 0, 2, c.height);
  }

  function draw(p) {
    if (!p.model) return;
    var c = p.canvas, ctx = c.getContext('2d'), d = p.data, t = p.sample, frame = t * d.step;
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, c.width, c.height);
    var full = {x: 0, y: 0, w: c.width, h: c.height};
    ctx.font = '12px sans-serif'; ctx.fillStyle = '#444';
    if (p.overlay.checked) {
      drawPose(ctx, p, p.model.before, t, full, '#aaa');
      drawPose(ctx, p, p.model.after, t, full, '#222');
      ctx.fillStyle = '#444'; ctx.fillText('source (grey) and cleaned (black), overlaid', 6, 14);
    } else {
      var half = c.width / 2;
      drawPose(ctx, p, p.model.before, t, {x: 0, y: 0, w: half, h: c.height}, '#999');
      drawPose(ctx, p, p.model.after, t, {x: half, y: 0, w: half, h: c.height}, '#222');
      ctx.strokeStyle = '#ccc'; ctx.beginPath(); ctx.moveTo(half, 0); ctx.lineTo(half, c.height); ctx.stroke();
      ctx.fillStyle = '#444'; ctx.fillText('source', 6, 14); ctx.fillText('cleaned', half + 6, 14);
    }
    drawTimeline(p, frame);
    var planted = [0, 1].filter(function (side) { return plantedAt(d, side, frame) >= 0; });
    p.scrubber.value = frame;
    p.label.textContent = 'frame ' + frame + ' / ' + (d.samples - 1) * d.step + ' (' + (frame / (d.fps * d.step)).toFixed(2) + ' s)';
    p.el.dataset.frame = frame;
    p.el.dataset.planted = planted.map(function (side) { return FEET[side]; }).join(' ');
  }

  // Parses and decodes the player's data when it is first needed.
  function load(p) {
    if (p.model) return true;
    try {
      p.data = p.data || JSON.parse(p.el.dataset.motion);
      p.model = decode(p.data);
      if (p.yaw === null) p.yaw = p.model.yaw;
    } catch (e) {
      p.label.textContent = 'motion data unreadable';
      return false;
    }
    return true;
  }

  function seek(p, sample) {
    if (!load(p)) return;
    p.sample = Math.min(Math.max(sample, 0), p.data.samples - 1);
    draw(p);
  }

  function pause(p) {
    p.playing = false;
    p.playButton.textContent = 'play';
  }

  function play(p) {
    if (!load(p)) return;
    p.playing = true;
    p.playButton.textContent = 'pause';
    if (p.sample >= p.data.samples - 1) p.sample = 0;
    var start = performance.now(), from = p.sample;
    function tick() {
      if (!p.playing) return;
      var t = from + Math.floor((performance.now() - start) / 1000 * p.data.fps);
      if (t >= p.data.samples - 1) { seek(p, p.data.samples - 1); pause(p); return; }
      if (t !== p.sample) seek(p, t);
      setTimeout(tick, 1000 / p.data.fps);
    }
    setTimeout(tick, 1000 / p.data.fps);
  }

  function setUp(el) {
    var p = {el: el, data: null, model: null, sample: 0, yaw: null, pitch: 0.25, playing: false,
             canvas: el.querySelector('canvas.view'), timeline: el.querySelector('canvas.timeline'),
             scrubber: el.querySelector('.scrubber'), label: el.querySelector('.frame'),
             overlay: el.querySelector('.overlay'), playButton: el.querySelector('[data-act=play]')};
    el.querySelector('[data-act=back]').addEventListener('click', function () { pause(p); seek(p, p.sample - 1); });
    el.querySelector('[data-act=forward]').addEventListener('click', function () { pause(p); seek(p, p.sample + 1); });
    p.playButton.addEventListener('click', function () { if (p.playing) pause(p); else play(p); });
    p.scrubber.addEventListener('input', function () {
      pause(p);
      if (load(p)) seek(p, Math.round(p.scrubber.value / p.data.step));
    });
    p.overlay.addEventListener('change', function () { draw(p); });
    function timelineSeek(e) {
      pause(p);
      if (!load(p)) return;
      var r = p.timeline.getBoundingClientRect(), last = Math.max(p.data.frames - 1, 1);
      seek(p, Math.round((e.clientX - r.left) / r.width * last / p.data.step));
    }
    p.timeline.addEventListener('pointerdown', function (e) { timelineSeek(e); p.timeline.setPointerCapture(e.pointerId); });
    p.timeline.addEventListener('pointermove', function (e) { if (e.buttons) timelineSeek(e); });
    var drag = null;
    p.canvas.addEventListener('pointerdown', function (e) { drag = [e.clientX, e.clientY]; p.canvas.setPointerCapture(e.pointerId); });
    p.canvas.addEventListener('pointerup', function () { drag = null; });
    p.canvas.addEventListener('pointermove', function (e) {
      if (!drag || !p.model) return;
      p.yaw += (e.clientX - drag[0]) * 0.01;
      p.pitch = Math.min(1.3, Math.max(-0.3, p.pitch + (e.clientY - drag[1]) * 0.01));
      drag = [e.clientX, e.clientY];
      draw(p);
    });
    return p;
  }

  var players = new Map(), margin = 300;
  document.querySelectorAll('.player').forEach(function (el) {
    players.set(el.closest('section') || el, setUp(el));
  });
  function show(p, visible) {
    if (visible && !p.model) seek(p, p.sample);
    else if (!visible && p.model) { pause(p); p.model = null; }
  }
  // Decoded and drawn only near the screen; paused and dropped when scrolled away. The observer
  // follows scrolling; the same test runs at once on load and shortly after each scroll, so that
  // players are drawn even before the browser's first frame (a headless screenshot).
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) { show(players.get(entry.target), entry.isIntersecting); });
  }, {rootMargin: margin + 'px 0px'});
  function showNearScreen() {
    players.forEach(function (p, target) {
      var r = target.getBoundingClientRect();
      if (r.bottom > -margin && r.top < window.innerHeight + margin) show(p, true);
    });
  }
  var pending = null;
  window.addEventListener('scroll', function () {
    if (pending === null) pending = setTimeout(function () { pending = null; showNearScreen(); }, 50);
  });
  players.forEach(function (p, target) { observer.observe(target); });
  showNearScreen();
})();
)JS";
}

}  // namespace footfix::cli
