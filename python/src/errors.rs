//! The library's errors as Python exceptions, and the names of Python types for messages.

use arrow_schema::ArrowError;
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;

use sudoku_bulk::command::config::{ConfigError, own_column_reason, own_column_renaming};
use sudoku_bulk::pipeline::RunError;

/// A run's error as the Python exception that says the same.
pub(crate) fn run_error(error: RunError) -> PyErr {
    let message = pythonic(&error.to_string());
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

/// A refused `keep_columns` as a ValueError in Python's words: the renaming it advises is
/// the argument to give (`keep_columns=['solutions=input_solutions']`), not the option.
pub(crate) fn kept_columns_error(error: ConfigError) -> PyErr {
    let message = match &error {
        ConfigError::KeptColumnIsOwn {
            name,
            input,
            given,
            column,
            own,
        } => format!(
            "keep_columns: '{name}': {}; keep it under another name: keep_columns=['{}']",
            own_column_reason(given, column, own),
            own_column_renaming(input, column)
        ),
        _ => pythonic(&error.to_string()),
    };
    PyValueError::new_err(message)
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

/// A library message as Python's words: each command-line option it names (`--max-attempts`)
/// becomes the argument of the same meaning (`max_attempts`).
pub(crate) fn pythonic(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(after.len());
        let name = after[..name_len].trim_end_matches('-');
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str(&name.replace('-', "_"));
            rest = &after[name.len()..];
        } else {
            out.push_str("--");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::pythonic;

    #[test]
    fn options_become_arguments() {
        assert_eq!(
            pythonic("widen a range or raise --max-attempts"),
            "widen a range or raise max_attempts"
        );
        assert_eq!(
            pythonic("--dedupe: more than 3 classes; raise --max-classes (each)"),
            "dedupe: more than 3 classes; raise max_classes (each)"
        );
        assert_eq!(pythonic("a -- b --1 c--"), "a -- b --1 c--");
    }
}
