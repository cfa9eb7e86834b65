//! The methods that compute `T^(W)` or bound it: one entry point ([`solve`]), the exact
//! branch and bound ([`search`]), the dense programme ([`dense`]), the paper's ILP
//! ([`ilp`]), the heuristics that give lower bounds ([`heuristic`]), and the one result
//! type of every method ([`outcome`]).

pub mod blocks;
pub mod kernel;
pub mod dense;
pub mod heuristic;
#[cfg(feature = "ilp")]
pub(crate) mod highs_interrupt;
pub mod idle_bound;
pub mod ilp;
pub mod outcome;
pub mod phases;
pub mod record;
pub mod search;
pub mod solve;
