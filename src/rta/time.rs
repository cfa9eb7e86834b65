//! Exact time arithmetic for the RTA: every time is an integer number of *ticks*, one
//! tick being `10^-decimals` of the input's unit, with `decimals` chosen so that every
//! input value is a whole number of ticks. Sums and differences are then exact: no
//! response can come out below `C` by rounding, however large the release times.
//!
//! Input numbers are read as written ([`Decimal::parse_number`]: TOML values with their
//! span in the file, JSON values as raw text), never through an `f64`; only a value
//! that only exists as an `f64` is read as the shortest decimal that converts back to it.

use crate::error::InputError;

crate::time_unit::time_unit! {
    /// A time in *ticks*: `10^-decimals` of a task set's unit (its [`Scale`]). Ticks add
    /// and subtract among themselves, scale by a count (`u128`) and divide into a count;
    /// they do not mix with picoseconds (`system::Ps`), cycles (`Cycles`) or bare numbers,
    /// since a tick's length depends on the task set: converting needs its scale and unit
    /// (`system::kernel_time`; cycles become the task set's unit by its cycle time, in
    /// `rta::taskset`). `Ticks::new`/`get` take and give the raw number.
    Ticks
}

/// Most decimal places accepted in one input value.
pub const MAX_DECIMALS: u32 = 18;

/// A non-negative decimal number `digits * 10^-decimals`, exactly as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decimal {
    /// The digits as an integer.
    pub digits: u128,
    /// Places after the decimal point.
    pub decimals: u32,
}

impl Decimal {
    /// Zero.
    pub const ZERO: Decimal = Decimal { digits: 0, decimals: 0 };

    /// The decimal an `f64` stands for (its shortest round-trip form), for the field
    /// `field`. Refuses negative, non-finite and overlong values.
    pub fn of_f64(v: f64, field: &str) -> Result<Decimal, InputError> {
        if !v.is_finite() || v < 0.0 {
            return Err(InputError::new(field, v, "must be a finite number >= 0"));
        }
        Decimal::parse(&format!("{v}"), field)
    }

    /// Parses a plain decimal string (`123`, `0.25`), for the field `field`.
    pub fn parse(text: &str, field: &str) -> Result<Decimal, InputError> {
        let bad = |why: &str| InputError::new(field, text, why.to_string());
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if int.is_empty() && frac.is_empty() || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
            return Err(bad("not a plain non-negative decimal number"));
        }
        let frac = frac.trim_end_matches('0');
        if frac.len() as u32 > MAX_DECIMALS {
            return Err(bad(&format!("more than {MAX_DECIMALS} decimal places")));
        }
        let digits = format!("{int}{frac}").trim_start_matches('0').parse::<u128>().or_else(|e| {
            if format!("{int}{frac}").chars().all(|c| c == '0') {
                Ok(0)
            } else {
                Err(e)
            }
        });
        let digits = digits.map_err(|_| bad("too many digits"))?;
        Ok(Decimal { digits, decimals: frac.len() as u32 })
    }

    /// Parses a number as TOML or JSON write it (`12`, `0.25`, `+1_000.5`, `1e-3`,
    /// `2.5E38`), exactly, for the field `field`. Refuses negative numbers, `inf`, `nan`,
    /// more than `MAX_DECIMALS` decimal places and values above the digit range.
    pub fn parse_number(text: &str, field: &str) -> Result<Decimal, InputError> {
        let bad = |why: &str| InputError::new(field, text.trim(), why.to_string());
        let t: String = text.trim().chars().filter(|&c| c != '_').collect();
        let t = t.strip_prefix('+').unwrap_or(&t);
        let (t, negative) = match t.strip_prefix('-') {
            Some(rest) => (rest, true),
            None => (t, false),
        };
        let (mantissa, exponent) = match t.find(['e', 'E']) {
            Some(i) => (&t[..i], t[i + 1..].parse::<i32>().map_err(|_| bad("not a number"))?),
            None => (t, 0),
        };
        let d = Decimal::parse(mantissa, field).map_err(|e| bad(&e.reason))?;
        if negative && d.digits != 0 {
            return Err(bad("must be >= 0"));
        }
        let (mut digits, mut decimals) = (d.digits, d.decimals as i64 - exponent as i64);
        if decimals < 0 {
            let shift = u32::try_from(-decimals).ok().and_then(|s| 10u128.checked_pow(s));
            if digits != 0 {
                digits = shift.and_then(|s| digits.checked_mul(s)).ok_or_else(|| bad("too large"))?;
            }
            decimals = 0;
        }
        while decimals > 0 && digits % 10 == 0 {
            digits /= 10;
            decimals -= 1;
        }
        if digits == 0 {
            decimals = 0;
        }
        if decimals > MAX_DECIMALS as i64 {
            return Err(bad(&format!("more than {MAX_DECIMALS} decimal places")));
        }
        Ok(Decimal { digits, decimals: decimals as u32 })
    }

    /// A number of a TOML file exactly as written there: `v` read with its span from
    /// `text` (integers in hexadecimal, octal or binary by their value).
    pub fn of_toml(text: &str, v: &toml::Spanned<Number>, field: &str) -> Result<Decimal, InputError> {
        let radix = |raw: &str| ["0x", "0o", "0b"].iter().any(|p| raw.trim_start_matches(['+', '-']).starts_with(p));
        match text.get(v.span()) {
            Some(raw) if !radix(raw) => Decimal::parse_number(raw, field),
            _ => Decimal::of_f64(v.get_ref().0, field),
        }
    }

    /// [`Decimal::of_toml`] for a quantity that must be positive: zero and negative
    /// values get the same message, so one edit fixes either.
    pub(crate) fn positive_of_toml(text: &str, v: &toml::Spanned<Number>, field: &str) -> Result<Decimal, InputError> {
        let refuse = || {
            let shown = text.get(v.span()).map_or_else(|| v.get_ref().0.to_string(), |raw| raw.trim().to_string());
            InputError::new(field, shown, "must be positive")
        };
        if v.get_ref().0 < 0.0 {
            return Err(refuse());
        }
        let d = Decimal::of_toml(text, v, field)?;
        if d.digits == 0 {
            return Err(refuse());
        }
        Ok(d)
    }

    /// `self * n` exactly.
    pub fn times(self, n: u128, field: &str) -> Result<Decimal, InputError> {
        let digits = self.digits.checked_mul(n).ok_or_else(|| InputError::new(field, n, "the product is too large"))?;
        Ok(Decimal { digits, decimals: self.decimals })
    }
}

/// The power of ten of a second a time unit is (`s` 0, `ms` -3, `us`/`µs` -6, `ns` -9);
/// `None` for any other unit (the task set's `unit` is then only echoed).
pub fn unit_exponent(unit: &str) -> Option<i64> {
    match unit.trim() {
        "s" => Some(0),
        "ms" => Some(-3),
        "us" | "µs" => Some(-6),
        "ns" => Some(-9),
        _ => None,
    }
}

/// The time one cycle of `clock` (`"1.3 GHz"`; Hz, kHz, MHz or GHz) takes in `unit`
/// (`s`, `ms`, `us` or `ns`), rounded **up** to [`MAX_DECIMALS`] places, so that a `C`
/// computed as cycles times it is never below the exact value; and whether it is exact.
/// `field` names the clock in errors.
pub fn cycle_time_of_clock(clock: &str, unit: Option<&str>, field: &str) -> Result<(Decimal, bool), InputError> {
    let bad = |why: String| InputError::new(field, format!("\"{clock}\""), why);
    let t = clock.trim();
    let at = t.len() - t.chars().rev().take_while(char::is_ascii_alphabetic).count();
    let (number, suffix) = (t[..at].trim(), &t[at..]);
    if number.is_empty() || suffix.is_empty() {
        return Err(bad("give a frequency with its unit, e.g. \"1.3 GHz\"".into()));
    }
    if number.starts_with('-') {
        return Err(bad("must be a positive frequency".into()));
    }
    let f = Decimal::parse_number(number, field).map_err(|e| bad(e.reason))?;
    let f_exp: i64 = match suffix.to_ascii_lowercase().as_str() {
        "hz" => 0,
        "khz" => 3,
        "mhz" => 6,
        "ghz" => 9,
        other => return Err(bad(format!("unknown frequency unit {other}: use Hz, kHz, MHz or GHz"))),
    };
    let u_exp: i64 = match unit.map(|u| (u.trim(), unit_exponent(u))) {
        Some((_, Some(e))) => e,
        None => return Err(bad("a clock needs the task set's time unit: unit = \"s\", \"ms\", \"us\" or \"ns\" (none is given)".into())),
        Some((other, None)) => {
            return Err(InputError::new(
                "unit",
                format!("\"{other}\""),
                "with gpu.clock, the time unit must be \"s\", \"ms\", \"us\" or \"ns\" (to convert cycles into it)",
            ))
        }
    };
    if f.digits == 0 {
        return Err(bad("must be a positive frequency".into()));
    }
    // One cycle is 10^(decimals - f_exp - u_exp) / digits units; in ticks of 10^-MAX_DECIMALS.
    let e = f.decimals as i64 - f_exp - u_exp + MAX_DECIMALS as i64;
    let power = u32::try_from(e).ok().and_then(|e| 10u128.checked_pow(e));
    let power = power.ok_or_else(|| bad(format!("one cycle is not within 10^-{MAX_DECIMALS} to 10^20 {}", unit.unwrap_or(""))))?;
    let exact = power % f.digits == 0;
    let mut digits = power.div_ceil(f.digits);
    let mut decimals = MAX_DECIMALS;
    while decimals > 0 && digits % 10 == 0 {
        digits /= 10;
        decimals -= 1;
    }
    if digits == 0 {
        return Err(bad(format!("one cycle is below 10^-{MAX_DECIMALS} {}", unit.unwrap_or(""))));
    }
    Ok((Decimal { digits, decimals }, exact))
}

/// A number of an input file, integer (of any size) or float; its exact value is read
/// from the text ([`Decimal::of_toml`]), the `f64` is for messages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number(pub f64);

impl<'de> serde::Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Number;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Number, E> {
                Ok(Number(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_i128<E>(self, v: i128) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_u128<E>(self, v: u128) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
        }
        d.deserialize_any(V)
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The common scale of a set of times: `10^decimals` ticks per unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scale {
    /// Decimal places of one tick.
    pub decimals: u32,
}

impl Scale {
    /// The finest scale any of `values` needs.
    pub fn fitting<'a>(values: impl IntoIterator<Item = &'a Decimal>) -> Scale {
        Scale { decimals: values.into_iter().map(|d| d.decimals).max().unwrap_or(0) }
    }

    /// `d` in ticks of this scale (which must be at least as fine as `d`'s).
    pub fn ticks(self, d: Decimal, field: &str) -> Result<Ticks, InputError> {
        let shift = 10u128.checked_pow(self.decimals - d.decimals.min(self.decimals));
        shift
            .and_then(|s| d.digits.checked_mul(s))
            .map(Ticks::new)
            .ok_or_else(|| InputError::new(field, format_decimal(d.digits, d.decimals), "too large at the precision the other times need"))
    }

    /// `t` ticks as an exact decimal string in the input's unit (`1.5`, `12`).
    pub fn format(self, t: Ticks) -> String {
        format_decimal(t.get(), self.decimals)
    }

    /// `t` ticks as the nearest `f64` (JSON numbers; the exact value is [`Scale::format`]).
    pub fn to_f64(self, t: Ticks) -> f64 {
        self.format(t).parse().unwrap_or(f64::INFINITY)
    }
}

fn format_decimal(digits: u128, decimals: u32) -> String {
    if decimals == 0 {
        return digits.to_string();
    }
    let s = format!("{:0>width$}", digits, width = decimals as usize + 1);
    let (int, frac) = s.split_at(s.len() - decimals as usize);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_give_cycle_times_rounded_up() {
        let (d, exact) = cycle_time_of_clock("1.3 GHz", Some("us"), "gpu.clock").unwrap();
        assert!(!exact);
        assert_eq!((d.digits, d.decimals), (76_923_076_923_077, 17));
        assert!(d.digits * 1300 >= 10u128.pow(17));
        assert_eq!(cycle_time_of_clock("1 GHz", Some("ns"), "c").unwrap(), (Decimal { digits: 1, decimals: 0 }, true));
        assert_eq!(cycle_time_of_clock("2MHz", Some("ms"), "c").unwrap(), (Decimal { digits: 5, decimals: 4 }, true));
        for (clock, unit) in
            [("1.3 GHz", None), ("1.3", Some("us")), ("0 GHz", Some("us")), ("1.3 THz", Some("us")), ("1 GHz", Some("min"))]
        {
            assert!(cycle_time_of_clock(clock, unit, "gpu.clock").is_err(), "{clock} {unit:?}");
        }
    }

    #[test]
    fn decimals_are_exact() {
        let d = Decimal::of_f64(0.1, "x").unwrap();
        assert_eq!(d, Decimal { digits: 1, decimals: 1 });
        assert_eq!(Decimal::of_f64(1e16, "x").unwrap(), Decimal { digits: 10_000_000_000_000_000, decimals: 0 });
        assert_eq!(Decimal::of_f64(0.0, "x").unwrap(), Decimal { digits: 0, decimals: 0 });
        assert!(Decimal::of_f64(-1.0, "x").is_err());
        assert!(Decimal::of_f64(f64::NAN, "x").is_err());
        let s = Scale { decimals: 2 };
        assert_eq!(s.ticks(d, "x").unwrap(), Ticks::new(10));
        assert_eq!(s.format(Ticks::new(75)), "0.75");
        assert_eq!(s.format(Ticks::new(1200)), "12");
        assert_eq!(s.format(Ticks::new(5)), "0.05");
    }

    #[test]
    fn numbers_as_written() {
        let p = |t: &str| Decimal::parse_number(t, "x");
        assert_eq!(p("1.0000000000000001").unwrap(), Decimal { digits: 10_000_000_000_000_001, decimals: 16 });
        assert_eq!(p("0.013000000000000001").unwrap(), Decimal { digits: 13_000_000_000_000_001, decimals: 18 });
        assert_eq!(p("10000000000000000.5").unwrap(), Decimal { digits: 100_000_000_000_000_005, decimals: 1 });
        assert_eq!(p("2.5e38").unwrap(), Decimal { digits: 25 * 10u128.pow(37), decimals: 0 });
        assert_eq!(p("+1_000.50").unwrap(), Decimal { digits: 10_005, decimals: 1 });
        assert_eq!(p("15E-1").unwrap(), Decimal { digits: 15, decimals: 1 });
        assert_eq!(p("-0.0").unwrap(), Decimal { digits: 0, decimals: 0 });
        assert_eq!(p("0e400").unwrap(), Decimal { digits: 0, decimals: 0 });
        for bad in ["-1", "inf", "nan", "1e40", "1e-19", "0.1234567890123456789", "1.2.3", ""] {
            assert!(p(bad).is_err(), "{bad}");
        }
        let text = "a = 0.123456789012345678\nb = 0x10\n";
        #[derive(serde::Deserialize)]
        struct T {
            a: toml::Spanned<Number>,
            b: toml::Spanned<Number>,
        }
        let t: T = toml::from_str(text).unwrap();
        assert_eq!(Decimal::of_toml(text, &t.a, "a").unwrap(), Decimal { digits: 123_456_789_012_345_678, decimals: 18 });
        assert_eq!(Decimal::of_toml(text, &t.b, "b").unwrap(), Decimal { digits: 16, decimals: 0 });
    }

    #[test]
    fn huge_release_keeps_a_response_of_one() {
        let s = Scale::default();
        let release = s.ticks(Decimal::of_f64(1e16, "r").unwrap(), "r").unwrap();
        let finish = release + Ticks::new(1);
        assert_eq!(s.format(finish - release), "1");
        assert_eq!(s.to_f64(finish - release), 1.0);
        assert_eq!(Scale { decimals: 1 }.to_f64(Ticks::new(3)), 0.3);
        assert_eq!(Scale { decimals: 2 }.to_f64(Ticks::new(75)), 0.75);
    }
}
