// read_bvh_file reads the motion a piece at a time: the same clip, raw values, warnings and error
// messages as parse_bvh on the whole text, also for files spanning many pieces, rows cut between
// pieces, a line longer than a piece and malformed rows far into the file.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/bvh/bvh.h"
#include "bvh/bvh_source.h"  // BvhSource: internal to bvh, not installed
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

// The bundled walk with its motion rows repeated `times` times (a file of several MiB).
std::string repeated_walk(int times, std::vector<std::string>* rows_out = nullptr) {
  std::istringstream in(read_file(test::data_clip("cmu_07_01_walk.bvh")));
  std::string line, head, frame_time;
  std::vector<std::string> rows;
  bool motion = false;
  while (std::getline(in, line)) {
    if (!motion) {
      head += line + "\n";
      motion = line.rfind("MOTION", 0) == 0;
    } else if (line.rfind("Frame Time:", 0) == 0) {
      frame_time = line;
    } else if (line.rfind("Frames:", 0) != 0 && !line.empty()) {
      rows.push_back(line);
    }
  }
  std::string text = head + "Frames: " + std::to_string(rows.size() * static_cast<size_t>(times)) + "\n" + frame_time + "\n";
  for (int t = 0; t < times; ++t)
    for (const auto& r : rows) text += r + "\n";
  if (rows_out) *rows_out = rows;
  return text;
}

fs::path write(const fs::path& dir, const std::string& name, const std::string& text) {
  const fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

void expect_same_clip(const Clip& a, const Clip& b) {
  ASSERT_EQ(a.frame_count, b.frame_count);
  ASSERT_EQ(a.joint_count(), b.joint_count());
  EXPECT_EQ(a.fps, b.fps);
  EXPECT_EQ(0, std::memcmp(a.rotations.data(), b.rotations.data(), a.rotations.size() * sizeof(Quat)));
  EXPECT_EQ(0, std::memcmp(a.translations.data(), b.translations.data(), a.translations.size() * sizeof(Vec3)));
  const auto& sa = dynamic_cast<const BvhSource&>(*a.source);
  const auto& sb = dynamic_cast<const BvhSource&>(*b.source);
  EXPECT_EQ(sa.values, sb.values);
  EXPECT_EQ(sa.rotation_fingerprints, sb.rotation_fingerprints);
}

// The message read_bvh_file and parse_bvh throw for `text` ("" when they do not throw).
std::pair<std::string, std::string> messages(const fs::path& file, const std::string& text) {
  auto message = [](auto read) -> std::string {
    try {
      read();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  return {message([&] { read_bvh_file(file, "walk.bvh"); }), message([&] { parse_bvh(text, "walk.bvh"); })};
}

TEST(BvhFileRead, ManyPiecesGiveTheClipOfTheWholeText) {
  const fs::path dir = test::fresh_temp_dir("bvh_file_read");
  const std::string text = repeated_walk(12);  // about 3 MiB: rows cut between 1 MiB pieces
  ASSERT_GT(text.size(), 2u << 20);
  const fs::path file = write(dir, "walk.bvh", text);
  std::vector<std::string> w_file, w_text;
  expect_same_clip(read_bvh_file(file, "walk.bvh", &w_file), parse_bvh(text, "walk.bvh", &w_text));
  EXPECT_EQ(w_file, w_text);

  // Rows past the Frames count: the same warning, counted across pieces.
  std::string extra = text;
  extra.replace(extra.find("Frames: "), std::string("Frames: 3804").size(), "Frames: 10");
  ASSERT_NE(text, extra);
  const fs::path extra_file = write(dir, "extra.bvh", extra);
  w_file.clear();
  w_text.clear();
  expect_same_clip(read_bvh_file(extra_file, "walk.bvh", &w_file), parse_bvh(extra, "walk.bvh", &w_text));
  ASSERT_EQ(w_file.size(), 1u);
  EXPECT_EQ(w_file, w_text);
}

TEST(BvhFileRead, ALineLongerThanAPiece) {
  const fs::path dir = test::fresh_temp_dir("bvh_file_read_long_line");
  std::string text = repeated_walk(2);
  // Pad one row in the middle with 3 MiB of blanks between two values.
  const size_t row = text.find('\n', text.find("Frame Time:") + 100000);
  const size_t blank = text.find(' ', row + 2);
  text.insert(blank, std::string(3u << 20, ' '));
  const fs::path file = write(dir, "walk.bvh", text);
  expect_same_clip(read_bvh_file(file, "walk.bvh"), parse_bvh(text, "walk.bvh"));
}

TEST(BvhFileRead, ErrorsFarIntoTheFileNameTheSameLine) {
  const fs::path dir = test::fresh_temp_dir("bvh_file_read_errors");
  const std::string text = repeated_walk(12);
  const size_t far = text.find('\n', text.size() - 200000) + 1;  // a row in the last piece
  std::string bad_value = text, short_row = text;
  bad_value.replace(bad_value.find(' ', far) + 1, 1, "x");
  short_row.erase(text.rfind(' ', text.find('\n', far)), text.find('\n', far) - text.rfind(' ', text.find('\n', far)));
  for (const std::string* t : {&bad_value, &short_row}) {
    const auto [from_file, from_text] = messages(write(dir, "walk.bvh", *t), *t);
    EXPECT_FALSE(from_file.empty());
    EXPECT_EQ(from_file, from_text);
  }
  // A file cut mid-row in the last piece reads its complete rows, with the same warning.
  const std::string truncated = text.substr(0, far + 40);
  std::vector<std::string> w_file, w_text;
  expect_same_clip(read_bvh_file(write(dir, "cut.bvh", truncated), "walk.bvh", &w_file), parse_bvh(truncated, "walk.bvh", &w_text));
  ASSERT_EQ(w_file.size(), 1u);
  EXPECT_NE(w_file[0].find("; a partial row at line "), std::string::npos) << w_file[0];
  EXPECT_EQ(w_file, w_text);
  // A head cut short or malformed is judged on the whole text.
  for (const std::string& t : {text.substr(0, 500), std::string("HIERARCHY\nROOT Hips\n{\nMOTION\nFrame Time: 1\n")}) {
    const auto [from_file, from_text] = messages(write(dir, "head.bvh", t), t);
    EXPECT_FALSE(from_file.empty());
    EXPECT_EQ(from_file, from_text);
  }
}

// A reader that reserves the file's size reads it whole, and sees its end, without the string
// growing (a grown string is a copy of all it holds, in newly mapped pages).
TEST(BvhFileRead, AStringReservedForTheFileIsNotGrownToSeeItsEnd) {
  const fs::path dir = test::fresh_temp_dir("bvh_file_read_reserved");
  const std::string text = repeated_walk(2);
  const fs::path file = write(dir, "walk.bvh", text);
  constexpr size_t k_piece_bytes = 1 << 16;
  InputFile in(file);
  std::string read;
  read.reserve(static_cast<size_t>(in.size()));
  const size_t capacity = read.capacity();
  while (in.append_to(read, k_piece_bytes) > 0) {
  }
  EXPECT_EQ(read, text);
  EXPECT_EQ(read.capacity(), capacity);
}

}  // namespace
}  // namespace footfix
