//! Context-independent libraries (dc_library): an image loaded once for the
//! process (the driver's cuLibrary, CUDA 12.0+), its kernels got as functions
//! on any device without loading per device.

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Function = @import("function.zig").Function;
const ModuleOptions = @import("module.zig").ModuleOptions;

pub const KernelLibrary = opaque {
    /// Load an image from memory (copied). error.NotSupported on a driver
    /// older than CUDA 12.0 (load a Module per device there).
    pub fn load(image: []const u8, options: ModuleOptions) DcError!*KernelLibrary {
        const o = options.toC();
        var l: ?*KernelLibrary = null;
        try check(c.dc_library_load(image.ptr, image.len, &o, &l));
        return errors.handle(KernelLibrary, l);
    }

    pub fn loadFile(path: [:0]const u8, options: ModuleOptions) DcError!*KernelLibrary {
        const o = options.toC();
        var l: ?*KernelLibrary = null;
        try check(c.dc_library_load_file(path.ptr, &o, &l));
        return errors.handle(KernelLibrary, l);
    }

    /// Release the library; functions got from it keep it loaded until they are released.
    pub fn deinit(self: *KernelLibrary) void {
        c.dc_library_release(self);
    }

    /// Kernel `name` (mangled, for C++) as a function on `device` (deinit it);
    /// error.NotFound lists the library's kernels in the message.
    pub fn getFunction(self: *KernelLibrary, device: *Device, name: [:0]const u8) DcError!*Function {
        var f: ?*Function = null;
        try check(c.dc_library_get_function(self, device, name.ptr, &f));
        return errors.handle(Function, f);
    }

    pub fn functionCount(self: *KernelLibrary) DcError!u32 {
        var n: u32 = 0;
        try check(c.dc_library_function_count(self, &n));
        return n;
    }

    /// The name of kernel `index`, valid while the library lives.
    pub fn functionName(self: *KernelLibrary, index: u32) DcError![:0]const u8 {
        var p: ?[*:0]const u8 = null;
        try check(c.dc_library_function_name(self, index, &p));
        return errors.span(p);
    }
};
