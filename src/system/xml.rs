//! XML helpers of the AMALTHEA reader ([`crate::system::amalthea`]) and its event chains
//! ([`crate::system::event_chains`]): reference attributes and `xsi:type`.

use roxmltree::Node;

/// The XML Schema instance namespace of `xsi:type`.
const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// Element names, after its `?type=` suffix and percent-encoding are removed, of a
/// reference attribute (space-separated list).
pub fn refs(value: &str) -> Vec<String> {
    value.split_whitespace().map(|r| decode(r.split('?').next().unwrap_or(r))).collect()
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(s.get(i + 1..i + 3).unwrap_or(""), 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An element's `xsi:type`, without the `am:` prefix.
pub fn xsi_type<'a>(n: Node<'a, '_>) -> &'a str {
    n.attribute((XSI, "type")).map(|t| t.trim_start_matches("am:")).unwrap_or("")
}
