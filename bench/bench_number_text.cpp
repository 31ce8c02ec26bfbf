// Google Benchmark micro-benchmarks of footfix's number-to-text writers against std::to_chars.
// write_shortest writes std::to_chars's text byte for byte; write_decimals (plain notation, the
// channel's decimals) and write_round_trip (17 significant digits, not always the shortest)
// write other text that reads back as exactly (tests/unit check both). They exist only where
// they are faster: on the short decimals motion files hold (write_shortest, write_decimals) and,
// for computed values, write_round_trip. Items/s is values written per second; docs/tuning.md
// keeps the figures.
//
// Usage: bench_number_text [--benchmark_filter=REGEX] (Google Benchmark's options)
#include <benchmark/benchmark.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../src/core/shortest_double.h"

namespace {

/// Every value of the MOTION section of the bundled CMU walk, as written there (4 decimals).
const std::vector<double>& file_decimals() {
  static const std::vector<double> values = [] {
    std::ifstream in(std::string(FOOTFIX_DATA_DIR) + "/clips/cmu_07_01_walk.bvh");
    std::string line;
    while (std::getline(in, line) && line.rfind("Frame Time", 0) != 0) {
    }
    std::vector<double> v;
    for (double x; in >> x;) v.push_back(x);
    return v;
  }();
  return values;
}

/// Computed values: angles in degrees of a smooth rotation, 16-17 significant digits.
const std::vector<double>& computed_values() {
  static const std::vector<double> values = [] {
    std::vector<double> v;
    for (int i = 0; i < 100000; ++i) v.push_back(57.29577951308232 * std::atan2(std::sin(i * 0.0137), std::cos(i * 0.0071)));
    return v;
  }();
  return values;
}

template <class Write>
void write_all(benchmark::State& state, const std::vector<double>& values, Write write) {
  char buffer[footfix::k_shortest_double_chars];
  for (auto _ : state) {
    for (double x : values) {
      char* end = write(buffer, x);
      benchmark::DoNotOptimize(end);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * values.size()));
}

char* std_to_chars(char* first, double x) { return std::to_chars(first, first + footfix::k_shortest_double_chars, x).ptr; }
char* std_to_chars_fixed4(char* first, double x) {
  return std::to_chars(first, first + footfix::k_shortest_double_chars, x, std::chars_format::fixed, 4).ptr;
}

void FileDecimals_StdToChars(benchmark::State& s) { write_all(s, file_decimals(), std_to_chars); }
void FileDecimals_WriteShortest(benchmark::State& s) { write_all(s, file_decimals(), footfix::write_shortest); }
void FileDecimals_StdToCharsFixed4(benchmark::State& s) { write_all(s, file_decimals(), std_to_chars_fixed4); }
void FileDecimals_WriteDecimals4(benchmark::State& s) {
  write_all(s, file_decimals(), [](char* first, double x) { return footfix::write_decimals(first, x, 4); });
}
void Computed_StdToChars(benchmark::State& s) { write_all(s, computed_values(), std_to_chars); }
void Computed_WriteShortest(benchmark::State& s) { write_all(s, computed_values(), footfix::write_shortest); }
void Computed_WriteRoundTrip(benchmark::State& s) { write_all(s, computed_values(), footfix::write_round_trip); }

BENCHMARK(FileDecimals_StdToChars);
BENCHMARK(FileDecimals_WriteShortest);
BENCHMARK(FileDecimals_StdToCharsFixed4);
BENCHMARK(FileDecimals_WriteDecimals4);
BENCHMARK(Computed_StdToChars);
BENCHMARK(Computed_WriteShortest);
BENCHMARK(Computed_WriteRoundTrip);

}  // namespace

BENCHMARK_MAIN();
