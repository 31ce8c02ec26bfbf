// The isolated FBX import (fbx/fbx_import_child): the reader leaves assimp to the child and reads
// the same clip either way; a spoiled answer (truncated, corrupt) and a child that hangs without
// using CPU are refused with a located error, staged through the child's test-only fault hook; the
// reader does not wait for a child that has sent its whole answer to end, nor leave it behind.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cerrno>
#include <chrono>

#include "footfix/core/error.h"
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_assimp_read.h"  // internal to fbx, not installed
#include "fbx/fbx_import_child.h"
#include "fbx/fbx_test_support.h"
#include "support/hostile_files.h"

namespace footfix {
namespace {

/// Stages `fault` in every import child while it lives.
struct StagedFault {
  explicit StagedFault(fbx::ChildFault fault) { fbx::set_import_child_fault(fault); }
  ~StagedFault() { fbx::set_import_child_fault(fbx::ChildFault::none); }
};

ReadLimits in_process() {
  ReadLimits limits;
  limits.isolate_fbx_import = false;
  return limits;
}

/// A small readable FBX (ASCII: assimp imports the whole file): three pivoted joints, one take.
std::string pivoted_fbx() { return test::ascii_fbx_pivoted_models(3); }

/// The error read_fbx_bytes throws for `bytes` (empty if none).
std::string read_error(const std::string& bytes, const ReadLimits& limits = {}) {
  try {
    read_fbx_bytes(bytes, "spoiled.fbx", "", nullptr, limits);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    return e.what();
  }
  return {};
}

void expect_same_clip(const Clip& a, const Clip& b) {
  EXPECT_EQ(a.skeleton.names, b.skeleton.names);
  EXPECT_EQ(a.skeleton.parents, b.skeleton.parents);
  EXPECT_EQ(a.fps, b.fps);
  ASSERT_EQ(a.frame_count, b.frame_count);
  EXPECT_TRUE(a.rotations == b.rotations);
  EXPECT_TRUE(a.translations == b.translations);
  EXPECT_EQ(fbx_take_names(a), fbx_take_names(b));
}

TEST(FbxImportIsolation, ReaderLeavesAssimpToTheChild) {
  const std::string bytes = pivoted_fbx();
  const std::uint64_t before = fbx::assimp_imports_in_this_process();
  const Clip isolated = read_fbx_bytes(bytes, "pivoted.fbx");
  EXPECT_EQ(fbx::assimp_imports_in_this_process(), before) << "the reader ran assimp itself";
  const Clip here = read_fbx_bytes(bytes, "pivoted.fbx", "", nullptr, in_process());
  EXPECT_GT(fbx::assimp_imports_in_this_process(), before) << "the counter counts imports in this process";
  expect_same_clip(isolated, here);
  EXPECT_EQ(fbx_take_names(isolated), std::vector<std::string>{"Take"});
}

TEST(FbxImportIsolation, SharedClipsReadTheSameWithoutAssimpInTheReader) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const auto& path : test::shared_fbx_files()) {
    SCOPED_TRACE(path.filename().string());
    const std::uint64_t before = fbx::assimp_imports_in_this_process();
    const Clip isolated = read_fbx(path);
    EXPECT_EQ(fbx::assimp_imports_in_this_process(), before);
    expect_same_clip(isolated, read_fbx(path, "", nullptr, in_process()));
    EXPECT_EQ(fbx_take_names(isolated), list_fbx_takes(path));
  }
}

TEST(FbxImportIsolation, TruncatedAnswerIsRefused) {
  StagedFault fault(fbx::ChildFault::truncated_answer);
  const std::string error = read_error(pivoted_fbx());
  EXPECT_NE(error.find("spoiled.fbx: the FBX import child's answer is malformed at byte"), std::string::npos) << error;
}

TEST(FbxImportIsolation, CorruptAnswerIsRefused) {
  StagedFault fault(fbx::ChildFault::corrupt_answer);
  const std::string error = read_error(pivoted_fbx());
  EXPECT_NE(error.find("answer is malformed at byte 10 of"), std::string::npos) << error;
  EXPECT_NE(error.find("4294967295 nodes in"), std::string::npos) << error;
}

TEST(FbxImportIsolation, ChildHangingWithoutCpuIsKilledAtTheWallClockDeadline) {
  StagedFault fault(fbx::ChildFault::hang);
  ReadLimits limits;
  limits.import_wall_s = 1;
  const auto start = std::chrono::steady_clock::now();
  const std::string error = read_error(pivoted_fbx(), limits);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(error.find("spoiled.fbx: the FBX importer did not finish within its time limit of 1 s (wall clock); "
                       "file refused"),
            std::string::npos)
      << error;
  EXPECT_GE(seconds, 1.0);
  EXPECT_LT(seconds, 30.0);
}

TEST(FbxImportIsolation, ReaderTakesTheWholeAnswerWithoutWaitingForTheChildToEnd) {
  const Clip here = read_fbx_bytes(pivoted_fbx(), "pivoted.fbx", "", nullptr, in_process());
  StagedFault fault(fbx::ChildFault::linger);  // the child never ends by itself
  ReadLimits limits;
  limits.import_wall_s = 5;  // an error where the reader waits for the child's end
  const Clip isolated = read_fbx_bytes(pivoted_fbx(), "pivoted.fbx", "", nullptr, limits);
  expect_same_clip(isolated, here);
  errno = 0;
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << "an import child is left running or unreaped";
  EXPECT_EQ(errno, ECHILD);
}

TEST(FbxImportIsolation, FaultsAreStagedOnlyInTheChild) {
  // In-process imports never send an answer: the staged fault does not reach them.
  StagedFault fault(fbx::ChildFault::corrupt_answer);
  EXPECT_NO_THROW(read_fbx_bytes(pivoted_fbx(), "pivoted.fbx", "", nullptr, in_process()));
}

}  // namespace
}  // namespace footfix
