"""cuda.core stand-in (see ../../README.md): buffers are host memory, copies
ctypes.memmove, kernels are refused."""
import ctypes

_keep = []  # host memory behind the stand-in's buffers, alive for the process


class Buffer:
    def __init__(self, handle, size):
        self.handle = handle
        self.size = size

    @staticmethod
    def from_handle(ptr, size, mr=None, owner=None):
        return Buffer(int(ptr), size)

    def copy_from(self, src, *, stream):
        if src.size != self.size:
            raise ValueError(f"buffer sizes mismatch between src and dst (sizes are: src={src.size}, dst={self.size})")
        ctypes.memmove(self.handle, src.handle, self.size)

    def close(self, stream=None):
        pass


def _host_buffer(size):
    memory = ctypes.create_string_buffer(size)
    _keep.append(memory)
    return Buffer(ctypes.addressof(memory), size)


class LegacyPinnedMemoryResource:
    def allocate(self, size, stream=None):
        return _host_buffer(size)


class _Stream:
    def sync(self):
        pass


class Device:
    compute_capability = (9, 0)

    def set_current(self):
        pass

    def create_stream(self):
        return _Stream()

    def allocate(self, size, stream=None):
        return _host_buffer(size)


class Program:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("the cuda.core stand-in compiles no kernels")


class ProgramOptions:
    def __init__(self, **kwargs):
        pass


def launch(*args):
    raise RuntimeError("the cuda.core stand-in launches nothing")
