// The live-handle report (dc_handle_report, dc_handle_visit) and the opt-in
// report at process exit of the handles never released (DCCUDA_LEAK_REPORT,
// DC_INIT_REPORT_LEAKS). Reads the handle table's records
// (HandleTable::live_handles): nothing here runs on a hot path.
#pragma once

#include <string>
#include <vector>

#include "core/handle_table.h"
#include "dccuda.h"

namespace dc {

// The public record of one live handle, ages measured from `now_ns`.
dc_handle_info handle_info(const LiveHandle& h, uint64_t now_ns) noexcept;

// The report's text: a summary line, then one line per handle ("" when no
// handle is live).
std::string handle_report_text(const std::vector<LiveHandle>& handles, uint64_t now_ns);

// Writes the report of the handles still open to stderr when the process
// exits (atexit), if any are. Idempotent; nothing in a forked child.
void arm_leak_report() noexcept;

}  // namespace dc
