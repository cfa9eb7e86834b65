//! Wording shared by the binary's messages and tables (the library keeps its own for
//! its errors; these are not part of its public surface).

use gpu_makespan::error::InputError;

/// Longest echo of a user's value in a message before it is shortened.
const MAX_ECHO: usize = 60;

/// `n` and the word, plural unless `n` is 1: `1 barrier`, `3 barriers`.
pub(crate) fn plural(n: impl Into<u64>, word: &str) -> String {
    match n.into() {
        1 => format!("1 {word}"),
        n => format!("{n} {word}s"),
    }
}

/// `text` itself if short, else its start, `...` and its length; always one line.
pub(crate) fn shorten(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    match one_line.chars().count() {
        n if n <= MAX_ECHO => one_line,
        n => format!("{}... ({n} characters)", one_line.chars().take(MAX_ECHO).collect::<String>()),
    }
}

/// `value` as a positive integer, or an [`InputError`] on `field`.
pub(crate) fn positive(value: i64, field: &str) -> Result<u64, InputError> {
    u64::try_from(value).ok().filter(|&v| v > 0).ok_or_else(|| InputError::new(field, value, "must be a positive integer"))
}
