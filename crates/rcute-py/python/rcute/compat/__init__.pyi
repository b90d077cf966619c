"""Type stubs of rcute.compat (compatibility modules for other CuTe Python packages)."""
from . import cutlass as cutlass
