// Planning a batch for the commands that take files and directories: expands inputs, maps each to
// its outputs and checks the whole plan (collisions, outputs escaping -o, inputs overwritten)
// before anything runs. What the walk skips and what refuses a plan is told through PlanNotes;
// the command line prints it.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace footfix {

/// One clip of a batch. Its paths are kept as text: a std::filesystem::path also keeps a list of
/// its components, several times the memory over a batch of thousands of clips (construct a path
/// where one is needed).
struct BatchItem {
  std::string input;
  /// The main output: for directory inputs the mirrored path under the output directory, for a
  /// file input the output path chosen by the command.
  std::string output;
  /// A second output written with it (clean: `<output stem>.contacts.json`); empty if none.
  std::string companion;
  /// The output directory (-o) the outputs must stay in, as given (one, shared by the batch's
  /// items); null when there is none.
  std::shared_ptr<const std::filesystem::path> output_root;
  /// Found in a folder the user named (not named itself on the command line).
  bool from_folder = false;
  /// Why the item fails without running (an output collision between clips found in folders);
  /// empty when it runs.
  std::string refusal;
};

/// The suffixes `clean` and `lock` add to a clip's stem when writing beside it
/// ("walk.clean.bvh", "walk.locked.fbx"). Folder walks skip clips named so: they are footfix's
/// own outputs, not new inputs.
inline constexpr const char* k_clean_suffix = ".clean";
inline constexpr const char* k_lock_suffix = ".locked";

/// Whether `path` is named as footfix names its outputs: a stem ending in one of the suffixes above.
bool is_footfix_output_name(const std::filesystem::path& path);

/// How inputs map to outputs.
struct OutputPlan {
  std::string output;         ///< -o value; empty = next to the input
  std::string suffix;         ///< added to the stem when writing next to the input (".clean")
  bool overwrite = false;     ///< the output may be the input itself (--overwrite)
  bool beside_keeps_stem = false;  ///< next to the input without suffix (annotate: only the extension changes)
  std::string new_extension;  ///< ".bvh" to change the format; empty = keep the input's
  /// Extensions a file -o may have (".bvh", ".fbx" for clean; ".json" for annotate). Any other
  /// extension is a usage error; a -o without extension, ending in '/', or naming an existing
  /// directory is a directory.
  std::vector<std::string> file_extensions;
  bool follow_symlinks = false;  ///< walk file symlinks whose target is outside the input folder
  /// Maps a planned main output to its final main output and companion (may be empty).
  std::function<void(BatchItem&)> finish_item;
};

/// How much a planning note matters to the user.
enum class NoteLevel { info, warning, error };
/// Receives what planning has to tell besides its result, one line at a time: files skipped in
/// folder walks, and each problem of a refused plan before the refusal is thrown.
using PlanNotes = std::function<void(NoteLevel, const std::string&)>;

/// Expands files and directories (recursively, clip extensions only, footfix's own outputs
/// skipped with a note, sorted) into items and checks the plan. An output directory inside an input directory is not searched. Mirrored
/// paths are built lexically: a symlink never moves an output out of -o. Throws Error(read) for
/// a missing input or a directory with no clips, Error(usage) for a directory without -o, several
/// inputs with a file -o, an unknown -o extension, two inputs named on the command line mapping
/// to one output (naming both), an output outside -o, or an output that is an input's file
/// (unless it is the item's own input and `overwrite`), or an .fbx output of an input that is not
/// .fbx. Two clips mapping to one output where either was found in a folder get a `refusal`
/// each: they fail, the rest of the batch runs.
std::vector<BatchItem> plan_batch(const std::vector<std::string>& inputs, const OutputPlan& plan, const PlanNotes& notes);

/// The clips named by `inputs` in order, directories expanded (recursively, sorted) as for
/// plan_batch. A missing input or a directory without clips is kept as given, for the caller to
/// report as a failed entry.
std::vector<std::filesystem::path> expand_inputs(const std::vector<std::string>& inputs, bool follow_symlinks,
                                                const PlanNotes& notes);

/// `<output without extension>.contacts.json`.
std::filesystem::path contacts_json_path(const std::filesystem::path& clip_output);

}  // namespace footfix
