// COMM: MPI calls (MPI_* and PMPI_*) as communication probes. The placement is the CALL
// rule's; what differs is the candidates (only MPI calls) and the kind the runtime sees,
// which tells the PMPI layer to add the call's bytes to this node rather than open its own.
#include "rules.hpp"

namespace idb::instr {

std::unique_ptr<ProbeRule> make_comm_rule() {
  return make_call_rule_of_kind(Kind::Comm);
}

} // namespace idb::instr
