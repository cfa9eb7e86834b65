//! A variable-width encoding: the occupied `(position, warps)` pairs, as a boxed slice.
//! Holds the states of any instance (at most `min(W, I)` pairs); larger and slower to
//! hash than [`super::packed`], so the search uses it only where packing does not fit.

use super::{Counts, Encoding};

/// States stored as their occupied pairs, flattened.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sparse;

impl Encoding for Sparse {
    type Key = Box<[u32]>;

    fn for_instance(_len: usize, _warps: u32) -> Option<Self> {
        Some(Sparse)
    }

    fn encode(&self, s: &Counts) -> Box<[u32]> {
        s.slots().iter().flat_map(|&(p, n)| [p, n]).collect()
    }

    fn is_finished(&self, key: &Box<[u32]>) -> bool {
        key.is_empty()
    }

    fn decode(&self, key: &Box<[u32]>, out: &mut Counts) {
        let buf = out.buffer();
        buf.extend(key.chunks_exact(2).map(|c| (c[0], c[1])));
    }

    /// The boxed pairs, rounded up to the allocator's 16-byte granule.
    fn key_bytes(&self, key: &Box<[u32]>) -> usize {
        (key.len() * 4).div_ceil(16) * 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let s = Counts::from_pairs([(0, 1000), (500, 3), (999, 1)]);
        let mut back = Counts::default();
        Sparse.decode(&Sparse.encode(&s), &mut back);
        assert_eq!(back, s);
        assert!(Sparse.is_finished(&Sparse.encode(&Counts::default())));
    }
}
