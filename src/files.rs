//! Reading input files, with errors that name the file.

use crate::error::InputError;
use std::io::Read;
use std::path::Path;

/// Largest input file read (instance files, task sets, configs): 16 MiB.
pub(crate) const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The word a unit variant has in input files and `--json` (its serde name:
/// `round-robin`, `high`, `rate-monotonic`).
pub fn serde_word<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|x| x.as_str().map(str::to_string)).unwrap_or_default()
}

/// Whether `path` means standard input (`-`).
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How a path is named in messages (`standard input` for `-`).
pub fn origin(path: &Path) -> String {
    if is_stdin(path) {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// Reads a file (or standard input for `-`) as UTF-8 text, at most 16 MiB;
/// a missing, unreadable, oversized or non-UTF-8 input is an [`InputError`] on `file`.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    let fail = |why: String| InputError::new("file", origin(path), why);
    let mut bytes = Vec::new();
    let read = if is_stdin(path) {
        std::io::stdin().lock().take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(fail(format!("larger than the input cap of {} MiB", MAX_INPUT_BYTES >> 20)));
    }
    let text = String::from_utf8(bytes).map_err(|_| fail("not UTF-8 text".into()))?;
    // A UTF-8 byte-order mark is not part of the content (JSON parsers refuse it).
    Ok(text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text))
}

/// Parses TOML into `T`, turning the (multi-line) TOML diagnostics into one line that
/// names the line and quotes the text the error is about.
pub fn parse_toml<T: serde::de::DeserializeOwned>(text: &str, origin: &str) -> Result<T, InputError> {
    toml::from_str(text).map_err(|e| {
        let span = e.span().map(|s| s.start.min(text.len())..s.end.min(text.len()));
        let at = span.as_ref().map(|s| format!(" (line {})", text[..s.start].matches('\n').count() + 1)).unwrap_or_default();
        let near = span
            .and_then(|s| text.get(s))
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .map(|t| format!(" at `{}`", crate::error::shorten(t)))
            .unwrap_or_default();
        let msg = e.message().trim().replace('\n', " ");
        if let Some(value_error) = e.span().and_then(|s| wrong_value(text, s.start.min(text.len()), &msg, origin)) {
            return value_error;
        }
        InputError::new("file", origin, format!("not a valid file{at}: {msg}{near}"))
    })
}

/// A value of the wrong type or out of range (`warps = 4.5`, a 30-digit integer) as an
/// error about its key: `invalid warps = 4.5: must be a whole number (FILE, line 2)`,
/// instead of the parser's `expected i64` / `as i128`.
fn wrong_value(text: &str, start: usize, msg: &str, origin: &str) -> Option<InputError> {
    if !msg.starts_with("invalid type") && !msg.starts_with("invalid value") {
        return None;
    }
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    let key = before.trim_end().strip_suffix('=')?.rsplit([',', '{']).next()?.trim().trim_matches('"');
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let value = text[start..line_end].split([',', '}', '#']).next().unwrap_or("").trim();
    let whole = ["i64", "u64", "usize", "u32", "i32", "u8", "u16", "i128", "u128"].iter().any(|t| msg.contains(&format!("expected {t}")));
    let reason = if msg.contains("floating point") && whole {
        "must be a whole number".to_string()
    } else if msg.contains("integer") && (msg.contains("as i128") || msg.contains("as u128") || msg.contains("invalid value")) && whole {
        "is out of range: too large (or negative) for this field".to_string()
    } else {
        msg.replacen("invalid type: ", "", 1).replacen("invalid value: ", "", 1).replace(", expected", ": expected")
    };
    let line = text[..start].matches('\n').count() + 1;
    Some(InputError::new(key, value, format!("{reason} ({origin}, line {line})")))
}
