//! The library's errors as Python exceptions, and the names of Python types for messages.

use arrow_schema::ArrowError;
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;

use sudoku_bulk::pipeline::RunError;

/// A run's error as the Python exception that says the same.
pub(crate) fn run_error(error: RunError) -> PyErr {
    let message = error.to_string();
    match &error {
        RunError::Open { source, .. } | RunError::Read { source, .. }
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            PyFileNotFoundError::new_err(message)
        }
        RunError::Open { .. } | RunError::Read { .. } | RunError::Write { .. } => {
            PyOSError::new_err(message)
        }
        // A bound an argument sets (max_classes) is a bad value for the data given.
        RunError::Format { .. }
        | RunError::TooManyClasses { .. }
        | RunError::TooManyForms { .. } => PyValueError::new_err(message),
        RunError::Interrupted => PyKeyboardInterrupt::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}

/// An Arrow conversion error as a ValueError.
pub(crate) fn arrow_error(error: ArrowError) -> PyErr {
    PyValueError::new_err(format!("Arrow: {error}"))
}

/// Whether `value`'s type is `name` from the package `package` (without importing it).
pub(crate) fn is_type(value: &Bound<'_, PyAny>, package: &str, name: &str) -> PyResult<bool> {
    let kind = value.get_type();
    let module: String = kind.getattr("__module__")?.extract()?;
    Ok(kind.name()?.to_cow()? == name
        && (module == package || module.starts_with(&format!("{package}."))))
}

/// The name of `value`'s type, for messages.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.get_type().name()?.to_string())
}
