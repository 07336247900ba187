// Tests of the SWIG-generated C# binding, run under mono against the real libdccuda
// (through the fake driver in CI; every check holds on a real GPU too, except the one
// that needs the fake driver's fault injection, which is skipped there).
//
//   mono SwigTests.exe                 every case, in this process
//   mono SwigTests.exe <case> ...      the named cases ("copies_round_trip")
//   mono SwigTests.exe --list          the case names
//
// A case is a static method named Case_<name>. Exit status: 0 when every case passed,
// 77 when every case that ran was skipped, 1 otherwise. After each case every handle it
// made must have been released (dc_handle_count), finalizers included.
//
// Environment: DCCUDA_SWIG_GENERATED_DIR, the folder of the generated C# (for the
// SWIGTYPE check); DCCUDA_DRIVER_LIBRARY as for every dccuda test.
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using Dccuda.Swig;

sealed class SkipException : Exception {
  public SkipException(string why) : base(why) {}
}

static class Check {
  public static int Count;

  public static void True(bool condition, string what) {
    Count++;
    if (!condition) throw new Exception("check failed: " + what);
  }

  public static void Equal<T>(T expected, T actual, string what) {
    Count++;
    if (!EqualityComparer<T>.Default.Equals(expected, actual))
      throw new Exception("check failed: " + what + ": expected <" + expected + ">, got <" + actual + ">");
  }

  public static void Contains(string haystack, string needle, string what) {
    Count++;
    if (haystack == null || haystack.IndexOf(needle, StringComparison.Ordinal) < 0)
      throw new Exception("check failed: " + what + ": <" + haystack + "> does not contain <" + needle + ">");
  }

  public static TException Throws<TException>(Action action, string what) where TException : Exception {
    Count++;
    try {
      action();
    } catch (TException e) {
      return e;
    } catch (Exception e) {
      throw new Exception("check failed: " + what + ": expected " + typeof(TException).Name + ", got " + e.GetType().Name + ": " + e.Message, e);
    }
    throw new Exception("check failed: " + what + ": expected " + typeof(TException).Name + ", nothing was thrown");
  }

  // A dccuda failure with the given status, whose message names the call.
  public static DcException Fails(int status, string call, Action action) {
    DcException e = Throws<DcException>(action, call + " must fail");
    Equal(Dc.dc_status_name(status), e.StatusName, call + ": status");
    Equal(status, e.Status, call + ": status value");
    Contains(e.Message, call, call + ": the message names the call");
    return e;
  }
}

// The fake driver's controls (tests/fake_driver/fake_control.h), or null on a real driver.
sealed class FakeDriver {
  [DllImport("libdl.so.2")] static extern IntPtr dlopen(string path, int flags);
  [DllImport("libdl.so.2")] static extern IntPtr dlsym(IntPtr handle, string name);

  [UnmanagedFunctionPointer(CallingConvention.Cdecl)] public delegate void ResetFn();
  [UnmanagedFunctionPointer(CallingConvention.Cdecl)] public delegate void InjectFn(string entry, int nth, int result, int times);

  public ResetFn Reset;
  public InjectFn Inject;

  public static FakeDriver Find() {
    string path = Environment.GetEnvironmentVariable("DCCUDA_DRIVER_LIBRARY");
    if (string.IsNullOrEmpty(path)) return null;
    IntPtr lib = dlopen(path, 2 /* RTLD_NOW */);
    if (lib == IntPtr.Zero) return null;
    IntPtr reset = dlsym(lib, "dcfake_reset"), inject = dlsym(lib, "dcfake_inject");
    if (reset == IntPtr.Zero || inject == IntPtr.Zero) return null;
    FakeDriver f = new FakeDriver();
    f.Reset = (ResetFn)Marshal.GetDelegateForFunctionPointer(reset, typeof(ResetFn));
    f.Inject = (InjectFn)Marshal.GetDelegateForFunctionPointer(inject, typeof(InjectFn));
    return f;
  }
}

static partial class SwigTests {
  const string Saxpy = @"
extern ""C"" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
";

  static readonly int[] HandleTypes = {
    Dc.DC_HANDLE_DEVICE, Dc.DC_HANDLE_BUFFER, Dc.DC_HANDLE_STREAM, Dc.DC_HANDLE_EVENT, Dc.DC_HANDLE_PROGRAM,
    Dc.DC_HANDLE_MODULE, Dc.DC_HANDLE_FUNCTION, Dc.DC_HANDLE_LAUNCH, Dc.DC_HANDLE_GRAPH
  };

  static ulong Live(int handleType) {
    ulong count;
    Dc.dc_handle_count(handleType, out count);
    return count;
  }

  static ulong LiveTotal() {
    ulong total = 0;
    foreach (int t in HandleTypes) total += Live(t);
    return total;
  }

  // Collects until the finalizers of dropped handles have run (or gives up).
  static void CollectUntil(Func<bool> done) {
    for (int i = 0; i < 20 && !done(); i++) {
      GC.Collect();
      GC.WaitForPendingFinalizers();
    }
  }

  static DcDevice OpenDevice() {
    int count;
    Dc.dc_device_count(out count);
    if (count < 1) throw new SkipException("no CUDA device (real or fake)");
    DcDevice device;
    Dc.dc_device_open(0, out device);
    Check.True(device != null && !device.IsDisposed, "dc_device_open gives a device");
    return device;
  }

  static void RequireNvrtc() {
    int major, minor;
    try {
      Dc.dc_nvrtc_version(out major, out minor);
    } catch (DcException e) {
      if (e.Status == Dc.DC_ERROR_NO_COMPILER) throw new SkipException("NVRTC is not available: " + e.Message);
      throw;
    }
  }

  static DcFunction CompileSaxpy(DcDevice device) {
    RequireNvrtc();
    DcModule module;
    Dc.dc_module_compile_and_load(device, Saxpy, "saxpy.cu", null, out module);
    using (module) {
      DcFunction function;
      Dc.dc_module_get_function(module, "saxpy", out function);
      return function;  // keeps the module loaded (the library's rule), though its handle is gone
    }
  }

  static float[] Iota(int n, float scale) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) values[i] = i * scale;
    return values;
  }

  // ---- The runner --------------------------------------------------------------------

  static int Main(string[] args) {
    var cases = new SortedDictionary<string, MethodInfo>(StringComparer.Ordinal);
    foreach (MethodInfo m in typeof(SwigTests).GetMethods(BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public))
      if (m.Name.StartsWith("Case_", StringComparison.Ordinal)) cases[m.Name.Substring(5)] = m;

    if (args.Length == 1 && args[0] == "--list") {
      foreach (string name in cases.Keys) Console.WriteLine(name);
      return 0;
    }
    var selected = new List<string>();
    foreach (string a in args) {
      if (!cases.ContainsKey(a)) {
        Console.Error.WriteLine("unknown case '" + a + "'; --list lists them");
        return 2;
      }
      selected.Add(a);
    }
    if (selected.Count == 0) selected.AddRange(cases.Keys);
    // dc_init must come before any other call of the process.
    if (selected.Remove("init_with_options")) selected.Insert(0, "init_with_options");

    Console.WriteLine("dccuda SWIG binding tests; library " + Dc.dc_version() + ", driver library " +
                      (Environment.GetEnvironmentVariable("DCCUDA_DRIVER_LIBRARY") ?? "(default)"));
    int passed = 0, failed = 0, skipped = 0;
    foreach (string name in selected) {
      int before = Check.Count;
      try {
        cases[name].Invoke(null, null);
        CollectUntil(() => LiveTotal() == 0);
        Check.Equal(0UL, LiveTotal(), name + ": every handle released at the end (finalizers included)");
        Console.WriteLine("PASS " + name + " (" + (Check.Count - before) + " checks)");
        passed++;
      } catch (TargetInvocationException wrapped) {
        Exception e = wrapped.InnerException;
        if (e is SkipException) {
          Console.WriteLine("SKIP " + name + ": " + e.Message);
          skipped++;
        } else {
          Console.WriteLine("FAIL " + name + ": " + e);
          failed++;
        }
      } catch (Exception e) {
        Console.WriteLine("FAIL " + name + ": " + e);
        failed++;
      }
    }
    Console.WriteLine(passed + " passed, " + failed + " failed, " + skipped + " skipped; " + Check.Count + " checks");
    if (failed > 0) return 1;
    return passed == 0 && skipped > 0 ? 77 : 0;
  }

  // ---- The generated API ---------------------------------------------------------------

  // No SWIGTYPE_p_* wrapper (an opaque, unusable pointer class) anywhere in the generated
  // C#, nor in the compiled binding's public surface.
  static void Case_generated_api_has_no_swigtype() {
    string dir = Environment.GetEnvironmentVariable("DCCUDA_SWIG_GENERATED_DIR");
    Check.True(!string.IsNullOrEmpty(dir) && Directory.Exists(dir), "DCCUDA_SWIG_GENERATED_DIR names the generated C# folder");
    string[] files = Directory.GetFiles(dir, "*.cs", SearchOption.AllDirectories);
    Check.True(files.Length >= 10, "the generated folder holds the binding (" + files.Length + " .cs files)");
    Check.True(File.Exists(Path.Combine(dir, "Dc.cs")) && File.Exists(Path.Combine(dir, "DcPINVOKE.cs")), "Dc.cs and DcPINVOKE.cs are there");
    foreach (string f in files) {
      Check.True(!Path.GetFileName(f).StartsWith("SWIGTYPE", StringComparison.Ordinal), "no SWIGTYPE class file: " + f);
      string text = File.ReadAllText(f);
      Check.True(text.IndexOf("SWIGTYPE_", StringComparison.Ordinal) < 0, "no SWIGTYPE_ in " + Path.GetFileName(f));
    }

    Assembly binding = typeof(Dc).Assembly;
    int members = 0;
    foreach (Type t in binding.GetExportedTypes()) {
      Check.True(!t.Name.StartsWith("SWIGTYPE", StringComparison.Ordinal), "no public SWIGTYPE type: " + t.FullName);
      foreach (MemberInfo m in t.GetMembers(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly)) {
        members++;
        foreach (Type used in TypesOf(m))
          Check.True(!used.Name.StartsWith("SWIGTYPE", StringComparison.Ordinal), t.Name + "." + m.Name + " uses " + used.Name);
      }
    }
    Check.True(members > 150, "the public API was inspected (" + members + " members)");
    foreach (string internalName in new[] { "dc_device_release", "dc_buffer_release", "dc_graph_release" }) {
      MethodInfo release = typeof(Dc).GetMethod(internalName, BindingFlags.Public | BindingFlags.Static);
      Check.True(release == null, internalName + " is not public: Dispose releases handles");
    }
  }

  static IEnumerable<Type> TypesOf(MemberInfo m) {
    var types = new List<Type>();
    MethodBase method = m as MethodBase;
    if (method != null) {
      foreach (ParameterInfo p in method.GetParameters()) types.Add(p.ParameterType.IsByRef ? p.ParameterType.GetElementType() : p.ParameterType);
      MethodInfo mi = m as MethodInfo;
      if (mi != null) types.Add(mi.ReturnType);
    }
    PropertyInfo prop = m as PropertyInfo;
    if (prop != null) types.Add(prop.PropertyType);
    FieldInfo field = m as FieldInfo;
    if (field != null) types.Add(field.FieldType);
    return types;
  }

  // ---- Errors ----------------------------------------------------------------------------

  static void Case_errors_are_exceptions() {
    DcDevice none = null;
    DcException e = Check.Fails(Dc.DC_ERROR_NO_DEVICE, "dc_device_open", () => Dc.dc_device_open(-1, out none));
    Check.True(none == null, "the out-handle is null after a failure");
    Check.Contains(e.Message, "-1", "the message names the bad ordinal");
    Check.Equal(0, e.CudaError, "no driver result behind a bad argument");
    Check.Equal(Dc.DC_ERROR_NO_DEVICE, Dc.dc_last_error_status(), "dc_last_error_status (which never throws) agrees");
    Check.Equal(e.Message, Dc.dc_last_error_message(), "dc_last_error_message agrees");
    Check.Contains(e.ToString(), "DC_ERROR_NO_DEVICE", "ToString shows the status name");

    int count;
    Check.Equal(Dc.DC_SUCCESS, Dc.dc_device_count(out count), "a successful call returns DC_SUCCESS");
    Check.Equal("", Dc.dc_last_error_message(), "a successful call clears the last error");
    Check.Equal(Dc.DC_SUCCESS, Dc.dc_last_error_status(), "and its status");

    Check.Equal("DC_ERROR_OUT_OF_RANGE", Dc.dc_status_name(Dc.DC_ERROR_OUT_OF_RANGE), "dc_status_name");
    Check.Equal("DC_STATUS_UNKNOWN", Dc.dc_status_name(-9999), "dc_status_name of an unknown status");

    ulong n = 7;
    Check.Fails(Dc.DC_ERROR_INVALID_ARGUMENT, "dc_handle_count", () => Dc.dc_handle_count(12345, out n));
    Check.Equal(0UL, n, "out-values are zeroed on failure");

    using (DcDevice device = OpenDevice()) {
      // Strings cross as UTF-8 both ways: the path comes back in the message intact.
      string path = Path.Combine(Path.GetTempPath(), "dccuda-swig-nicht-vorhanden-\u00e9\u00f8\u4e2d.ptx");
      DcModule module = null;
      DcException missing = Check.Fails(Dc.DC_ERROR_NOT_FOUND, "dc_module_load_file",
                                        () => Dc.dc_module_load_file(device, path, null, out module));
      Check.Contains(missing.Message, path, "the message holds the non-ASCII path, decoded as UTF-8");
      Check.True(module == null, "no module after a failure");

      ArgumentException nul = Check.Throws<ArgumentException>(
          () => Dc.dc_module_load_file(device, "kernels\0.ptx", null, out module), "a string holding NUL is refused");
      Check.Equal("path", nul.ParamName, "the refusal names the parameter");
    }
  }

  // The raw CUresult comes with the exception: the fake driver fails one cuMemAlloc.
  static void Case_driver_errors_carry_the_cuda_result() {
    FakeDriver fake = FakeDriver.Find();
    if (fake == null) throw new SkipException("needs the fake driver's fault injection");
    using (DcDevice device = OpenDevice()) {
      fake.Reset();
      // Every call from now on: dccuda retries a failed allocation once.
      fake.Inject("cuMemAlloc", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, -1);
      DcBuffer buffer = null;
      DcException e = Check.Fails(Dc.DC_ERROR_OUT_OF_MEMORY, "dc_buffer_alloc",
                                  () => Dc.dc_buffer_alloc(device, 4096, Dc.DC_ALLOC_NO_POOL, out buffer));
      Check.Equal(2, e.CudaError, "the raw CUresult (CUDA_ERROR_OUT_OF_MEMORY)");
      Check.Equal(2, Dc.dc_last_error_cuda(), "dc_last_error_cuda agrees");
      Check.Contains(e.Message, "cuMemAlloc", "the message names the driver call");
      Check.True(buffer == null, "no buffer after the failure");
      fake.Reset();
      Dc.dc_buffer_alloc(device, 4096, Dc.DC_ALLOC_NO_POOL, out buffer);
      buffer.Dispose();
      fake.Reset();
    }
  }

  static void Case_compile_error_carries_the_log() {
    RequireNvrtc();
    DcProgram program = null;
    DcException e;
    using (DcDevice device = OpenDevice()) {
      e = Check.Fails(Dc.DC_ERROR_COMPILE, "dc_compile", () => Dc.dc_compile(
          "extern \"C\" __global__ void broken(float* p) { p[0] = undeclared_name; }", "broken.cu", null, device, out program));
    }
    Check.True(program == null, "no program after a compile error");
    Check.True(e.NvrtcError != 0, "the raw nvrtcResult is there (" + e.NvrtcError + ")");
    Check.Contains(e.Detail, "undeclared_name", "Detail holds NVRTC's whole log");
    Check.Contains(e.Detail, "broken.cu", "the log names the program");
    Check.Equal(e.Detail, Dc.dc_last_error_detail(), "dc_last_error_detail agrees");
    Check.Contains(e.ToString(), "undeclared_name", "ToString includes the log");
  }

  // ---- Handles -----------------------------------------------------------------------------

  static void Case_handles_are_created_and_disposed() {
    using (DcDevice device = OpenDevice()) {
      Check.Equal(1UL, Live(Dc.DC_HANDLE_DEVICE), "one device handle");

      DcBuffer buffer;
      Dc.dc_buffer_alloc(device, 1024, 0, out buffer);
      DcStream stream;
      Dc.dc_stream_create(device, 0, 0, out stream);
      DcEvent ev;
      Dc.dc_event_create(device, 0, out ev);
      Check.Equal(1UL, Live(Dc.DC_HANDLE_BUFFER), "one buffer handle");
      Check.Equal(1UL, Live(Dc.DC_HANDLE_STREAM), "one stream handle");
      Check.Equal(1UL, Live(Dc.DC_HANDLE_EVENT), "one event handle");

      RequireNvrtc();
      DcProgram program;
      Dc.dc_compile(Saxpy, "saxpy.cu", null, device, out program);
      DcModule module;
      Dc.dc_module_load_program(device, program, null, out module);
      DcFunction function;
      Dc.dc_module_get_function(module, "saxpy", out function);
      Check.Equal(1UL, Live(Dc.DC_HANDLE_PROGRAM), "one program handle");
      Check.Equal(1UL, Live(Dc.DC_HANDLE_MODULE), "one module handle");
      Check.Equal(1UL, Live(Dc.DC_HANDLE_FUNCTION), "one function handle");

      // A parent's handle may go first: its children keep the object alive.
      DcDevice second;
      Dc.dc_buffer_device(buffer, out second);
      Check.Equal(2UL, Live(Dc.DC_HANDLE_DEVICE), "dc_buffer_device gives a new handle");
      second.Dispose();
      module.Dispose();
      string name;
      Dc.dc_function_name(function, out name);
      Check.Equal("saxpy", name, "the function works after its module's handle is gone");

      foreach (IDisposable d in new IDisposable[] { function, program, ev, stream, buffer }) d.Dispose();
      Check.True(buffer.IsDisposed && stream.IsDisposed && ev.IsDisposed && program.IsDisposed && module.IsDisposed && function.IsDisposed,
                 "IsDisposed after Dispose");
      buffer.Dispose();  // twice: nothing happens
      foreach (int t in HandleTypes)
        if (t != Dc.DC_HANDLE_DEVICE) Check.Equal(0UL, Live(t), "handle type " + t + " all released");
    }
    Check.Equal(0UL, Live(Dc.DC_HANDLE_DEVICE), "the device handle released by using");

    // Dropped objects are released by their finalizers (on the finalizer thread). The
    // buffers are made on another thread so that no stale reference stays on this stack.
    using (DcDevice device = OpenDevice()) {
      ulong liveInThread = 0;
      Thread t = new Thread(() => {
        var held = new List<DcBuffer>();
        for (int i = 0; i < 8; i++) {
          DcBuffer dropped;
          Dc.dc_buffer_alloc(device, 256, 0, out dropped);
          held.Add(dropped);
        }
        liveInThread = Live(Dc.DC_HANDLE_BUFFER);
      });
      t.Start();
      t.Join();
      Check.Equal(8UL, liveInThread, "eight buffers were live, never disposed");
      CollectUntil(() => Live(Dc.DC_HANDLE_BUFFER) == 0);
      Check.Equal(0UL, Live(Dc.DC_HANDLE_BUFFER), "the finalizers released them");
    }
  }

  static void Case_disposed_handles_fail_cleanly() {
    using (DcDevice device = OpenDevice()) {
      DcBuffer buffer;
      Dc.dc_buffer_alloc(device, 64, 0, out buffer);
      buffer.Dispose();
      ulong size = 1;
      Check.Fails(Dc.DC_ERROR_INVALID_HANDLE, "dc_buffer_size", () => Dc.dc_buffer_size(buffer, out size));
      Check.Equal(0UL, size, "the out-value is zeroed");
      Check.Fails(Dc.DC_ERROR_INVALID_HANDLE, "dc_buffer_write", () => Dc.dc_buffer_write(buffer, 0, new byte[16]));

      DcStream stream;
      Dc.dc_stream_create(device, 0, 0, out stream);
      stream.Dispose();
      Check.Fails(Dc.DC_ERROR_INVALID_HANDLE, "dc_stream_synchronize", () => Dc.dc_stream_synchronize(stream));

      DcEvent ev;
      Dc.dc_event_create(device, 0, out ev);
      ev.Dispose();
      Check.Fails(Dc.DC_ERROR_INVALID_HANDLE, "dc_event_query", () => Dc.dc_event_query(ev));

      // A null handle is the same as a released one.
      Check.Fails(Dc.DC_ERROR_INVALID_HANDLE, "dc_device_synchronize", () => Dc.dc_device_synchronize(null));

      // A disposed device: its handle is gone (the object lives on only for children).
      DcDevice other;
      Dc.dc_device_open(0, out other);
      other.Dispose();
      DcBuffer none = null;
      Check.Fails(Dc.DC_ERROR_INVALID_HANDLE, "dc_buffer_alloc", () => Dc.dc_buffer_alloc(other, 64, 0, out none));
      Check.True(none == null, "no buffer from a disposed device");

      // A kernel argument that points at a disposed DcArg is refused before the call.
      DcArg arg = DcArg.Value(1.0f);
      arg.Dispose();
      Check.Throws<ObjectDisposedException>(() => Dc.dc_launch_kernel(null, null, new[] { arg }, null), "a disposed DcArg");
    }
  }

  // ---- Copies --------------------------------------------------------------------------------

  static void Case_copies_round_trip() {
    using (DcDevice device = OpenDevice()) {
      const int Bytes = 1 << 20;
      byte[] data = new byte[Bytes];
      new Random(42).NextBytes(data);
      DcBuffer buffer;
      Dc.dc_buffer_alloc(device, Bytes, 0, out buffer);
      using (buffer) {
        ulong size;
        Dc.dc_buffer_size(buffer, out size);
        Check.Equal((ulong)Bytes, size, "dc_buffer_size");
        int kind;
        Dc.dc_buffer_kind(buffer, out kind);
        Check.Equal(Dc.DC_BUFFER_DEVICE, kind, "dc_buffer_kind");

        Dc.dc_buffer_write(buffer, 0, data);
        byte[] back = new byte[Bytes];
        Dc.dc_buffer_read(buffer, 0, back);
        Check.True(SameBytes(data, back), "byte[] round trip of 1 MiB");

        // float[] with ranges: 100 floats from index 10 go to byte offset 4096.
        float[] floats = Iota(1000, 0.5f);
        Dc.dc_buffer_write(buffer, 4096, floats, 10, 100);
        float[] got = new float[120];
        Dc.dc_buffer_read(buffer, 4096, got, 20, 100);
        for (int i = 0; i < 100; i++) Check.True(got[20 + i] == floats[10 + i], "float range round trip at " + i);
        Check.True(got[19] == 0 && got[0] == 0, "elements outside the range are untouched");

        // Out of range: the library's check, with the numbers in the message.
        DcException e = Check.Fails(Dc.DC_ERROR_OUT_OF_RANGE, "dc_buffer_write",
                                    () => Dc.dc_buffer_write(buffer, (ulong)Bytes - 8, new byte[16]));
        Check.Contains(e.Message, (Bytes - 8).ToString(), "the message gives the offset");
        // A range outside the managed array never reaches the library.
        Check.Throws<ArgumentOutOfRangeException>(() => Dc.dc_buffer_read(buffer, 0, got, 100, 21), "a range past the array");
        Check.Throws<ArgumentNullException>(() => Dc.dc_buffer_write(buffer, 0, (byte[])null), "a null array");

        // Asynchronous copies on a stream, a device-to-device copy and a fill.
        DcStream stream;
        Dc.dc_stream_create(device, 0, 0, out stream);
        using (stream) {
          int[] ints = new int[256];
          for (int i = 0; i < ints.Length; i++) ints[i] = i * 7 - 900;
          DcBuffer second;
          Dc.dc_buffer_alloc_async(stream, 1024, 0, out second);
          using (second) {
            Dc.dc_buffer_write_async(second, 0, ints, stream);
            Dc.dc_buffer_copy_async(buffer, 0, second, 0, 1024, stream);
            int[] ints2 = new int[256];
            Dc.dc_buffer_read_async(buffer, 0, ints2, stream);
            Dc.dc_stream_synchronize(stream);
            Check.True(Same(ints, ints2), "int[] through two buffers and a stream");
            Check.Equal(Dc.DC_SUCCESS, Dc.dc_stream_query(stream), "the stream is idle");

            Dc.dc_buffer_fill(second, 0, 1024, 0x3F800000u, 4);  // 1.0f
            float[] ones = new float[256];
            Dc.dc_buffer_read(second, 0, ones);
            Check.True(Array.TrueForAll(ones, v => v == 1.0f), "dc_buffer_fill with a 4-byte pattern");
          }
        }

        // Pinned host memory through its IntPtr.
        DcBuffer pinned;
        Dc.dc_buffer_alloc_pinned(device, 256, 0, out pinned);
        using (pinned) {
          IntPtr host;
          Dc.dc_buffer_host_pointer(pinned, out host);
          Check.True(host != IntPtr.Zero, "a pinned buffer has a host pointer");
          byte[] pattern = new byte[256];
          for (int i = 0; i < 256; i++) pattern[i] = (byte)(255 - i);
          Marshal.Copy(pattern, 0, host, 256);
          Dc.dc_buffer_copy(buffer, 0, pinned, 0, 256);
          byte[] check = new byte[256];
          Dc.dc_buffer_read(buffer, 0, check);
          Check.True(SameBytes(pattern, check), "pinned host memory -> device -> managed array");
        }
      }
    }
  }

  static bool SameBytes(byte[] a, byte[] b) {
    if (a.Length != b.Length) return false;
    for (int i = 0; i < a.Length; i++)
      if (a[i] != b[i]) return false;
    return true;
  }

  static bool Same<T>(T[] a, T[] b) {
    if (a.Length != b.Length) return false;
    for (int i = 0; i < a.Length; i++)
      if (!EqualityComparer<T>.Default.Equals(a[i], b[i])) return false;
    return true;
  }
}
