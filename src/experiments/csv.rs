//! CSV text as the commands write it (`converge`, `compare-constraints`, `sweep report`):
//! a header line, then one line per row, fields joined by commas, every line ending in
//! `\n`. Fields are written as given: a field that may hold a comma, a quote or a line
//! break is passed through [`quoted`] by its caller, so that a column is quoted on every
//! line or on none (the files' format, a contract, quotes the sweep's `error` column
//! always and nothing else).

/// The CSV text of `rows`: `header` on the first line, then `fields(row)` for each row,
/// in order. Every line has as many fields as `fields` returns (the caller keeps that
/// equal to the header's).
pub fn table<T>(header: &[&str], rows: &[T], fields: impl Fn(&T) -> Vec<String>) -> String {
    let mut s = line(header.iter().copied());
    for r in rows {
        s.push_str(&line(fields(r).iter().map(String::as_str)));
    }
    s
}

/// One line: the fields joined by commas, ending in `\n`.
fn line<'a>(fields: impl Iterator<Item = &'a str>) -> String {
    let mut s = fields.collect::<Vec<_>>().join(",");
    s.push('\n');
    s
}

/// `text` as one CSV field whatever it holds: in double quotes, each quote doubled.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// `v` with `decimals` digits after the point (seconds are written with 6).
pub fn fixed(v: f64, decimals: usize) -> String {
    format!("{v:.decimals$}")
}

/// `v` written out, or the empty field when there is none.
pub fn or_empty<T: ToString>(v: Option<T>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_rows_and_fields_as_written() {
        let rows = [(1u32, Some(2.5f64), "a \"b\", c"), (3, None, "")];
        let text = table(&["n", "t", "e"], &rows, |&(n, t, e)| vec![n.to_string(), or_empty(t.map(|t| fixed(t, 3))), quoted(e)]);
        assert_eq!(text, "n,t,e\n1,2.500,\"a \"\"b\"\", c\"\n3,,\"\"\n");
    }

    #[test]
    fn no_rows_is_the_header_alone() {
        assert_eq!(table::<u8>(&["a", "b"], &[], |_| vec![]), "a,b\n");
    }
}
