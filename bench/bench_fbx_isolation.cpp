// Cost of running the FBX import in a worker process under resource limits (ReadLimits::
// isolate_fbx_import), over the shared FBX clips (or the files given):
// - per clip, the median read_fbx time and the mean CPU time (the reader's and its worker's):
//   in-process; isolated, the first read of a thread (it forks its worker); isolated, the steady
//   state (the thread's warm worker); and isolated with a fresh worker for every read
//   (fbx_worker_retire_bytes = 0: a child per import);
// - a batch of the clips x 20 copies cleaned through the library (CleanBatch, in a child process:
//   wall and CPU time with wait4) each of those three ways, with --jobs 1 and 2, and through
//   `footfix clean` (this build's, and with --against another footfix binary, alternating).
//
//   bench_fbx_isolation [runs (default 5)] [--batch-runs N (default 3)] [--against FOOTFIX] [file.fbx ...]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench_main.h"
#include "footfix/batch/clean_batch.h"
#include "footfix/fbx/fbx.h"

namespace fs = std::filesystem;

namespace {

constexpr int k_copies = 20;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Milliseconds one read of `file` takes on the calling thread.
double read_ms(const fs::path& file, const footfix::ReadLimits& limits) {
  const auto start = std::chrono::steady_clock::now();
  footfix::read_fbx(file, "", nullptr, limits);
  return ms_since(start);
}

/// Milliseconds the first read of `file` takes on a new thread (its worker forked for the read):
/// the calling thread's worker is left as it is.
double first_read_ms(const fs::path& file, const footfix::ReadLimits& limits) {
  double ms = 0;
  std::thread([&] { ms = read_ms(file, limits); }).join();
  return ms;
}

/// CPU time (user + sys) of this process and of the processes it has waited for (the import
/// workers, once ended), in milliseconds.
double cpu_ms() {
  double ms = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    ::getrusage(who, &u);
    ms += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
          static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
  }
  return ms;
}

/// CPU milliseconds of `reads` reads of `file` on a new thread (its worker, started by the first
/// isolated read, ends and is waited for with the thread, so its time counts).
double thread_cpu_ms(const fs::path& file, const footfix::ReadLimits& limits, int reads) {
  const double before = cpu_ms();
  std::thread([&] {
    for (int i = 0; i < reads; ++i) footfix::read_fbx(file, "", nullptr, limits);
  }).join();
  return cpu_ms() - before;
}

struct Usage {
  double wall_s = 0, cpu_s = 0;
  int status = -1;
};

/// Runs `work` in a child process (exit code: its return); wall and CPU time of the child and of
/// the processes it waited for (the import workers).
Usage in_child(const std::function<int()>& work) {
  const auto start = std::chrono::steady_clock::now();
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid == 0) std::exit(work());  // std::exit: the threads' workers end and are waited for
  int status = 0;
  rusage usage{};
  Usage u;
  if (::wait4(pid, &status, 0, &usage) != pid) return u;
  u.wall_s = ms_since(start) / 1000;
  u.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
            static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  u.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return u;
}

/// The library's batch over `dir` into `out`, with `limits` and `jobs`: its exit code.
int clean_batch(const fs::path& dir, const fs::path& out, const footfix::ReadLimits& limits, int jobs) {
  footfix::OutputPlan plan;
  plan.output = out.string();
  plan.finish_item = [](footfix::BatchItem& item) { item.companion = footfix::contacts_json_path(item.output); };
  footfix::CleanBatchSettings settings;
  settings.one.read.limits = limits;
  settings.jobs = jobs;
  footfix::CleanBatch batch(footfix::plan_batch({dir.string()}, plan, nullptr), settings, {});
  return footfix::most_severe_outcome(batch.run().outcomes);
}

int run_exe(const std::string& exe, const fs::path& dir, const fs::path& out, int jobs) {
  const std::string jobs_text = std::to_string(jobs);
  const int null = ::open("/dev/null", O_WRONLY);  // the clips that fail say so on every run
  if (null >= 0) ::dup2(null, 2);
  const char* argv[] = {exe.c_str(), "clean", "-q", dir.c_str(), "-o", out.c_str(), "--jobs", jobs_text.c_str(), nullptr};
  ::execv(exe.c_str(), const_cast<char* const*>(argv));
  return 127;
}

struct BatchWay {
  std::string label;
  std::function<int(const fs::path& dir, const fs::path& out, int jobs)> run;
  std::vector<Usage> runs[2];  // --jobs 1, 2
};

void report_batches(const std::vector<fs::path>& files, int batch_runs, const std::string& against) {
  char pattern[] = "/tmp/footfix_bench_fbx_isolation_XXXXXX";
  if (!::mkdtemp(pattern)) return;
  const fs::path root(pattern), dir = root / "in";
  fs::create_directories(dir);
  for (const auto& f : files)
    for (int c = 0; c < k_copies; ++c)
      fs::copy_file(f, dir / (f.stem().string() + "_" + std::to_string(c) + f.extension().string()));

  footfix::ReadLimits in_process, worker, fresh;
  in_process.isolate_fbx_import = false;
  fresh.fbx_worker_retire_bytes = 0;
  auto library = [](footfix::ReadLimits limits) {
    return [limits](const fs::path& d, const fs::path& o, int jobs) { return clean_batch(d, o, limits, jobs); };
  };
  std::vector<BatchWay> ways{{"library, in-process", library(in_process), {}},
                             {"library, reused worker", library(worker), {}},
                             {"library, fresh child per file", library(fresh), {}},
                             {"footfix clean (this build)", [](const fs::path& d, const fs::path& o, int jobs) {
                                return run_exe(FOOTFIX_EXE, d, o, jobs);
                              }, {}}};
  if (!against.empty())
    ways.push_back({"footfix clean (--against)", [against](const fs::path& d, const fs::path& o, int jobs) {
                      return run_exe(against, d, o, jobs);
                    }, {}});
  for (int r = 0; r < batch_runs; ++r)
    for (int jobs = 1; jobs <= 2; ++jobs)
      for (auto& way : ways) {
        const fs::path out = root / "out";
        fs::remove_all(out);
        way.runs[jobs - 1].push_back(in_child([&] { return way.run(dir, out, jobs); }));
      }
  std::printf("\nbatch: %zu FBX files (%zu clips x %d copies), medians of %d runs\n", files.size() * k_copies,
              files.size(), k_copies, batch_runs);
  std::printf("%-32s %12s %12s %12s %12s %7s\n", "", "wall -j1", "CPU -j1", "wall -j2", "CPU -j2", "exit");
  for (const auto& way : ways) {
    std::printf("%-32s", way.label.c_str());
    int status = 0;
    for (const auto& runs : way.runs) {
      std::vector<double> wall, cpu;
      for (const Usage& u : runs) {
        wall.push_back(u.wall_s);
        cpu.push_back(u.cpu_s);
        status = std::max(status, u.status);
      }
      std::printf(" %10.2f s %10.2f s", median(wall), median(cpu));
    }
    std::printf(" %7d\n", status);  // 4 where a clip has no legs to clean: the same in every way
  }
  fs::remove_all(root);
}

/// The ways a file is read: in process, by the thread's reused worker, by a fresh worker each time.
struct Ways {
  footfix::ReadLimits direct, isolated, fresh;
  Ways() {
    direct.isolate_fbx_import = false;
    fresh.fbx_worker_retire_bytes = 0;
  }
};

void print_table_head() {
  std::printf("%-42s %6s %11s %11s %11s %11s %7s\n", "clip", "KiB", "in-process", "first read", "steady",
              "fresh each", "cost");
}

}  // namespace

int run(int argc, char** argv) {
  int runs = 5, batch_runs = 3;
  std::string against;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--batch-runs" && i + 1 < argc) batch_runs = std::max(0, std::atoi(argv[++i]));
    else if (arg == "--against" && i + 1 < argc) against = argv[++i];
    else if (i == 1 && std::atoi(argv[i]) > 0) runs = std::atoi(argv[i]);
    else files.emplace_back(arg);
  }
  if (files.empty()) {
    const fs::path dir = fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".fbx") files.push_back(e.path());
    std::sort(files.begin(), files.end());
  }
  if (files.empty()) {
    std::printf("no FBX files (../shared/data/clips absent and none given)\n");
    return 0;
  }
  std::printf("per read, medians of %d; cost: steady state against in-process\n", runs);
  print_table_head();
  for (const auto& f : files) {
    const Ways ways;
    const footfix::ReadLimits &direct = ways.direct, &isolated = ways.isolated, &fresh = ways.fresh;
    read_ms(f, isolated);  // the worker started before the steady state is timed
    std::vector<double> here, first, steady, each;  // the four ways in turn, under the same load
    for (int i = 0; i < runs; ++i) {
      here.push_back(read_ms(f, direct));
      first.push_back(first_read_ms(f, isolated));
      steady.push_back(read_ms(f, isolated));
      // On a thread of its own: a worker that retires on this thread would make the next steady
      // read start a new one.
      each.push_back(first_read_ms(f, fresh));
    }
    const double in_process = median(here), warm = median(steady);
    std::printf("%-42s %6ju %8.1f ms %8.1f ms %8.1f ms %8.1f ms %6.0f%%\n", f.filename().c_str(),
                static_cast<std::uintmax_t>(fs::file_size(f) / 1024), in_process, median(first), warm, median(each),
                100 * (warm - in_process) / in_process);
  }
  // CPU time does not count the waits for the other process to be scheduled, which on a loaded
  // machine are most of the wall-clock differences above.
  std::printf("\nCPU per read (the reader's and its worker's), mean of %d\n", runs);
  print_table_head();
  for (const auto& f : files) {
    const Ways ways;
    const footfix::ReadLimits &direct = ways.direct, &isolated = ways.isolated, &fresh = ways.fresh;
    read_ms(f, direct);
    const double here = thread_cpu_ms(f, direct, runs) / runs;
    double first = 0;
    for (int i = 0; i < runs; ++i) first += thread_cpu_ms(f, isolated, 1) / runs;
    const double steady = (thread_cpu_ms(f, isolated, runs + 1) - first) / runs;
    const double each = thread_cpu_ms(f, fresh, runs) / runs;
    std::printf("%-42s %6ju %8.1f ms %8.1f ms %8.1f ms %8.1f ms %6.0f%%\n", f.filename().c_str(),
                static_cast<std::uintmax_t>(fs::file_size(f) / 1024), here, first, steady, each,
                100 * (steady - here) / here);
  }
  if (batch_runs > 0) report_batches(files, batch_runs, against);
  return 0;
}

int main(int argc, char** argv) {
  return footfix::bench::run_main(argc, argv, "[runs (default 5)] [--batch-runs N (default 3)] [--against FOOTFIX] [file.fbx ...]", run);
}
