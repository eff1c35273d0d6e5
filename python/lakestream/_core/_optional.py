"""numpy and pandas: optional, imported only when a result is converted."""

from .errors import InterfaceError


def _numpy():
    try:
        import numpy
    except ImportError as e:
        raise InterfaceError(
            "fetchnumpy()/df() need numpy, which this Python cannot import "
            f"({e}); install it: apt-get install python3-numpy (or pip install numpy "
            "for another interpreter)") from None
    return numpy


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise InterfaceError(
            "df()/to_pandas() need pandas, which this Python cannot import "
            f"({e}); install it: apt-get install python3-pandas (or pip install pandas "
            "for another interpreter)") from None
    _numpy()
    return pandas


def fetchnumpy(native):
    np = _numpy()
    out = {}
    for name, (values, mask) in zip(native.names, native.numpy_columns(False)):
        out[name] = values if mask is None else np.ma.MaskedArray(values, mask=mask)
    return out


def to_pandas(native):
    pd = _pandas()
    columns = {}
    names = list(native.names)
    for i, (values, mask) in enumerate(native.numpy_columns(True)):
        if mask is not None:
            if values.dtype.kind == "b":
                values = pd.arrays.BooleanArray(values, mask)
            else:
                values = pd.arrays.IntegerArray(values, mask)
        columns[i] = values
    df = pd.DataFrame(columns, copy=False)
    df.columns = names
    return df
