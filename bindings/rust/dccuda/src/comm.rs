//! NCCL communicators and collectives (`dc_comm`): one rank of a communicator on one
//! device, and all-reduce, broadcast, reduce, all-gather, reduce-scatter, send and receive
//! on [`DeviceBuffer`]s, the element type picking NCCL's datatype. NCCL's thread rules
//! hold: a [`Comm`] is used by one thread at a time ([`Comm::abort`] excepted: the way out
//! of a hang, from any thread); one thread driving several ranks issues their calls inside
//! [`group`]. Offsets and counts are in elements.

use crate::buffer::{bytes_of, DeviceBuffer};
use crate::device::Device;
use crate::error::{check, Result};
use crate::pod::Pod;
use crate::stream::Stream;
use crate::sys;

crate::owned_handle!(
    /// One rank of an NCCL communicator (`dc_comm`); dropping it finalises and destroys
    /// the communicator (unless aborted).
    Comm,
    sys::dc_comm,
    sys::dc_comm_release
);

/// An element type NCCL reduces: its `sys::DC_NCCL_*` datatype.
pub trait NcclType: Pod {
    /// The `DC_NCCL_*` datatype.
    const DATATYPE: i32;
}
impl NcclType for i8 {
    const DATATYPE: i32 = sys::DC_NCCL_INT8;
}
impl NcclType for u8 {
    const DATATYPE: i32 = sys::DC_NCCL_UINT8;
}
impl NcclType for i32 {
    const DATATYPE: i32 = sys::DC_NCCL_INT32;
}
impl NcclType for u32 {
    const DATATYPE: i32 = sys::DC_NCCL_UINT32;
}
impl NcclType for i64 {
    const DATATYPE: i32 = sys::DC_NCCL_INT64;
}
impl NcclType for u64 {
    const DATATYPE: i32 = sys::DC_NCCL_UINT64;
}
impl NcclType for f32 {
    const DATATYPE: i32 = sys::DC_NCCL_FLOAT32;
}
impl NcclType for f64 {
    const DATATYPE: i32 = sys::DC_NCCL_FLOAT64;
}

/// A reduction (`sys::DC_NCCL_SUM` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    /// The sum.
    Sum,
    /// The product.
    Prod,
    /// The minimum.
    Min,
    /// The maximum.
    Max,
    /// The sum divided by the rank count (NCCL 2.10+).
    Avg,
}

impl ReduceOp {
    fn raw(self) -> i32 {
        match self {
            ReduceOp::Sum => sys::DC_NCCL_SUM,
            ReduceOp::Prod => sys::DC_NCCL_PROD,
            ReduceOp::Min => sys::DC_NCCL_MIN,
            ReduceOp::Max => sys::DC_NCCL_MAX,
            ReduceOp::Avg => sys::DC_NCCL_AVG,
        }
    }
}

/// The NCCL version (major*10000 + minor*100 + patch).
///
/// # Errors
/// `NOT_SUPPORTED` without NCCL, saying what was tried.
pub fn nccl_version() -> Result<i32> {
    let mut v = 0;
    check(unsafe { sys::dc_nccl_library_version(&mut v) })?;
    Ok(v)
}

/// A new unique id for [`Comm::init_rank`], to hand to every rank by your own means.
///
/// # Errors
/// The library's status and message when `dc_nccl_unique_id` fails.
pub fn unique_id() -> Result<[u8; sys::DC_NCCL_UNIQUE_ID_BYTES as usize]> {
    let mut id = [0u8; sys::DC_NCCL_UNIQUE_ID_BYTES as usize];
    check(unsafe { sys::dc_nccl_unique_id(id.as_mut_ptr(), id.len() as u64) })?;
    Ok(id)
}

/// Runs `calls` (several ranks' collectives from this thread) as one NCCL group.
///
/// # Errors
/// The first failure of `calls`, else the group's end's.
pub fn group<R>(calls: impl FnOnce() -> Result<R>) -> Result<R> {
    check(unsafe { sys::dc_nccl_group_start() })?;
    let r = calls();
    let end = check(unsafe { sys::dc_nccl_group_end() });
    let r = r?;
    end?;
    Ok(r)
}

fn raw_or_null<T: Pod>(b: Option<&DeviceBuffer<T>>) -> sys::dc_buffer {
    b.map_or(std::ptr::null_mut(), |b| b.as_raw())
}

impl Comm {
    /// Joins communicator `id` as `rank` of `ranks` on `device`.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_init_rank` fails.
    pub fn init_rank(device: &Device, ranks: i32, id: &[u8], rank: i32) -> Result<Comm> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_comm_init_rank(device.as_raw(), ranks, id.as_ptr(), id.len() as u64, rank, &mut raw) })?;
        Ok(Comm { raw })
    }

    /// One communicator over the devices `ordinals` of this process: element i is rank i.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_init_all` fails.
    pub fn init_all(ordinals: &[i32]) -> Result<Vec<Comm>> {
        let mut raw = vec![std::ptr::null_mut(); ordinals.len()];
        check(unsafe { sys::dc_comm_init_all(ordinals.as_ptr(), ordinals.len() as i32, raw.as_mut_ptr()) })?;
        Ok(raw.into_iter().map(|raw| Comm { raw }).collect())
    }

    /// Splits by `color` (ordered by `key`); `None` for a negative color (no new comm).
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_split` fails.
    pub fn split(&self, color: i32, key: i32) -> Result<Option<Comm>> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_comm_split(self.raw, color, key, &mut raw) })?;
        Ok(if raw.is_null() { None } else { Some(Comm { raw }) })
    }

    /// Aborts the communicator (any thread, any time).
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_abort` fails.
    pub fn abort(&self) -> Result<()> {
        check(unsafe { sys::dc_comm_abort(self.raw) })
    }

    /// NCCL's asynchronous error (0 when healthy).
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_async_error` fails.
    pub fn async_error(&self) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_comm_async_error(self.raw, &mut v) })?;
        Ok(v)
    }

    /// This comm's rank.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_rank` fails.
    pub fn rank(&self) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_comm_rank(self.raw, &mut v) })?;
        Ok(v)
    }

    /// The number of ranks.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_count` fails.
    pub fn count(&self) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_comm_count(self.raw, &mut v) })?;
        Ok(v)
    }

    /// All-reduce `count` elements of `send` from `send_at` into every rank's `recv` at `recv_at`.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_all_reduce` fails.
    #[allow(clippy::too_many_arguments)]
    pub fn all_reduce<T: NcclType>(&self, send: &DeviceBuffer<T>, send_at: usize, recv: &DeviceBuffer<T>, recv_at: usize,
                                   count: usize, op: ReduceOp, stream: &Stream) -> Result<()> {
        check(unsafe {
            sys::dc_comm_all_reduce(self.raw, send.as_raw(), bytes_of::<T>(send_at, "send_at")?, recv.as_raw(),
                                    bytes_of::<T>(recv_at, "recv_at")?, count as u64, T::DATATYPE, op.raw(), stream.as_raw())
        })
    }

    /// Broadcasts root's `send` (may be `None` off the root) into every rank's `recv`.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_broadcast` fails.
    pub fn broadcast<T: NcclType>(&self, send: Option<&DeviceBuffer<T>>, recv: &DeviceBuffer<T>, count: usize, root: i32,
                                  stream: &Stream) -> Result<()> {
        check(unsafe {
            sys::dc_comm_broadcast(self.raw, raw_or_null(send), 0, recv.as_raw(), 0, count as u64, T::DATATYPE, root,
                                   stream.as_raw())
        })
    }

    /// Reduces into root's `recv` (may be `None` off the root).
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_reduce` fails.
    pub fn reduce<T: NcclType>(&self, send: &DeviceBuffer<T>, recv: Option<&DeviceBuffer<T>>, count: usize, op: ReduceOp,
                               root: i32, stream: &Stream) -> Result<()> {
        check(unsafe {
            sys::dc_comm_reduce(self.raw, send.as_raw(), 0, raw_or_null(recv), 0, count as u64, T::DATATYPE, op.raw(), root,
                                stream.as_raw())
        })
    }

    /// All-gather: rank i's `send_count` elements land at element i*send_count of every `recv`.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_all_gather` fails.
    pub fn all_gather<T: NcclType>(&self, send: &DeviceBuffer<T>, recv: &DeviceBuffer<T>, send_count: usize,
                                   stream: &Stream) -> Result<()> {
        check(unsafe {
            sys::dc_comm_all_gather(self.raw, send.as_raw(), 0, recv.as_raw(), 0, send_count as u64, T::DATATYPE,
                                    stream.as_raw())
        })
    }

    /// Reduce-scatter: rank i receives block i (`recv_count` elements) of the reduction.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_reduce_scatter` fails.
    pub fn reduce_scatter<T: NcclType>(&self, send: &DeviceBuffer<T>, recv: &DeviceBuffer<T>, recv_count: usize,
                                       op: ReduceOp, stream: &Stream) -> Result<()> {
        check(unsafe {
            sys::dc_comm_reduce_scatter(self.raw, send.as_raw(), 0, recv.as_raw(), 0, recv_count as u64, T::DATATYPE,
                                        op.raw(), stream.as_raw())
        })
    }

    /// Sends `count` elements to rank `peer`.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_send` fails.
    pub fn send<T: NcclType>(&self, send: &DeviceBuffer<T>, count: usize, peer: i32, stream: &Stream) -> Result<()> {
        check(unsafe { sys::dc_comm_send(self.raw, send.as_raw(), 0, count as u64, T::DATATYPE, peer, stream.as_raw()) })
    }

    /// Receives `count` elements from rank `peer`.
    ///
    /// # Errors
    /// The library's status and message when `dc_comm_recv` fails.
    pub fn recv<T: NcclType>(&self, recv: &DeviceBuffer<T>, count: usize, peer: i32, stream: &Stream) -> Result<()> {
        check(unsafe { sys::dc_comm_recv(self.raw, recv.as_raw(), 0, count as u64, T::DATATYPE, peer, stream.as_raw()) })
    }
}
