"""cupyx stand-in (see ../README.md): pinned memory is ordinary memory."""
import numpy


def empty_pinned(shape, dtype):
    return numpy.empty(shape, dtype)
