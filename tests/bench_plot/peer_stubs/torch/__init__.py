"""PyTorch stand-in (see ../README.md): tensors are NumPy arrays, copy_ a
NumPy copy."""
import numpy

__version__ = "stand-in"
uint8 = numpy.uint8
float32 = numpy.float32


class version:  # noqa: N801  (torch.version)
    cuda = "stand-in"


class Tensor:
    def __init__(self, array):
        self._array = array

    def __getitem__(self, key):
        return Tensor(self._array[key])

    def copy_(self, other):
        if other._array.shape != self._array.shape:
            raise RuntimeError("shape mismatch")
        self._array[...] = other._array
        return self

    def fill_(self, value):
        self._array[...] = value
        return self

    def add_(self, other, alpha=1):
        self._array += alpha * other._array
        return self


def from_numpy(array):
    return Tensor(array)


def empty(count, dtype, pin_memory=False, device=None):
    return Tensor(numpy.empty(count, dtype))


def ones(count, dtype, device=None):
    return Tensor(numpy.ones(count, dtype))


class _Stream:
    def synchronize(self):
        pass


class _StreamContext:
    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        return self.stream

    def __exit__(self, *exc):
        return False


class cuda:  # noqa: N801  (torch.cuda)
    @staticmethod
    def is_available():
        return True

    @staticmethod
    def synchronize():
        pass

    @staticmethod
    def empty_cache():
        pass

    Stream = _Stream

    @staticmethod
    def stream(s):
        return _StreamContext(s)
