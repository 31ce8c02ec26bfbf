// Legs that end in an End Site (issue 30, section 1): the bundled walk without its toe joints
// (the End Site of each foot is where the toe joint was) and without its foot and toe joints
// (the End Site of each shin is the ankle), made to slide (root's horizontal motion x1.25) and
// cleaned through the binary. The End Site is the contact point: it stays put where the
// unscaled walk's toes are planted, the written hierarchy is the input's (End Sites, no new
// joint), and the contacts name it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/bvh_variant_helpers.h"
#include "footfix/core/fk.h"
#include "footfix/bvh/bvh.h"
#include "support/clip_variants.h"

namespace footfix {
namespace {

using test::contains;
using test::count_of;
using test::run_footfix_bounded;
using test::write_text;

/// The bundled walk (file units and axes, Y up) without the named leaf joints, dropped in order
/// (each becomes its parent's End Site at its offset).
Clip walk_without(const std::vector<std::string>& leaves) {
  Clip clip = test::walk_source_clip();
  for (const std::string& name : leaves) test::remove_leaf(clip, clip.skeleton.find(name));
  return clip;
}

/// `clip` with its root's horizontal (X, Z) translation scaled by `factor` about frame 0.
Clip root_scaled(Clip clip, double factor) {
  const Vec3 first = clip.translation(0, 0);
  for (int f = 0; f < clip.frame_count; ++f) {
    Vec3& t = clip.translation(f, 0);
    t.x = first.x + factor * (t.x - first.x);
    t.z = first.z + factor * (t.z - first.z);
  }
  return clip;
}

std::string hierarchy_of(const std::string& bvh) { return bvh.substr(0, bvh.find("MOTION")); }

/// Horizontal step (file units) of the End Site of each joint in `ends` (left, right) from
/// frame f - 1 to f, for f = 1..; steps[s][f - 1].
std::vector<std::vector<double>> end_site_steps(const Clip& clip, const std::vector<std::string>& ends) {
  std::vector<std::vector<double>> steps(ends.size());
  for (size_t s = 0; s < ends.size(); ++s) {
    const int joint = clip.skeleton.find(ends[s]);
    EXPECT_GE(joint, 0) << ends[s];
    if (joint < 0) continue;
    EXPECT_TRUE(clip.skeleton.end_sites[static_cast<size_t>(joint)].has_value()) << ends[s];
    for (int f = 1; f < clip.frame_count; ++f) {
      Vec3 d = end_site_world(clip, f, joint) - end_site_world(clip, f - 1, joint);
      d.y = 0;
      steps[s].push_back(length(d));
    }
  }
  return steps;
}

/// The frame pairs (f - 1, f) a contacts file says planted, per foot, indexed as end_site_steps.
std::vector<std::vector<bool>> planted_steps(const nlohmann::json& contacts, int frames) {
  std::vector<std::vector<bool>> out;
  for (const auto& intervals : test::contact_intervals(contacts)) {
    out.emplace_back(static_cast<size_t>(frames - 1), false);
    for (const auto& in : intervals)
      for (int f = std::max(1, in.at("first_frame").get<int>() + 1); f <= in.at("last_frame").get<int>(); ++f)
        out.back()[static_cast<size_t>(f - 1)] = true;
  }
  return out;
}

/// Mean End Site step of `clip` over the `planted` frame pairs.
double planted_mean_step(const Clip& clip, const std::vector<std::string>& ends, const std::vector<std::vector<bool>>& planted) {
  const auto steps = end_site_steps(clip, ends);
  double sum = 0;
  int pairs = 0;
  for (size_t s = 0; s < steps.size(); ++s)
    for (size_t i = 0; i < steps[s].size() && i < planted[s].size(); ++i)
      if (planted[s][i]) sum += steps[s][i], ++pairs;
  EXPECT_GT(pairs, clip.frame_count / 2) << "too few planted frames to measure";
  return pairs > 0 ? sum / pairs : 0;
}

struct EndSiteCase {
  const char* name;
  std::vector<std::string> dropped;  ///< leaf joints removed, in order
  std::vector<std::string> ends;     ///< left, right: the joints whose End Site is the contact point
};

class EndSiteLegCli : public ::testing::TestWithParam<EndSiteCase> {};

TEST_P(EndSiteLegCli, CleanPlantsTheEndSiteAndWritesItBack) {
  const EndSiteCase& c = GetParam();
  test::TempDir dir;
  const Clip sliding = root_scaled(walk_without(c.dropped), 1.25);
  const std::string input = test::bvh_text(sliding);
  auto r = test::clean_text(dir, "legs.bvh", input);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // One warning line says the End Sites are the contact points; no joint is "locked instead".
  EXPECT_EQ(count_of(r.err, "contact point"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "End Sites below '" + c.ends[0] + "' and '" + c.ends[1] + "'")) << r.err;
  EXPECT_FALSE(contains(r.err, "locked instead")) << r.err;

  const std::string output = read_file(dir / "out" / "legs.bvh");
  EXPECT_EQ(hierarchy_of(output), hierarchy_of(input));
  EXPECT_EQ(count_of(output, "JOINT"), count_of(input, "JOINT"));
  EXPECT_EQ(count_of(output, "End Site"), count_of(input, "End Site"));

  // The End Sites stay put where the clean plants them (on at least half of the frame pairs of
  // the two feet together): at most 10% of the sliding input's steps there.
  const Clip cleaned = parse_bvh(output, "legs.bvh");
  const auto planted = planted_steps(test::cleaned_contacts(dir, "legs.bvh"), sliding.frame_count);
  const double before = planted_mean_step(sliding, c.ends, planted);
  const double after = planted_mean_step(cleaned, c.ends, planted);
  EXPECT_LT(after, 0.1 * before) << "End Site step while planted: " << before << " -> " << after << " units/frame";

  const nlohmann::json contacts = test::cleaned_contacts(dir, "legs.bvh");
  EXPECT_EQ(contacts["feet"][0]["joint"], c.ends[0] + " End Site");
  EXPECT_EQ(contacts["feet"][1]["joint"], c.ends[1] + " End Site");
}

TEST_P(EndSiteLegCli, AnnotateNamesTheEndSite) {
  const EndSiteCase& c = GetParam();
  test::TempDir dir;
  const std::string text = test::bvh_text(walk_without(c.dropped));
  write_text(dir / "legs.bvh", text);
  // inspect shows the file's joints: the End Sites are End Sites there, not joints.
  auto inspected = run_footfix_bounded({"inspect", "--json", (dir / "legs.bvh").string()});
  ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
  nlohmann::json doc = nlohmann::json::parse(inspected.out);
  if (doc.is_array()) doc = doc.at(0);
  EXPECT_EQ(doc["joint_count"], count_of(text, "JOINT") + 1);  // and the ROOT
  EXPECT_EQ(doc["legs"]["left"]["contact_joint"], c.ends[0] + " End Site");

  auto r = run_footfix_bounded({"annotate", (dir / "legs.bvh").string(), "-o", (dir / "out").string() + "/"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json contacts = test::cleaned_contacts(dir, "legs.bvh");
  ASSERT_EQ(contacts["feet"].size(), 2u);
  for (size_t s = 0; s < 2; ++s) {
    EXPECT_EQ(contacts["feet"][s]["joint"], c.ends[s] + " End Site");
    EXPECT_FALSE(contacts["feet"][s]["intervals"].empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Walk, EndSiteLegCli,
                         ::testing::Values(EndSiteCase{"no_toe", {"LeftToeBase", "RightToeBase"}, {"LeftFoot", "RightFoot"}},
                                           EndSiteCase{"no_foot",
                                                       {"LeftToeBase", "RightToeBase", "LeftFoot", "RightFoot"},
                                                       {"LeftLeg", "RightLeg"}}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace footfix
