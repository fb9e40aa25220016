// PMPI wrappers of the calls that complete requests: waits and tests. When a completed
// request is a receive registered by MPI_Irecv or MPI_Recv_init (pending_requests.h,
// pmpi_persistent.cpp), the call counts what its status says arrived as received bytes
// (docs/mpi.md, "Bytes"); the receives and synchronous sends it completed join their posts
// in the wait-state events (wait_states.h). The handles are copied first (completion sets
// them to MPI_REQUEST_NULL), and a caller who ignores the statuses gets them read into the
// layer's own array: what the caller sees is unchanged.
#include "comm_probe.h"
#include "pending_requests.h"
#include "wait_states.h"

#include <cstdlib>

using namespace idb::mpi;

namespace {

// One wait or test call's requests, when some receive is pending: their handles before
// the call and the statuses to read (the caller's, or the layer's own when the caller
// passes MPI_STATUS(ES)_IGNORE). Stack arrays for small calls, malloc beyond; without
// memory the call goes uncounted rather than failing.
class Completion {
public:
  // `slots`: how many statuses the call writes.
  Completion(const Call &call, int count, const MPI_Request *requests, MPI_Status *statuses,
             bool ignored, int slots)
      : statuses_(statuses) {
    if (!call.on() || !pending_any() || count <= 0) return;
    if (count > kLocal) heap_handles_ = alloc<MPI_Request>(count);
    if (count > kLocal) heap_finished_ = alloc<Finished>(count);
    before_ = count > kLocal ? heap_handles_ : handles_;
    finished_ = count > kLocal ? heap_finished_ : local_finished_;
    if (!before_ || !finished_) return;
    if (ignored && slots > kLocal && !(heap_statuses_ = alloc<MPI_Status>(slots))) return;
    if (ignored) statuses_ = slots > kLocal ? heap_statuses_ : local_;
    for (int i = 0; i < count; ++i)
      before_[i] = requests[i];
    on_ = true;
  }
  ~Completion() {
    if (heap_handles_) std::free(heap_handles_); // no call on the common path
    if (heap_statuses_) std::free(heap_statuses_);
    if (heap_finished_) std::free(heap_finished_);
  }
  Completion(const Completion &) = delete;
  Completion &operator=(const Completion &) = delete;

  // What to pass to the PMPI call.
  MPI_Status *statuses() const { return statuses_; }

  // Bytes request `i` received, completed with statuses()[k], after a call that returned
  // `rc` (with MPI_ERR_IN_STATUS: when that request's status reports success). Notes its
  // post's wait event for finished().
  std::uint64_t done(int rc, int i, int k) {
    if (!on_ || i < 0 || k < 0) return 0;
    const MPI_Status &s = statuses_[k];
    if (rc != MPI_SUCCESS && !(rc == MPI_ERR_IN_STATUS && s.MPI_ERROR == MPI_SUCCESS)) return 0;
    Completed c = pending_completed(before_[i], s);
    if (c.event) finished_[nfinished_++] = {c.event, s.MPI_SOURCE, s.MPI_TAG};
    return c.bytes;
  }

  // Hands the posts the call completed to the wait-state events, as one group.
  void finish(WaitEvent &wait) const { wait.completed(finished_, nfinished_); }

private:
  static constexpr int kLocal = 16;

  // n handles or statuses; MPI_Request is a pointer type with Open MPI, hence the NOLINT.
  template <class T> static T *alloc(int n) {
    return static_cast<T *>(
        std::malloc(sizeof(T) * std::size_t(n))); // NOLINT(bugprone-sizeof-expression)
  }

  MPI_Request handles_[kLocal];
  MPI_Status local_[kLocal];
  Finished local_finished_[kLocal];
  MPI_Request *before_ = nullptr, *heap_handles_ = nullptr;
  MPI_Status *statuses_, *heap_statuses_ = nullptr;
  Finished *finished_ = nullptr, *heap_finished_ = nullptr;
  int nfinished_ = 0;
  bool on_ = false;
};

// Whether the call's outputs (flag, index, outcount, statuses) are defined after `rc`.
bool outputs_set(int rc) {
  return rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
}

} // namespace

extern "C" {

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  Call call(k_MPI_Wait);
  WaitEvent wait(call);
  Completion c(call, 1, request, status, status == MPI_STATUS_IGNORE, 1);
  int rc = PMPI_Wait(request, c.statuses());
  call.received(c.done(rc, 0, 0));
  c.finish(wait);
  return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status *statuses) {
  Call call(k_MPI_Waitall);
  WaitEvent wait(call);
  Completion c(call, count, requests, statuses, statuses == MPI_STATUSES_IGNORE, count);
  int rc = PMPI_Waitall(count, requests, c.statuses());
  for (int i = 0; i < count; ++i)
    call.received(c.done(rc, i, i));
  c.finish(wait);
  return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
  Call call(k_MPI_Waitany);
  WaitEvent wait(call);
  Completion c(call, count, requests, status, status == MPI_STATUS_IGNORE, 1);
  int rc = PMPI_Waitany(count, requests, index, c.statuses());
  if (outputs_set(rc) && *index != MPI_UNDEFINED) call.received(c.done(rc, *index, 0));
  c.finish(wait);
  return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  Call call(k_MPI_Waitsome);
  WaitEvent wait(call);
  Completion c(call, incount, requests, statuses, statuses == MPI_STATUSES_IGNORE, incount);
  int rc = PMPI_Waitsome(incount, requests, outcount, indices, c.statuses());
  for (int k = 0; outputs_set(rc) && *outcount != MPI_UNDEFINED && k < *outcount; ++k)
    call.received(c.done(rc, indices[k], k));
  c.finish(wait);
  return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  Call call(k_MPI_Test);
  WaitEvent wait(call);
  Completion c(call, 1, request, status, status == MPI_STATUS_IGNORE, 1);
  int rc = PMPI_Test(request, flag, c.statuses());
  if (outputs_set(rc) && *flag) call.received(c.done(rc, 0, 0));
  c.finish(wait);
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {
  Call call(k_MPI_Testall);
  WaitEvent wait(call);
  Completion c(call, count, requests, statuses, statuses == MPI_STATUSES_IGNORE, count);
  int rc = PMPI_Testall(count, requests, flag, c.statuses());
  for (int i = 0; outputs_set(rc) && *flag && i < count; ++i)
    call.received(c.done(rc, i, i));
  c.finish(wait);
  return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
  Call call(k_MPI_Testany);
  WaitEvent wait(call);
  Completion c(call, count, requests, status, status == MPI_STATUS_IGNORE, 1);
  int rc = PMPI_Testany(count, requests, index, flag, c.statuses());
  if (outputs_set(rc) && *flag && *index != MPI_UNDEFINED) call.received(c.done(rc, *index, 0));
  c.finish(wait);
  return rc;
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  Call call(k_MPI_Testsome);
  WaitEvent wait(call);
  Completion c(call, incount, requests, statuses, statuses == MPI_STATUSES_IGNORE, incount);
  int rc = PMPI_Testsome(incount, requests, outcount, indices, c.statuses());
  for (int k = 0; outputs_set(rc) && *outcount != MPI_UNDEFINED && k < *outcount; ++k)
    call.received(c.done(rc, indices[k], k));
  c.finish(wait);
  return rc;
}

} // extern "C"
