// Entry points: linking device code (nvJitLink, else the driver's cuLink).
#include "dccuda.h"

#include "compile/link_request.h"
#include "compile/linker.h"
#include "compile/program.h"
#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "loader/nvjitlink.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_link(const dc_link_input* inputs, uint32_t count, const dc_link_options* options,
                         dc_device device, dc_program* linked) {
  return guarded("dc_link", [&] {
    clear_out(linked);
    forbid_after_fork();
    require_arg(linked, "linked");
    Pinned<Device> d;
    if (device) d = pin<Device>(device, "device");
    LinkRequest request = make_link_request(inputs, count, options, d.get());
    Ref<Program> p = link_program(request, d.get());
    *linked = issue_handle<dc_program>(p.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_nvjitlink_version(int32_t* major, int32_t* minor) {
  return guarded("dc_nvjitlink_version", [&] {
    clear_out(major);
    clear_out(minor);
    forbid_after_fork();
    require_arg(major, "major");
    require_arg(minor, "minor");
    const NvJitLinkState& s = nvjitlink_state();
    require_nvjitlink();
    *major = s.major;
    *minor = s.minor;
    return DC_SUCCESS;
  });
}

}  // extern "C"

// dc_link_input.kind takes a program's DC_OUTPUT_* as its own kind.
static_assert(DC_LINK_INPUT_CUBIN == DC_OUTPUT_CUBIN && DC_LINK_INPUT_PTX == DC_OUTPUT_PTX &&
              DC_LINK_INPUT_LTOIR == DC_OUTPUT_LTOIR);
