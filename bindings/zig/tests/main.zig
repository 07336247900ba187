//! The Zig binding's tests, against the real libdccuda: through the fake
//! driver in CI (DCCUDA_DRIVER_LIBRARY), and unchanged on a GPU machine.
//! Build and run: `zig build test` (see build.zig), or run the installed
//! dccuda-zig-tests binary.

const std = @import("std");
const dc = @import("dccuda");

test "every declaration of the binding compiles" {
    // Zig analyses only what is used: reference everything, so that a wrapper
    // no test calls is still type-checked against the raw declarations.
    // (one level each: refAllDeclsRecursive(dc) would also pull in std.)
    inline for (.{
        dc,           dc.c,        dc.Device,        dc.Buffer,     dc.Stream,       dc.Event,
        dc.Graph,     dc.Program,  dc.Module,        dc.Function,   dc.Launch,       dc.CompileOptions,
        dc.LastError, dc.Location, dc.ModuleOptions, dc.DeviceInfo, dc.LaunchConfig, dc.Arg,
        dc.Queue,     dc.Control,  dc.MemOp,        dc.LinkInput,  dc.LinkOptions,
        dc.Telemetry, dc.KernelLibrary, dc.Blas, dc.FftPlan, dc.Comm,
    }) |T| std.testing.refAllDecls(T);
}

test {
    _ = @import("args_test.zig");
    _ = @import("blas_test.zig");
    _ = @import("core_test.zig");
    _ = @import("buffer_test.zig");
    _ = @import("compile_test.zig");
    _ = @import("link_test.zig");
    _ = @import("kernel_library_test.zig");
    _ = @import("fft_test.zig");
    _ = @import("comm_test.zig");
    _ = @import("launch_test.zig");
    _ = @import("owned_test.zig");
    _ = @import("graph_build_test.zig");
    _ = @import("queue_test.zig");
    _ = @import("stream_values_test.zig");
    _ = @import("diagnostics_test.zig");
    _ = @import("memory_wave2_test.zig");
}
