#include "batch/report_journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "../core/json_text.h"
#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "batch/clip_report_json.h"

namespace footfix {
namespace {

using nlohmann::json;

/// Names and joint names are bytes from files: invalid UTF-8 becomes U+FFFD instead of throwing.
std::string dump(const json& j, int indent) { return json_text(j, indent); }

/// The report is rewritten at most once a second, and no sooner than ten times as long as its last
/// rewrite took: a large batch's growing report then costs at most a tenth of the run to keep.
constexpr std::chrono::milliseconds k_rewrite_interval{1000};
constexpr int k_rewrite_cost_factor = 10;

}  // namespace

ReportJournal::ReportJournal(std::filesystem::path path, size_t clip_count, PlanNotes notes)
    : path_(std::move(path)), notes_(std::move(notes)), clips_(clip_count), last_write_(std::chrono::steady_clock::now()) {
  if (path_.empty()) return;
  journal_path_ = path_;
  journal_path_ += ".journal";
  std::error_code ec;
  if (journal_path_.has_parent_path()) std::filesystem::create_directories(journal_path_.parent_path(), ec);
  // Never through a link: a planted `<report>.journal` link would have its target truncated.
  const int fd = ::open(journal_path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
  struct stat st {};
  if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    ::close(fd);
  } else if (fd >= 0) {
    journal_ = ::fdopen(fd, "w+");
    if (!journal_) ::close(fd);
  }
  if (!journal_ && notes_)
    notes_(NoteLevel::warning, journal_path_.string() + ": cannot write the report journal (not a regular file, or a symbolic link)");
}

ReportJournal::~ReportJournal() {
  if (journal_) std::fclose(journal_);
}

void ReportJournal::add_clip(size_t index, const ClipReport& clip) {
  if (path_.empty()) return;
  const std::string text = dump(clip_report_to_json(clip), -1);
  Stored& stored = clips_[index];
  stored.size = text.size();
  if (journal_ && std::fwrite(text.data(), 1, text.size(), journal_) == text.size() && std::fputc('\n', journal_) != EOF &&
      std::fflush(journal_) == 0) {
    stored.offset = journal_size_;
    journal_size_ += text.size() + 1;
  } else {
    // No journal (or it failed): the entry is kept in memory from here on.
    if (journal_) {
      if (notes_)
        notes_(NoteLevel::warning, journal_path_.string() + ": cannot append to the report journal; clip entries are kept in memory");
      for (Stored& earlier : clips_) {
        if (earlier.size == 0 || &earlier == &stored) continue;
        const std::string earlier_text = entry_text(earlier);
        earlier.offset = kept_.size();
        kept_ += earlier_text;
      }
      remove_journal();
    }
    stored.offset = kept_.size();
    kept_ += text;
  }
  ++done_;
  auto now = std::chrono::steady_clock::now();
  if (done_ == 1 || now - last_write_ >= std::max<std::chrono::steady_clock::duration>(
                                             k_rewrite_interval, k_rewrite_cost_factor * last_write_cost_)) {
    ReportSummary progress;
    progress.complete = false;
    progress.clips_done = static_cast<long long>(done_);
    progress.clips_planned = static_cast<long long>(clips_.size());
    write_report(progress);
    last_write_ = std::chrono::steady_clock::now();
    last_write_cost_ = last_write_ - now;
  }
}

void ReportJournal::finish(ReportSummary summary) {
  if (path_.empty()) return;
  summary.complete = true;
  write_report(summary);
  remove_journal();
}

void ReportJournal::interrupt(const std::string& signal) {
  if (path_.empty()) return;
  ReportSummary stopped;
  stopped.complete = false;
  stopped.interrupted = signal;
  stopped.clips_done = static_cast<long long>(done_);
  stopped.clips_planned = static_cast<long long>(clips_.size());
  write_report(stopped);
  remove_journal();
}

void ReportJournal::remove_journal() {
  if (journal_) {
    std::fclose(journal_);
    journal_ = nullptr;
    std::error_code ec;
    std::filesystem::remove(journal_path_, ec);
  }
}

std::string ReportJournal::entry_text(const Stored& stored) const {
  if (!journal_) return kept_.substr(static_cast<size_t>(stored.offset), static_cast<size_t>(stored.size));
  std::string text(static_cast<size_t>(stored.size), '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::pread(::fileno(journal_), text.data() + got, text.size() - got,
                              static_cast<off_t>(stored.offset + got));
    if (n <= 0) throw Error(ErrorKind::write, journal_path_.string() + ": cannot read the report journal back");
    got += static_cast<size_t>(n);
  }
  return text;
}

// The report as dump(document, 2) writes it ({"clips", "summary", "tool", "version"}, keys in
// order, two spaces a level), with each clip's entry parsed from its text and written in turn.
void ReportJournal::write_report(const ReportSummary& summary) {
  auto nested = [](const std::string& text, const std::string& indent) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
      out += c;
      if (c == '\n') out += indent;
    }
    return out;
  };
  write_file_atomically(path_, [&](std::ostream& out) {
    out << "{\n  \"clips\": [";
    bool first = true;
    for (const Stored& stored : clips_) {
      if (stored.size == 0) continue;
      out << (first ? "\n    " : ",\n    ") << nested(dump(json::parse(entry_text(stored)), 2), "    ");
      first = false;
    }
    out << (first ? "]" : "\n  ]") << ",\n  \"summary\": " << nested(dump(report_summary_to_json(summary), 2), "  ")
        << ",\n  \"tool\": \"footfix\",\n  \"version\": " << dump(json(FOOTFIX_VERSION), 2) << "\n}\n";
  });
}

}  // namespace footfix
