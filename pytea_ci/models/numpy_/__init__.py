"""Models of `numpy` (imported as `np`): array creation in `creation.py`, shape operations,
reductions and broadcasting arithmetic of `numpy.ndarray` in `array.py`. Arrays are `Tensor`s with
`lib="numpy"`, so the torch shape primitives apply unchanged; small 1-D arrays of known numbers made
from a configuration's values (`np.atleast_1d`) keep their items (`known.py`)."""
