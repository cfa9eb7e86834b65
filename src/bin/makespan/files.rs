//! Output files and the values of options, on the binary's side: errors name the
//! option (or spec field) and the value, as the library's do.

use gpu_makespan::InputError;
use std::path::Path;
use std::time::Duration;

/// A whole message shortened to at most 300 characters, on one line.
pub fn shorten_line(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    if one_line.chars().count() <= 300 {
        return one_line;
    }
    format!("{}...", one_line.chars().take(300).collect::<String>())
}

/// `value` as a positive, finite number of seconds, or an [`InputError`] on `field`.
pub fn seconds(value: f64, field: &str) -> Result<Duration, InputError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|_| value > 0.0)
        .ok_or_else(|| InputError::new(field, value, "must be a positive number of seconds, at most 1e19"))
}

/// A number of bytes given in `field` as an integer with an optional binary suffix
/// (`K`, `M`, `G`, `T`, optionally followed by `B` or `iB`): `2G` = 2 GiB. At least 1 MiB.
pub fn bytes(text: &str, field: &str) -> Result<usize, InputError> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let number = upper.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match number.chars().last() {
        Some('K') => (&number[..number.len() - 1], 10),
        Some('M') => (&number[..number.len() - 1], 20),
        Some('G') => (&number[..number.len() - 1], 30),
        Some('T') => (&number[..number.len() - 1], 40),
        _ => (number, 0),
    };
    let value = digits.trim().parse::<u64>().ok().and_then(|n| n.checked_mul(1u64 << shift)).and_then(|n| usize::try_from(n).ok());
    match value {
        Some(v) if v >= 1 << 20 => Ok(v),
        Some(_) => Err(InputError::new(field, text, "must be at least 1M")),
        None => Err(InputError::new(field, text, "must be a number of bytes such as 2G, 512M or 1500000000")),
    }
}

/// Creates the directory an output file given in `field` goes into, naming the part of
/// the path that is in the way.
pub fn ensure_parent(path: &Path, field: &str) -> Result<(), InputError> {
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else { return Ok(()) };
    if let Some(file) = dir.ancestors().find(|a| !a.as_os_str().is_empty() && a.exists() && !a.is_dir()) {
        return Err(InputError::new(field, path.display(), format!("{} is not a directory", file.display())));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| InputError::new(field, path.display(), format!("cannot create directory {}: {e}", dir.display())))
}

/// Checks, before any work, that an output file given in `field` can be written: creates
/// its directory and opens it for writing (an existing file is left as it is until
/// [`write_text`]).
pub fn prepare_output(path: &Path, field: &str) -> Result<(), InputError> {
    ensure_parent(path, field)?;
    if path.is_dir() {
        return Err(InputError::new(field, path.display(), "is a directory"));
    }
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
        .map_err(|e| InputError::new(field, path.display(), e.to_string()))
}

/// Writes `lines` to `path`, each followed by a newline, through a buffer (no copy of
/// the whole text in memory); errors as [`write_text`].
pub fn write_lines<'a>(path: &Path, lines: impl Iterator<Item = &'a str>, field: &str) -> Result<(), InputError> {
    use std::io::Write;
    ensure_parent(path, field)?;
    let fail = |e: std::io::Error| InputError::new(field, path.display(), e.to_string());
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(fail)?);
    for line in lines {
        w.write_all(line.as_bytes()).and_then(|()| w.write_all(b"\n")).map_err(fail)?;
    }
    w.flush().map_err(fail)
}

/// Writes `text` to the output file given in `field`, creating its directory.
pub fn write_text(path: &Path, text: &str, field: &str) -> Result<(), InputError> {
    ensure_parent(path, field)?;
    std::fs::write(path, text).map_err(|e| InputError::new(field, path.display(), e.to_string()))
}
