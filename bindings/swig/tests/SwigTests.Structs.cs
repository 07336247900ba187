// Structs, strings and initialisation through the generated binding.
using System;
using System.IO;
using Dccuda.Swig;

static partial class SwigTests {
  // Runs first in its process (the runner puts it first): dc_init must precede every
  // other fallible call.
  static void Case_init_with_options() {
    string cache = Path.Combine(Path.GetTempPath(), "dccuda-swig-cache-" + Guid.NewGuid().ToString("N"));
    using (DcInitOptions options = new DcInitOptions()) {
      Check.True(options.struct_size > 0, "struct_size is set by the constructor (" + options.struct_size + ")");
      Check.True(options.cache_dir == null && options.driver_library == null, "string fields start NULL");
      options.cache_dir = "first";
      options.cache_dir = cache;  // replaces (and frees) the first copy
      Check.Equal(cache, options.cache_dir, "a string field reads back");
      options.flags = Dc.DC_INIT_NO_MEMORY_CACHE;
      Check.Equal(Dc.DC_SUCCESS, Dc.dc_init(options), "dc_init with options");
    }
    string used;
    Dc.dc_cache_directory(out used);
    Check.Equal(cache, used, "the library uses the cache directory that was set");
    Check.Fails(Dc.DC_ERROR_INVALID_STATE, "dc_init", () => Dc.dc_init(null));
    if (Directory.Exists(cache)) Directory.Delete(cache, true);
  }

  static void Case_structs_and_strings() {
    using (DcDevice device = OpenDevice())
    using (DcDeviceInfo info = new DcDeviceInfo()) {
      Dc.dc_device_get_info(device, info);
      Check.Equal(0, info.ordinal, "device info: ordinal");
      Check.True(info.name.Length > 0 && info.name.IndexOf('\0') < 0, "device info: name '" + info.name + "'");
      Check.Equal(16, info.uuid.Length, "device info: uuid is 16 bytes");
      Check.Equal(3, info.max_block_dim.Length, "device info: max_block_dim[3]");
      Check.True(info.max_block_dim[0] >= 1 && info.max_grid_dim[0] >= 1, "device info: block and grid limits");
      Check.True(info.warp_size > 0 && info.multiprocessor_count > 0 && info.total_memory > 0, "device info: sizes");
      int attribute;
      Dc.dc_device_attribute(device, 10 /* CU_DEVICE_ATTRIBUTE_WARP_SIZE */, out attribute);
      Check.Equal(info.warp_size, attribute, "the info agrees with dc_device_attribute");
      ulong free, total;
      Dc.dc_device_memory_info(device, out free, out total);
      Check.Equal(info.total_memory, total, "the info agrees with dc_device_memory_info");
    }

    using (DcLaunchConfig config = new DcLaunchConfig()) {
      Check.True(Same(new uint[] { 1, 1, 1 }, config.grid) && Same(new uint[] { 1, 1, 1 }, config.block),
                 "a launch config starts as DC_LAUNCH_CONFIG_INIT: one block of one thread");
      config.grid = new uint[] { 40, 2, 1 };
      config.block = new uint[] { 256, 1, 1 };
      config.shared_memory_bytes = 1024;
      Check.True(Same(new uint[] { 40, 2, 1 }, config.grid) && config.block[0] == 256, "arrays read back");
      Check.Equal(1024u, config.shared_memory_bytes, "a field reads back");
      ArgumentException e = Check.Throws<ArgumentException>(() => config.grid = new uint[] { 1, 2 }, "a grid of two dimensions");
      Check.Equal("grid", e.ParamName, "the refusal names the field");
      Check.True(config.grid[0] == 40, "a refused array leaves the field alone");
    }

    using (DcCompileOptions options = new DcCompileOptions()) {
      Check.Equal(Dc.DC_OUTPUT_CUBIN, options.output, "compile options start as DC_COMPILE_OPTIONS_INIT");
      options.defines = new[] { "SCALE=3", "UNUSED" };
      options.defines = new[] { "SCALE=3" };  // replaces the first list
      Check.Equal(1u, options.num_defines, "setting a list sets its count");
      Check.True(Same(new[] { "SCALE=3" }, options.defines), "a list reads back");
      options.SetHeaders(new[] { "offset.h" }, new[] { "#define OFFSET 0.25f\n" });
      Check.Equal(1u, options.num_headers, "SetHeaders sets num_headers");
      Check.Equal("offset.h", options.header_names[0], "header names read back");
      Check.Throws<ArgumentException>(() => options.SetHeaders(new[] { "a.h", "b.h" }, new[] { "" }), "headers without sources");
      Check.Equal(1u, options.num_headers, "a refused SetHeaders leaves the headers alone");
      options.name_expressions = new[] { "&scaled<float>" };
      options.std = "c++17";
      Check.Equal("c++17", options.std, "std reads back");
      options.options = null;
      Check.Equal(0u, options.num_options, "a null list is an empty one");

      // The lists reach NVRTC: the kernel does not compile without the define and the header.
      RequireNvrtc();
      const string source = "#include \"offset.h\"\n" +
                            "template <typename T> __global__ void scaled(T* p) { p[0] = SCALE * p[0] + OFFSET; }\n";
      using (DcDevice device = OpenDevice()) {
        DcProgram program;
        Dc.dc_compile(source, "scaled.cu", options, device, out program);
        using (program) {
          string lowered;
          Dc.dc_program_lowered_name(program, "&scaled<float>", out lowered);
          Check.Contains(lowered, "scaled", "the lowered name of a name expression");
          int kind;
          byte[] image;
          Dc.dc_program_output(program, out kind, out image);
          Check.Equal(Dc.DC_OUTPUT_CUBIN, kind, "CUBIN by default");
          Check.True(image.Length > 16 && image[0] == 0x7f && image[1] == (byte)'E', "the image is an ELF file");
          string log;
          Dc.dc_program_log(program, out log);
          Check.True(log != null, "the log is a string");

          DcModule module;
          using (DcModuleOptions moduleOptions = new DcModuleOptions()) {
            Check.Equal(-1, moduleOptions.optimization_level, "module options start as DC_MODULE_OPTIONS_INIT");
            Dc.dc_module_load(device, image, moduleOptions, out module);
          }
          using (module) {
            DcFunction function;
            Dc.dc_module_get_function(module, lowered, out function);
            using (function)
            using (DcFunctionInfo info = new DcFunctionInfo()) {
              Dc.dc_function_get_info(function, info);
              Check.True(info.max_threads_per_block > 0, "function info: max threads per block");
              uint count;
              Dc.dc_function_param_count(function, out count);
              Check.Equal(1u, count, "scaled<float> has one parameter");
              ulong offset, size;
              Dc.dc_function_param_info(function, 0, out offset, out size);
              Check.Equal(8UL, size, "its parameter is a pointer");
            }
            DcFunction none = null;
            DcException missing = Check.Fails(Dc.DC_ERROR_NOT_FOUND, "dc_module_get_function",
                                              () => Dc.dc_module_get_function(module, "no_such_kernel", out none));
            Check.Contains(missing.Message, "no_such_kernel", "the message names the missing kernel");
          }
        }
      }
    }
  }
}
