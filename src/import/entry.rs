//! Which kernel of a file `--entry` means: its mangled name (`_Z9vectorAddPKfS0_Pfi`),
//! its demangled signature (`vectorAdd(float const*, float const*, float*, int)`), its
//! demangled name (`vectorAdd`), or a part of any of these that only one kernel has;
//! spaces in demangled names do not count.
//! Files of many kernels are listed one per line, at most [`MAX_LISTED`] of them.

use crate::error::InputError;
use crate::import::listing::{Function, Listing};

/// Most kernels a refusal lists.
pub const MAX_LISTED: usize = 20;

/// The demangled signature of an Itanium-mangled name (`_Z...`), if it is one.
pub fn demangled(name: &str) -> Option<String> {
    if !name.starts_with("_Z") {
        return None;
    }
    cpp_demangle::Symbol::new(name).ok()?.demangle().ok()
}

/// The name a user calls a kernel by: the demangled name without its parameters and
/// return type (`vectorAdd`, `ns::reduce<256u>`), or the name itself.
pub fn short_name(name: &str) -> String {
    let Some(d) = demangled(name) else { return name.to_string() };
    let head = d.split('(').next().unwrap_or(&d).trim();
    head.strip_prefix("void ").unwrap_or(head).to_string()
}

/// The kernel `entry` names in `listing`, or the only one; refusals list the kernels.
pub fn pick<'a>(listing: &'a Listing, entry: Option<&str>, origin: &str) -> Result<&'a Function, InputError> {
    let all: Vec<&Function> = listing.functions.iter().collect();
    if all.is_empty() {
        return Err(InputError::new(
            "file",
            origin,
            "no kernel found (PTX .entry kernels, or SASS functions): is the file in the other format?",
        ));
    }
    let Some(e) = entry else {
        return match all.as_slice() {
            [one] => Ok(one),
            _ => Err(InputError::option(
                "entry",
                "",
                format!("{origin} has {} kernels; choose one by name or a part of it only one has:{}", all.len(), listed(&all)),
            )),
        };
    };
    // Spaces do not count (`applyPoly<float,4>` is `applyPoly<float, 4>`).
    let squeeze = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let want = squeeze(e);
    let rules: [&dyn Fn(&Function) -> bool; 4] = [
        &|f| f.name == e,
        &|f| demangled(&f.name).is_some_and(|d| squeeze(&d) == want),
        &|f| squeeze(&short_name(&f.name)) == want,
        &|f| f.name.contains(e) || demangled(&f.name).is_some_and(|d| squeeze(&d).contains(&want)),
    ];
    for rule in rules {
        let found: Vec<&Function> = all.iter().copied().filter(|f| rule(f)).collect();
        match found.as_slice() {
            [] => continue,
            [one] => return Ok(one),
            many => {
                return Err(InputError::option(
                    "entry",
                    e,
                    format!("{} kernels of {origin} match; give more of the name:{}", many.len(), listed(many)),
                ))
            }
        }
    }
    Err(InputError::option("entry", e, format!("no kernel of {origin} has this name or a name containing it; it has:{}", listed(&all))))
}

/// The kernels, one per line (`  vectorAdd  (_Z9vectorAddPKfS0_Pfi)`), at most
/// [`MAX_LISTED`].
fn listed(fs: &[&Function]) -> String {
    let mut text = String::new();
    for f in fs.iter().take(MAX_LISTED) {
        let short = short_name(&f.name);
        if short == f.name {
            text.push_str(&format!("\n  {short}"));
        } else {
            text.push_str(&format!("\n  {short}  ({})", f.name));
        }
    }
    if fs.len() > MAX_LISTED {
        text.push_str(&format!("\n  ... and {} more", fs.len() - MAX_LISTED));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(names: &[&str]) -> Listing {
        let functions =
            names.iter().map(|n| Function { name: n.to_string(), line: 1, items: vec![], resources: Default::default() }).collect();
        Listing { functions, arch: None }
    }

    #[test]
    fn names_demangled_names_and_unique_parts() {
        let l = listing(&["_Z9vectorAddPKfS0_Pfi", "_Z24transposeNoBankConflictsPfS_ii", "_Z18transposeCoalescedPfS_ii"]);
        let name = |e: &str| pick(&l, Some(e), "f").map(|f| f.name.clone());
        assert_eq!(name("vectorAdd").unwrap(), "_Z9vectorAddPKfS0_Pfi");
        assert_eq!(name("vectorAdd(float const*, float const*, float*, int)").unwrap(), "_Z9vectorAddPKfS0_Pfi");
        assert_eq!(name("NoBank").unwrap(), "_Z24transposeNoBankConflictsPfS_ii");
        assert_eq!(name("_Z18transposeCoalescedPfS_ii").unwrap(), "_Z18transposeCoalescedPfS_ii");
        let e = name("transpose").unwrap_err();
        assert!(e.reason.contains("2 kernels") && e.reason.contains("\n  transposeCoalesced  (_Z18"), "{e}");
        assert!(name("gemm").unwrap_err().reason.contains("\n  vectorAdd  (_Z9vectorAddPKfS0_Pfi)"));
        let t = listing(&["_Z9applyPolyIfLi4EEvPKT_PS0_i", "_Z9applyPolyIdLi8EEvPKT_PS0_i"]);
        let pick_t = |e: &str| pick(&t, Some(e), "f").map(|f| f.name.clone());
        assert_eq!(pick_t("applyPoly<float,4>").unwrap(), "_Z9applyPolyIfLi4EEvPKT_PS0_i");
        assert_eq!(pick_t("applyPoly<double, 8>").unwrap(), "_Z9applyPolyIdLi8EEvPKT_PS0_i");
        assert!(pick_t("applyPoly").is_err());
    }

    #[test]
    fn long_lists_stop_at_a_screenful() {
        let names: Vec<String> = (0..213).map(|i| format!("k{i}")).collect();
        let l = listing(&names.iter().map(String::as_str).collect::<Vec<_>>());
        let e = pick(&l, None, "f").unwrap_err();
        assert_eq!(e.reason.lines().count(), 1 + MAX_LISTED + 1, "{e}");
        assert!(e.reason.ends_with("... and 193 more"), "{e}");
    }
}
