// Linking through the generated binding: a DcLinkInput[] of two relocatable programs linked
// with the driver's cuLink (the fake's, in CI) into a program that loads; DcLinkOptions
// starts as DC_LINK_OPTIONS_INIT and its option list sets num_options.
using System;
using Dccuda.Swig;

static partial class SwigTests {
  const string Callee = "extern \"C\" __device__ float axpy_one(float a, float x, float y) { return a * x + y; }\n";
  const string Caller =
      "extern \"C\" __device__ float axpy_one(float a, float x, float y);\n" +
      "extern \"C\" __global__ void saxpy(float a, const float* x, float* y, int n) {\n" +
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" +
      "  if (i < n) y[i] = axpy_one(a, x[i], y[i]);\n" +
      "}\n";

  static void Case_link_two_relocatable_programs() {
    RequireNvrtc();
    using (DcDevice device = OpenDevice())
    using (DcCompileOptions co = new DcCompileOptions())
    using (DcLinkOptions lo = new DcLinkOptions()) {
      co.flags = Dc.DC_COMPILE_RELOCATABLE | Dc.DC_COMPILE_NO_CACHE;
      Check.Equal(-1, lo.optimization_level, "link options start as DC_LINK_OPTIONS_INIT");
      lo.options = new[] { "-ftz=true" };
      Check.Equal(1u, lo.num_options, "setting the option list sets its count");
      lo.options = null;
      lo.flags = Dc.DC_LINK_USE_DRIVER | Dc.DC_LINK_NO_CACHE;
      DcProgram caller, callee, linked;
      Dc.dc_compile(Caller, "caller.cu", co, device, out caller);
      Dc.dc_compile(Callee, "callee.cu", co, device, out callee);
      using (caller)
      using (callee)
      using (DcLinkInput a = new DcLinkInput())
      using (DcLinkInput b = new DcLinkInput()) {
        a.kind = Dc.DC_LINK_INPUT_PROGRAM;
        a.program = caller;
        a.name = "caller";
        b.kind = Dc.DC_LINK_INPUT_PROGRAM;
        b.program = callee;
        Dc.dc_link(new[] { a, b }, lo, device, out linked);
        using (linked) {
          DcModule module;
          Dc.dc_module_load_program(device, linked, null, out module);
          using (module) {
            DcFunction function;
            Dc.dc_module_get_function(module, "saxpy", out function);
            function.Dispose();
          }
        }
        DcProgram none;
        Check.Fails(Dc.DC_ERROR_INVALID_ARGUMENT, "count is 0", () => Dc.dc_link(new DcLinkInput[0], lo, device, out none));
      }
    }
  }
}
