// The duration histograms of a run (idb/histogram.hpp in the reader, where the profile's
// Histogram type lives) under the analysis layer's names.
#pragma once

#include "idb/histogram.hpp"

namespace idb::analysis {

using profile::Histogram;
using Bucket = profile::HistBucket;
using profile::at_level;
using profile::bucket_estimate_ns;
using profile::histogram_count;
using profile::histogram_of;
using profile::keep_if_complete;
using profile::merge_histogram;
using profile::quantile;
using profile::quantile_seconds;

} // namespace idb::analysis
