/* The runtime's noise calibration under interrupts (docs/PERFORMANCE.md, section 5,
 * "Calibration under interrupts"). SIGALRM arrives every PERIOD microseconds and its
 * handler spins SPIN microseconds, as a sampling profiler's interrupts or a busy node's
 * take the thread, from before the runtime starts: its start calibrates under them, and
 * so does its finalize. One activation, so that the profile is written; its META holds the
 * calibrated charges and the throttling threshold drawn from them, which
 * calibration_storm.sh reads back.
 *
 * Usage: bench_calibration_storm [PERIOD_US [SPIN_US]]   (0 for no interrupts; 50, 2) */
#include <idb/probe.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long spin_ns;

static void on_alarm(int sig) {
  struct timespec a, b;
  (void)sig;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do
    clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < spin_ns);
}

int main(int argc, char **argv) {
  long period_us = argc > 1 ? atol(argv[1]) : 50;
  double spin_us = argc > 2 ? atof(argv[2]) : 2.0;
  struct sigaction sa;
  struct itimerval every;
  if (period_us < 0 || spin_us < 0) {
    fprintf(stderr, "usage: bench_calibration_storm [PERIOD_US [SPIN_US]]\n");
    return 2;
  }
  spin_ns = (long)(spin_us * 1000.0);
  if (period_us > 0) {
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    every.it_interval.tv_sec = every.it_value.tv_sec = 0;
    every.it_interval.tv_usec = every.it_value.tv_usec = period_us;
    setitimer(ITIMER_REAL, &every, NULL);
  }
  idb_init("calibration-storm");
  { IDB_SCOPE(IDB_PROC, 1, "one activation"); }
  idb_finalize();
  return 0;
}
