// Launch geometry (dc_launch_config) as a value type, and Dim3.
using System;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>Three dimensions (x, y, z), each at least 1 where it is a size.</summary>
    public struct Dim3
    {
        /// <summary>Size (or index) in x.</summary>
        public uint X;
        /// <summary>Size (or index) in y.</summary>
        public uint Y;
        /// <summary>Size (or index) in z.</summary>
        public uint Z;

        /// <summary>(x, y, z), y and z 1 unless given.</summary>
        public Dim3(uint x, uint y = 1, uint z = 1)
        {
            X = x;
            Y = y;
            Z = z;
        }

        /// <summary>(x, 1, 1).</summary>
        public static implicit operator Dim3(uint x) { return new Dim3(x); }

        /// <summary>x * y * z.</summary>
        public ulong Product { get { return (ulong)X * Y * Z; } }

        /// <summary>"(x, y, z)".</summary>
        public override string ToString() { return "(" + X + ", " + Y + ", " + Z + ")"; }
    }

    /// <summary>How a kernel is launched. Grid counts blocks (not clusters) in every
    /// dimension; with clusters each grid dimension must be a multiple of the cluster's. A
    /// value type, so that making one per launch allocates nothing; default(LaunchConfig) has
    /// a zero grid and block, which the library refuses.</summary>
    public unsafe struct LaunchConfig
    {
        /// <summary>`grid` blocks of `block` threads, with `sharedMemoryBytes` of dynamic shared
        /// memory per block.</summary>
        public LaunchConfig(Dim3 grid, Dim3 block, uint sharedMemoryBytes = 0)
            : this()
        {
            Grid = grid;
            Block = block;
            SharedMemoryBytes = sharedMemoryBytes;
        }

        /// <summary>Blocks in x, y, z.</summary>
        public Dim3 Grid { get; set; }

        /// <summary>Threads per block in x, y, z.</summary>
        public Dim3 Block { get; set; }

        /// <summary>Dynamic shared memory per block.</summary>
        public uint SharedMemoryBytes { get; set; }

        /// <summary>DC_LAUNCH_* flags (cooperative, programmatic serialisation...).</summary>
        public LaunchFlags Flags { get; set; }

        /// <summary>Thread-block cluster size (compute capability 9.0+); (0, 0, 0) = none.</summary>
        public Dim3 Cluster { get; set; }

        /// <summary>Launch priority; 0 = the stream's.</summary>
        public int Priority { get; set; }

        /// <summary>A 1-D launch of `blocks` blocks of `threadsPerBlock` threads.</summary>
        public static LaunchConfig Linear(uint blocks, uint threadsPerBlock, uint sharedMemoryBytes = 0)
        {
            return new LaunchConfig(new Dim3(blocks), new Dim3(threadsPerBlock), sharedMemoryBytes);
        }

        /// <summary>A 1-D launch covering `n` threads with `threadsPerBlock` threads per block.</summary>
        public static LaunchConfig Cover(ulong n, uint threadsPerBlock)
        {
            if (threadsPerBlock == 0)
                throw new ArgumentOutOfRangeException("threadsPerBlock", "a block has at least one thread");
            ulong blocks = (n + threadsPerBlock - 1) / threadsPerBlock;
            if (blocks == 0)
                blocks = 1;
            if (blocks > uint.MaxValue)
                throw new ArgumentOutOfRangeException("n", n, "needs more than 2^32 - 1 blocks");
            return Linear((uint)blocks, threadsPerBlock);
        }

        /// <summary>The native dc_launch_config.</summary>
        public DcLaunchConfig ToNative()
        {
            DcLaunchConfig c = DcLaunchConfig.Init();
            c.Grid[0] = Grid.X; c.Grid[1] = Grid.Y; c.Grid[2] = Grid.Z;
            c.Block[0] = Block.X; c.Block[1] = Block.Y; c.Block[2] = Block.Z;
            c.SharedMemoryBytes = SharedMemoryBytes;
            c.Flags = (uint)Flags;
            c.Cluster[0] = Cluster.X; c.Cluster[1] = Cluster.Y; c.Cluster[2] = Cluster.Z;
            c.Priority = Priority;
            return c;
        }

        /// <summary>From a native dc_launch_config.</summary>
        public static LaunchConfig FromNative(DcLaunchConfig c)
        {
            return new LaunchConfig
            {
                Grid = new Dim3(c.Grid[0], c.Grid[1], c.Grid[2]),
                Block = new Dim3(c.Block[0], c.Block[1], c.Block[2]),
                SharedMemoryBytes = c.SharedMemoryBytes,
                Flags = (LaunchFlags)c.Flags,
                Cluster = new Dim3(c.Cluster[0], c.Cluster[1], c.Cluster[2]),
                Priority = c.Priority,
            };
        }

        /// <summary>"grid (x, y, z), block (x, y, z), shared N B".</summary>
        public override string ToString()
        {
            return "grid " + Grid + ", block " + Block + ", shared " + SharedMemoryBytes + " B";
        }
    }
}
