// A batch's fixed cost per clip, through the footfix command itself: cuts N one-second clips from
// the shared BVH clips (cycling through them and through their seconds), then runs
// `footfix clean DIR -o OUT --jobs 2` (and the same with `--report`) as a child process and
// prints wall time, CPU (user + sys) per clip and peak RSS (wait4). With --against EXE the same
// runs are made with another footfix binary, alternating with this one, so both are measured in
// one run of the machine. Run it at two batch sizes to see whether memory grows with the batch.
//
//   build/bench/bench_batch [clips (default 3000)] [--exe FOOTFIX] [--against FOOTFIX] [--runs N]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_main.h"

namespace fs = std::filesystem;

namespace {

struct Run {
  double wall_s = 0, cpu_s = 0, sys_s = 0;
  long peak_rss_kb = 0;
  int exit_code = -1;
};

Run run_child(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  Run r;
  if (wait4(pid, &status, 0, &usage) != pid) return r;
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
            static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  r.sys_s = static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
  r.peak_rss_kb = usage.ru_maxrss;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// A BVH clip split into its header (up to "Frame Time:" line included), its rows and its rate.
struct Source {
  std::string head;  ///< text before "Frames:"
  std::string frame_time_line;
  std::vector<std::string> rows;
  int rows_per_second = 0;
};

bool load(const fs::path& path, Source& s) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const std::size_t frames = text.find("Frames:");
  const std::size_t time = text.find("Frame Time:");
  if (frames == std::string::npos || time == std::string::npos) return false;
  s.head = text.substr(0, frames);
  const std::size_t time_end = text.find('\n', time);
  s.frame_time_line = text.substr(time, time_end - time);
  const double frame_time = std::atof(s.frame_time_line.c_str() + 11);
  if (!(frame_time > 0)) return false;
  s.rows_per_second = std::max(1, static_cast<int>(1.0 / frame_time + 0.5));
  std::istringstream rows(text.substr(time_end + 1));
  for (std::string row; std::getline(rows, row);)
    if (row.find_first_not_of(" \t\r") != std::string::npos) s.rows.push_back(row);
  return static_cast<int>(s.rows.size()) >= s.rows_per_second;
}

void make_batch(const std::vector<Source>& sources, int clips, const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::size_t> next(sources.size(), 0);
  for (int c = 0; c < clips; ++c) {
    const std::size_t k = static_cast<std::size_t>(c) % sources.size();
    const Source& s = sources[k];
    const std::size_t n = static_cast<std::size_t>(s.rows_per_second);
    if (next[k] + n > s.rows.size()) next[k] = 0;
    char name[32];
    std::snprintf(name, sizeof name, "clip%05d.bvh", c);
    std::ofstream out(dir / name, std::ios::binary);
    out << s.head << "Frames: " << n << "\n" << s.frame_time_line << "\n";
    for (std::size_t r = 0; r < n; ++r) out << s.rows[next[k] + r] << "\n";
    next[k] += n;
  }
}

void print(const char* label, const char* mode, int clips, const Run& r) {
  std::printf("%-10s %-9s %6d clips  exit %d  wall %7.2f s  cpu %7.2f s (sys %5.2f)  %6.2f ms cpu/clip  peak RSS %7.1f MB\n",
              label, mode, clips, r.exit_code, r.wall_s, r.cpu_s, r.sys_s, 1000.0 * r.cpu_s / clips,
              static_cast<double>(r.peak_rss_kb) / 1024.0);
}

}  // namespace

int run(int argc, char** argv) {
  int clips = 3000, runs = 1;
  std::string exe = FOOTFIX_EXE, against;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--exe" && i + 1 < argc) exe = argv[++i];
    else if (a == "--against" && i + 1 < argc) against = argv[++i];
    else if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else clips = std::max(1, std::atoi(a.c_str()));
  }
  std::vector<Source> sources;
  std::vector<fs::path> paths;
  for (const auto& e : fs::directory_iterator(FOOTFIX_SHARED_DIR "/data/clips"))
    if (e.path().extension() == ".bvh") paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    Source s;
    if (load(p, s)) sources.push_back(std::move(s));
  }
  if (sources.empty()) {
    std::fprintf(stderr, "bench_batch: no BVH clips under %s/data/clips\n", FOOTFIX_SHARED_DIR);
    return 1;
  }
  const fs::path work = fs::temp_directory_path() / ("footfix-bench-batch-" + std::to_string(getpid()));
  make_batch(sources, clips, work / "in");
  std::printf("batch: %d one-second clips cut from %zu shared BVH clips, --jobs 2\n", clips, sources.size());
  std::vector<std::pair<const char*, std::string>> binaries{{"this", exe}};
  if (!against.empty()) binaries.emplace_back("against", against);
  for (int run = 0; run < runs; ++run)
    for (const auto& [label, binary] : binaries)
      for (bool with_report : {false, true}) {
        fs::remove_all(work / "out");
        std::vector<std::string> args{binary, "clean", (work / "in").string(), "-o", (work / "out").string(),
                                      "--jobs", "2", "-q"};
        if (with_report) args.insert(args.end(), {"--report", (work / "report.json").string()});
        print(label, with_report ? "--report" : "", clips, run_child(args));
      }
  fs::remove_all(work);
  return 0;
}

int main(int argc, char** argv) { return footfix::bench::run_main(argc, argv, "[clips (default 3000)] [--exe FOOTFIX] [--against FOOTFIX] [--runs N]", run); }
