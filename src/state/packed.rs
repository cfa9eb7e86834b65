//! Fixed-width encodings: the count of every position `0..I-1` in `bits` bits of one
//! machine integer (`bits` = the width of `W`). Compact and fast to hash; limited to
//! `I * bits <= 64` ([`Packed64`]) or `<= 128` ([`Packed128`]).

use super::{Counts, Encoding};

/// Packing of counts into an unsigned integer of `BITS` bits.
#[derive(Debug, Clone, Copy)]
pub struct Packed<T> {
    len: usize,
    bits: u32,
    _word: std::marker::PhantomData<T>,
}

/// States packed into a `u64` (half the memory traffic of [`Packed128`]).
pub type Packed64 = Packed<u64>;
/// States packed into a `u128`.
pub type Packed128 = Packed<u128>;

/// The unsigned integer types a [`Packed`] encoding can use.
pub trait Word: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static {
    /// Width in bits.
    const BITS: u32;
    /// Zero.
    const ZERO: Self;
    /// `self | (v << shift)`.
    fn or_shifted(self, v: u32, shift: u32) -> Self;
    /// `(self >> shift) & mask(bits)`.
    fn field(self, shift: u32, bits: u32) -> u32;
}

impl Word for u64 {
    const BITS: u32 = 64;
    const ZERO: Self = 0;
    fn or_shifted(self, v: u32, shift: u32) -> Self {
        self | (v as u64) << shift
    }
    fn field(self, shift: u32, bits: u32) -> u32 {
        ((self >> shift) & ((1u64 << bits) - 1)) as u32
    }
}

impl Word for u128 {
    const BITS: u32 = 128;
    const ZERO: Self = 0;
    fn or_shifted(self, v: u32, shift: u32) -> Self {
        self | (v as u128) << shift
    }
    fn field(self, shift: u32, bits: u32) -> u32 {
        ((self >> shift) & ((1u128 << bits) - 1)) as u32
    }
}

impl<T: Word> Encoding for Packed<T> {
    type Key = T;

    fn for_instance(len: usize, warps: u32) -> Option<Self> {
        let bits = 32 - warps.leading_zeros();
        let fits = (len as u64) * (bits as u64) <= T::BITS as u64;
        fits.then_some(Packed { len, bits, _word: std::marker::PhantomData })
    }

    fn encode(&self, s: &Counts) -> T {
        s.slots().iter().fold(T::ZERO, |k, &(p, n)| k.or_shifted(n, p * self.bits))
    }

    fn is_finished(&self, key: &T) -> bool {
        *key == T::ZERO
    }

    fn decode(&self, key: &T, out: &mut Counts) {
        let buf = out.buffer();
        for p in 0..self.len as u32 {
            let n = key.field(p * self.bits, self.bits);
            if n > 0 {
                buf.push((p, n));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_limits() {
        let e = Packed64::for_instance(12, 31).unwrap();
        let s = Counts::from_pairs([(0, 3), (5, 27), (11, 1)]);
        let mut back = Counts::default();
        e.decode(&e.encode(&s), &mut back);
        assert_eq!(back, s);
        assert!(e.is_finished(&e.encode(&Counts::default())));
        assert!(Packed64::for_instance(13, 31).is_none());
        assert!(Packed128::for_instance(18, 64).is_some());
        assert!(Packed128::for_instance(19, 64).is_none());
    }
}
