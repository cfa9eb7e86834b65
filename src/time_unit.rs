//! Time units as types: [`time_unit!`] declares a newtype over `u128` for one unit of
//! time (the warp model's cycles, the RTA's ticks, the system's picoseconds), so that two
//! units cannot meet by accident. Values of the same unit add and subtract; a count
//! (`u128`) scales them; two values of the same unit divide into a count. Nothing
//! crosses units: a conversion is a named function that says how it rounds. This file
//! uses no other module, so every layer may declare its unit with it.

/// Declares `$name`, a time in one unit: a `u128` newtype (serialised as the bare
/// number, `#[serde(transparent)]`) with the arithmetic of one unit and none across
/// units; `$name::new`/`get` are the explicit way in and out of a raw number.
macro_rules! time_unit {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(u128);

        impl $name {
            /// Zero.
            pub const ZERO: $name = $name(0);
            /// The largest value.
            pub const MAX: $name = $name(u128::MAX);

            /// The time of `n` units.
            pub const fn new(n: u128) -> $name {
                $name(n)
            }

            /// The number of units (to format or convert it).
            pub const fn get(self) -> u128 {
                self.0
            }

            /// `self + t`, `None` on overflow.
            pub fn checked_add(self, t: $name) -> Option<$name> {
                self.0.checked_add(t.0).map($name)
            }

            /// `self - t`, `None` below zero.
            pub fn checked_sub(self, t: $name) -> Option<$name> {
                self.0.checked_sub(t.0).map($name)
            }

            /// `self * n`, `None` on overflow.
            pub fn checked_mul(self, n: u128) -> Option<$name> {
                self.0.checked_mul(n).map($name)
            }

            /// `self + t`, at most [`Self::MAX`].
            pub fn saturating_add(self, t: $name) -> $name {
                $name(self.0.saturating_add(t.0))
            }

            /// `self - t`, at least zero.
            pub fn saturating_sub(self, t: $name) -> $name {
                $name(self.0.saturating_sub(t.0))
            }

            /// `self * n`, at most [`Self::MAX`].
            pub fn saturating_mul(self, n: u128) -> $name {
                $name(self.0.saturating_mul(n))
            }

            /// `self / n` rounded up.
            pub fn div_ceil(self, n: u128) -> $name {
                $name(self.0.div_ceil(n))
            }

            /// Whether `self` is a whole multiple of `t`.
            pub fn is_multiple_of(self, t: $name) -> bool {
                self.0.is_multiple_of(t.0)
            }

            /// The greatest common divisor of the two numbers of units.
            pub fn gcd(self, t: $name) -> $name {
                $name($crate::time_unit::gcd(self.0, t.0))
            }

            /// How many `t` it takes to cover `self` (`self / t` rounded up): a count.
            pub fn ceil_ratio(self, t: $name) -> u128 {
                self.0.div_ceil(t.0)
            }
        }

        impl std::ops::Add for $name {
            type Output = $name;
            fn add(self, t: $name) -> $name {
                $name(self.0 + t.0)
            }
        }

        impl std::ops::AddAssign for $name {
            fn add_assign(&mut self, t: $name) {
                self.0 += t.0;
            }
        }

        impl std::ops::Sub for $name {
            type Output = $name;
            fn sub(self, t: $name) -> $name {
                $name(self.0 - t.0)
            }
        }

        impl std::ops::SubAssign for $name {
            fn sub_assign(&mut self, t: $name) {
                self.0 -= t.0;
            }
        }

        impl std::ops::Mul<u128> for $name {
            type Output = $name;
            fn mul(self, n: u128) -> $name {
                $name(self.0 * n)
            }
        }

        impl std::ops::Mul<$name> for u128 {
            type Output = $name;
            fn mul(self, t: $name) -> $name {
                $name(self * t.0)
            }
        }

        impl std::ops::Div<u128> for $name {
            type Output = $name;
            fn div(self, n: u128) -> $name {
                $name(self.0 / n)
            }
        }

        /// How many times `t` fits in `self`: a count.
        impl std::ops::Div for $name {
            type Output = u128;
            fn div(self, t: $name) -> u128 {
                self.0 / t.0
            }
        }

        /// What is left of `self` after whole multiples of `t`.
        impl std::ops::Rem for $name {
            type Output = $name;
            fn rem(self, t: $name) -> $name {
                $name(self.0 % t.0)
            }
        }

        impl std::iter::Sum for $name {
            fn sum<I: Iterator<Item = $name>>(it: I) -> $name {
                it.fold($name(0), |a, b| a + b)
            }
        }

        impl<'a> std::iter::Sum<&'a $name> for $name {
            fn sum<I: Iterator<Item = &'a $name>>(it: I) -> $name {
                it.fold($name(0), |a, b| a + *b)
            }
        }
    };
}
pub(crate) use time_unit;

/// The greatest common divisor of two counts (`gcd(a, 0) = a`, `gcd(0, 0) = 0`): one
/// Euclid for the time units ([`time_unit!`]'s `gcd`) and the RTA's resource charges.
pub(crate) fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
