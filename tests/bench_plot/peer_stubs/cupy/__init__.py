"""CuPy stand-in (see ../README.md): arrays are NumPy arrays, copies are
NumPy copies, kernels are refused."""
import numpy

__version__ = "stand-in"
float32 = numpy.float32
uint8 = numpy.uint8


class RawModule:
    def __init__(self, code):
        raise RuntimeError("the CuPy stand-in compiles no kernels")


class ndarray:
    def __init__(self, array):
        self._array = array

    def __getitem__(self, key):
        return ndarray(self._array[key])

    def set(self, host):
        if host.shape != self._array.shape:
            raise ValueError("shape mismatch")
        self._array[...] = host

    def get(self, out):
        if out.shape != self._array.shape:
            raise ValueError("shape mismatch")
        out[...] = self._array
        return out


def empty(count, dtype):
    return ndarray(numpy.empty(count, dtype))


def ones(count, dtype):
    return ndarray(numpy.ones(count, dtype))


class _Pool:
    def free_all_blocks(self):
        pass


def get_default_memory_pool():
    return _Pool()


def get_default_pinned_memory_pool():
    return _Pool()


class _Runtime:
    @staticmethod
    def deviceSynchronize():
        pass


class _Stream:
    def __init__(self, non_blocking=False):
        pass

    def synchronize(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class cuda:  # noqa: N801  (CuPy's module name)
    runtime = _Runtime
    Stream = _Stream
