//! Warp-count states: the shared ground of the exact search and the rollouts.
//!
//! Warps are identical, so a state is how many warps have completed `p` instructions,
//! for `p = 0..I`; finished warps are implicit. In each cycle
//! exactly `min(sigma_X, #warps whose next instruction is X)` warps advance on X, for
//! X = L, C; the adversary picks which positions they come from.
//!
//! * [`Counts`]: a state, as the sorted list of occupied positions (at most
//!   `min(W, I)` entries whatever `I` and `W` are).
//! * [`transitions::Transitions`]: the successors of a state.
//! * [`Encoding`]: how a state is stored as a memo key; one file per encoding
//!   ([`packed`] today). The search is generic over it.
//! * [`trace::Trace`]: a path as the moves of each cycle, and the schedule it stands for.
//!
//! Per-state bounds live apart, in [`crate::state_bounds`].

pub mod packed;
pub mod sparse;
pub mod trace;
pub mod transitions;

use std::fmt::Debug;
use std::hash::Hash;

/// A state: `(position, warps)` pairs for the positions `p < I` that hold at least one
/// warp, in increasing order of position. Empty exactly when every warp has finished.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    slots: Vec<(u32, u32)>,
}

impl Counts {
    /// All `warps` warps before their first instruction.
    pub fn start(warps: u32) -> Counts {
        Counts { slots: vec![(0, warps)] }
    }

    /// Builds a state from `(position, warps)` pairs; pairs with zero warps are dropped.
    /// Positions must be strictly increasing.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u32, u32)>) -> Counts {
        let slots: Vec<(u32, u32)> = pairs.into_iter().filter(|&(_, n)| n > 0).collect();
        debug_assert!(slots.windows(2).all(|w| w[0].0 < w[1].0), "positions increase");
        Counts { slots }
    }

    /// True when every warp has finished.
    pub fn is_finished(&self) -> bool {
        self.slots.is_empty()
    }

    /// The occupied positions and their warp counts, in increasing position.
    pub fn slots(&self) -> &[(u32, u32)] {
        &self.slots
    }

    /// Warps that have completed exactly `p` instructions.
    pub fn count(&self, p: usize) -> u32 {
        match self.slots.binary_search_by_key(&(p as u32), |&(q, _)| q) {
            Ok(i) => self.slots[i].1,
            Err(_) => 0,
        }
    }

    /// Unfinished warps.
    pub fn warps(&self) -> u64 {
        self.slots.iter().map(|&(_, n)| n as u64).sum()
    }

    /// Replaces the content with `other`'s, reusing the allocation.
    pub fn assign(&mut self, other: &Counts) {
        self.slots.clone_from(&other.slots);
    }

    /// Clears the state and returns its buffer, for [`transitions`] to fill in order.
    pub(crate) fn buffer(&mut self) -> &mut Vec<(u32, u32)> {
        self.slots.clear();
        &mut self.slots
    }
}

/// How states are stored as keys of the search's memo table. Implementations differ
/// only in memory and speed, never in meaning: `decode(encode(s)) == s`.
///
/// Adding a wider or more compact encoding is one new file beside [`packed`].
pub trait Encoding: Send + Sync + Sized {
    /// The stored form of a state.
    type Key: Clone + Eq + Hash + Debug + Send + 'static;

    /// The encoding for instances with `len` instructions and `warps` warps, or `None`
    /// when some state of such an instance does not fit it.
    fn for_instance(len: usize, warps: u32) -> Option<Self>;

    /// The key of `s`.
    fn encode(&self, s: &Counts) -> Self::Key;

    /// Whether `key` is the finished state (every warp done).
    fn is_finished(&self, key: &Self::Key) -> bool;

    /// The state stored as `key`, written into `out`.
    fn decode(&self, key: &Self::Key, out: &mut Counts);

    /// Heap bytes `key` owns besides its inline size (0 for fixed-width keys), for the
    /// search's memory limit.
    fn key_bytes(&self, _key: &Self::Key) -> usize {
        0
    }
}

/// `C(I + W, W)`, the number of states of `W` warps on `I` instructions, or `None` above
/// `u64::MAX`.
pub fn states(len: u64, warps: u64) -> Option<u64> {
    let k = warps.min(len);
    let mut c: u128 = 1;
    for i in 1..=k as u128 {
        // C(n, i) = C(n, i - 1) * (n - i + 1) / i, exact at every step.
        c = c.checked_mul((len + warps) as u128 - i + 1)? / i;
        if c > u64::MAX as u128 {
            return None;
        }
    }
    Some(c as u64)
}
