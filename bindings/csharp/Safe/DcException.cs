// A failed dc_ call as an exception: the status, the library's message ("<function>: <what
// was wrong>; <what to do>"), the raw CUresult / nvrtcResult behind it and the long log
// (the compiler's after a compile error). Everything is read from the thread's last error
// right after the failing call, before any other dc_ call could replace it.
using System;
using System.Diagnostics.CodeAnalysis;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A failed dccuda call: the status, the library's message (the call, the bad value, what to do), the raw CUresult / nvrtcResult and the long log behind it.</summary>
    public class DcException : Exception
    {
        /// <summary>A failure with its parts (the binding makes them from the thread's last error: FromLastError).</summary>
        public DcException(DcStatus status, string message, int cudaError = 0, int nvrtcError = 0, [AllowNull] string detail = "")
            : base(message)
        {
            Status = status;
            CudaError = cudaError;
            NvrtcError = nvrtcError;
            Detail = detail ?? "";
        }

        /// <summary>The dc_status of the failure.</summary>
        public DcStatus Status { get; private set; }

        /// <summary>The status's C name ("DC_ERROR_INVALID_HANDLE").</summary>
        public string StatusName { get { return Dc.StatusName(Status); } }

        /// <summary>The raw CUresult behind the failure; 0 when it did not come from the driver.</summary>
        public int CudaError { get; private set; }

        /// <summary>The raw nvrtcResult behind the failure; 0 when it did not come from NVRTC.</summary>
        public int NvrtcError { get; private set; }

        /// <summary>The long log of the failure: the full NVRTC log after a compile error, the
        /// JIT error log after an invalid image; "" when there is none.</summary>
        public string Detail { get; private set; }

        /// <summary>The status name, the message, the raw results, the detail log and the stack trace.</summary>
        public override string ToString()
        {
            string s = StatusName + ": " + Message;
            if (CudaError != 0)
                s += " (CUresult " + CudaError + ")";
            if (NvrtcError != 0)
                s += " (nvrtcResult " + NvrtcError + ")";
            if (Detail.Length > 0)
                s += Environment.NewLine + Detail;
            return s + Environment.NewLine + StackTrace;
        }

        /// <summary>Throws the calling thread's last error when status is an error (negative).
        /// Call it straight after the dc_ call that returned status.</summary>
        public static void Check(int status)
        {
            if (status < 0)
                throw FromLastError(status);
        }

        /// <summary>The calling thread's last error as an exception (status: what the failing
        /// call returned).</summary>
        public static DcException FromLastError(int status)
        {
            // Copy the message first: it is the library's, valid until the next dc_ call.
            string message = Utf8.Decode(NativeMethods.dc_last_error_message());
            int cuda = NativeMethods.dc_last_error_cuda();
            int nvrtc = NativeMethods.dc_last_error_nvrtc();
            string detail = Utf8.Decode(NativeMethods.dc_last_error_detail());
            if (message.Length == 0)
                message = Utf8.Decode(NativeMethods.dc_status_name(status)) + " (the library gave no message)";
            return new DcException((DcStatus)status, message, cuda, nvrtc, detail);
        }

        /// <summary>Using an object after Dispose: DC_ERROR_INVALID_HANDLE, as the library
        /// answers a released handle.</summary>
        internal static DcException Disposed(string what)
        {
            return new DcException(DcStatus.InvalidHandle,
                what + ": the object was disposed (its handle is released); create a new one");
        }
    }
}
