#include "footfix/batch/plan_batch.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "footfix/batch/output_guard.h"
#include "footfix/core/error.h"
#include "footfix/io/clip_io.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

enum class OutputKind { beside, file, directory };

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

OutputKind classify_output(const OutputPlan& plan) {
  if (plan.output.empty()) return OutputKind::beside;
  std::error_code ec;
  if (plan.output.back() == '/' || fs::is_directory(plan.output, ec)) return OutputKind::directory;
  const std::string ext = lower(fs::path(plan.output).extension().string());
  if (ext.empty()) return OutputKind::directory;
  std::string expected;
  for (const auto& e : plan.file_extensions) {
    if (ext == e) {
      if (!plan.new_extension.empty() && ext != plan.new_extension)
        fail(ErrorKind::usage, "-o " + plan.output + " conflicts with --format " + plan.new_extension.substr(1) +
                                   ": give an output ending in " + plan.new_extension + " (or no --format)");
      return OutputKind::file;
    }
    expected += (expected.empty() ? "" : ", ") + e;
  }
  fail(ErrorKind::usage, "-o " + plan.output + ": unknown output extension '" + ext + "' (expected " + expected +
                             ", or a directory: end it with '/')");
}

fs::path with_suffix(const fs::path& path, const OutputPlan& plan, bool beside) {
  fs::path out = path;
  std::string ext = plan.new_extension.empty() ? path.extension().string() : plan.new_extension;
  std::string stem = path.stem().string();
  if (beside && !plan.overwrite) stem += plan.suffix;
  out.replace_filename(stem + ext);
  return out;
}

/// The clips under `root`, sorted. Clips named as footfix names its outputs are left out, with
/// one note line for the folder. A file symlink whose target is outside `root` is skipped with
/// a warning unless `follow_symlinks`; directory symlinks are not entered. Folders are listed one
/// at a time (one open descriptor however deep the tree); a folder under `root` that cannot be
/// listed is skipped with a warning, `root` itself is an Error(read).
std::vector<fs::path> find_clips(const fs::path& root, const fs::path& skip_dir, bool follow_symlinks, const PlanNotes& notes) {
  const fs::path root_real = real_path(root);
  // The output folder is recognised by its device and inode: resolving every folder's real path
  // would cost time quadratic in the depth of the tree.
  struct stat skip {};
  const bool has_skip = !skip_dir.empty() && ::stat(skip_dir.c_str(), &skip) == 0;
  const auto is_skip_dir = [&](const fs::path& path) {
    struct stat st {};
    return has_skip && ::stat(path.c_str(), &st) == 0 && st.st_dev == skip.st_dev && st.st_ino == skip.st_ino;
  };
  std::vector<fs::path> found;
  size_t own_outputs = 0;
  std::vector<fs::path> pending{root};
  while (!pending.empty()) {
    const fs::path folder = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
      std::error_code entry_ec;
      const fs::path& path = it->path();
      if (it->is_directory(entry_ec)) {
        const bool skipped = it->is_symlink(entry_ec) || is_skip_dir(path);
        if (!skipped) pending.push_back(path);
        continue;
      }
      if (!is_clip_path(path) || !it->is_regular_file(entry_ec)) continue;
      if (is_footfix_output_name(path)) {
        ++own_outputs;
        continue;
      }
      if (it->is_symlink(entry_ec) && !follow_symlinks && !is_under(real_path(path), root_real)) {
        notes(NoteLevel::warning, path.string() + ": skipped: a symlink to a file outside " + root.string() +
                                      " (--follow-symlinks includes it)");
        continue;
      }
      found.push_back(path);
    }
    if (ec && folder == root) fail(ErrorKind::read, root.string() + ": cannot list directory: " + ec.message());
    if (ec) notes(NoteLevel::warning, folder.string() + ": skipped: cannot list this folder (" + ec.message() + ")");
  }
  if (own_outputs > 0)
    notes(NoteLevel::info, root.string() + ": skipped " + std::to_string(own_outputs) + (own_outputs == 1 ? " clip" : " clips") +
                               " named as footfix's outputs (*" + k_clean_suffix + ".*, *" + k_lock_suffix +
                               ".*); name them on the command line to include them");
  std::sort(found.begin(), found.end());
  return found;
}

/// Every check that needs the whole plan: FBX outputs of FBX inputs only, glTF inputs written in
/// their own container, outputs under -o, no two writes to one file, no write onto an input's
/// real file (through symlinks too). Every problem is named (as an error line), then the plan is
/// refused.
void check_plan(std::vector<BatchItem>& items, const OutputPlan& plan, OutputKind kind, const PlanNotes& notes) {
  const fs::path root = kind == OutputKind::directory ? fs::absolute(plan.output).lexically_normal() : fs::path();
  // Keyed by the paths' text: a path object keeps a list of its components besides, several
  // times the memory over a batch of thousands of clips.
  std::map<std::string, size_t> inputs;
  for (size_t i = 0; i < items.size(); ++i) inputs.emplace(real_path(items[i].input).native(), i);
  std::map<std::string, size_t> writers;
  std::vector<std::string> problems;
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string in_ext = lower(fs::path(items[i].input).extension().string());
    const std::string out_ext = lower(fs::path(items[i].output).extension().string());
    // FBX is written by editing the FBX document a clip was read from: a BVH has none.
    if (out_ext == ".fbx" && in_ext != ".fbx")
      problems.push_back(items[i].output + ": FBX output needs an FBX input, and " + items[i].input +
                         " is not one (BVH to FBX is not supported: write .bvh)");
    // A glTF is written by patching the glTF it was read from, in its own container.
    if ((in_ext == ".gltf" || in_ext == ".glb") && (out_ext == ".gltf" || out_ext == ".glb") && in_ext != out_ext)
      problems.push_back(items[i].output + ": a clip read from " + items[i].input + " is written back in its own container (" +
                         in_ext + ")");
    for (const std::string* text : {&items[i].output, &items[i].companion}) {
      if (text->empty()) continue;
      const fs::path out(*text);
      if (!root.empty() && !is_under(fs::absolute(out), root))
        problems.push_back(*text + ": output of " + items[i].input + " is outside -o " + plan.output);
      const std::string real = real_path(out).native();
      auto [at, inserted] = writers.emplace(real, i);
      if (!inserted) {
        BatchItem& first = items[at->second];
        const std::string collision = "output collision: " + first.input + " and " + items[i].input +
                                      " both write " + *text + " (rename one, or write them to separate folders)";
        if (!first.from_folder && !items[i].from_folder) {
          problems.push_back(collision);
        } else {
          for (BatchItem* item : {&first, &items[i]})
            if (item->refusal.empty()) item->refusal = collision;
        }
      }
      auto input = inputs.find(real);
      if (input == inputs.end()) continue;
      if (input->second != i)
        problems.push_back(*text + ": the output of " + items[i].input + " would overwrite the input " +
                           items[input->second].input);
      else if (!(plan.overwrite && text == &items[i].output))
        problems.push_back(overwrite_refusal(out));
    }
  }
  if (problems.size() == 1) fail(ErrorKind::usage, problems[0]);
  if (problems.empty()) return;
  for (const auto& problem : problems) notes(NoteLevel::error, problem);
  fail(ErrorKind::usage, std::to_string(problems.size()) + " problems in the output plan; nothing was written");
}

}  // namespace

bool is_footfix_output_name(const fs::path& path) {
  const std::string stem = lower(path.stem().string());
  for (const std::string suffix : {k_clean_suffix, k_lock_suffix})
    if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  return false;
}

std::vector<BatchItem> plan_batch(const std::vector<std::string>& inputs, const OutputPlan& plan, const PlanNotes& notes) {
  std::vector<BatchItem> items;
  const OutputKind kind = classify_output(plan);
  const fs::path output(plan.output);
  const auto output_root = kind == OutputKind::directory ? std::make_shared<const fs::path>(output) : nullptr;
  // Outputs written inside the input tree are not inputs of a later run (idempotent re-runs).
  const fs::path skip_dir = kind == OutputKind::directory ? real_path(output) : fs::path();
  for (const auto& input : inputs) {
    fs::path in(input);
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      if (kind == OutputKind::file)
        fail(ErrorKind::usage, "-o " + plan.output + ": a directory input needs an output directory");
      if (kind == OutputKind::beside && !plan.overwrite)
        fail(ErrorKind::usage, input + ": a directory input needs -o OUTPUT_DIR (or --overwrite)");
      std::vector<fs::path> found = find_clips(in, skip_dir, plan.follow_symlinks, notes);
      if (found.empty()) fail(ErrorKind::read, input + ": no clips found (.bvh, .fbx, .gltf, .glb), nothing to do");
      const fs::path root = in.lexically_normal();
      items.reserve(items.size() + found.size());
      for (const auto& f : found) {
        fs::path out = kind == OutputKind::beside
                           ? with_suffix(f, plan, true)
                           : with_suffix(output / f.lexically_normal().lexically_relative(root), plan, false);
        items.push_back({f, out, {}, output_root, true, {}});
      }
    } else if (fs::exists(in, ec)) {
      fs::path out = kind == OutputKind::beside ? with_suffix(in, plan, true)
                     : kind == OutputKind::file ? output
                                                : with_suffix(output / in.filename(), plan, false);
      items.push_back({in, out, {}, output_root, false, {}});
    } else {
      fail(ErrorKind::read, input + ": no such file or directory");
    }
  }
  if (kind == OutputKind::file && items.size() > 1)
    fail(ErrorKind::usage, "-o " + plan.output + ": several inputs need an output directory");
  if (items.empty()) fail(ErrorKind::read, "no clips found, nothing to do");
  if (plan.finish_item)
    for (auto& item : items) plan.finish_item(item);
  check_plan(items, plan, kind, notes);
  return items;
}

std::vector<fs::path> expand_inputs(const std::vector<std::string>& inputs, bool follow_symlinks, const PlanNotes& notes) {
  std::vector<fs::path> paths;
  for (const auto& input : inputs) {
    std::error_code ec;
    std::vector<fs::path> found;
    if (fs::is_directory(input, ec)) found = find_clips(input, {}, follow_symlinks, notes);
    if (found.empty()) paths.emplace_back(input);
    paths.insert(paths.end(), found.begin(), found.end());
  }
  return paths;
}

fs::path contacts_json_path(const fs::path& clip_output) {
  fs::path p = clip_output;
  p.replace_extension(".contacts.json");
  return p;
}

}  // namespace footfix
