// Noise calibration (probe_lib/src/calibrate.cpp): the charges are differences of small
// timings, so interrupts that land inside the measurement must not reach them. Checked on
// rounds written by hand (the estimator) and on the runtime calibrating while a timer
// interrupts it every 20 us, as a sampling profiler at 20-50 kHz or a busy node does.
#include "calibrate.h"
#include "runtime.h"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <sys/time.h>

namespace idb::rt {
namespace {

// Fifteen rounds, each kind at its undisturbed value.
Calibration quiet_rounds(double timed, double reads, double throttled, double alone) {
  Calibration cal;
  for (int r = 0; r < 15; ++r) {
    cal.timed[r] = timed;
    cal.reads[r] = reads;
    cal.throttled[r] = throttled;
    cal.alone[r] = alone;
  }
  cal.rounds = 15;
  return cal;
}

TEST(Calibration, AnInterruptedRoundOfOneKindDoesNotDecideTheCharge) {
  Calibration cal = quiet_rounds(40.0, 20.0, 12.0, 3.0);
  // A third of the rounds had their clock reads or fence interrupted, and three others
  // their pairs: taken round by round, the lower quartile of the differences was 0.
  for (int r : {0, 3, 6, 9, 12}) {
    cal.reads[r] = 90.0;
    cal.alone[r] = 50.0;
  }
  for (int r : {1, 4, 7}) {
    cal.timed[r] = 300.0;
    cal.throttled[r] = 200.0;
  }
  EXPECT_DOUBLE_EQ(20.0, noise_per_pair(cal));
  EXPECT_DOUBLE_EQ(9.0, noise_per_throttled_pair(cal));
}

TEST(Calibration, WhereNothingIsLeftBeyondTheSubtrahendTheWholeLatencyIsCharged) {
  // A pair cannot take less than its own two clock reads: only a spoilt measurement shows
  // it, and the charge is then the pair less the fence, never 0.
  Calibration cal = quiet_rounds(30.0, 35.0, 3.0, 4.0);
  EXPECT_DOUBLE_EQ(26.0, noise_per_pair(cal));
  EXPECT_DOUBLE_EQ(3.0, noise_per_throttled_pair(cal));
  EXPECT_DOUBLE_EQ(0.0, noise_per_pair(Calibration{}));
  EXPECT_DOUBLE_EQ(0.0, noise_per_throttled_pair(Calibration{}));
}

// SIGALRM every 20 us, each taking 2 us of the thread, while alive.
struct Storm {
  static void on_alarm(int) {
    timespec a{}, b{};
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
      clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 2000);
  }
  struct sigaction before {};
  Storm() {
    struct sigaction sa {};
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, &before);
    itimerval every{{0, 20}, {0, 20}};
    setitimer(ITIMER_REAL, &every, nullptr);
  }
  ~Storm() {
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &before, nullptr);
  }
  Storm(const Storm &) = delete;
  Storm &operator=(const Storm &) = delete;
};

// The charge of `cal` when its subtrahend is not told apart: the whole latency.
double whole_pair(Calibration cal) {
  for (int r = 0; r < cal.rounds; ++r)
    cal.reads[r] = cal.timed[r];
  return noise_per_pair(cal);
}

TEST(Calibration, InterruptsEvery20UsNeitherZeroNorSpoilTheCharges) {
  setenv("IDB_OUT", "/dev/null", 1);
  Storm storm;
  idb_init("calibration-storm"); // the start's calibration, under the storm
  ASSERT_EQ(1, idb_enabled());
  EXPECT_GT(g_rt.noise_ticks, 0.0);
  EXPECT_GT(g_rt.throttled_ticks, 0.0);
  EXPECT_GT(g_rt.limits.throttle_ticks, 0.0) << "throttling needs a threshold";
  for (int run = 0; run < 6; ++run) {
    Calibration cal;
    calibrate_noise(cal, g_rt.limits);
    ASSERT_EQ(15, cal.rounds);
    double pair = noise_per_pair(cal);
    EXPECT_GT(pair, 0.0) << "run " << run;
    EXPECT_LT(pair, whole_pair(cal)) << "run " << run << ": the clock reads were told apart";
    EXPECT_GT(noise_per_throttled_pair(cal), 0.0) << "run " << run;
  }
}

} // namespace
} // namespace idb::rt
