// cuFFT through the generated binding (the fake cuFFT in CI): a DcFftDesc starts as
// DC_FFT_DESC_INIT and takes its sizes as a ulong[3]; a round trip scales by n; a short
// buffer is a DcException naming the bytes; DcFftPlan is disposed like every handle.
using System;
using Dccuda.Swig;

static partial class SwigTests {
  static void Case_fft_round_trip_and_bounds() {
    int version;
    try {
      Dc.dc_fft_library_version(out version);
    } catch (DcException e) {
      throw new SkipException("no cuFFT: " + e.Message);
    }
    using (DcDevice device = OpenDevice())
    using (DcFftDesc desc = new DcFftDesc())
    using (DcFftPlanInfo info = new DcFftPlanInfo()) {
      Check.Equal(1, desc.rank, "the descriptor starts as DC_FFT_DESC_INIT");
      desc.sizes = new ulong[] { 16, 0, 0 };
      desc.batch = 2;
      DcFftPlan plan;
      Dc.dc_fft_plan_create(device, desc, out plan);
      using (plan) {
        Dc.dc_fft_plan_info_get(plan, info);
        Check.Equal(256ul, info.input_bytes, "2 x 16 complex floats");
        DcBuffer a, b, small;
        Dc.dc_buffer_alloc(device, 256, 0, out a);
        Dc.dc_buffer_alloc(device, 256, 0, out b);
        Dc.dc_buffer_alloc(device, 255, 0, out small);
        using (a)
        using (b)
        using (small) {
          float[] x = new float[64];
          for (int i = 0; i < 64; i++) x[i] = i % 7 - 3;
          Dc.dc_buffer_write(a, 0, x);
          Dc.dc_fft_execute(plan, a, 0, b, 0, Dc.DC_FFT_FORWARD);
          Dc.dc_fft_execute(plan, b, 0, a, 0, Dc.DC_FFT_INVERSE);
          Dc.dc_device_synchronize(device);
          float[] y = new float[64];
          Dc.dc_buffer_read(a, 0, y);
          for (int i = 0; i < 64; i++) Check.True(Math.Abs(y[i] - 16 * x[i]) < 1e-3, "element " + i + " is 16 times the input");
          DcException e = Check.Fails(Dc.DC_ERROR_OUT_OF_RANGE, "dc_fft_execute",
                                      () => Dc.dc_fft_execute(plan, small, 0, b, 0, Dc.DC_FFT_FORWARD));
          Check.Contains(e.Message, "the input needs 256 bytes from in_offset 0, but in holds 255 bytes", "the bytes");
        }
      }
      Dc.dc_fft_plan_cache_trim(device, 0);
    }
  }
}
