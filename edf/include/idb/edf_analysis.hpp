// COALESCE and COMPARE (DESIGN §7) over runs already read (edf_runs.hpp), as plain
// structs for the CLI, the SVG writer and the GUI, on the statistics of
// analysis/statistics.hpp (type-7 quantile, Tukey's box, Welch's t-test); docs/edf.md
// documents the methods and their assumptions. read_entries reads the runs from their
// databases (and throws store::Error when an engine fails); every other function here is
// pure: thread-safe, no I/O, no throws (std::bad_alloc aside).
#pragma once

#include "idb/analysis/statistics.hpp"
#include "idb/edf.hpp"
#include "idb/edf_runs.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace idb::edf {

// The statistics COALESCE and COMPARE rest on (analysis/statistics.hpp).
using analysis::Box;
using analysis::box_of;
using analysis::quantile;
using analysis::t_two_sided_p;
using analysis::TTest;
using analysis::welch;

// The runs of one [DBLIST] entry, read.
struct EntryData {
  std::string name, note; // the entry as written
  std::vector<RunData> runs;
};

// Called after each run read with the runs read so far and their total.
using ReadProgress = std::function<void(std::size_t done, std::size_t total)>;

// Reads every run of every resolved entry. Throws store::Error on an engine failure.
std::vector<EntryData> read_entries(const std::vector<ResolvedEntry> &entries,
                                    const ReadProgress &progress = {});

struct AnalysisOptions {
  Metric value = Metric::total;
  // all: COALESCE merges every rank of a run into one record; COMPARE shows each rank.
  // One rank: only that rank, and a run without it has no value.
  RankChoice rank;
  bool each_rank = false; // with rank.all: one row per rank in COALESCE too
  std::string probe;      // empty: every probe; digits: that ID; else text in the description
  double alpha = 0.05;    // significance level of COMPARE's test
};

inline constexpr std::int32_t kAllRanks = -1;

// The IDs of the probes present in any run that match options.probe, ascending: the probes
// the analysis makes rows for.
std::vector<std::int32_t> probes_of(const std::vector<EntryData> &entries,
                                    const AnalysisOptions &options);

// The probe's statistics over every run of the row, merged exactly.
struct Pooled {
  std::uint64_t count = 0;   // activations
  double mean = 0, sdev = 0; // per activation, seconds
  double min = 0, max = 0;   // shortest and longest activation
  double total = 0;          // wall time summed over the runs
  // Quantiles of the activations' durations, seconds, from the runs' histograms merged;
  // nullopt unless every run of the row has them.
  std::optional<double> p50, p90, p99;
};

struct Outlier {
  std::string run; // label
  double value = 0;
};

struct CoalesceRow {
  std::int32_t probe = 0;
  std::string name;
  std::int32_t rank = kAllRanks; // kAllRanks: every rank merged
  std::vector<std::string> runs; // labels of the runs with a value, in [DBLIST] order (a
                                 // quantile has none in a run without histograms)
  std::vector<double> values;    // the value per run, beside `runs`
  Box box;
  std::vector<Outlier> outliers; // the box's outliers by run
  double mean = 0, sdev = 0;     // of the per-run values (sample deviation)
  std::optional<double> cv;      // sdev / |mean|, the regularity index; nullopt if mean 0
  Pooled pooled;
};

struct CoalesceResult {
  Metric value = Metric::total;
  std::vector<std::string> runs; // every run's label, in [DBLIST] order
  std::vector<CoalesceRow> rows; // by probe, then rank
};

// COALESCE: every entry's runs pooled into one sample per probe (and rank).
CoalesceResult coalesce(const std::vector<EntryData> &entries, const AnalysisOptions &options);

struct CompareCell {
  std::size_t runs = 0;                // runs of the entry with a value (0: no value)
  std::optional<double> value;         // mean over those runs
  double sdev = 0;                     // their sample deviation (0 for one run)
  std::optional<double> diff;          // value − the first entry's value
  std::optional<double> ratio;         // value / the first entry's value; nullopt when that is 0
  std::optional<TTest> test;           // Welch's test against the first entry, both ≥ 2 runs
  bool significant = false;            // test->p < alpha (and, for a quantile, the
                                       // values more than a bucket apart)
  std::vector<std::string> run_labels; // the runs with a value, for per-run series
  std::vector<double> run_values;      // their values, beside them
};

struct CompareRow {
  std::int32_t probe = 0;
  std::string name;
  std::int32_t rank = kAllRanks;
  std::vector<CompareCell> cells; // one per entry, in [DBLIST] order
};

struct CompareResult {
  Metric value = Metric::total;
  double alpha = 0.05;
  std::vector<std::string> entries; // entry names, in [DBLIST] order
  std::vector<std::string> notes;   // their notes, beside them
  std::vector<CompareRow> rows;     // by probe, then rank
};

// COMPARE: per probe and rank each entry's value beside the first entry's.
CompareResult compare(const std::vector<EntryData> &entries, const AnalysisOptions &options);

} // namespace idb::edf
