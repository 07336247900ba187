// Entry points: seeing inside (the log hook).
#include "dccuda.h"

#include "core/fork_guard.h"
#include "core/guard.h"
#include "core/log.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_set_log_callback(int32_t min_level, dc_log_fn fn, void* user_data) {
  return guarded("dc_set_log_callback", [&] {
    forbid_after_fork();
    set_log_callback(min_level, fn, user_data);
    return DC_SUCCESS;
  });
}

}  // extern "C"
