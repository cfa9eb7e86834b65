//! HiGHS's MIP interrupt callback, tied to the tool's stop flags (feature `ilp`). The
//! `highs` crate does not wrap HiGHS's callbacks, so this sets one through `highs-sys`
//! on the crate's raw model: the one place with `unsafe` code for HiGHS.

use crate::budget::StopFlag;
use highs_sys::{kHighsCallbackMipInterrupt, HighsCallbackDataIn, HighsCallbackDataOut, Highs_setCallback, Highs_startCallback};
use std::os::raw::{c_char, c_int, c_void};

/// Solves `model`, asking HiGHS to stop at its next MIP interrupt check once one of
/// `stops` is set. HiGHS then ends with status `ReachedInterrupt` and reports, as at a
/// time limit, the best point found and the branch-and-bound tree's global dual bound
/// (`HighsMipSolver`: the open nodes go back to the queue before the limits are checked),
/// so what the caller proves from a finished solve holds, looser, for an interrupted one.
/// Its presolve, setup and root LP are not interrupted. If HiGHS refuses the callback,
/// the solve ends at its own limits.
pub(crate) fn solve_until(mut model: highs::Model, stops: &[StopFlag]) -> Result<highs::SolvedModel, highs::HighsStatus> {
    if stops.is_empty() {
        return model.try_solve();
    }
    // SAFETY: `model` owns a live HiGHS instance. HiGHS calls the callback only inside
    // `Highs_run` (in `try_solve`), on this thread, while `stops` is alive; the callback
    // is removed again before `stops` goes out of scope.
    unsafe {
        let user = &stops as *const &[StopFlag] as *mut c_void;
        if Highs_setCallback(model.as_mut_ptr(), Some(interrupt), user) == 0 {
            Highs_startCallback(model.as_mut_ptr(), kHighsCallbackMipInterrupt);
        }
    }
    let mut solved = model.try_solve()?;
    // SAFETY: as above; a null callback removes it.
    unsafe {
        Highs_setCallback(solved.as_mut_ptr(), None, std::ptr::null_mut());
    }
    Ok(solved)
}

/// The callback: at each MIP interrupt check (`kHighsCallbackMipInterrupt`) asks HiGHS to
/// stop when one of the flags `user` points to is set. It reads atomics only and cannot
/// panic.
///
/// # Safety
/// `user` is null or points to a live `&[StopFlag]` (as [`solve_until`] sets it), and
/// `data_in` is null or HiGHS's writable input block.
unsafe extern "C" fn interrupt(
    kind: c_int,
    _message: *const c_char,
    _data_out: *const HighsCallbackDataOut,
    data_in: *mut HighsCallbackDataIn,
    user: *mut c_void,
) {
    if kind != kHighsCallbackMipInterrupt || data_in.is_null() || user.is_null() {
        return;
    }
    // SAFETY: as the function's contract says.
    let stops = unsafe { &*(user as *const &[StopFlag]) };
    if stops.iter().any(StopFlag::is_set) {
        // SAFETY: HiGHS hands a valid input block to this callback type.
        unsafe { (*data_in).user_interrupt = 1 };
    }
}
