// One copy of a batch (DeviceBuffer.EnqueueCopyBatch): `Bytes` bytes from `Source` at
// `SourceOffset` to `Destination` at `DestinationOffset`, as EnqueueCopyBytesFrom takes them.
namespace Dccuda
{
    /// <summary>One buffer-to-buffer copy of a batch (DeviceBuffer.EnqueueCopyBatch).</summary>
    public struct BufferCopy
    {
        /// <summary>A copy of `bytes` bytes from `source` at `sourceOffset` to `destination` at `destinationOffset`.</summary>
        public BufferCopy(DeviceBuffer destination, ulong destinationOffset, DeviceBuffer source, ulong sourceOffset, ulong bytes)
        {
            Destination = destination;
            DestinationOffset = destinationOffset;
            Source = source;
            SourceOffset = sourceOffset;
            Bytes = bytes;
        }

        /// <summary>The buffer written.</summary>
        public DeviceBuffer Destination { get; }
        /// <summary>Where in the destination, in bytes.</summary>
        public ulong DestinationOffset { get; }
        /// <summary>The buffer read.</summary>
        public DeviceBuffer Source { get; }
        /// <summary>Where in the source, in bytes.</summary>
        public ulong SourceOffset { get; }
        /// <summary>How many bytes.</summary>
        public ulong Bytes { get; }
    }
}
