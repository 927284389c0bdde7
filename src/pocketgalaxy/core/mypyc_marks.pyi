# Read by mypy and mypyc only (see mypyc_marks.py): mypy's own marker, so a build honours it.
from mypy_extensions import i64 as i64
from mypy_extensions import mypyc_attr as mypyc_attr
