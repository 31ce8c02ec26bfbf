// The report's motion player in a real browser (Debian's headless chromium), through the real
// binary: the page of a cleaned clip is loaded with a small driver script added after the page's
// own, which scrubs, orbits, overlays, steps and plays through the player's controls and records
// what the player drew (a hash of the canvas pixels, pixels in each foot's colour) and what it
// says it drew (data-frame, data-planted). Which feet are planted is read from the clip's own
// contacts file. A page of 120 clips draws only the players near the screen; hostile clip names
// and motion data in a report run no script. Skipped, with the reason, when chromium is not
// installed or cannot start here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "cli/cli_test_helpers.h"
#include "support/headless_chromium.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;

/// `page` with `script` run after the page's own (before </body>), written to `to`.
void add_driver(const fs::path& page, const std::string& script, const fs::path& to) {
  std::string html = read_file(page);
  const std::size_t end = html.rfind("</body>");
  ASSERT_NE(end, std::string::npos);
  test::write_text(to, html.insert(end, "<script>" + script + "</script>"));
}

/// The page after `budget_ms` of virtual time (timers, observers and animation frames run).
std::string dom_after(const std::string& chromium, const fs::path& profile, const fs::path& page, const fs::path& out,
                      int budget_ms = 3000) {
  const int rc = test::run_chromium(chromium, profile, "--virtual-time-budget=" + std::to_string(budget_ms) + " --dump-dom",
                                    "file://" + page.string(), out);
  EXPECT_EQ(rc, 0) << read_file(profile / "stderr.log");
  return read_file(out);
}

/// The JSON the driver left in <pre id="results">.
json driver_results(const std::string& dom) {
  const std::string open = "<pre id=\"results\">";
  const std::size_t at = dom.find(open);
  if (at == std::string::npos) return nullptr;
  std::string text = dom.substr(at + open.size(), dom.find("</pre>", at) - at - open.size());
  for (auto [entity, c] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
    for (std::size_t p = text.find(entity); p != std::string::npos; p = text.find(entity, p)) text.replace(p, std::string(entity).size(), c);
  return json::parse(text, nullptr, false);
}

// Records, after the observer drew the first player: the frame, planted feet, a canvas hash and
// pixels in each foot's colour, first as drawn, then after each action.
constexpr const char* k_driver = R"JS(
setTimeout(function () {
  var el = document.querySelector('.player'), scrubber = el.querySelector('.scrubber');
  var view = el.querySelector('canvas.view'), results = [];
  function near(d, i, c) { return Math.abs(d[i] - c[0]) <= 4 && Math.abs(d[i + 1] - c[1]) <= 4 && Math.abs(d[i + 2] - c[2]) <= 4; }
  function record(what) {
    var d = view.getContext('2d').getImageData(0, 0, view.width, view.height).data, hash = 2166136261, left = 0, right = 0;
    for (var i = 0; i < d.length; i += 4) {
      hash = Math.imul(hash ^ (d[i] | d[i + 1] << 8 | d[i + 2] << 16), 16777619) >>> 0;
      if (near(d, i, [31, 119, 180])) ++left;
      if (near(d, i, [214, 39, 40])) ++right;
    }
    results.push({what: what, frame: el.dataset.frame, planted: el.dataset.planted, hash: hash, left: left, right: right});
  }
  record('drawn');
  FRAMES.forEach(function (f) { scrubber.value = f; scrubber.dispatchEvent(new Event('input')); record('scrubbed'); });
  var box = view.getBoundingClientRect();
  function pointer(type, x) {
    view.dispatchEvent(new PointerEvent(type, {clientX: box.left + x, clientY: box.top + 100, pointerId: 1, buttons: 1, bubbles: true}));
  }
  pointer('pointerdown', 100); pointer('pointermove', 180); pointer('pointerup', 180);
  record('orbited');
  el.querySelector('.overlay').click();
  record('overlaid');
  el.querySelector('[data-act=forward]').click();
  record('stepped');
  el.querySelector('[data-act=play]').click();
  setTimeout(function () {
    record('played');
    var pre = document.createElement('pre');
    pre.id = 'results';
    pre.textContent = JSON.stringify(results);
    document.body.appendChild(pre);
  }, 1000);
}, 300);
)JS";

/// Per foot, whether it is in contact at each frame, from a contacts file.
std::array<std::vector<int>, 2> contact_frames(const fs::path& contacts) {
  const json doc = json::parse(read_file(contacts));
  std::array<std::vector<int>, 2> out;
  for (std::size_t side = 0; side < 2; ++side) out[side] = doc["feet"][side]["contact"].get<std::vector<int>>();
  return out;
}

/// The scrubber's frame step, as the page gives it.
int scrubber_step(const std::string& html) {
  const std::size_t input = html.find("class=\"scrubber\"");
  const std::size_t at = html.find(" step=\"", input);
  return input == std::string::npos || at == std::string::npos ? 0 : std::stoi(html.substr(at + 7));
}

/// The --report of cleaning the bundled walk in `dir` (null when the run failed).
json walk_report(const test::TempDir& dir) {
  const std::string input = test::copy_walk(dir / "in" / "walk.bvh");
  auto r = test::run_footfix_bounded({"clean", input, "-o", (dir / "out" / "walk.bvh").string(), "--report", (dir / "one.json").string()},
                                     std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(read_file(dir / "one.json"), nullptr, false);
}

TEST(HtmlPlayerBrowser, ScrubbingOrbitingAndPlayingDrawOtherFramesWithPlantedFeetMarked) {
  const std::string chromium = test::find_chromium();
  test::TempDir dir;
  if (std::string why = test::chromium_unusable(chromium, dir / "profile"); !why.empty()) GTEST_SKIP() << why;
  const std::string input = test::copy_walk(dir / "in" / "walk.bvh");
  auto r = test::run_footfix_bounded({"clean", input, "-o", (dir / "out" / "walk.bvh").string(), "--html", (dir / "page.html").string()},
                                     std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto planted = contact_frames(dir / "out" / "walk.contacts.json");
  const int step = scrubber_step(read_file(dir / "page.html"));
  ASSERT_GT(step, 0);

  // Frames on the scrubber's grid: the first with only the left foot down, the first with only
  // the right, and the next with only the left after that.
  const auto step_size = static_cast<std::size_t>(step);
  auto find = [&](int left, int right, int after) {
    for (std::size_t f = static_cast<std::size_t>(after) + step_size; f < planted[0].size(); f += step_size)
      if (planted[0][f] == left && planted[1][f] == right) return static_cast<int>(f);
    return -1;
  };
  std::vector<int> frames{find(1, 0, 0)};
  frames.push_back(find(0, 1, frames.back()));
  frames.push_back(find(1, 0, frames.back()));
  for (int f : frames) ASSERT_GT(f, 0) << "the walk has frames with only one foot down";
  ASSERT_LT(static_cast<std::size_t>(frames.back()) + 2 * step_size, planted[0].size()) << "room to step and play";

  std::string driver = k_driver;
  driver.replace(driver.find("FRAMES"), 6, json(frames).dump());
  add_driver(dir / "page.html", driver, dir / "driven.html");
  const json results = driver_results(dom_after(chromium, dir / "profile", dir / "driven.html", dir / "dom.html"));
  ASSERT_TRUE(results.is_array()) << "the driver did not finish: " << read_file(dir / "dom.html").substr(0, 2000);
  ASSERT_EQ(results.size(), frames.size() + 5) << results.dump();

  // Drawn at frame 0 when its section came into view, then at each frame scrubbed to.
  std::set<std::uint32_t> hashes;
  for (std::size_t k = 0; k <= frames.size(); ++k) {
    const json& shown = results[k];
    const auto f = static_cast<std::size_t>(k == 0 ? 0 : frames[k - 1]);
    EXPECT_EQ(shown["frame"], std::to_string(f));
    const bool left = planted[0][f] != 0, right = planted[1][f] != 0;
    EXPECT_EQ(shown["planted"], std::string(left ? "left" : "") + (left && right ? " " : "") + (right ? "right" : ""))
        << "frame " << f;
    EXPECT_EQ(shown["left"].get<int>() > 20, left) << "left foot's marker at frame " << f << ": " << shown.dump();
    EXPECT_EQ(shown["right"].get<int>() > 20, right) << "right foot's marker at frame " << f << ": " << shown.dump();
    hashes.insert(shown["hash"].get<std::uint32_t>());
  }
  EXPECT_EQ(hashes.size(), frames.size() + 1) << "frames drawn alike: " << results.dump();
  const json& last_scrubbed = results[frames.size()];
  const json& orbited = results[frames.size() + 1];
  const json& overlaid = results[frames.size() + 2];
  const json& stepped = results[frames.size() + 3];
  const json& played = results[frames.size() + 4];
  EXPECT_EQ(orbited["frame"], last_scrubbed["frame"]);
  EXPECT_NE(orbited["hash"], last_scrubbed["hash"]) << "dragging did not turn the camera";
  EXPECT_NE(overlaid["hash"], orbited["hash"]) << "overlaid looks like side by side";
  EXPECT_EQ(stepped["frame"], std::to_string(frames.back() + step));
  EXPECT_GT(std::stoi(played["frame"].get<std::string>()), std::stoi(stepped["frame"].get<std::string>()))
      << "a second of playing did not advance";
}

TEST(HtmlPlayerBrowser, PageOf120ClipsDrawsOnlyThePlayersNearTheScreen) {
  const std::string chromium = test::find_chromium();
  test::TempDir dir;
  if (std::string why = test::chromium_unusable(chromium, dir / "profile"); !why.empty()) GTEST_SKIP() << why;
  json report = walk_report(dir);
  ASSERT_TRUE(report.is_object() && report.contains("clips") && report["clips"].size() == 1u) << "no report of one clip";
  const json clip = report["clips"][0];
  report["clips"] = json::array();
  for (int i = 0; i < 120; ++i) {
    report["clips"].push_back(clip);
    report["clips"].back()["input"] = (dir / "in" / ("clip" + std::to_string(1000 + i) + ".bvh")).string();
  }
  test::write_text(dir / "many.json", report.dump());
  auto drawn = test::run_footfix_bounded({"report", (dir / "many.json").string(), "--html", (dir / "many.html").string()});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  const std::string html = read_file(dir / "many.html");
  EXPECT_EQ(test::count_of(html, "<div class=\"player\""), 120u);
  EXPECT_LT(html.size() / 120, 24u * 1024) << "page bytes per clip of a 317-frame clip";

  // Scrolled to the 61st clip (and the scroll event a browser sends on its next frame, sent at
  // once): its player is drawn, and only a few around it.
  add_driver(dir / "many.html",
             "document.getElementById('clip-60').scrollIntoView(); window.dispatchEvent(new Event('scroll'));",
             dir / "middle.html");
  const std::string dom = dom_after(chromium, dir / "profile", dir / "middle.html", dir / "dom.html");
  const std::size_t section = dom.find("<section class=\"clip\" id=\"clip-60\"");
  ASSERT_NE(section, std::string::npos);
  EXPECT_TRUE(contains(dom.substr(section, dom.find("</section>", section) - section), " data-frame=\"0\""))
      << "the player scrolled to was not drawn";
  const std::size_t players_drawn = test::count_of(dom, " data-frame=\"");
  EXPECT_LE(players_drawn, 4u) << "players away from the screen were drawn";
  const std::size_t last = dom.rfind("<section class=\"clip\"");
  EXPECT_FALSE(contains(dom.substr(last), " data-frame=\"")) << "the last clip's player, far below, was drawn";
}

TEST(HtmlPlayerBrowser, HostileNamesAndMotionDataInAReportRunNoScript) {
  const std::string chromium = test::find_chromium();
  test::TempDir dir;
  if (std::string why = test::chromium_unusable(chromium, dir / "profile"); !why.empty()) GTEST_SKIP() << why;
  json report = walk_report(dir);
  ASSERT_TRUE(report.is_object() && report.contains("clips") && report["clips"].size() == 1u) << "no report of one clip";
  const json clip = report["clips"][0];
  const std::string attack = "</script><img src=x onerror=\"document.body.dataset.pwned=1\"><script>document.body.dataset.pwned=2</script>";
  const std::string attribute_attack = "\" onmouseover=\"document.body.dataset.pwned=3\" x=\"";
  json named = clip, bad_source = clip, bad_parents = clip, bad_contacts = clip;
  named["input"] = attack + ".bvh";
  named["warnings"] = {attack, attribute_attack};
  bad_source["input"] = "bad_source.bvh";
  bad_source["plot"]["motion"]["source"] = attack;
  bad_parents["input"] = "bad_parents.bvh";
  bad_parents["plot"]["motion"]["parents"][1] = attribute_attack;
  bad_contacts["input"] = "bad_contacts.bvh";
  bad_contacts["plot"]["feet"][0]["contacts"][0] = {attack, attribute_attack};
  bad_contacts["plot"]["feet"][1]["planted_xz"][0] = attack;
  report["clips"] = {named, bad_source, bad_parents, bad_contacts};
  test::write_text(dir / "hostile.json", report.dump());
  auto drawn = test::run_footfix_bounded({"report", (dir / "hostile.json").string(), "--html", (dir / "page.html").string()});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  const std::string html = read_file(dir / "page.html");
  EXPECT_EQ(test::count_of(html, "<div class=\"player\""), 2u) << "players with unusable motion data are left out";
  EXPECT_EQ(test::count_of(html, "<script>"), 1u) << "only the player's own script";
  EXPECT_FALSE(contains(html, "<img")) << "hostile markup written as markup";

  const std::string dom = dom_after(chromium, dir / "profile", dir / "page.html", dir / "dom.html");
  EXPECT_FALSE(contains(dom, "data-pwned")) << "a hostile name or datum ran script";
  EXPECT_FALSE(contains(dom, "<img")) << "a hostile name became an element";
  EXPECT_TRUE(contains(dom, "&lt;/script&gt;&lt;img src=x")) << "the name is shown as text";
  EXPECT_GE(test::count_of(dom, " data-frame=\""), 1u) << "the usable players are drawn";
}

}  // namespace
}  // namespace footfix
