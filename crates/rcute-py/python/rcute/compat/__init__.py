"""Compatibility modules: run code written for other CuTe Python packages.

* :mod:`rcute.compat.cutlass` -- CUTLASS's ``pycute`` (also vendored by
  PyTorch as ``torch.distributed._pycute``): ``import rcute.compat.cutlass as
  pycute``.
"""
