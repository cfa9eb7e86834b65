//! Reading input files and writing output files, with errors that name the file.

use crate::error::InputError;
use std::path::Path;

/// Reads a file as UTF-8 text; a missing or unreadable file is an [`InputError`] on `file`.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    std::fs::read_to_string(path).map_err(|e| InputError::new("file", path.display(), e.to_string()))
}

/// Parses TOML into `T`, turning the (multi-line) TOML diagnostics into one line.
pub fn parse_toml<T: serde::de::DeserializeOwned>(text: &str, origin: &str) -> Result<T, InputError> {
    toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        let msg = e.message().replace('\n', " ");
        let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
        InputError::new("file", origin, format!("not a valid file{at}: {msg}"))
    })
}

/// Creates the directory an output file given in `field` goes into.
pub fn ensure_parent(path: &Path, field: &str) -> Result<(), InputError> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).map_err(|e| InputError::new(field, path.display(), e.to_string()))
        }
        _ => Ok(()),
    }
}

/// Writes `text` to the output file given in `field`, creating its directory.
pub fn write_text(path: &Path, text: &str, field: &str) -> Result<(), InputError> {
    ensure_parent(path, field)?;
    std::fs::write(path, text).map_err(|e| InputError::new(field, path.display(), e.to_string()))
}
