// Which CFH the calling thread's probes record in. Every thread has a default CFH (its
// "home", claimed at its first probe); idb_cfh_enter makes a named CFH current until the
// matching idb_cfh_leave, and enters nest as a stack. The hot path never looks here: it
// reads cur_cfh() (runtime.h), which these functions keep pointing at the current CFH.
#pragma once

#include "cfh.h"

#include <cstdint>

namespace idb::rt {

// Enters nested deeper than this are not made (counted as mismatches; their leaves are
// consumed). A fixed array: entering allocates nothing.
constexpr std::uint32_t kMaxEnters = 32;

// The calling thread's default CFH, nullptr until its first probe.
Cfh *context_home();

// Records `home` as the calling thread's default CFH and returns the CFH its probes go to
// now (the innermost entered one, else `home`).
Cfh *context_set_home(Cfh *home);

// Forgets the calling thread's default CFH and its enters (thread exit, fork child).
void context_forget();

// Finalize on the calling thread: closes its default CFH and every CFH it has entered at
// `t`, then forgets them.
void context_close(std::uint64_t t);

// `c` is being destroyed: the calling thread's enters of it stop routing probes to it
// (each counted as a mismatch of `c`); they still match their leaves. Call under g_rt.lock.
void context_drop(Cfh *c);

} // namespace idb::rt
