//! Stream memory operations: a stream waits for a 32- or 64-bit value in a buffer, or writes
//! one, in stream order; or does a batch of such operations in one driver call. A wait only
//! reads the buffer (`&DeviceBuffer`); a write changes it (`&mut DeviceBuffer`, as
//! [`DeviceBuffer::write_at_async`] takes it). Each buffer records the stream, so that
//! dropping it waits for the operation as for any asynchronous use (see stream_uses.rs).
//!
//! The buffer must be device memory from `cuMemAlloc` (`DeviceBuffer::with_flags(..,
//! sys::DC_ALLOC_NO_POOL)`) or device-mapped pinned memory: the driver refuses memory of the
//! stream-ordered pool (`DeviceBuffer::new`'s) and managed memory, and the library answers
//! `NOT_SUPPORTED` first. `DC_VALUE_NO_MEMORY_BARRIER` is a permission only: current drivers
//! refuse it, so the library keeps the barrier.

use crate::buffer::DeviceBuffer;
use crate::error::{check, Result};
use crate::pod::Pod;
use crate::stream::Stream;
use crate::stream_uses::StreamUses;
use crate::sys;

/// How a stream wait compares the value in memory with its operand (`DC_COMPARE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Until `(int)(*p - value) >= 0`: greater or equal, wrapping.
    GreaterOrEqual,
    /// Until `*p == value`.
    Equal,
    /// Until `(*p & value) != 0`.
    And,
    /// Until `!(*p | value) != 0`.
    Nor,
}

impl Compare {
    fn raw(self) -> i32 {
        match self {
            Compare::GreaterOrEqual => sys::DC_COMPARE_GEQ,
            Compare::Equal => sys::DC_COMPARE_EQ,
            Compare::And => sys::DC_COMPARE_AND,
            Compare::Nor => sys::DC_COMPARE_NOR,
        }
    }
}

/// One operation of [`Stream::batch_mem_ops`], borrowing its buffer for as long as it lives
/// (shared for a wait, exclusive for a write). Two writes to one buffer in one batch: write
/// through two views of it ([`DeviceBuffer::view_mut`]), or make two calls.
pub struct MemOp<'a> {
    raw: sys::dc_stream_mem_op,
    uses: &'a StreamUses,
}

impl std::fmt::Debug for MemOp<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.raw.fmt(f)
    }
}

impl<'a> MemOp<'a> {
    fn new<T: Pod>(kind: u32, buffer: &'a DeviceBuffer<T>, byte_offset: u64, value: u64, compare: i32, flags: u32) -> Self {
        MemOp {
            raw: sys::dc_stream_mem_op { kind, compare, flags, reserved: 0, buffer: buffer.as_raw(), offset: byte_offset, value },
            uses: buffer.stream_uses(),
        }
    }

    /// Wait until the 32-bit value at `byte_offset` (a multiple of 4) compares with `value`.
    /// `flags`: 0 or `sys::DC_VALUE_FLUSH`.
    pub fn wait32<T: Pod>(buffer: &'a DeviceBuffer<T>, byte_offset: u64, value: u32, compare: Compare, flags: u32) -> Self {
        Self::new(sys::DC_MEM_OP_WAIT32, buffer, byte_offset, value.into(), compare.raw(), flags)
    }

    /// Wait until the 64-bit value at `byte_offset` (a multiple of 8) compares with `value`.
    pub fn wait64<T: Pod>(buffer: &'a DeviceBuffer<T>, byte_offset: u64, value: u64, compare: Compare, flags: u32) -> Self {
        Self::new(sys::DC_MEM_OP_WAIT64, buffer, byte_offset, value, compare.raw(), flags)
    }

    /// Write the 32-bit `value` at `byte_offset` (a multiple of 4). `flags`: 0 or
    /// `sys::DC_VALUE_NO_MEMORY_BARRIER`.
    pub fn write32<T: Pod>(buffer: &'a mut DeviceBuffer<T>, byte_offset: u64, value: u32, flags: u32) -> Self {
        Self::new(sys::DC_MEM_OP_WRITE32, buffer, byte_offset, value.into(), 0, flags)
    }

    /// Write the 64-bit `value` at `byte_offset` (a multiple of 8).
    pub fn write64<T: Pod>(buffer: &'a mut DeviceBuffer<T>, byte_offset: u64, value: u64, flags: u32) -> Self {
        Self::new(sys::DC_MEM_OP_WRITE64, buffer, byte_offset, value, 0, flags)
    }
}

impl Stream {
    /// Makes later work on the stream wait until the 32-bit value at `byte_offset` (a multiple
    /// of 4) in `buffer` compares with `value` as `compare` says. Returns at once. A wait
    /// nothing satisfies holds the stream, and every synchronisation of it, until someone
    /// writes the value. `flags`: 0 or `sys::DC_VALUE_FLUSH`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_wait_value32`](crate::sys::dc_stream_wait_value32) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn wait_value32<T: Pod>(&self, buffer: &DeviceBuffer<T>, byte_offset: u64, value: u32, compare: Compare, flags: u32) -> Result<()> {
        check(unsafe { sys::dc_stream_wait_value32(self.as_raw(), buffer.as_raw(), byte_offset, value, compare.raw(), flags) })?;
        buffer.note_use(self);
        Ok(())
    }

    /// As [`wait_value32`](Self::wait_value32), for the 64-bit value at `byte_offset` (a
    /// multiple of 8).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_wait_value64`](crate::sys::dc_stream_wait_value64) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn wait_value64<T: Pod>(&self, buffer: &DeviceBuffer<T>, byte_offset: u64, value: u64, compare: Compare, flags: u32) -> Result<()> {
        check(unsafe { sys::dc_stream_wait_value64(self.as_raw(), buffer.as_raw(), byte_offset, value, compare.raw(), flags) })?;
        buffer.note_use(self);
        Ok(())
    }

    /// Writes the 32-bit `value` at `byte_offset` (a multiple of 4) in `buffer` in stream
    /// order, after the work enqueued before it. `flags`: 0 or `sys::DC_VALUE_NO_MEMORY_BARRIER`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_write_value32`](crate::sys::dc_stream_write_value32) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn write_value32<T: Pod>(&self, buffer: &mut DeviceBuffer<T>, byte_offset: u64, value: u32, flags: u32) -> Result<()> {
        check(unsafe { sys::dc_stream_write_value32(self.as_raw(), buffer.as_raw(), byte_offset, value, flags) })?;
        buffer.note_use(self);
        Ok(())
    }

    /// As [`write_value32`](Self::write_value32), for a 64-bit value at `byte_offset` (a
    /// multiple of 8).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_write_value64`](crate::sys::dc_stream_write_value64) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn write_value64<T: Pod>(&self, buffer: &mut DeviceBuffer<T>, byte_offset: u64, value: u64, flags: u32) -> Result<()> {
        check(unsafe { sys::dc_stream_write_value64(self.as_raw(), buffer.as_raw(), byte_offset, value, flags) })?;
        buffer.note_use(self);
        Ok(())
    }

    /// Enqueues 1 to 256 memory operations in one driver call, in order. All are checked
    /// first: on any error nothing is enqueued and the message names the operation's index.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_batch_mem_ops`](crate::sys::dc_stream_batch_mem_ops) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn batch_mem_ops(&self, ops: &[MemOp<'_>]) -> Result<()> {
        let raw: Vec<sys::dc_stream_mem_op> = ops.iter().map(|op| op.raw).collect();
        let count = u32::try_from(raw.len()).unwrap_or(u32::MAX);
        let ptr = if raw.is_empty() { std::ptr::null() } else { raw.as_ptr() };
        check(unsafe { sys::dc_stream_batch_mem_ops(self.as_raw(), ptr, count) })?;
        for op in ops {
            op.uses.note(self);
        }
        Ok(())
    }
}
