// BVH in the forms real writers leave it (issue 30, section 1), each the bundled walk written as
// one writer writes it and cleaned through the binary: it reads, with one warning saying what was
// guessed, and cleans to the walk's own motion.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/bvh_variant_helpers.h"
#include "footfix/bvh/bvh.h"
#include "footfix/core/fk.h"

namespace footfix {
namespace {

using test::clean_text;
using test::contains;
using test::count_of;
using test::replace_all;
using test::walk_text;

/// Every number of the motion block ("MOTION" on) of `cleaned`, in order.
std::vector<double> motion_numbers(const std::string& cleaned) { return test::numbers_of(cleaned.substr(cleaned.find("MOTION"))); }

/// The walk's motion numbers cleaned as read from its own file.
std::vector<double> walk_cleaned_numbers() {
  test::TempDir dir;
  auto r = clean_text(dir, "walk.bvh", walk_text());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return motion_numbers(read_file(dir / "out" / "walk.bvh"));
}

/// Cleans `text` (the walk with its motion header or rows changed) as `name` and expects one
/// warning holding `warning`, and a written clip that states the walk's 317 rows and is the
/// walk's clean.
void expect_cleaned_as_the_walk(const std::string& name, const std::string& text, const std::string& warning) {
  test::TempDir dir;
  auto r = clean_text(dir, name, text);
  test::expect_cleaned_with_contacts(dir, name, r);
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, warning)) << r.err;
  const std::string cleaned = read_file(dir / "out" / name);
  EXPECT_TRUE(contains(cleaned, "Frames: 317\n")) << cleaned.substr(cleaned.find("MOTION"), 40);
  EXPECT_EQ(motion_numbers(cleaned), walk_cleaned_numbers());
}

TEST(BvhWritersCli, AFramesPlaceholderNeverFilledInReadsEveryRowWithOneWarning) {
  // Kincap's Kinect recorder (C#) writes "Frames: PLATZHALTERFRAMES" and puts the count in when the
  // recording is closed; a recording that was not closed keeps the word. Blender's importer reads
  // the rows whatever the count says.
  const std::string text = replace_all(walk_text(), "Frames: 317", "Frames: PLATZHALTERFRAMES");
  ASSERT_NE(text, walk_text());
  expect_cleaned_as_the_walk("kincap.bvh", text, "Frames count 'PLATZHALTERFRAMES' is no number; every motion row was read");

  // A count that starts as a number and is damaged is no placeholder: a located error.
  test::TempDir bad;
  auto damaged = clean_text(bad, "damaged.bvh", replace_all(walk_text(), "Frames: 317", "Frames: 31x7"));
  EXPECT_NE(damaged.exit_code, 0);
  EXPECT_TRUE(contains(damaged.err, "damaged.bvh:186: bad Frames count '31x7'")) << damaged.err;
}

TEST(BvhWritersCli, AnEmptyFramesCountReadsEveryRowToo) {
  // A writer that prints the count from a variable left unset ("Frames: " and nothing).
  test::TempDir dir;
  auto r = clean_text(dir, "empty_count.bvh", replace_all(walk_text(), "Frames: 317", "Frames: "));
  test::expect_cleaned_with_contacts(dir, "empty_count.bvh", r);
  EXPECT_TRUE(contains(r.err, "Frames count '' is no number")) << r.err;
}

/// The walk's last row (line 504), without its line end.
std::string walk_last_row() {
  const std::string text = walk_text();
  const std::size_t end = text.find_last_not_of('\n') + 1;
  return text.substr(text.rfind('\n', end - 1) + 1, end - text.rfind('\n', end - 1) - 1);
}

TEST(BvhWritersCli, ACutLastRowIsDroppedAndTheCompleteRowsRead) {
  // A recorder stopped mid-row: "Frames: 318", 317 complete rows, and the 318th cut in a value
  // (after a minus sign, no line end) or between values. Blender's importer reads the rows that
  // are there; so does footfix, with one warning naming both counts and the dropped row.
  const std::string row = walk_last_row();
  const std::size_t minus = row.find(" -", row.size() / 2);
  ASSERT_NE(minus, std::string::npos);
  const std::string counted = replace_all(walk_text(), "Frames: 317", "Frames: 318");
  for (const std::string& cut : {row.substr(0, minus + 2), row.substr(0, minus) + "\n\n"}) {
    SCOPED_TRACE(cut.substr(cut.size() - 12));
    expect_cleaned_as_the_walk("cut.bvh", counted + cut,
                               "Frames: 318 at line 186, 317 complete rows read; a partial row at line 505 was dropped");
  }
  // A short row with rows after it is damage, not a cut: a located error, as is a file whose
  // only row is cut.
  test::TempDir bad;
  auto inside = clean_text(bad, "short.bvh", replace_all(walk_text(), row, row.substr(0, minus)) + row + "\n");
  EXPECT_EQ(inside.exit_code, 3) << inside.err;
  EXPECT_TRUE(contains(inside.err, "short.bvh:504: joint ")) << inside.err;
  const std::string head = walk_text().substr(0, walk_text().find("Frame Time: .0083333\n") + 21);
  auto only = clean_text(bad, "only.bvh", head + row.substr(0, minus + 2));
  EXPECT_EQ(only.exit_code, 3) << only.err;
  EXPECT_TRUE(contains(only.err, "only.bvh:188: joint ")) << only.err;
}

TEST(BvhWritersCli, AFramesCountThatDisagreesWithTheRowsReadsEveryRow) {
  // "Frames: 0" from a writer that never filled in the count, or a count below the rows (a
  // writer that counts from 1, or stops counting): every complete row is read, with one warning.
  for (const char* stated : {"0", "300"}) {
    SCOPED_TRACE(stated);
    // The warning ends there: no row was dropped.
    expect_cleaned_as_the_walk("count.bvh", replace_all(walk_text(), "Frames: 317", std::string("Frames: ") + stated),
                               std::string("Frames: ") + stated + " at line 186, 317 complete rows read\n");
  }
  // Frames: 0 and no row at all stays a located error.
  const std::string head = walk_text().substr(0, walk_text().find("Frame Time: .0083333\n") + 21);
  test::TempDir bad;
  auto none = clean_text(bad, "none.bvh", replace_all(head, "Frames: 317", "Frames: 0"));
  EXPECT_EQ(none.exit_code, 3) << none.err;
  EXPECT_TRUE(contains(none.err, "none.bvh:186: no frames (Frames: 0)")) << none.err;
}

TEST(BvhWritersCli, TextAfterTheStatedRowsThatIsNoRowIsIgnored) {
  // A trailer after the rows Frames states (an exporter's closing words, a second block): the
  // stated rows are read and the rest is ignored, with one warning naming where it starts.
  std::string text = walk_text();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  text += "\nEND OF MOTION\nexported by a test\n";
  expect_cleaned_as_the_walk("trailer.bvh", text,
                             "Frames: 317 at line 186, 317 complete rows read; the text from line 505 on is no motion "
                             "row and was ignored\n");
}

/// The walk as a C# or Delphi writer prints it on a locale that writes decimals with a comma
/// ("-17,3198"; C# always writes the leading zero of "0,0083333").
std::string walk_with_decimal_commas() {
  std::string text = replace_all(walk_text(), "Frame Time: .0083333", "Frame Time: 0.0083333");
  for (std::size_t at = 1; at + 1 < text.size(); ++at)
    if (text[at] == '.' && std::isdigit(static_cast<unsigned char>(text[at - 1])) &&
        std::isdigit(static_cast<unsigned char>(text[at + 1])))
      text[at] = ',';
  return text;
}

TEST(BvhWritersCli, NumbersWithADecimalCommaReadWithOneWarning) {
  // Kinect recorders written in C# print numbers with the system's locale (Kincap replaces the
  // comma on its offsets and rows; a writer that does not leaves "0,0333333" everywhere).
  const std::string text = walk_with_decimal_commas();
  ASSERT_TRUE(contains(text, "OFFSET 1,85590 -1,73949 0,84976")) << text.substr(0, 400);
  ASSERT_TRUE(contains(text, "Frame Time: 0,0083333"));
  test::TempDir dir;
  auto r = clean_text(dir, "comma.bvh", text);
  test::expect_cleaned_with_contacts(dir, "comma.bvh", r);
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "written with a decimal comma (first: line 4) were read as decimals")) << r.err;
  // Read as the walk at its 120 fps: the same clean, written with points.
  const std::string cleaned = read_file(dir / "out" / "comma.bvh");
  EXPECT_TRUE(contains(cleaned, "Frame Time: 0.0083333\n")) << cleaned.substr(cleaned.find("MOTION"), 40);
  EXPECT_FALSE(contains(cleaned, "1,85590")) << "the hierarchy was copied with its commas";
  EXPECT_EQ(motion_numbers(cleaned), walk_cleaned_numbers());

  // Values separated by commas are no BVH row: refused with the row's line.
  std::string separated = walk_text();
  const std::size_t first_row = separated.find('\n', separated.find("Frame Time:")) + 1;
  separated.replace(separated.find(' ', first_row), 1, ",");
  test::TempDir bad;
  auto refused = clean_text(bad, "separated.bvh", separated);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_TRUE(contains(refused.err, "separated.bvh:188:")) << refused.err;
  EXPECT_TRUE(contains(refused.err, "bad number '8.8721,15.7511'")) << refused.err;
}

/// `text` with the CHANNELS line of each joint in `joints` written as `channels` (the leading
/// "CHANNELS"-line channels it keeps: `kept` of them from `from`), and those joints' other values
/// taken out of every motion row.
std::string with_fewer_channels(std::string text, const std::vector<std::string>& joints, const std::string& channels,
                                std::size_t from, std::size_t kept) {
  const std::size_t motion = text.find("MOTION");
  // Row columns to drop, in descending order so that erasing keeps the earlier indexes.
  std::vector<std::size_t> dropped;
  std::size_t column = 0;
  for (std::size_t at = text.find("CHANNELS"); at < motion; at = text.find("CHANNELS", at + 1)) {
    const std::size_t count = std::stoul(text.substr(at + 9));
    const std::size_t name_line = text.rfind('\n', text.rfind('{', at)) ;
    const std::size_t name_start = text.rfind('\n', name_line - 1) + 1;
    std::istringstream words(text.substr(name_start, name_line - name_start));
    std::string keyword, name;
    words >> keyword >> name;
    for (const std::string& joint : joints)
      if (name == joint) {
        for (std::size_t i = 0; i < count; ++i)
          if (i < from || i >= from + kept) dropped.insert(dropped.begin(), column + i);
        const std::size_t end = text.find('\n', at);
        text.replace(at, end - at, channels);
        break;
      }
    column += count;
  }
  const std::size_t first_row = text.find('\n', text.find("Frame Time:")) + 1;
  std::string out = text.substr(0, first_row);
  std::istringstream rows(text.substr(first_row));
  for (std::string row; std::getline(rows, row);) {
    std::istringstream values(row);
    std::vector<std::string> kept_values(std::istream_iterator<std::string>{values}, {});
    for (std::size_t c : dropped) kept_values.erase(kept_values.begin() + static_cast<std::ptrdiff_t>(c));
    for (std::size_t i = 0; i < kept_values.size(); ++i) out += (i ? " " : "") + kept_values[i];
    out += " \n";
  }
  return out;
}

TEST(BvhWritersCli, AJointWithoutChannelsThatTheCleanTurnsIsWrittenWithChannels) {
  // Kincap's Kinect skeleton gives each foot joint "CHANNELS 0 " (the End Site below it is the
  // toe): the clean turns the foot to keep its tip above the ground, which the file's channels
  // cannot say. The written file gives those joints rotation channels, said in one warning.
  const std::string text =
      with_fewer_channels(walk_text(), {"LeftToeBase", "RightToeBase"}, "CHANNELS 0 ", 0, 0);
  ASSERT_EQ(count_of(text, "CHANNELS 0 \n"), 2u);
  test::TempDir dir;
  auto r = clean_text(dir, "kinect_feet.bvh", text);
  test::expect_cleaned_with_contacts(dir, "kinect_feet.bvh", r);
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "the written file gives them channels: 'LeftToeBase' (Zrotation Yrotation Xrotation), "
                              "'RightToeBase' (Zrotation Yrotation Xrotation)")) << r.err;
  const std::string cleaned = read_file(dir / "out" / "kinect_feet.bvh");
  EXPECT_EQ(count_of(cleaned, "CHANNELS 0"), 0u);
}

TEST(BvhWritersCli, LockSaysTheChannelsItsWrittenFileAdds) {
  // The lock turns the toes that a Kinect recorder gives no channels: the written file gives
  // them channels, said on the console and in the lock JSON, as the clean says it.
  const std::string text =
      with_fewer_channels(walk_text(), {"LeftToeBase", "RightToeBase"}, "CHANNELS 0 ", 0, 0);
  test::TempDir dir;
  test::write_text(dir / "kinect_feet.bvh", text);
  auto r = test::run_footfix_bounded({"lock", (dir / "kinect_feet.bvh").string(), "-o", (dir / "out").string() + "/"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string added = "the written file gives them channels: 'LeftToeBase' (Zrotation Yrotation Xrotation), "
                            "'RightToeBase' (Zrotation Yrotation Xrotation)";
  EXPECT_EQ(count_of(r.err, added), 1u) << r.err;
  const std::string lock_json = read_file(dir / "out" / "kinect_feet.lock.json");
  EXPECT_TRUE(contains(lock_json, added)) << lock_json.substr(0, 400);
  EXPECT_EQ(count_of(read_file(dir / "out" / "kinect_feet.bvh"), "CHANNELS 0"), 0u);
}

TEST(BvhWritersCli, ARootWithoutPositionChannelsIsWrittenWithThem) {
  // A converter that writes root-relative poses gives the root rotation channels only; the clean
  // moves the pelvis to carry the body over the planted feet, so the written root gets position
  // channels, said in one warning.
  const std::string text = with_fewer_channels(walk_text(), {"Hips"}, "CHANNELS 3 Zrotation Yrotation Xrotation", 3, 3);
  ASSERT_TRUE(contains(text, "ROOT Hips\n{\n\tOFFSET 0.00000 0.00000 0.00000\n\tCHANNELS 3 Zrotation")) << text.substr(0, 120);
  test::TempDir dir;
  auto r = clean_text(dir, "pinned.bvh", text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "'Hips' (Xposition Yposition Zposition Zrotation Yrotation Xrotation)")) << r.err;
  const std::string cleaned = read_file(dir / "out" / "pinned.bvh");
  EXPECT_TRUE(contains(cleaned, "CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation")) << cleaned.substr(0, 200);
  auto again = test::run_footfix_bounded({"inspect", (dir / "out" / "pinned.bvh").string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

/// The walk as a "positional" exporter writes it (a MediaPipe-to-BVH web exporter): each joint's
/// world position in its position channels, every OFFSET and End Site 0, every rotation 0, two
/// spaces per level.
std::string walk_as_world_positions() {
  const Clip walk = parse_bvh(walk_text(), "walk.bvh");
  const Skeleton& skeleton = walk.skeleton;
  std::string text = "HIERARCHY\n";
  std::vector<int> open;
  const auto close_until = [&](int parent) {
    while (!open.empty() && open.back() != parent) {
      const std::string indent(2 * open.size(), ' ');
      if (skeleton.end_sites[static_cast<std::size_t>(open.back())])
        text += indent + "End Site\n" + indent + "{\n" + indent + "  OFFSET 0.00 0.00 0.00\n" + indent + "}\n";
      open.pop_back();
      text += std::string(2 * open.size(), ' ') + "}\n";
    }
  };
  for (int j = 0; j < skeleton.joint_count(); ++j) {
    close_until(skeleton.parents[static_cast<std::size_t>(j)]);
    const std::string indent(2 * open.size(), ' ');
    text += indent + (open.empty() ? "ROOT " : "JOINT ") + skeleton.names[static_cast<std::size_t>(j)] + "\n" + indent + "{\n";
    text += indent + "  OFFSET 0.00 0.00 0.00\n" + indent + "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";
    open.push_back(j);
  }
  close_until(-1);
  text += "MOTION\nFrames: " + std::to_string(walk.frame_count) + "\nFrame Time: 0.008333\n";
  char number[32];
  for (int f = 0; f < walk.frame_count; ++f) {
    std::string row;
    for (int j = 0; j < skeleton.joint_count(); ++j) {
      const Vec3 p = joint_world_position(walk, f, j);
      for (double v : {p.x, p.y, p.z}) {
        std::snprintf(number, sizeof number, "%.4f ", v);
        row += number;
      }
      row += "0.00 0.00 0.00 ";
    }
    row.pop_back();
    text += row + "\n";
  }
  return text;
}

TEST(BvhWritersCli, WorldPositionsInEveryJointsChannelsAreReadAsSuch) {
  // BVH means a joint's position channels relative to its parent; positional exporters write
  // world positions there, with every OFFSET and rotation 0. Read as relative, the legs' bones
  // stretch and shrink every frame; read as world positions, they are the walk's.
  const std::string text = walk_as_world_positions();
  ASSERT_TRUE(contains(text, "  JOINT LHipJoint\n  {\n    OFFSET 0.00 0.00 0.00\n    CHANNELS 6")) << text.substr(0, 300);
  test::TempDir dir;
  auto r = clean_text(dir, "positional.bvh", text);
  test::expect_cleaned_with_contacts(dir, "positional.bvh", r);
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "the position channels hold world positions")) << r.err;
  const nlohmann::json legs = test::inspected_legs(dir / "positional.bvh");
  EXPECT_EQ(legs["left"]["hip"], "LeftUpLeg") << legs.dump();
  EXPECT_EQ(legs["right"]["toe"], "RightToeBase") << legs.dump();
  // The contacts of the walk's own file, frame for frame (the motion is the same, to 0.1 mm).
  test::TempDir walk_dir;
  auto walk = clean_text(walk_dir, "walk.bvh", walk_text());
  ASSERT_EQ(walk.exit_code, 0) << walk.err;
  const auto frames_of = [](const std::vector<nlohmann::json>& feet) {
    std::vector<std::pair<int, int>> frames;
    for (const auto& foot : feet)
      for (const auto& interval : foot) frames.emplace_back(interval.at("first_frame"), interval.at("last_frame"));
    return frames;
  };
  EXPECT_EQ(frames_of(test::contact_intervals(test::cleaned_contacts(dir, "positional.bvh"))),
            frames_of(test::contact_intervals(test::cleaned_contacts(walk_dir, "walk.bvh"))));
}

}  // namespace
}  // namespace footfix
