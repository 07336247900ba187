//! Message queues between the host and a resident kernel, and the kernel's control block
//! (dccuda.h, "Queues"). The kernel's side is `include/dccuda_device.h`: a kernel takes
//! a queue's ring and a control block as pointer parameters ([`Queue::device_pointer`],
//! [`Control::device_pointer`]).

use std::marker::PhantomData;
use std::time::Duration;

use crate::device::Device;
use crate::error::{check, check_ready, Error, Result, Status};
use crate::pod::Pod;
use crate::sys;

/// Which side produces the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The host sends, a kernel receives.
    ToDevice,
    /// A kernel sends, the host receives.
    ToHost,
    /// A kernel sends, another kernel receives: the ring is in device memory and the host's
    /// enqueue and dequeue calls refuse the queue.
    BetweenKernels,
    /// As `BetweenKernels`, for kernels on two devices: the ring is in the queue's device's
    /// memory, the other side reaches it through peer access, both fence at system scope.
    /// Make it on the device whose kernel receives.
    BetweenDevices,
}

/// How a host call waits for the other side (all of them poll: the GPU cannot wake a thread cheaply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Poll without pause: lowest latency, one core busy.
    Spin,
    /// Poll, then yield the CPU between polls.
    SpinYield,
    /// Poll a little, then sleep between polls (up to 200 us).
    Block,
}

impl Wait {
    fn raw(self) -> i32 {
        match self {
            Wait::Spin => sys::DC_WAIT_SPIN,
            Wait::SpinYield => sys::DC_WAIT_SPIN_YIELD,
            Wait::Block => sys::DC_WAIT_BLOCK,
        }
    }
}

fn micros(timeout: Duration) -> u64 {
    u64::try_from(timeout.as_micros()).unwrap_or(u64::MAX)
}

crate::owned_handle!(
    /// The handle behind a [`Queue`].
    QueueHandle,
    sys::dc_queue,
    sys::dc_queue_release
);

/// A single-producer / single-consumer queue of `T` messages in mapped pinned memory. Each
/// message is one `T` (the slot size is `size_of::<T>()` rounded up to a power of two, at
/// least 8 bytes). Host calls may come from any thread.
pub struct Queue<T: Pod> {
    handle: QueueHandle,
    _messages: PhantomData<T>,
}

impl<T: Pod> std::fmt::Debug for Queue<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Queue<{}>({:?})", std::any::type_name::<T>(), self.handle)
    }
}

impl<T: Pod> Queue<T> {
    /// A queue of `capacity` (a power of two, 2 to 2^24) messages on `device`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_create`](crate::sys::dc_queue_create) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn new(device: &Device, direction: Direction, capacity: u32) -> Result<Queue<T>> {
        let size = std::mem::size_of::<T>().max(8);
        if size > 65536 {
            return Err(Error::local(
                Status::INVALID_ARGUMENT,
                format!("Queue::new: a message of {size} bytes is larger than the largest slot (65536 bytes)"),
            ));
        }
        let slot = size.next_power_of_two() as u32;
        let d = match direction {
            Direction::ToDevice => sys::DC_QUEUE_TO_DEVICE,
            Direction::ToHost => sys::DC_QUEUE_TO_HOST,
            Direction::BetweenKernels => sys::DC_QUEUE_BETWEEN_KERNELS,
            Direction::BetweenDevices => sys::DC_QUEUE_BETWEEN_DEVICES,
        };
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_queue_create(device.as_raw(), d, slot, capacity, &mut raw) })?;
        Ok(Queue { handle: unsafe { QueueHandle::from_raw(raw) }, _messages: PhantomData })
    }

    /// The raw handle, still owned by the queue.
    pub fn as_raw(&self) -> sys::dc_queue {
        self.handle.as_raw()
    }

    fn bytes(message: &T) -> (*const std::ffi::c_void, u32) {
        (message as *const T as *const std::ffi::c_void, std::mem::size_of::<T>() as u32)
    }

    /// Sends `message` if a slot is free: `false` when the queue was full (counted as a drop).
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_try_enqueue`](crate::sys::dc_queue_try_enqueue) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn try_send(&self, message: &T) -> Result<bool> {
        let (p, n) = Self::bytes(message);
        check_ready(unsafe { sys::dc_queue_try_enqueue(self.as_raw(), p, n) })
    }

    /// Sends `message`, waiting up to `timeout` for a free slot (`Status::TIMEOUT` after it).
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_enqueue`](crate::sys::dc_queue_enqueue) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn send(&self, message: &T, wait: Wait, timeout: Duration) -> Result<()> {
        let (p, n) = Self::bytes(message);
        check(unsafe { sys::dc_queue_enqueue(self.as_raw(), p, n, wait.raw(), micros(timeout)) })
    }

    /// Sends as many of `messages` as there are free slots, in order, made visible together;
    /// how many.
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_enqueue_batch`](crate::sys::dc_queue_enqueue_batch) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn send_batch(&self, messages: &[T]) -> Result<usize> {
        let mut sent = 0u32;
        let bytes = std::mem::size_of_val(messages) as u64;
        let status = unsafe {
            sys::dc_queue_enqueue_batch(
                self.as_raw(),
                messages.as_ptr() as *const std::ffi::c_void,
                bytes,
                std::mem::size_of::<T>() as u32,
                &mut sent,
            )
        };
        check_ready(status)?;
        Ok(sent as usize)
    }

    fn message_of(value: std::mem::MaybeUninit<T>, size: u32) -> Result<T> {
        if size as usize != std::mem::size_of::<T>() {
            return Err(Error::local(
                Status::OUT_OF_RANGE,
                format!(
                    "Queue::receive: the kernel sent {size} bytes, not one {} of {} bytes",
                    std::any::type_name::<T>(),
                    std::mem::size_of::<T>()
                ),
            ));
        }
        // Every bit pattern is a T (Pod), and all of its bytes were written.
        Ok(unsafe { value.assume_init() })
    }

    /// The oldest message if there is one.
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_try_dequeue`](crate::sys::dc_queue_try_dequeue) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn try_receive(&self) -> Result<Option<T>> {
        let mut value = std::mem::MaybeUninit::<T>::uninit();
        let mut size = 0u32;
        let status = unsafe {
            sys::dc_queue_try_dequeue(
                self.as_raw(),
                value.as_mut_ptr() as *mut std::ffi::c_void,
                std::mem::size_of::<T>() as u32,
                &mut size,
            )
        };
        if !check_ready(status)? {
            return Ok(None);
        }
        Self::message_of(value, size).map(Some)
    }

    /// The oldest message, waiting up to `timeout` for one (`Status::TIMEOUT` after it).
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_dequeue`](crate::sys::dc_queue_dequeue) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn receive(&self, wait: Wait, timeout: Duration) -> Result<T> {
        let mut value = std::mem::MaybeUninit::<T>::uninit();
        let mut size = 0u32;
        check(unsafe {
            sys::dc_queue_dequeue(
                self.as_raw(),
                value.as_mut_ptr() as *mut std::ffi::c_void,
                std::mem::size_of::<T>() as u32,
                &mut size,
                wait.raw(),
                micros(timeout),
            )
        })?;
        Self::message_of(value, size)
    }

    /// Up to `max` messages that are already in the queue, oldest first, taken with one
    /// counter update (cheaper than one [`try_receive`](Self::try_receive) per message); an
    /// empty `Vec` when the queue was empty. Never waits.
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_dequeue_batch`](crate::sys::dc_queue_dequeue_batch) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn receive_batch(&self, max: usize) -> Result<Vec<T>> {
        let stride = std::mem::size_of::<T>().max(8).next_power_of_two();
        // Zeroed, so that the bytes after a shorter message are defined (every bit pattern is a T).
        let mut bytes = vec![0u8; max * stride];
        let mut count = 0u32;
        let status = unsafe {
            sys::dc_queue_dequeue_batch(
                self.as_raw(),
                bytes.as_mut_ptr() as *mut std::ffi::c_void,
                bytes.len() as u64,
                stride as u32,
                &mut count,
            )
        };
        if !check_ready(status)? {
            return Ok(Vec::new());
        }
        Ok((0..count as usize)
            // Message i starts at i * stride, inside `bytes`; the read copes with its alignment.
            .map(|i| unsafe { std::ptr::read_unaligned(bytes.as_ptr().add(i * stride) as *const T) })
            .collect())
    }

    /// The queue's shape and counters.
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_counters`](crate::sys::dc_queue_counters) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn stats(&self) -> Result<sys::dc_queue_stats> {
        let mut s: sys::dc_queue_stats = unsafe { std::mem::zeroed() };
        s.struct_size = std::mem::size_of::<sys::dc_queue_stats>() as u32;
        check(unsafe { sys::dc_queue_counters(self.as_raw(), &mut s) })?;
        Ok(s)
    }

    /// The ring's device address, for a kernel's `dc_queue_ring*` parameter. Valid while
    /// the queue lives; the caller keeps the queue alive while the kernel uses it.
    ///
    /// # Errors
    /// The library's status and message when [`dc_queue_buffer`](crate::sys::dc_queue_buffer) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn device_pointer(&self) -> Result<u64> {
        buffer_device_pointer(|b| unsafe { sys::dc_queue_buffer(self.as_raw(), b) })
    }
}

fn buffer_device_pointer(get: impl FnOnce(*mut sys::dc_buffer) -> i32) -> Result<u64> {
    let mut b = std::ptr::null_mut();
    check(get(&mut b))?;
    let mut address = 0u64;
    let status = unsafe { sys::dc_buffer_device_pointer(b, &mut address) };
    let result = check(status);
    unsafe { sys::dc_buffer_release(b) };
    result.map(|()| address)
}

crate::owned_handle!(
    /// A resident kernel's control block: running / stopped, stop request, heartbeat, errors.
    Control,
    sys::dc_control,
    sys::dc_control_release
);

/// The kernel's state, as its control block holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlState {
    /// Not started since made or reset.
    Idle,
    /// Running (the kernel called `dc_control_enter`).
    Running,
    /// Stopped (the kernel called `dc_control_exit`).
    Stopped,
}

impl Control {
    /// A control block on `device`, idle.
    ///
    /// # Errors
    /// The library's status and message when [`dc_control_create`](crate::sys::dc_control_create) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn new(device: &Device) -> Result<Control> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_control_create(device.as_raw(), &mut raw) })?;
        Ok(Control { raw })
    }

    /// Asks the kernel to stop (`Status::INVALID_STATE` if it already has).
    ///
    /// # Errors
    /// The library's status and message when [`dc_control_request_stop`](crate::sys::dc_control_request_stop) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn request_stop(&self) -> Result<()> {
        check(unsafe { sys::dc_control_request_stop(self.raw) })
    }

    /// Waits up to `timeout` for the kernel to report that it stopped (`Status::TIMEOUT`).
    ///
    /// # Errors
    /// The library's status and message when [`dc_control_wait_stopped`](crate::sys::dc_control_wait_stopped) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn wait_stopped(&self, wait: Wait, timeout: Duration) -> Result<()> {
        check(unsafe { sys::dc_control_wait_stopped(self.raw, wait.raw(), micros(timeout)) })
    }

    /// What the control block says.
    ///
    /// # Errors
    /// The library's status and message when [`dc_control_status`](crate::sys::dc_control_status) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn status(&self) -> Result<sys::dc_control_info> {
        let mut i: sys::dc_control_info = unsafe { std::mem::zeroed() };
        i.struct_size = std::mem::size_of::<sys::dc_control_info>() as u32;
        check(unsafe { sys::dc_control_status(self.raw, &mut i) })?;
        Ok(i)
    }

    /// The kernel's state.
    ///
    /// # Errors
    /// The library's status and message when a call it makes fails.
    pub fn state(&self) -> Result<ControlState> {
        Ok(match self.status()?.state {
            sys::DC_CONTROL_RUNNING => ControlState::Running,
            sys::DC_CONTROL_STOPPED => ControlState::Stopped,
            _ => ControlState::Idle,
        })
    }

    /// The watchdog: `Ok` while the kernel beats within `stall`, `Status::TIMEOUT` when it has
    /// not, `Status::INVALID_STATE` when it is not running.
    ///
    /// # Errors
    /// The library's status and message when [`dc_control_check_progress`](crate::sys::dc_control_check_progress) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn check_progress(&self, stall: Duration) -> Result<()> {
        check(unsafe { sys::dc_control_check_progress(self.raw, micros(stall).max(1)) })
    }

    /// Ready for the next launch (`Status::INVALID_STATE` while the kernel runs).
    ///
    /// # Errors
    /// The library's status and message when [`dc_control_reset`](crate::sys::dc_control_reset) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn reset(&self) -> Result<()> {
        check(unsafe { sys::dc_control_reset(self.raw) })
    }

    /// The block's device address, for a kernel's `dc_control_block*` parameter.
    ///
    /// # Errors
    /// The library's status and message when [`dc_control_buffer`](crate::sys::dc_control_buffer) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn device_pointer(&self) -> Result<u64> {
        buffer_device_pointer(|b| unsafe { sys::dc_control_buffer(self.raw, b) })
    }
}
