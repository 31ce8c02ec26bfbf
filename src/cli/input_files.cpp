#include "input_files.h"

#include <algorithm>
#include <set>

#include "footfix/core/error.h"
#include "footfix/io/clip_io.h"

namespace footfix::cli {
namespace fs = std::filesystem;

namespace {

/// A key that names a file the same way however it was reached.
std::string identity(const fs::path& p) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(p, ec);
  return (ec ? fs::absolute(p) : canonical).lexically_normal().generic_string();
}

std::vector<InputFile> expand_directory(const fs::path& dir) {
  std::vector<InputFile> found;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && is_clip_path(it->path()))
      found.push_back({it->path(), it->path().lexically_relative(dir), true});
  }
  if (ec) fail(ErrorKind::read, dir.string() + ": cannot list directory: " + ec.message());
  std::sort(found.begin(), found.end(), [](const InputFile& a, const InputFile& b) {
    return a.relative.generic_string() < b.relative.generic_string();
  });
  return found;
}

}  // namespace

std::vector<InputFile> collect_input_files(const std::vector<std::string>& arguments) {
  std::vector<InputFile> files;
  std::set<std::string> seen;
  auto add = [&](InputFile f) {
    if (seen.insert(identity(f.path)).second) files.push_back(std::move(f));
  };
  for (const std::string& argument : arguments) {
    fs::path p(argument);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      auto found = expand_directory(p);
      if (found.empty()) fail(ErrorKind::usage, argument + ": no .bvh or .fbx files in this directory");
      for (auto& f : found) add(std::move(f));
    } else if (fs::exists(p, ec)) {
      if (!is_clip_path(p)) fail(ErrorKind::usage, argument + ": not a clip file (expected .bvh or .fbx)");
      add({p, p.filename(), false});
    } else {
      fail(ErrorKind::usage, argument + ": no such file or directory");
    }
  }
  if (files.empty()) fail(ErrorKind::usage, "no input clips given");
  return files;
}

std::vector<fs::path> output_paths(const std::vector<InputFile>& inputs, const fs::path& out_dir,
                                   const std::string& suffix) {
  std::vector<fs::path> outputs;
  std::set<std::string> taken;
  for (const InputFile& in : inputs) {
    fs::path name = in.path.stem().string() + suffix;
    fs::path out = out_dir.empty() ? in.path.parent_path() / name : out_dir / in.relative.parent_path() / name;
    if (!taken.insert(identity(out)).second)
      fail(ErrorKind::usage, in.path.string() + ": its output " + out.string() +
                                 " would overwrite another input's output; use separate runs or -o");
    outputs.push_back(out);
  }
  return outputs;
}

}  // namespace footfix::cli
