//! The warp model's unit of time: [`Cycles`], SM cycles, the unit of every makespan
//! `T^(W)` and of a block's `C` as the model computes it.

crate::time_unit::time_unit! {
    /// A time in cycles (of an SM's clock for the warp model's `C`; of a processing
    /// unit's clock for a system's runnables). Cycles add and subtract among themselves,
    /// scale by a count (`u128`) and divide into a count; they do not mix with a task
    /// set's ticks ([`crate::rta::Ticks`]) or picoseconds ([`crate::system::Ps`]): a
    /// cycle's length is a clock's, so a conversion needs the clock and says how it
    /// rounds (the task set's cycle time in `rta::taskset`, a unit's frequency in
    /// `system`). JSON: the bare number. `Cycles::new`/`get` take and give the raw number.
    ///
    /// ```
    /// use gpu_makespan::Cycles;
    ///
    /// let c = Cycles::from(9u64) + Cycles::new(3);
    /// assert_eq!((c.get(), c / Cycles::new(4)), (12, 3));
    /// ```
    Cycles
}

/// A makespan of the model (`u64` cycles) as [`Cycles`]: lossless.
impl From<u64> for Cycles {
    fn from(c: u64) -> Cycles {
        Cycles::new(c as u128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_serialise_as_a_bare_number() {
        assert_eq!(serde_json::to_string(&Cycles::new(158)).unwrap(), "158");
        assert_eq!(serde_json::from_str::<Cycles>("158").unwrap(), Cycles::from(158u64));
        let big = Cycles::from(u64::MAX) * 2;
        assert_eq!(serde_json::to_string(&big).unwrap(), (u64::MAX as u128 * 2).to_string());
    }
}
