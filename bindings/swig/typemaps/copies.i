/*
 * copies.i - managed arrays for copies, module images and packed parameters.
 *
 * The generated functions take host memory as IntPtr + size (pointers.i). These
 * overloads take a managed array of any blittable element type (byte[], float[], int[],
 * a [StructLayout] struct[]) and optionally a range of it: the size in bytes is worked
 * out from the array, so it can never run past the array. The array is pinned for the
 * call only, which is all the library needs when the copy runs: managed arrays are pageable
 * memory, and dccuda has read (or filled) pageable memory by the time an asynchronous copy
 * returns. A stream that is capturing a graph does not run the copy but records the array's
 * address, and every launch of the graph would then copy into or from an array whose pin
 * has ended (the GC may have moved it, or reused the memory): the asynchronous overloads are
 * refused with DC_ERROR_INVALID_STATE while the stream captures (copy through a pinned
 * DcBuffer with dc_buffer_copy_async instead). An array whose element type is not blittable
 * (bool[], char[]) is refused by the runtime (ArgumentException from GCHandle).
 */


%pragma(csharp) modulecode=%{
  // A pinned range of a managed array, as an address and a size in bytes.
  private struct DcPinnedRange : global::System.IDisposable {
    private global::System.Runtime.InteropServices.GCHandle handle;
    internal global::System.IntPtr Address;
    internal ulong Bytes;

    internal static DcPinnedRange Of<T>(T[] array, int index, int count, string name) where T : struct {
      if (array == null) throw new global::System.ArgumentNullException(name);
      if (index < 0 || count < 0 || index > array.Length - count)
        throw new global::System.ArgumentOutOfRangeException(name, "index " + index + " + count " + count +
                                                             " lies outside " + name + " (" + array.Length + " elements)");
      DcPinnedRange r = new DcPinnedRange();
      r.handle = global::System.Runtime.InteropServices.GCHandle.Alloc(array, global::System.Runtime.InteropServices.GCHandleType.Pinned);
      ulong element = (ulong)global::System.Runtime.InteropServices.Marshal.SizeOf(typeof(T));
      r.Address = new global::System.IntPtr(r.handle.AddrOfPinnedObject().ToInt64() + (long)((ulong)index * element));
      r.Bytes = (ulong)count * element;
      return r;
    }

    public void Dispose() {
      if (handle.IsAllocated) handle.Free();
    }
  }

  private static int CountOf<T>(T[] array) { return array == null ? 0 : array.Length; }

  // DC_ERROR_INVALID_STATE while `stream` captures a graph (whoever began the capture): the
  // graph would keep the address of a managed array whose pin ends with the call.
  private static void RefuseArrayCopyWhileCapturing(DcStream stream, string call) {
    int capturing;
    dc_stream_is_capturing(stream, out capturing);   // a bad stream throws here
    if (capturing != 0)
      throw new DcException(DC_ERROR_INVALID_STATE, 0, 0,
          call + ": the stream is capturing a graph, and every launch of the graph would copy into or from this " +
          "managed array after its pin ended (the GC may move it or reuse its memory); copy through a pinned " +
          "buffer (dc_buffer_alloc_pinned) with dc_buffer_copy_async instead, or end the capture first", "");
  }

  /// <summary>dc_buffer_write from a managed array (all of it).</summary>
  public static int dc_buffer_write<T>(DcBuffer dst, ulong dst_offset, T[] src) where T : struct {
    return dc_buffer_write(dst, dst_offset, src, 0, CountOf(src));
  }

  /// <summary>dc_buffer_write from src[index .. index + count).</summary>
  public static int dc_buffer_write<T>(DcBuffer dst, ulong dst_offset, T[] src, int index, int count) where T : struct {
    using (DcPinnedRange r = DcPinnedRange.Of(src, index, count, "src"))
      return dc_buffer_write(dst, dst_offset, r.Address, r.Bytes);
  }

  /// <summary>dc_buffer_read into a managed array (all of it).</summary>
  public static int dc_buffer_read<T>(DcBuffer src, ulong src_offset, T[] dst) where T : struct {
    return dc_buffer_read(src, src_offset, dst, 0, CountOf(dst));
  }

  /// <summary>dc_buffer_read into dst[index .. index + count).</summary>
  public static int dc_buffer_read<T>(DcBuffer src, ulong src_offset, T[] dst, int index, int count) where T : struct {
    using (DcPinnedRange r = DcPinnedRange.Of(dst, index, count, "dst"))
      return dc_buffer_read(src, src_offset, r.Address, r.Bytes);
  }

  /// <summary>dc_buffer_write_async from a managed array: src may be reused when the call returns.
  /// Refused (DC_ERROR_INVALID_STATE) while the stream captures a graph.</summary>
  public static int dc_buffer_write_async<T>(DcBuffer dst, ulong dst_offset, T[] src, DcStream stream) where T : struct {
    return dc_buffer_write_async(dst, dst_offset, src, 0, CountOf(src), stream);
  }

  public static int dc_buffer_write_async<T>(DcBuffer dst, ulong dst_offset, T[] src, int index, int count, DcStream stream) where T : struct {
    RefuseArrayCopyWhileCapturing(stream, "dc_buffer_write_async");
    using (DcPinnedRange r = DcPinnedRange.Of(src, index, count, "src"))
      return dc_buffer_write_async(dst, dst_offset, r.Address, r.Bytes, stream);
  }

  /// <summary>dc_buffer_read_async into a managed array: the data is there when the call returns.
  /// Refused (DC_ERROR_INVALID_STATE) while the stream captures a graph.</summary>
  public static int dc_buffer_read_async<T>(DcBuffer src, ulong src_offset, T[] dst, DcStream stream) where T : struct {
    return dc_buffer_read_async(src, src_offset, dst, 0, CountOf(dst), stream);
  }

  public static int dc_buffer_read_async<T>(DcBuffer src, ulong src_offset, T[] dst, int index, int count, DcStream stream) where T : struct {
    RefuseArrayCopyWhileCapturing(stream, "dc_buffer_read_async");
    using (DcPinnedRange r = DcPinnedRange.Of(dst, index, count, "dst"))
      return dc_buffer_read_async(src, src_offset, r.Address, r.Bytes, stream);
  }

  /// <summary>dc_module_load from an image in a byte array (PTX, CUBIN or fatbin).</summary>
  public static int dc_module_load(DcDevice device, byte[] image, DcModuleOptions options, out DcModule module) {
    using (DcPinnedRange r = DcPinnedRange.Of(image, 0, CountOf(image), "image"))
      return dc_module_load(device, r.Address, r.Bytes, options, out module);
  }

  /// <summary>dc_launch_kernel_packed with the parameter block in a byte array.</summary>
  public static int dc_launch_kernel_packed(DcFunction function, DcLaunchConfig config, byte[] parameters, DcStream stream) {
    using (DcPinnedRange r = DcPinnedRange.Of(parameters, 0, CountOf(parameters), "parameters"))
      return dc_launch_kernel_packed(function, config, r.Address, r.Bytes, stream);
  }

  /// <summary>dc_program_output as a copy in a new byte array.</summary>
  public static int dc_program_output(DcProgram program, out int kind, out byte[] data) {
    global::System.IntPtr bytes;
    ulong size;
    int status = dc_program_output(program, out kind, out bytes, out size);
    data = new byte[size];
    if (size > 0) global::System.Runtime.InteropServices.Marshal.Copy(bytes, data, 0, checked((int)size));
    global::System.GC.KeepAlive(program);
    return status;
  }
%}
