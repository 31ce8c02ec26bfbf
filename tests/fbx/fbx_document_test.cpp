// FbxDocument: parse -> serialize -> parse over every shared FBX, assimp as an independent reader
// of what we serialize, and malformed binary / ASCII input.
#include "fbx/fbx_document.h"  // internal to fbx, not installed

#include <cstring>
#include <vector>
#include <sstream>
#include <limits>

#include "footfix/core/error.h"
#include "fbx/fbx_test_support.h"

namespace footfix {
namespace {

using test::assimp_summary;
using test::file_bytes;
using test::shared_fbx_files;

std::string serialize(const FbxDocument& doc) {
  std::ostringstream out;
  write_fbx_document(doc, out);
  return out.str();
}

const FbxNode* find_node(const std::vector<FbxNode>& nodes, std::string_view name) {
  for (const auto& n : nodes) {
    if (n.name == name) return &n;
    if (const FbxNode* c = find_node(n.children, name)) return c;
  }
  return nullptr;
}

TEST(FbxDocument, RoundTripKeepsTreeAndAssimpView) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  auto files = shared_fbx_files();
  ASSERT_EQ(files.size(), 5u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    std::string bytes = file_bytes(path);
    FbxDocument doc = parse_fbx_document(bytes, path.filename().string());
    EXPECT_EQ(doc.binary, path.filename().string().find("ascii") == std::string::npos);
    EXPECT_GE(doc.version, 7400u);
    ASSERT_NE(doc.root("Objects"), nullptr);
    ASSERT_NE(doc.root("Connections"), nullptr);
    std::string again = serialize(doc);
    // Binary: unchanged documents come back byte for byte (zlib arrays reuse their source bytes).
    if (doc.binary) {
      EXPECT_TRUE(again == bytes);
    }
    FbxDocument doc2 = parse_fbx_document(again, "again");
    EXPECT_TRUE(doc.same_tree(doc2));
    // Footer: same 16-byte id and same tail; only the alignment padding may differ.
    if (doc.binary) {
      ASSERT_GE(doc2.footer.size(), 156u);
      EXPECT_EQ(doc.footer.substr(0, 16), doc2.footer.substr(0, 16));
      EXPECT_EQ(doc.footer.substr(doc.footer.size() - 140), doc2.footer.substr(doc2.footer.size() - 140));
      EXPECT_EQ(again.size() % 16, bytes.size() % 16);
    }
    auto before = assimp_summary(bytes);
    auto after = assimp_summary(again);
    EXPECT_GT(before.node_names.size(), 10u);
    EXPECT_EQ(before.node_names, after.node_names);
    EXPECT_EQ(before.vertices, after.vertices);
    EXPECT_EQ(before.bones, after.bones);
    EXPECT_EQ(before.keys, after.keys);
    EXPECT_GE(before.animations, 1u);
  }
}

TEST(FbxDocument, BinaryAndAsciiOfTheSameClipAgree) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  auto dir = test::shared_clips_dir();
  FbxDocument bin = parse_fbx_document(file_bytes(dir / "mixamo_walking_rootmotion_bin7700.fbx"), "bin");
  FbxDocument txt = parse_fbx_document(file_bytes(dir / "mixamo_walking_rootmotion_ascii7700.fbx"), "txt");
  EXPECT_EQ(bin.version, 7700u);
  EXPECT_EQ(txt.version, 7700u);
  // The first AnimationCurve holds 32 keys at 1/30 s in both flavours.
  const FbxNode* cb = find_node(bin.roots, "AnimationCurve");
  const FbxNode* ct = find_node(txt.roots, "AnimationCurve");
  ASSERT_TRUE(cb && ct);
  const FbxNode* tb = cb->child("KeyTime");
  const FbxNode* tt = ct->child("KeyTime");
  ASSERT_TRUE(tb && tt);
  ASSERT_EQ(tb->properties[0].array_size(), 32u);
  ASSERT_EQ(tt->properties[0].array_size(), 32u);
  EXPECT_EQ(tb->properties[0].array_double(1), 1539538600.0);
  EXPECT_EQ(tt->properties[0].array_double(1), 1539538600.0);
  EXPECT_EQ(cb->child("KeyValueFloat")->properties[0].type, 'f');
}

void expect_read_error(const std::string& bytes, const std::string& needle) {
  try {
    parse_fbx_document(bytes, "bad.fbx");
    ADD_FAILURE() << "no error for " << needle;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("bad.fbx: ", 0), 0u) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

/// Offset of the first property of type `code` in `bytes`'s first node whose name is `name`.
std::size_t offset_of(const std::string& bytes, const std::string& name) {
  std::size_t p = bytes.find(name);
  EXPECT_NE(p, std::string::npos);
  return p;
}

TEST(FbxDocument, MalformedBinaryGivesLocatedErrors) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::string good = file_bytes(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  expect_read_error(good.substr(0, 20), "offset 0: file too short");
  expect_read_error(good.substr(0, good.size() / 2), "offset ");
  for (std::size_t cut : {30ul, 200ul, 5000ul, good.size() - 200}) {
    SCOPED_TRACE(cut);
    expect_read_error(good.substr(0, cut), "offset ");
  }
  // First node's end offset pointing past the end of the file.
  std::string bad = good;
  std::uint64_t huge = 1ull << 40;
  std::memcpy(&bad[27], &huge, 8);
  expect_read_error(bad, "offset 27: node end offset");
  // A KeyTime array claiming 2^31 elements: rejected before any allocation.
  bad = good;
  std::size_t kt = offset_of(bad, "KeyTime") + 7;  // name, then type code 'l'
  ASSERT_EQ(bad[kt], 'l');
  std::uint32_t count = 0x7fffffff;
  std::memcpy(&bad[kt + 1], &count, 4);
  expect_read_error(bad, "offset " + std::to_string(kt + 1) + ": array of 2147483647 elements");
  // Corrupt the zlib stream of a compressed array (the mesh arrays of the samba file are zlib).
  std::string samba = file_bytes(test::shared_clips_dir() / "mixamo_samba_dancing_skinned.fbx");
  std::size_t v = offset_of(samba, "Vertices") + 8;
  ASSERT_EQ(samba[v], 'd');
  std::uint32_t encoding = 0;
  std::memcpy(&encoding, &samba[v + 5], 4);
  ASSERT_EQ(encoding, 1u);
  for (int i = 0; i < 16; ++i) samba[v + 13 + 2 + i] = static_cast<char>(0xA5 ^ i);
  expect_read_error(samba, "bad zlib array data");
}

/// Parses `bytes`; true if it parsed, false if it threw footfix::Error (anything else fails).
bool parses(const std::string& bytes) {
  try {
    parse_fbx_document(bytes, "fuzz.fbx");
    return true;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    return false;
  }
}

TEST(FbxDocument, CorruptedFilesNeverCrash) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  const char k_ascii_noise[] = "{}\",*:;a9-.\n";
  int rejected = 0, runs = 0;
  for (const char* name : {"mixamo_walking_rootmotion_bin7700.fbx", "mixamo_walking_rootmotion_ascii7700.fbx",
                           "assimp_animation_with_skeleton_bin7400.fbx"}) {
    std::string good = file_bytes(test::shared_clips_dir() / name);
    bool ascii = good.rfind("Kaydara", 0) != 0;
    for (int i = 0; i < 150; ++i, ++runs) {
      std::string bad = good;
      for (int k = 0; k < 4; ++k) {
        std::size_t at = next() % bad.size();
        bad[at] = ascii ? k_ascii_noise[next() % (sizeof k_ascii_noise - 1)] : static_cast<char>(next());
      }
      if (i % 3 == 0) bad.resize(next() % bad.size());
      rejected += parses(bad) ? 0 : 1;
    }
  }
  // Most corruptions are caught (a flipped float payload byte is still a valid file).
  EXPECT_GT(rejected, runs / 4);
}

TEST(FbxDocument, MalformedAsciiGivesLocatedErrors) {
  expect_read_error("; FBX 7.4.0 project file\nObjects:  {\n\tModel: 1, \"Model::A\" {\n", "line 4: unexpected end of file");
  expect_read_error("Objects:  {\n\tKeyTime: *999999999 {\n\t\ta: 1,2\n\t}\n}\n", "line 2: array count 999999999");
  expect_read_error("Objects:  {\n\tKeyTime: *3 {\n\t\ta: 1,2\n\t}\n}\n", "array declares 3 values but holds 2");
  expect_read_error("Objects:  {\n\tName: \"open\n", "unterminated string");
  expect_read_error("}\n", "line 1: unmatched '}'");
}

TEST(FbxDocument, AsciiKeepsValueTypes) {
  FbxDocument d = parse_fbx_ascii("; FBX 7.3.0 project file\nA: 1, 1.0, -2.5e3, \"s\", T, Word {\n\tK: *2 {\n\t\ta: 1,2.5\n\t}\n}\n", "t");
  EXPECT_EQ(d.version, 7300u);
  ASSERT_EQ(d.roots.size(), 1u);
  const auto& p = d.roots[0].properties;
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0].type, 'L');
  EXPECT_EQ(p[1].type, 'D');
  EXPECT_EQ(p[2].as_double(), -2500.0);
  EXPECT_EQ(p[3].as_string(), "s");
  EXPECT_EQ(p[4].type, 'C');
  EXPECT_EQ(p[5].as_string(), "Word");
  const FbxProperty& k = d.roots[0].children.at(0).properties.at(0);
  EXPECT_EQ(k.type, 'd');
  EXPECT_EQ(k.array_double(1), 2.5);
  FbxDocument again = parse_fbx_ascii(serialize(d), "again");
  EXPECT_TRUE(d.same_tree(again));
}

TEST(FbxDocument, NotANumberRoundTripsAsTheSameTree) {
  // Key values a file holds as NaN are written back with the same bits; the tree compares them
  // bit for bit (the fuzzer's FBX round trip reported a NaN read back as another tree).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  FbxDocument d;
  FbxNode curve{"KeyAttrDataFloat", {FbxProperty('f', std::vector<float>{1.0f, static_cast<float>(nan), 2.0f})}, {}};
  FbxNode scalar{"Value", {FbxProperty::real('D', nan)}, {}};
  d.roots = {FbxNode{"Objects", {}, {curve, scalar}}};
  std::ostringstream out;
  write_fbx_document(d, out);
  const FbxDocument again = parse_fbx_document(out.str(), "again.fbx");
  EXPECT_TRUE(d.same_tree(again));
  FbxDocument other = again;
  std::get<std::vector<float>>(other.roots[0].children[0].properties[0].value)[1] = 3.0f;
  EXPECT_FALSE(d.same_tree(other));
}

}  // namespace
}  // namespace footfix
