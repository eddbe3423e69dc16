//! Puzzles in: every accepted kind of Python value (a list of str, a pandas Series, a NumPy
//! array, a pyarrow array, anything with the Arrow PyCapsule interface) goes through pyarrow
//! into Arrow arrays, read here through the Arrow C data interface, and becomes the bytes of
//! each value.

use arrow_array::cast::AsArray;
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi};
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict, PyFrozenSet, PyList, PySet, PyString};

use crate::errors::{arrow_error, is_type, type_name};

/// Values given in Python as text, in order, each as its bytes; `None` for a null.
pub(crate) type Texts = Vec<Option<Vec<u8>>>;

/// The solutions given with `puzzles` of them, one per puzzle (the argument `solutions`).
pub(crate) fn solutions_for(
    py: Python<'_>,
    solutions: &Bound<'_, PyAny>,
    puzzles: usize,
) -> PyResult<Texts> {
    let solutions = texts(py, solutions, "solutions")?;
    if solutions.len() != puzzles {
        return Err(PyValueError::new_err(format!(
            "solutions: {} of them for {puzzles} puzzles; give one per puzzle",
            solutions.len()
        )));
    }
    Ok(solutions)
}

/// The text of every value of `values` (the argument `name`), in order; `None` for a null.
pub(crate) fn texts(py: Python<'_>, values: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
    if values.is_instance_of::<PyString>() || values.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: one {}; expected a sequence of them (a list, a pandas Series, an array)",
            type_name(values)?
        )));
    }
    // Iterating a mapping gives its keys, a set its values in no set order: neither is a
    // sequence of puzzles whose positions mean something.
    let mapping = py
        .import("collections.abc")?
        .getattr("Mapping")
        .and_then(|m| values.is_instance(&m))?;
    if mapping || values.is_instance_of::<PySet>() || values.is_instance_of::<PyFrozenSet>() {
        let hint = match mapping {
            true => "pass list(d.values()) for its values, or list(d) for its keys",
            false => "pass a list (sorted(s), or list(s) in any order)",
        };
        return Err(PyTypeError::new_err(format!(
            "{name}: a {}; expected a sequence of puzzles (a list of str, a pandas Series, a NumPy or pyarrow array): {hint}",
            type_name(values)?
        )));
    }
    if is_type(values, "numpy", "ndarray")? {
        let kind: String = values.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind == "i" || kind == "u" {
            return integer_grids(py, values, name);
        }
        let ndim: usize = values.getattr("ndim")?.extract()?;
        if !matches!(kind.as_str(), "U" | "S" | "O") || ndim != 1 {
            return Err(PyTypeError::new_err(format!(
                "{name}: a NumPy array of dtype {} and shape {}; expected one dimension of strings, or integers of shape (n, 81)",
                values.getattr("dtype")?.str()?,
                values.getattr("shape")?.str()?
            )));
        }
    }
    if is_type(values, "pandas", "DataFrame")? {
        return Err(PyTypeError::new_err(format!(
            "{name}: a DataFrame; pass one of its columns, e.g. df[\"puzzle\"]"
        )));
    }
    let mut out = Vec::new();
    for chunk in arrow_chunks(py, values, name)? {
        let array = import_array(&chunk)?;
        let got = py.detach(|| append_texts(array.as_ref(), &mut out));
        if let Err(found) = got {
            return Err(PyTypeError::new_err(format!(
                "{name}: an Arrow array of {found}; expected strings"
            )));
        }
    }
    Ok(out)
}

/// `values` as pyarrow arrays of strings (or bytes), one per chunk.
fn arrow_chunks<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let pa = py.import("pyarrow")?;
    let from_pandas = PyDict::new(py);
    from_pandas.set_item("from_pandas", true)?;
    let converted = if values.is_instance(&pa.getattr("Array")?)?
        || values.is_instance(&pa.getattr("ChunkedArray")?)?
    {
        values.clone()
    } else {
        // Strings pyarrow cannot encode (a pandas or NumPy array of Python str) go the way of
        // a list's.
        let listed = |error: PyErr| match values.hasattr("tolist") {
            Ok(true) => text_array(py, &values.call_method0("tolist")?, name),
            _ => Err(error),
        };
        if values.hasattr("__arrow_c_stream__")? {
            pa.call_method1("chunked_array", (values,))
                .or_else(listed)?
        } else if values.hasattr("__arrow_c_array__")? {
            pa.call_method1("array", (values,)).or_else(listed)?
        } else if is_type(values, "pandas", "Series")? || is_type(values, "numpy", "ndarray")? {
            // Missing values (None, NaN, NA) become nulls.
            pa.call_method("array", (values,), Some(&from_pandas))
                .or_else(listed)?
        } else {
            let values = if values.is_instance_of::<PyList>() {
                values.clone()
            } else {
                PyList::new(py, values.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{name}: {}; expected a sequence of puzzles (a list of str, a pandas Series, a NumPy or pyarrow array)",
                    type_name(values).unwrap_or_default()
                ))
            })?.collect::<PyResult<Vec<_>>>()?)?
            .into_any()
            };
            text_array(py, &values, name)?
        }
    };
    let chunks: Vec<Bound<'py, PyAny>> = if converted.is_instance(&pa.getattr("ChunkedArray")?)? {
        converted.getattr("chunks")?.extract()?
    } else {
        vec![converted]
    };
    let types = pa.getattr("types")?;
    chunks
        .into_iter()
        .map(|chunk| {
            let kind = chunk.getattr("type")?;
            if types.call_method1("is_dictionary", (&kind,))?.is_truthy()? {
                chunk.call_method0("dictionary_decode")
            } else if types.call_method1("is_null", (&kind,))?.is_truthy()? {
                chunk.call_method1("cast", (pa.call_method0("string")?,))
            } else {
                Ok(chunk)
            }
        })
        .collect()
}

/// A list of str (or bytes, or missing values) as a pyarrow array. A str UTF-8 cannot encode
/// (a lone surrogate, as `errors="surrogateescape"` reading leaves) is taken as the bytes
/// `surrogatepass` makes of it: not UTF-8, so its record is `invalid`, as a file's line with
/// such bytes is, and the other puzzles are solved.
fn text_array<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let pa = py.import("pyarrow")?;
    let options = PyDict::new(py);
    options.set_item("from_pandas", true)?;
    options.set_item("type", pa.call_method0("string")?)?;
    let error = match pa.call_method("array", (values,), Some(&options)) {
        Ok(array) => return Ok(array),
        Err(error) => error,
    };
    let unencodable = |item: &Bound<'py, PyAny>| {
        item.is_instance_of::<PyString>() && item.call_method1("encode", ("utf-8",)).is_err()
    };
    let Ok(items) = values.try_iter() else {
        return Err(not_text(py, values, name, error));
    };
    let items = items.collect::<PyResult<Vec<_>>>()?;
    if !items.iter().any(unencodable) {
        return Err(not_text(py, values, name, error));
    }
    let bytes = items
        .iter()
        .map(|item| match item.is_instance_of::<PyString>() {
            true => item.call_method1("encode", ("utf-8", "surrogatepass")),
            false => Ok(item.clone()),
        })
        .collect::<PyResult<Vec<_>>>()?;
    options.set_item("type", pa.call_method0("binary")?)?;
    pa.call_method("array", (PyList::new(py, bytes)?,), Some(&options))
        .map_err(|_| not_text(py, values, name, error))
}

/// The error for a sequence pyarrow could not read as strings: the first value that is not a
/// str, bytes or missing, by its index; else what pyarrow said.
fn not_text(py: Python<'_>, values: &Bound<'_, PyAny>, name: &str, error: PyErr) -> PyErr {
    let first_bad = values.try_iter().ok().and_then(|items| {
        items.enumerate().find_map(|(i, item)| {
            let item = item.ok()?;
            let fine = item.is_none()
                || item.is_instance_of::<PyString>()
                || item.is_instance_of::<PyBytes>()
                || item.extract::<f64>().is_ok_and(f64::is_nan);
            (!fine).then(|| (i, type_name(&item).unwrap_or_default()))
        })
    });
    match first_bad {
        Some((i, kind)) => PyTypeError::new_err(format!("{name}[{i}] is {kind}, not a str")),
        None => PyTypeError::new_err(format!("{name}: {}", error.value(py))),
    }
}

/// A NumPy integer array of shape (n, 81), 0 for blank, as n puzzles of 81 characters.
fn integer_grids(py: Python<'_>, values: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
    let shape: Vec<usize> = values.getattr("shape")?.extract()?;
    if shape.len() != 2 || shape[1] != 81 {
        return Err(PyValueError::new_err(format!(
            "{name}: integers must come as an array of shape (n, 81), one row per puzzle; this one has shape {shape:?}"
        )));
    }
    let np = py.import("numpy")?;
    let outside = np.call_method1(
        "logical_or",
        (
            values.call_method1("__lt__", (0,))?,
            values.call_method1("__gt__", (9,))?,
        ),
    )?;
    if outside.call_method0("any")?.is_truthy()? {
        let first: Vec<usize> = np
            .call_method1("argwhere", (outside,))?
            .get_item(0)?
            .call_method0("tolist")?
            .extract()?;
        let (row, col) = (first[0], first[1]);
        let value = values.get_item((row, col))?;
        return Err(PyValueError::new_err(format!(
            "{name}: cells are 0 (blank) to 9, but {name}[{row}, {col}] is {value}"
        )));
    }
    let digits = values
        .call_method1("astype", ("uint8",))?
        .call_method1("__add__", (b'0',))?;
    let bytes = np
        .call_method1("ascontiguousarray", (digits,))?
        .call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    Ok(bytes
        .chunks_exact(81)
        .map(|cells| Some(cells.to_vec()))
        .collect())
}

/// An Arrow array from an object of the Arrow PyCapsule protocol (`__arrow_c_array__`).
pub(crate) fn import_array(value: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let value = aligned(value)?;
    let capsules = value.call_method0("__arrow_c_array__")?;
    let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = capsules.extract()?;
    let schema = schema
        .pointer_checked(Some(c"arrow_schema"))?
        .cast::<FFI_ArrowSchema>();
    let array = array
        .pointer_checked(Some(c"arrow_array"))?
        .cast::<FFI_ArrowArray>();
    // SAFETY: by the protocol, capsules named "arrow_schema" and "arrow_array" hold an
    // initialised ArrowSchema and ArrowArray; the array is moved out (the capsule keeps a
    // released one), and the schema is only read while its capsule, held above, lives.
    let data = unsafe { from_ffi(FFI_ArrowArray::from_raw(array.as_ptr()), schema.as_ref()) }
        .map_err(arrow_error)?;
    Ok(arrow_array::make_array(data))
}

/// A pyarrow array whose buffers all start at a multiple of 8 bytes: `value` itself, or a copy
/// (`pyarrow.concat_arrays` allocates anew). Arrays unpickled from out-of-band buffers (as Dask
/// sends a pandas string column to a worker) may start anywhere, and the Arrow C data import
/// reads a string array's last offset through a pointer it assumes aligned.
fn aligned<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let pa = value.py().import("pyarrow")?;
    if !value.is_instance(&pa.getattr("Array")?)? {
        return Ok(value.clone());
    }
    let buffers: Vec<Option<Bound<'py, PyAny>>> = value.call_method0("buffers")?.extract()?;
    for buffer in buffers.iter().flatten() {
        let address: usize = buffer.getattr("address")?.extract()?;
        if !address.is_multiple_of(8) {
            return pa.call_method1("concat_arrays", (vec![value.clone()],));
        }
    }
    Ok(value.clone())
}

/// Appends the values of a string or binary array to `out`; the array's type when it is
/// neither.
fn append_texts(array: &dyn Array, out: &mut Texts) -> Result<(), DataType> {
    out.reserve(array.len());
    let owned = |v: Option<&[u8]>| v.map(<[u8]>::to_vec);
    match array.data_type() {
        DataType::Utf8 => out.extend(
            array
                .as_string::<i32>()
                .iter()
                .map(|v| owned(v.map(str::as_bytes))),
        ),
        DataType::LargeUtf8 => out.extend(
            array
                .as_string::<i64>()
                .iter()
                .map(|v| owned(v.map(str::as_bytes))),
        ),
        DataType::Utf8View => out.extend(
            array
                .as_string_view()
                .iter()
                .map(|v| owned(v.map(str::as_bytes))),
        ),
        DataType::Binary => out.extend(array.as_binary::<i32>().iter().map(owned)),
        DataType::LargeBinary => out.extend(array.as_binary::<i64>().iter().map(owned)),
        DataType::BinaryView => out.extend(array.as_binary_view().iter().map(owned)),
        other => return Err(other.clone()),
    }
    Ok(())
}
