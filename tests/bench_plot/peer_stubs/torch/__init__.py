"""PyTorch stand-in (see ../README.md): tensors are NumPy arrays, copy_ a
NumPy copy."""
import numpy

__version__ = "stand-in"
uint8 = numpy.uint8


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


def from_numpy(array):
    return Tensor(array)


def empty(count, dtype, pin_memory=False, device=None):
    return Tensor(numpy.empty(count, dtype))


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
