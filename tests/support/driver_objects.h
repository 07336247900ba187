// Every kind of driver object the fake driver counts (dcfake_live): a test
// that finds them all at zero after releasing everything proves nothing
// leaked. Kept apart from fake.h so that programs without GoogleTest (the
// fuzzers) share the list.
#pragma once

namespace dctest {

inline constexpr const char* kDriverObjectKinds[] = {"allocations", "host_allocations", "managed", "registrations",
                                                     "pools",       "streams",          "events",  "modules",
                                                     "graphs",      "graph_execs",      "primary_retains",
                                                     "reservations", "physical",        "ipc_opens",       "libraries",
                                                     "pool_imports"};

}  // namespace dctest
