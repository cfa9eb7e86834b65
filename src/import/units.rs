//! Unit maps as data (`maps/*.toml`): which opcode runs on the load/store unit (`L`),
//! which on the CUDA cores (`C`), which is not an instruction of the model, and the
//! control classes. The shipped maps are built in; a user's map replaces entries and
//! may set a `default` class for opcodes no map knows (otherwise they are refused).

use crate::error::InputError;
use crate::files::parse_toml;
use serde::Deserialize;
use std::collections::BTreeMap;

/// What an opcode is to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, serde::Serialize)]
pub enum Class {
    /// Load/store unit.
    L,
    /// CUDA cores.
    C,
    /// Not an instruction of the model (skipped).
    #[serde(rename = "none")]
    Skip,
    /// A block barrier (`__syncthreads()`): `|` in the kernel.
    #[serde(rename = "barrier")]
    Barrier,
    /// A branch (issued on the cores; followed by the control-flow rules).
    #[serde(rename = "branch")]
    Branch,
    /// The end of the thread (issued on the cores).
    #[serde(rename = "exit")]
    Exit,
}

impl Class {
    /// The name used in map files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Class::L => "L",
            Class::C => "C",
            Class::Skip => "none",
            Class::Barrier => "barrier",
            Class::Branch => "branch",
            Class::Exit => "exit",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    name: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    default: Option<Class>,
    #[serde(default)]
    opcodes: BTreeMap<String, Class>,
}

/// A unit map: opcode (lower case, possibly with dotted modifiers) -> class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitMap {
    /// Which map(s) this is, for provenance.
    pub name: String,
    /// Class of opcodes no entry matches (`None`: refuse them).
    pub default: Option<Class>,
    opcodes: BTreeMap<String, Class>,
}

/// The built-in maps: (name, text).
pub const BUILT_IN: [(&str, &str); 3] = [
    ("ptx", include_str!("../../maps/ptx.toml")),
    ("sass-sm6x", include_str!("../../maps/sass-sm6x.toml")),
    ("sass-sm7x", include_str!("../../maps/sass-sm7x.toml")),
];

impl UnitMap {
    /// Parses a map file's text (from `origin`).
    pub fn from_toml(text: &str, origin: &str) -> Result<UnitMap, InputError> {
        let f: MapFile = parse_toml(text, origin)?;
        if matches!(f.default, Some(Class::Barrier | Class::Branch | Class::Exit)) {
            return Err(InputError::new("default", origin, "the default class must be L, C or none"));
        }
        let opcodes = f.opcodes.into_iter().map(|(k, v)| (k.to_ascii_lowercase(), v)).collect();
        Ok(UnitMap { name: f.name.unwrap_or_else(|| origin.to_string()), default: f.default, opcodes })
    }

    /// A built-in map by name (`ptx`, `sass-sm6x`, `sass-sm7x`).
    pub fn built_in(name: &str) -> UnitMap {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name).expect("a built-in map name");
        UnitMap::from_toml(text, name).expect("built-in maps parse")
    }

    /// `self` with the user's map `user` on top: its entries replace these, its default
    /// applies.
    pub fn overridden_by(mut self, user: UnitMap) -> UnitMap {
        self.opcodes.extend(user.opcodes);
        UnitMap { name: format!("{} + {}", self.name, user.name), default: user.default.or(self.default), opcodes: self.opcodes }
    }

    /// The class of `opcode` (any case): the entry of its longest dotted prefix, else
    /// the default; with the key that matched (`*` for the default).
    pub fn class(&self, opcode: &str) -> Option<(Class, String)> {
        let op = opcode.to_ascii_lowercase();
        let mut key = op.as_str();
        loop {
            if let Some(&c) = self.opcodes.get(key) {
                return Some((c, key.to_string()));
            }
            match key.rfind('.') {
                Some(i) => key = &key[..i],
                None => return self.default.map(|c| (c, "*".to_string())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_maps_classify_by_longest_prefix() {
        let ptx = UnitMap::built_in("ptx");
        assert_eq!(ptx.class("ld.global.f32").unwrap().0, Class::L);
        assert_eq!(ptx.class("ld.param.u64").unwrap().0, Class::Skip);
        assert_eq!(ptx.class("bar.sync").unwrap().0, Class::Barrier);
        assert_eq!(ptx.class("fma.rn.f32").unwrap().0, Class::C);
        assert_eq!(ptx.class("bra.uni").unwrap().0, Class::Branch);
        assert!(ptx.class("frobnicate.u32").is_none());
        for name in ["sass-sm6x", "sass-sm7x"] {
            let m = UnitMap::built_in(name);
            assert_eq!(m.class("LDG.E.SYS").unwrap().0, Class::L, "{name}");
            assert_eq!(m.class("STS").unwrap().0, Class::L);
            assert_eq!(m.class("MUFU.RCP").unwrap().0, Class::C);
            assert_eq!(m.class("DFMA").unwrap().0, Class::C);
            assert_eq!(m.class("TEX.LL").unwrap().0, Class::L);
            assert_eq!(m.class("BAR.SYNC").unwrap().0, Class::Barrier);
            assert_eq!(m.class("NOP").unwrap().0, Class::Skip);
            assert_eq!(m.class("BRA").unwrap().0, Class::Branch);
            assert_eq!(m.class("EXIT").unwrap().0, Class::Exit);
        }
        assert_eq!(UnitMap::built_in("sass-sm7x").class("LDGSTS.E").unwrap().0, Class::L);
        assert!(UnitMap::built_in("sass-sm6x").class("LDGSTS.E").is_none());
        let user = UnitMap::from_toml("default = \"C\"\n[opcodes]\nmufu = \"L\"\n", "mine.toml").unwrap();
        let m = UnitMap::built_in("sass-sm6x").overridden_by(user);
        assert_eq!(m.class("MUFU.EX2").unwrap().0, Class::L);
        assert_eq!(m.class("WHATEVER").unwrap(), (Class::C, "*".into()));
        assert!(UnitMap::from_toml("default = \"barrier\"\n", "x").is_err());
    }
}
